package dynamo_test

import (
	"context"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestOfferAnswersANewRequest: the business offering another window on a
// new request answers it (issue 20). One transaction from new at the old
// window stores it accepted at the new one, changed_by_business, out of the
// sweep index (it can no longer expire unanswered), in the remind index for
// the new window, with its phone's open count down by one, the new window
// held and the old one open again. A second offer from the request as
// first read is refused: the condition names the expected state.
func TestOfferAnswersANewRequest(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		r := newAt(phone(1), monday)
		mustCreate(t, f.engine, r, nil, now)
		if got := f.openCount(t, r.Contact.Phone); got != 1 {
			t.Fatalf("open_count after the create = %d, want 1", got)
		}

		moved, err := f.bookings.OperatorMove(ctx, r.Code, booking.ActionMove, tuesday)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.store.Request(ctx, r.Code)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != booking.StatusAccepted || !got.ChangedByBusiness || !got.Window.Start.Equal(tuesday) {
			t.Errorf("stored: %s at %s, changed_by_business %v; want accepted at %s, true",
				got.Status, got.Window.Start, got.ChangedByBusiness, tuesday)
		}
		if jsonString(*got) != jsonString(moved) {
			t.Errorf("stored %s, want what the move returned %s", jsonString(*got), jsonString(moved))
		}
		last := got.History[len(got.History)-1]
		if last.Action != booking.ActionMove || last.From != booking.StatusNew || last.To != booking.StatusAccepted {
			t.Errorf("last event %s, want move from new to accepted", jsonString(last))
		}
		if !got.ReminderDue.Equal(remindTue) {
			t.Errorf("ReminderDue = %s, want the new window's %s", got.ReminderDue, remindTue)
		}
		if in, at := f.inRemindIndex(t, r.Code); !in || at != remindTue.Unix() {
			t.Errorf("in the remind index = %v at %d, want at %d", in, at, remindTue.Unix())
		}
		item := f.item(t, requestKey(r.Code))
		if item["sweep_shard"] != nil || item["sweep_at"] != nil {
			t.Error("answered by the offer, and still in the sweep index")
		}
		if got := f.openCount(t, r.Contact.Phone); got != 0 {
			t.Errorf("open_count after the offer = %d, want 0", got)
		}
		if hold := f.item(t, holdKey(slug, monday)); hold != nil {
			t.Errorf("the old window is still held: %v", hold)
		}
		if got := attrS(f.item(t, holdKey(slug, tuesday)), "request_code"); got != r.Code {
			t.Errorf("the new window's hold names %q, want %s", got, r.Code)
		}

		// The sweep at the old or the new window's start expires nothing.
		for _, at := range []time.Time{monday, tuesday} {
			res, err := f.bookings.ExpireLapsed(ctx, at)
			if err != nil || res.Expired != 0 {
				t.Errorf("ExpireLapsed(%s) = %+v, %v; want nothing expired", at, res, err)
			}
		}

		// The store's condition is the expected state: the same move from
		// the request as first read (new, at Monday) is refused.
		again := moved
		again.Window.Start = tuesday.Add(2 * time.Hour)
		tr, _ := booking.Allowed(booking.StatusNew, booking.ActionMove, booking.ActorBusiness)
		if err := f.store.MoveRequest(ctx, r, again, tr, booking.Crews{PerWindow: 1, Ever: 1}, now); code(err) != booking.InvalidTransition {
			t.Errorf("a second offer from new = %v, want INVALID_TRANSITION", err)
		}
	})
}

// TestMovedButStillNew: requests stored new with changed_by_business true
// (moved before an offer answered the request) stay answerable as the new
// requests they are: the business may accept, decline or offer again (which
// accepts it), and unanswered they expire at their window's start.
func TestMovedButStillNew(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		action     booking.Action
		window     string
		wantStatus booking.Status
	}{
		{booking.ActionAccept, "", booking.StatusAccepted},
		{booking.ActionDecline, "", booking.StatusDeclined},
		{booking.ActionMove, tuesday.Format(time.RFC3339), booking.StatusAccepted},
		{booking.ActionExpire, "", booking.StatusExpired},
	}
	for _, tt := range tests {
		t.Run(string(tt.action), func(t *testing.T) {
			forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
				r := newAt(phone(1), monday)
				r.ChangedByBusiness = true // as an earlier move left it
				mustCreate(t, f.engine, r, nil, now)
				if tt.action == booking.ActionExpire {
					f.clock = monday
				}
				if err := move(ctx, f.bookings, r.Code, tt.action, tt.window, f.clock); err != nil {
					t.Fatalf("%s: %v", tt.action, err)
				}
				got, err := f.store.Request(ctx, r.Code)
				if err != nil {
					t.Fatal(err)
				}
				if got.Status != tt.wantStatus || !got.ChangedByBusiness {
					t.Errorf("after %s: %s, changed_by_business %v; want %s, true", tt.action, got.Status, got.ChangedByBusiness, tt.wantStatus)
				}
				if got := f.openCount(t, r.Contact.Phone); got != 0 {
					t.Errorf("open_count after %s = %d, want 0", tt.action, got)
				}
			})
		})
	}
}
