package booking

import (
	"context"
	"testing"
	"time"
)

func TestDensestDays(t *testing.T) {
	d := func(day int) time.Time { return time.Date(2026, 11, day, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name string
		days []time.Time
		want int
	}{
		{"none", nil, 0},
		{"one", []time.Time{d(1)}, 1},
		{"three within 14 days", []time.Time{d(1), d(7), d(14)}, 3},
		{"three over 15 days", []time.Time{d(1), d(7), d(15)}, 2},
		{"out of order", []time.Time{d(15), d(1), d(14), d(2)}, 3},
		{"the same day twice is one", []time.Time{d(3), d(3).Add(5 * time.Hour), d(4)}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := densestDays(tt.days, TransientBounceWindowDays); got != tt.want {
				t.Errorf("densestDays() = %d, want %d", got, tt.want)
			}
		})
	}
}

// mailStore is a MailStore that keeps what it is asked, answering
// RecordTransientBounce with days; the other Store methods are not called.
type mailStore struct {
	Store
	days     []time.Time
	recorded []Undeliverable
	hashes   []string
}

func (m *mailStore) RecordUndeliverable(_ context.Context, hash string, u Undeliverable, _ string) (bool, error) {
	m.recorded = append(m.recorded, u)
	m.hashes = append(m.hashes, hash)
	return true, nil
}

func (m *mailStore) RecordTransientBounce(_ context.Context, hash string, at time.Time, _ time.Duration, _ string) ([]time.Time, error) {
	m.hashes = append(m.hashes, hash)
	return append(m.days, at.UTC().Truncate(24*time.Hour)), nil
}

func TestRecordMailEvent(t *testing.T) {
	at := time.Date(2026, 11, 20, 15, 4, 11, 482e6, time.FixedZone("", -6*3600))
	d := func(day int) time.Time { return time.Date(2026, 11, day, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name     string
		ev       MailEvent
		days     []time.Time // transient days already recorded
		wantCode Code
		want     *Undeliverable
	}{
		{"a permanent bounce", MailEvent{Kind: MailBounced, Email: "Ana@Example.com", At: at}, nil, "",
			&Undeliverable{Reason: UndeliverableBounce, At: time.Date(2026, 11, 20, 21, 4, 11, 0, time.UTC)}},
		{"a complaint", MailEvent{Kind: MailComplained, Email: "ana@example.com", At: at}, nil, "",
			&Undeliverable{Reason: UndeliverableComplaint, At: time.Date(2026, 11, 20, 21, 4, 11, 0, time.UTC)}},
		{"already suppressed", MailEvent{Kind: MailSuppressed, Email: "ana@example.com", At: at}, nil, "",
			&Undeliverable{Reason: UndeliverableBounce, At: time.Date(2026, 11, 20, 21, 4, 11, 0, time.UTC)}},
		{"a third transient day within 14", MailEvent{Kind: MailBouncedTransient, Email: "ana@example.com", At: at}, []time.Time{d(8), d(14)}, "",
			&Undeliverable{Reason: UndeliverableTransient, At: time.Date(2026, 11, 20, 21, 4, 11, 0, time.UTC)}},
		{"a second transient day", MailEvent{Kind: MailBouncedTransient, Email: "ana@example.com", At: at}, []time.Time{d(14)}, "", nil},
		{"three transient days over 15", MailEvent{Kind: MailBouncedTransient, Email: "ana@example.com", At: at}, []time.Time{d(6), d(1)}, "", nil},
		{"no address", MailEvent{Kind: MailBounced, Email: "not an address", At: at}, nil, InvalidEmail, nil},
		{"a named address", MailEvent{Kind: MailBounced, Email: "Ana <ana@example.com>", At: at}, nil, InvalidEmail, nil},
		{"no time", MailEvent{Kind: MailBounced, Email: "ana@example.com"}, nil, InvalidRequest, nil},
		{"an unknown kind", MailEvent{Kind: "opened", Email: "ana@example.com", At: at}, nil, InvalidRequest, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &mailStore{days: tt.days}
			s := &Bookings{store: store}
			out, err := s.RecordMailEvent(context.Background(), tt.ev)
			if got := ErrorCode(err); err != nil && got != tt.wantCode || err == nil && tt.wantCode != "" {
				t.Fatalf("RecordMailEvent() = %v, want code %q", err, tt.wantCode)
			}
			if tt.wantCode != "" {
				if len(store.hashes) != 0 {
					t.Errorf("the store was asked %v, want nothing", store.hashes)
				}
				return
			}
			if (out.Recorded == nil) != (tt.want == nil) || (out.Recorded != nil && *out.Recorded != *tt.want) {
				t.Errorf("recorded %+v, want %+v", out.Recorded, tt.want)
			}
			for _, h := range store.hashes {
				if h != EmailHash("ana@example.com") {
					t.Errorf("hash %s, want EmailHash of the address in lower case", h)
				}
			}
		})
	}
}
