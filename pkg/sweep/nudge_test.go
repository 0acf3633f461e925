package sweep

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// nudgeStart is the nudge tests' clock at first: Monday 2026-11-23, 8:00
// AM in Phoenix, where desert-cool-hvac's two-hour windows start at even
// hours, round the clock.
var nudgeStart = time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)

type nudgeFixture struct {
	store    *dynamo.Store
	bookings *booking.Bookings
	clock    *bookingtest.Clock
	b        *booking.Business
	phones   int
}

// newNudgeFixture stores the demo businesses, desert-cool-hvac changed by
// edit (when not nil), on minidyn, with the clock at nudgeStart.
func newNudgeFixture(t *testing.T, edit func(*booking.Business)) *nudgeFixture {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	f := &nudgeFixture{store: dynamo.New(client, table), clock: bookingtest.NewClock(nudgeStart)}
	dynamotest.PutBusinesses(t, f.store, filepath.Join(lambdatest.RepoRoot(t), "infra", "local", "businesses.json"), func(b *booking.Business) {
		if b.Slug == "desert-cool-hvac" && edit != nil {
			edit(b)
		}
	})
	f.bookings = bookingtest.New(t, booking.Config{Store: f.store, SiteURL: lambdatest.SiteURL, Now: f.clock.Now})
	b, err := f.bookings.Business(context.Background(), "desert-cool-hvac")
	if err != nil {
		t.Fatal(err)
	}
	f.b = b
	return f
}

// create sends a request for service at the window starting after hours
// from now: ac-not-cooling is an urgent service, ac-tune-up is not.
func (f *nudgeFixture) create(t *testing.T, service string, hours int) string {
	t.Helper()
	f.phones++
	urgency := "soon"
	c, _, err := f.bookings.CreateRequest(context.Background(), f.b, booking.CreateInput{
		WindowStart: f.clock.Now().Add(time.Duration(hours) * time.Hour),
		Address:     booking.Address{Street: "1 Sample St", ZIP: "85004"},
		Contact:     booking.Contact{Name: "Sample Person", Phone: fmt.Sprintf("60255501%02d", f.phones)},
		ServiceID:   &service, Urgency: &urgency,
	})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	return c.Code
}

// sweep runs the sweeper at now+after and returns its report.
func (f *nudgeFixture) sweep(t *testing.T, after time.Duration) Report {
	t.Helper()
	at := nudgeStart.Add(after)
	f.clock.Set(at)
	report, err := Sweep(context.Background(), f.bookings, at, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return report
}

// nudges counts the nudge events of request code, and returns its state.
func (f *nudgeFixture) nudges(t *testing.T, code string) (int, booking.Status) {
	t.Helper()
	r, err := f.store.Request(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range r.History {
		if e.Action == booking.ActionNudge {
			n++
			if e.By != booking.ActorSystem || e.From != booking.StatusNew || e.To != booking.StatusNew {
				t.Errorf("nudge event %+v, want by the system, new to new", e)
			}
		}
	}
	return n, r.Status
}

// TestNudge: a request still new after its delay (15 minutes for an
// urgent service, 2 hours otherwise, or the business's own) gets one
// nudge, recorded by the sweep, however many sweeps run, one after another
// or at once; none before the delay, none for a request answered, and
// never once its window has started.
func TestNudge(t *testing.T) {
	const urgent, calm = "ac-not-cooling", "ac-tune-up"
	tests := []struct {
		name    string
		edit    func(*booking.Business)
		service string
		hours   int             // the window starts this many hours after the create
		accept  bool            // the business answers it at 5 minutes
		sweeps  []time.Duration // after the create, in order
		want    []int           // nudges recorded by each sweep
	}{
		{"urgent: at 15 minutes, once", nil, urgent, 2, false,
			[]time.Duration{14 * time.Minute, 15 * time.Minute, 16 * time.Minute, time.Hour}, []int{0, 1, 0, 0}},
		{"not urgent: at 2 hours, once", nil, calm, 4, false,
			[]time.Duration{15 * time.Minute, 119 * time.Minute, 2 * time.Hour, 3 * time.Hour}, []int{0, 0, 1, 0}},
		{"the business's own delays", func(b *booking.Business) { b.NudgeMinutes, b.NudgeUrgentMinutes = 30, 5 }, calm, 4, false,
			[]time.Duration{29 * time.Minute, 30 * time.Minute, 2 * time.Hour}, []int{0, 1, 0}},
		{"the window starts when the nudge would be due", nil, calm, 2, false,
			[]time.Duration{2 * time.Hour, 2*time.Hour + time.Minute}, []int{0, 0}},
		{"answered first", nil, urgent, 2, true,
			[]time.Duration{15 * time.Minute, time.Hour}, []int{0, 0}},
		{"the sweeper down until the window started", nil, urgent, 2, false,
			[]time.Duration{2*time.Hour + time.Minute, 3 * time.Hour}, []int{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newNudgeFixture(t, tt.edit)
			code := f.create(t, tt.service, tt.hours)
			if tt.accept {
				f.clock.Add(5 * time.Minute)
				in, err := f.bookings.OperatorInbox(context.Background(), f.b.Slug)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := in.Move(context.Background(), code, booking.ActionAccept, time.Time{}); err != nil {
					t.Fatal(err)
				}
			}
			for i, at := range tt.sweeps {
				if got := f.sweep(t, at).Nudged; got != tt.want[i] {
					t.Errorf("sweep at +%s: got %d nudged, want %d", at, got, tt.want[i])
				}
			}
			want := 0
			for _, n := range tt.want {
				want += n
			}
			if got, st := f.nudges(t, code); got != want {
				t.Errorf("got %d nudge events (%s), want %d", got, st, want)
			}
		})
	}
	t.Run("sweeps at once nudge once", func(t *testing.T) {
		f := newNudgeFixture(t, nil)
		code := f.create(t, urgent, 2)
		at := nudgeStart.Add(20 * time.Minute)
		f.clock.Set(at)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if _, err := Sweep(context.Background(), f.bookings, at, slog.New(slog.DiscardHandler)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if got, st := f.nudges(t, code); got != 1 || st != booking.StatusNew {
			t.Errorf("8 sweeps at once: got %d nudges (%s), want 1 and still new", got, st)
		}
	})
}
