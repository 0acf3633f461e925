package dynamo_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
)

// crewsFixture is a lifecycle fixture whose business sends out crews
// crews at once; its creates go through the store, its moves through the
// domain, which passes the business's crews on.
type crewsFixture struct {
	*lifecycleFixture
	b *booking.Business
}

func newCrewsFixture(t *testing.T, f *lifecycleFixture, crews int) crewsFixture {
	t.Helper()
	cf := crewsFixture{lifecycleFixture: f}
	cf.setCrews(t, crews)
	return cf
}

// setCrews stores the business with crews_per_window crews, as the
// settings page does, and reads it back.
func (f *crewsFixture) setCrews(t *testing.T, crews int) {
	t.Helper()
	ctx := context.Background()
	err := f.store.UpdateBusiness(ctx, slug, func(stored *booking.Business) (*booking.Business, error) {
		changed := *stored
		changed.CrewsPerWindow = crews
		return &changed, nil
	})
	if err != nil {
		t.Fatalf("UpdateBusiness(crews %d) = %v", crews, err)
	}
	if f.b, err = f.store.Business(ctx, slug); err != nil {
		t.Fatal(err)
	}
}

// create stores a new request of phone(i) for the window at start, as the
// business's crews allow, and returns it with the store's error code.
func (f *crewsFixture) create(t *testing.T, i int, start time.Time) (booking.Request, booking.Code) {
	t.Helper()
	r := newRequest(slug, phone(i), start)
	r.History = []booking.Event{{At: now, By: booking.ActorCustomer, Action: booking.ActionCreate, To: r.Status, Window: r.Window}}
	return r, code(f.store.CreateRequest(context.Background(), r, nil, limitsOf(f.b), f.clock))
}

// move makes the business's move of r, and returns its error code.
func (f *crewsFixture) move(r booking.Request, action booking.Action, to time.Time) booking.Code {
	var start time.Time
	if action == booking.ActionMove {
		start = to
	}
	in, err := f.bookings.OperatorInbox(context.Background(), f.b.Slug)
	if err == nil {
		_, err = in.Move(context.Background(), r.Code, action, start)
	}
	return code(err)
}

// heldCount is how many live holds the window at start has at the
// fixture's clock.
func (f *crewsFixture) heldCount(t *testing.T, start time.Time) int {
	t.Helper()
	held, err := f.store.HeldWindows(context.Background(), slug, start, start.Add(time.Second), f.clock)
	if err != nil {
		t.Fatal(err)
	}
	return len(held)
}

// holders returns the request codes of the holds on the window at start,
// read slot by slot: HOLD#<start> for the first, HOLD#<start>#<i> after.
func (e engine) holders(t *testing.T, start time.Time) []string {
	t.Helper()
	var codes []string
	for i := range booking.MaxCrews {
		k := holdKey(slug, start)
		if i > 0 {
			k.sk += "#" + strconv.Itoa(i)
		}
		if item := e.item(t, k); item != nil {
			codes = append(codes, attrS(item, "request_code"))
		}
	}
	return codes
}

// windowsOf returns n open windows of the fixture's business in the week
// of monday: the windows a move may go to.
func windowsOf(t *testing.T, b *booking.Business, n int) []time.Time {
	t.Helper()
	var starts []time.Time
	for _, w := range b.Windows(now, time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), 7, nil) {
		starts = append(starts, w.Start)
	}
	if len(starts) < n {
		t.Fatalf("%d windows in the week of monday, want at least %d", len(starts), n)
	}
	return starts[:n]
}

