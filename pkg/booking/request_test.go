package booking

import (
	"testing"
	"time"
)

// TestEffective reads requests at fixed instants: a pending_payment request
// expires when its payment hold ends, a new one when its window starts
// unanswered; any other state stays as stored. The windows are on days
// clocks change, where the local hour and the instant part ways: the
// instant decides.
func TestEffective(t *testing.T) {
	var (
		// Sunday 2026-11-01, 10:00 EST in New York (clocks fell back at 2:00):
		// 15:00 UTC, not the 14:00 of the day before's offset.
		fallBack = time.Date(2026, 11, 1, 15, 0, 0, 0, time.UTC)
		// Sunday 2026-03-08, 10:00 CDT in Chicago (clocks sprang forward):
		// 15:00 UTC, not the 16:00 of the day before's offset.
		springForward = time.Date(2026, 3, 8, 15, 0, 0, 0, time.UTC)
		holdEnds      = time.Date(2026, 10, 25, 12, 30, 0, 0, time.UTC)
	)
	request := func(status Status, start time.Time) Request {
		return Request{
			Status:      status,
			Window:      Window{Start: start, End: start.Add(2 * time.Hour)},
			HoldExpires: holdEnds,
		}
	}
	tests := []struct {
		name string
		r    Request
		now  time.Time
		want Status
	}{
		{"new, a second before its window", request(StatusNew, fallBack), fallBack.Add(-time.Second), StatusNew},
		{"new, at its window's start", request(StatusNew, fallBack), fallBack, StatusExpired},
		{"new, during its window", request(StatusNew, fallBack), fallBack.Add(time.Hour), StatusExpired},
		{"new, 10:00 by the day before's offset (EDT) is 9:00 EST", request(StatusNew, fallBack), fallBack.Add(-time.Hour), StatusNew},
		{"new, spring forward, a second before", request(StatusNew, springForward), springForward.Add(-time.Second), StatusNew},
		{"new, spring forward, at the start", request(StatusNew, springForward), springForward, StatusExpired},
		{"pending_payment, a second before the hold ends", request(StatusPendingPayment, fallBack), holdEnds.Add(-time.Second), StatusPendingPayment},
		{"pending_payment, when the hold ends", request(StatusPendingPayment, fallBack), holdEnds, StatusExpired},
		{"accepted, during its window", request(StatusAccepted, fallBack), fallBack.Add(time.Hour), StatusAccepted},
		{"declined, after its window", request(StatusDeclined, fallBack), fallBack.Add(24 * time.Hour), StatusDeclined},
		{"expired stays expired", request(StatusExpired, fallBack), fallBack.Add(-time.Hour), StatusExpired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Effective(tt.now).Status; got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestUnansweredExpiry: a new request read after its window started is
// expired unanswered, seen by its business, and a deposit it paid reads
// refunded since the window's start; an unpaid hold that lapsed is none of
// that.
func TestUnansweredExpiry(t *testing.T) {
	created := Event{Action: ActionCreate, To: StatusNew}
	tests := []struct {
		name       string
		r          Request
		now        time.Time
		unanswered bool
		seen       bool
		deposit    string
		since      time.Time
	}{
		{
			"new without a deposit, before the sweep",
			func() Request {
				r := depositRequest(StatusNew, "", false)
				r.Deposit, r.History = nil, []Event{created}
				return r
			}(),
			time.Date(2026, 11, 1, 15, 0, 0, 0, time.UTC), true, true, "", time.Time{},
		},
		{
			"paid, then unanswered, before the sweep",
			func() Request {
				r := depositRequest(StatusNew, DepositPaid, false)
				r.History = []Event{{Action: ActionCreate, To: StatusPendingPayment}, {Action: ActionPay, From: StatusPendingPayment, To: StatusNew}}
				return r
			}(),
			time.Date(2026, 11, 1, 15, 30, 0, 0, time.UTC), true, true, DepositRefunded, time.Date(2026, 11, 1, 15, 0, 0, 0, time.UTC),
		},
		{
			"swept unanswered, stored before history was kept",
			func() Request {
				r := depositRequest(StatusExpired, DepositRefunded, false)
				r.History = []Event{{Action: ActionExpire, From: StatusNew, To: StatusExpired}}
				return r
			}(),
			time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), true, true, DepositRefunded, time.Date(2026, 10, 25, 12, 0, 0, 0, time.UTC),
		},
		{
			"unpaid hold lapsed",
			func() Request {
				r := depositRequest(StatusPendingPayment, DepositDue, false)
				r.History = []Event{{Action: ActionCreate, To: StatusPendingPayment}}
				return r
			}(),
			time.Date(2026, 10, 25, 12, 30, 0, 0, time.UTC), false, false, DepositExpired, time.Date(2026, 10, 25, 12, 30, 0, 0, time.UTC),
		},
		{
			"expired, stored before history was kept",
			depositRequest(StatusExpired, DepositExpired, false),
			time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), false, false, DepositExpired, time.Date(2026, 10, 25, 12, 0, 0, 0, time.UTC),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.r.Effective(tt.now)
			if r.Status != StatusExpired {
				t.Fatalf("got %s, want expired", r.Status)
			}
			if got := r.Unanswered(); got != tt.unanswered {
				t.Errorf("Unanswered() = %v, want %v", got, tt.unanswered)
			}
			if got := r.SeenByBusiness(); got != tt.seen {
				t.Errorf("SeenByBusiness() = %v, want %v", got, tt.seen)
			}
			var gotState string
			var gotSince time.Time
			if d := r.DepositView(); d != nil {
				gotState, gotSince = d.State, d.Since
			}
			if gotState != tt.deposit || !gotSince.Equal(tt.since) {
				t.Errorf("deposit %q since %s, want %q since %s", gotState, gotSince, tt.deposit, tt.since)
			}
		})
	}
}
