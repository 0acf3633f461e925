package booking

import (
	"context"
	"sync"
	"testing"
	"time"
)

// endedStore is a store of ended requests whose erase index lists, a page
// of 100 at a time, those not erased yet; only the methods a sweep's
// erasure calls are there.
type endedStore struct {
	Store // nil: a call to any other method fails the test by panicking
	mu    sync.Mutex
	codes []string
	reqs  map[string]Request
}

func (s *endedStore) EndedBy(_ context.Context, t time.Time, fn func(codes []string) error) error {
	s.mu.Lock()
	var due []string
	for _, code := range s.codes {
		if r := s.reqs[code]; r.Erased.IsZero() && !r.PersonalDataFrom().After(t) {
			due = append(due, code)
		}
	}
	s.mu.Unlock()
	for i := 0; i < len(due); i += 100 {
		if err := fn(due[i:min(i+100, len(due))]); err != nil {
			return err
		}
	}
	return nil
}

func (s *endedStore) Request(_ context.Context, code string) (*Request, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.reqs[code]
	return &r, nil
}

func (s *endedStore) EraseRequest(_ context.Context, before, after Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.reqs[before.Code].Erased.IsZero() {
		return Errorf(InvalidTransition, "erased just now")
	}
	s.reqs[before.Code] = after
	return nil
}

// TestErasePersonalDataInBatches: 1,234 requests due at once are erased
// MaxErasuresPerSweep a sweep, each once, until none is left.
func TestErasePersonalDataInBatches(t *testing.T) {
	ended := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	store := &endedStore{reqs: map[string]Request{}}
	for range 1234 {
		r := Request{Code: NewCode(), Status: StatusCancelled, Contact: Contact{Name: "Ana", Phone: "3235550100"},
			History: []Event{{At: ended, By: ActorCustomer, Action: ActionCancel, From: StatusNew, To: StatusCancelled}}}
		store.codes = append(store.codes, r.Code)
		store.reqs[r.Code] = r
	}
	now := ended.AddDate(0, 0, DefaultPersonalDataDays)
	s, err := New(Config{Store: store, SiteURL: NoSiteURL, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{MaxErasuresPerSweep, MaxErasuresPerSweep, 1234 - 2*MaxErasuresPerSweep, 0} {
		res, err := s.ErasePersonalData(context.Background(), now)
		if err != nil || res != (EraseResult{Erased: want}) {
			t.Fatalf("sweep %d: got %+v, %v; want %d erased", i+1, res, err, want)
		}
	}
	for code, r := range store.reqs {
		if r.Erased.IsZero() || r.Contact != (Contact{}) || r.ErasedBy != ActorSystem {
			t.Fatalf("%s after the sweeps: %+v", code, r)
		}
	}
	// A day early, nothing is due.
	store.reqs[store.codes[0]] = Request{Code: store.codes[0], Status: StatusCancelled,
		History: []Event{{At: now, Action: ActionCancel, To: StatusCancelled}}}
	if res, err := s.ErasePersonalData(context.Background(), now.AddDate(0, 0, DefaultPersonalDataDays-1)); err != nil || res.Erased != 0 {
		t.Errorf("a day early: got %+v, %v; want nothing erased", res, err)
	}
}

func TestPersonalDataDaysConfig(t *testing.T) {
	tests := []struct {
		days, want int
		wantErr    bool
	}{{0, DefaultPersonalDataDays, false}, {30, 30, false}, {3650, 3650, false}, {29, 0, true}, {-1, 0, true}}
	for _, tt := range tests {
		s, err := New(Config{Store: &endedStore{}, SiteURL: NoSiteURL, Now: time.Now, PersonalDataDays: tt.days})
		switch {
		case tt.wantErr && err == nil:
			t.Errorf("%d days: got a service, want an error", tt.days)
		case !tt.wantErr && (err != nil || s.PersonalDataDays() != tt.want):
			t.Errorf("%d days: got %v; want %d days", tt.days, err, tt.want)
		}
	}
}

// TestPersonalDataFrom: when a request's personal data's time starts, by
// its state: the end of its window once done or a no-show, the move that
// ended it otherwise; never while it is live or once it is erased.
func TestPersonalDataFrom(t *testing.T) {
	start := time.Date(2026, 11, 23, 16, 0, 0, 0, time.UTC)
	w := Window{Start: start, End: start.Add(2 * time.Hour)}
	created := start.Add(-72 * time.Hour)
	moved := start.Add(-24 * time.Hour)
	tests := []struct {
		status Status
		erased bool
		want   time.Time
	}{
		{StatusPendingPayment, false, time.Time{}},
		{StatusNew, false, time.Time{}},
		{StatusAccepted, false, time.Time{}},
		{StatusCompleted, false, w.End},
		{StatusNoShow, false, w.End},
		{StatusDeclined, false, moved},
		{StatusCancelled, false, moved},
		{StatusExpired, false, moved},
		{StatusDeclined, true, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(string(tt.status), func(t *testing.T) {
			r := Request{Status: tt.status, Window: w, Created: created,
				History: []Event{{At: created, Action: ActionCreate}, {At: moved, To: tt.status}}}
			if tt.erased {
				r = r.Erase(ActorBusiness, moved)
			}
			if got := r.PersonalDataFrom(); !got.Equal(tt.want) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