func TestCrews(t *testing.T) {
	tests := []struct {
		name  string
		crews int
		run   func(t *testing.T, f crewsFixture)
	}{
		{"a window takes as many requests as crews", 3, func(t *testing.T, f crewsFixture) {
			var got []booking.Code
			for i := range 4 {
				_, c := f.create(t, i, monday)
				got = append(got, c)
			}
			if want := []booking.Code{"", "", "", booking.WindowTaken}; !slices.Equal(got, want) {
				t.Fatalf("four creates for one window of three crews = %q, want %q", got, want)
			}
			if got := f.heldCount(t, monday); got != 3 {
				t.Errorf("HeldWindows lists the window %d times, want 3", got)
			}
			// A window of one crew next to it still takes one.
			next := monday.Add(2 * time.Hour)
			f.setCrews(t, 1)
			if _, c := f.create(t, 10, next); c != "" {
				t.Errorf("create in another window = %q, want it stored", c)
			}
		}},
		{"a decline frees a place, a lapsed hold is free", 2, func(t *testing.T, f crewsFixture) {
			r0, _ := f.create(t, 0, monday)
			if _, c := f.create(t, 1, monday); c != "" {
				t.Fatalf("second create = %q", c)
			}
			if _, c := f.create(t, 2, monday); c != booking.WindowTaken {
				t.Fatalf("third create = %q, want WINDOW_TAKEN", c)
			}
			if c := f.move(r0, booking.ActionDecline, time.Time{}); c != "" {
				t.Fatalf("decline = %q", c)
			}
			if _, c := f.create(t, 2, monday); c != "" {
				t.Fatalf("create after a decline = %q, want it stored", c)
			}
			if got := f.heldCount(t, monday); got != 2 {
				t.Errorf("held %d times, want 2", got)
			}
			// An unpaid hold that lapsed is a free place, before the
			// sweeper or TTL removes it.
			later := monday.Add(2 * time.Hour)
			for i := range 2 {
				r := pending(newRequest(slug, phone(20+i), later), now.Add(15*time.Minute))
				if err := f.store.CreateRequest(context.Background(), r, nil, limitsOf(f.b), now); err != nil {
					t.Fatal(err)
				}
			}
			f.clock = now.Add(20 * time.Minute)
			var got []booking.Code
			for i := range 3 {
				_, c := f.create(t, 30+i, later)
				got = append(got, c)
			}
			if want := []booking.Code{"", "", booking.WindowTaken}; !slices.Equal(got, want) {
				t.Errorf("creates on two lapsed holds of two crews = %q, want %q", got, want)
			}
		}},
		{"moves into a full window are refused, moves out free a place", 2, func(t *testing.T, f crewsFixture) {
			w := windowsOf(t, f.b, 3)
			a, b, c := w[0], w[1], w[2]
			inA0, _ := f.create(t, 0, a)
			f.create(t, 1, a)
			inB, _ := f.create(t, 2, b)
			if got := f.move(inB, booking.ActionMove, a); got != booking.WindowTaken {
				t.Fatalf("move into the full window = %q, want WINDOW_TAKEN", got)
			}
			if got := f.move(inA0, booking.ActionMove, c); got != "" {
				t.Fatalf("move out of it = %q", got)
			}
			if got := f.move(inB, booking.ActionMove, a); got != "" {
				t.Fatalf("move into it after = %q", got)
			}
			for _, tt := range []struct {
				start time.Time
				want  int
			}{{a, 2}, {b, 0}, {c, 1}} {
				if got := f.heldCount(t, tt.start); got != tt.want {
					t.Errorf("window %s held %d times, want %d", tt.start, got, tt.want)
				}
			}
		}},
		{"fewer crews keep the requests made and take none until there is room", 3, func(t *testing.T, f crewsFixture) {
			var in []booking.Request
			for i := range 3 {
				r, _ := f.create(t, i, monday)
				in = append(in, r)
			}
			f.setCrews(t, 1)
			if got, want := f.b.Crews(), (booking.Crews{PerWindow: 1, Ever: 3}); got != want {
				t.Fatalf("crews after lowering = %+v, want %+v", got, want)
			}
			// Every request made stays; the window takes another only once
			// fewer than one crew is out.
			for i, r := range in {
				if _, c := f.create(t, 10+i, monday); c != booking.WindowTaken {
					t.Fatalf("create with %d held = %q, want WINDOW_TAKEN", 3-i, c)
				}
				if c := f.move(r, booking.ActionDecline, time.Time{}); c != "" {
					t.Fatalf("decline %d = %q", i, c)
				}
			}
			if _, c := f.create(t, 20, monday); c != "" {
				t.Fatalf("create in the empty window = %q, want it stored", c)
			}
			if _, c := f.create(t, 21, monday); c != booking.WindowTaken {
				t.Fatalf("second create = %q, want WINDOW_TAKEN", c)
			}
			// Reloading the business file, which sets no crews, keeps
			// crews_ever: the holds of three crews are still looked at.
			if err := f.store.PutBusiness(context.Background(), loadBusiness(t)); err != nil {
				t.Fatal(err)
			}
			got, err := f.store.Business(context.Background(), slug)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := got.Crews(), (booking.Crews{PerWindow: 1, Ever: 3}); got != want {
				t.Errorf("crews after a reload = %+v, want %+v", got, want)
			}
		}},
		{"a full window refuses in the create's order", 2, func(t *testing.T, f crewsFixture) {
			ctx := context.Background()
			r := newRequest(slug, phone(0), monday)
			key := record(r, "key-1", now.Add(booking.IdempotencyKeyTTL))
			if err := f.store.CreateRequest(ctx, r, key, limitsOf(f.b), now); err != nil {
				t.Fatal(err)
			}
			f.create(t, 1, monday)
			// The retry of a create that took a place is its stored
			// answer, though the window is now full.
			var used *booking.KeyUsedError
			if err := f.store.CreateRequest(ctx, r, key, limitsOf(f.b), now); !errors.As(err, &used) || used.Record.Response.Code != r.Code {
				t.Errorf("retry under the key = %v, want the stored record of %s", err, r.Code)
			}
			// A phone at its most open requests is TOO_MANY_OPEN, not
			// WINDOW_TAKEN: the phone's count comes before the hold.
			for i := range booking.MaxOpenPerPhone {
				if _, c := f.create(t, 5, monday.Add(time.Duration(i+1)*2*time.Hour)); c != "" {
					t.Fatalf("create %d of phone 5 = %q", i, c)
				}
			}
			if _, c := f.create(t, 5, monday); c != booking.TooManyOpen {
				t.Errorf("create of a busy phone in a full window = %q, want TOO_MANY_OPEN", c)
			}
			if _, c := f.create(t, 6, monday); c != booking.WindowTaken {
				t.Errorf("create in a full window = %q, want WINDOW_TAKEN", c)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachLifecycle(t, func(t *testing.T, lf *lifecycleFixture) { tt.run(t, newCrewsFixture(t, lf, tt.crews)) })
		})
	}
}

// limitsOf is what the domain passes the store for a create at b.
func limitsOf(b *booking.Business) booking.Limits {
	l := bookingtest.Unlimited
	l.Crews = b.Crews()
	return l
}

// TestRaceCrews sends 100 creates for one window at once, to a business
// with three crews, and to one that had three and now has two: exactly as
// many as it has crews are stored, the rest are WINDOW_TAKEN.
func TestRaceCrews(t *testing.T) {
	const n = 100
	for _, tt := range []struct {
		name  string
		crews booking.Crews
	}{
		{"three crews", booking.Crews{PerWindow: 3, Ever: 3}},
		{"two crews, three once", booking.Crews{PerWindow: 2, Ever: 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := openLocal(t)
			rs := makeRequests(n, func(i int) booking.Request { return newRequest(slug, phone(i), monday) })
			limits := bookingtest.Unlimited
			limits.Crews = tt.crews
			begin := time.Now()
			errs := race(n, func(i int) error { return e.store.CreateRequest(context.Background(), rs[i], nil, limits, now) })
			elapsed := time.Since(begin)

			created, taken := 0, 0
			for i, err := range errs {
				switch code(err) {
				case "":
					created++
				case booking.WindowTaken:
					taken++
				default:
					t.Errorf("CreateRequest(%d) = %v, want nil or WINDOW_TAKEN", i, err)
				}
			}
			t.Logf("%d concurrent creates for one window of %+v: %d created, %d WINDOW_TAKEN, %d other (%v)",
				n, tt.crews, created, taken, n-created-taken, elapsed.Round(time.Millisecond))
			want := tt.crews.PerWindow
			if created != want || taken != n-want {
				t.Fatalf("got %d created and %d WINDOW_TAKEN, want %d and %d", created, taken, want, n-want)
			}
			if got := stored(t, e.store, rs); len(got) != want {
				t.Errorf("%d requests stored, want %d", len(got), want)
			}
			held, err := e.store.HeldWindows(context.Background(), slug, monday, monday.Add(time.Second), now)
			if err != nil {
				t.Fatal(err)
			}
			if len(held) != want {
				t.Errorf("HeldWindows lists the window %d times, want %d", len(held), want)
			}
		})
	}
}

// TestRaceMovesThroughCrews fills a window of three crews, then moves its
// three requests out while twenty requests of other windows are moved into
// it, all at once: however the moves interleave, the window never holds
// more than three, and every request holds exactly its own window.
func TestRaceMovesThroughCrews(t *testing.T) {
	const incoming = 20
	ctx := context.Background()
	f := newCrewsFixture(t, newLifecycleFixture(t, localEngine), 3)
	w := windowsOf(t, f.b, 2+incoming)
	full, elsewhere, own := w[0], w[1], w[2:]
	var out, in []booking.Request
	for i := range 3 {
		r, c := f.create(t, i, full)
		if c != "" {
			t.Fatalf("create %d = %q", i, c)
		}
		out = append(out, r)
	}
	for i := range incoming {
		r, c := f.create(t, 100+i, own[i])
		if c != "" {
			t.Fatalf("create %d = %q", 100+i, c)
		}
		in = append(in, r)
	}

	begin := time.Now()
	errs := race(len(out)+len(in), func(i int) error {
		if i < len(out) {
			_, err := bookingtest.Inbox(t, f.bookings, f.b.Slug).Move(ctx, out[i].Code, booking.ActionMove, elsewhere)
			return err
		}
		_, err := bookingtest.Inbox(t, f.bookings, f.b.Slug).Move(ctx, in[i-len(out)].Code, booking.ActionMove, full)
		return err
	})
	elapsed := time.Since(begin)

	movedIn := 0
	for i, err := range errs {
		switch c := code(err); {
		case i < len(out) && c != "":
			t.Errorf("move %d out of the full window = %v, want it made", i, err)
		case i >= len(out) && c == "":
			movedIn++
		case i >= len(out) && c != booking.WindowTaken:
			t.Errorf("move %d into the window = %v, want nil or WINDOW_TAKEN", i, err)
		}
	}
	t.Logf("3 moves out of a full window of 3 crews and %d into it at once: %d moved in (%v)",
		incoming, movedIn, elapsed.Round(time.Millisecond))

	if got := f.holders(t, full); len(got) != movedIn || len(got) > 3 {
		t.Errorf("the window holds %d, want the %d moved in, at most 3", len(got), movedIn)
	}
	if got := f.heldCount(t, elsewhere); got != 3 {
		t.Errorf("the window moved to holds %d, want 3", got)
	}
	atFull := 0
	for _, r := range slices.Concat(out, in) {
		got, err := f.store.Request(ctx, r.Code)
		if err != nil {
			t.Fatal(err)
		}
		if got.Window.Start.Equal(full) {
			atFull++
		}
		if holders := f.holders(t, got.Window.Start); !slices.Contains(holders, r.Code) {
			t.Errorf("request %s at %s: its window's holds name %v, not it", r.Code, got.Window.Start, holders)
		}
	}
	if atFull != movedIn {
		t.Errorf("%d requests have the window, want the %d moved in", atFull, movedIn)
	}
}
