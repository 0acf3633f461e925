package dynamo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
)

// setWindowLength is a change of the stored record to windows of minutes.
func setWindowLength(minutes int) func(*booking.Business) (*booking.Business, error) {
	return func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		c.ArrivalWindowMinutes = minutes
		return &c, nil
	}
}

// requestOf is a request for the window of the given length from start.
func requestOf(i int, start time.Time, minutes int) booking.Request {
	r := newRequest(slug, phone(i), start)
	r.Window.End = start.Add(time.Duration(minutes) * time.Minute)
	return r
}

// TestWindowLengthChange: the window length changes only while no request
// holds a window now or later; a create on the old length after the
// change is refused; an ended request does not stop it.
func TestWindowLengthChange(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := context.Background()
		if err := e.store.PutBusiness(ctx, loadBusiness(t)); err != nil {
			t.Fatal(err)
		}
		ahead := requestOf(1, monday, 120)
		mustCreate(t, e, ahead, nil, now)
		if err := e.store.UpdateBusinessAt(ctx, slug, now, setWindowLength(90)); !errors.Is(err, booking.ErrLiveRequestsAhead) {
			t.Fatalf("UpdateBusinessAt(90) with a request ahead = %v, want ErrLiveRequestsAhead", err)
		}
		if b, _ := e.store.Business(ctx, slug); b.ArrivalWindowMinutes != 120 {
			t.Fatalf("window length stored %d after a refusal, want 120", b.ArrivalWindowMinutes)
		}
		// After its window ends, the request holds nothing.
		later := monday.Add(3 * time.Hour)
		if err := e.store.UpdateBusinessAt(ctx, slug, later, setWindowLength(90)); err != nil {
			t.Fatalf("UpdateBusinessAt(90) with no request ahead = %v, want nil", err)
		}
		// A create from the windows as they were (a cached record).
		stale := requestOf(2, monday.Add(24*time.Hour), 120)
		if err := e.store.CreateRequest(ctx, stale, nil, bookingtest.Unlimited, later); booking.ErrorCode(err) != booking.InvalidWindow {
			t.Errorf("CreateRequest(old length) = %v, want INVALID_WINDOW", err)
		}
		fresh := requestOf(3, monday.Add(24*time.Hour), 90)
		mustCreate(t, e, fresh, nil, later)
		// An operator's plain update (ctl load) moves the length too, and
		// creates follow it.
		if err := e.store.UpdateBusiness(ctx, slug, setWindowLength(120)); err != nil {
			t.Fatal(err)
		}
		if err := e.store.CreateRequest(ctx, requestOf(4, monday.Add(48*time.Hour), 90), nil, bookingtest.Unlimited, later); booking.ErrorCode(err) != booking.InvalidWindow {
			t.Errorf("CreateRequest(90 after the operator's 120) = %v, want INVALID_WINDOW", err)
		}
		mustCreate(t, e, requestOf(5, monday.Add(48*time.Hour), 120), nil, later)
		// A window move takes a hold as a create does: on the old length,
		// refused; on the business's, moved.
		tr, _ := transition(booking.StatusNew, booking.ActionMove)
		moved := fresh
		moved.Status, moved.ChangedByBusiness = tr.To, true
		moved.Window = requestOf(6, monday.Add(72*time.Hour), 90).Window
		if err := e.store.MoveRequest(ctx, fresh, moved, tr, bookingtest.Unlimited.Crews, later); booking.ErrorCode(err) != booking.InvalidWindow {
			t.Errorf("MoveRequest(to a 90-minute window of a business of 120) = %v, want INVALID_WINDOW", err)
		}
		moved.Window = requestOf(6, monday.Add(72*time.Hour), 120).Window
		if err := e.store.MoveRequest(ctx, fresh, moved, tr, bookingtest.Unlimited.Crews, later); err != nil {
			t.Errorf("MoveRequest(to a 120-minute window) = %v, want nil", err)
		}
	})
}

// TestWindowLengthChangeRace: changes of the window length (120 and 90
// minutes, back and forth) race creates that each read the business and
// ask for a window on its grid. Whatever passes, no two requests stored
// overlap in time at a business of one crew.
func TestWindowLengthChangeRace(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := context.Background()
		if err := e.store.PutBusiness(ctx, loadBusiness(t)); err != nil {
			t.Fatal(err)
		}
		const changes, creates = 8, 24
		rs := make([]booking.Request, changes+creates)
		errs := race(changes+creates, func(i int) error {
			if i < changes {
				minutes := 90
				if i%2 == 1 {
					minutes = 120
				}
				return e.store.UpdateBusinessAt(ctx, slug, now, setWindowLength(minutes))
			}
			// A create that a change of length refused (INVALID_WINDOW:
			// its window is no window any more) reads the business again
			// and tries once more, as a person would, a few times: so
			// that, however the race falls on a loaded machine, some
			// creates pass once the changes are done.
			var err error
			for range 5 {
				var b *booking.Business
				if b, err = e.store.Business(ctx, slug); err != nil {
					return err
				}
				m := b.ArrivalWindowMinutes
				rs[i] = requestOf(i, monday.Add(time.Duration((i%3)*m)*time.Minute), m)
				if err = e.store.CreateRequest(ctx, rs[i], nil, bookingtest.Unlimited, now); booking.ErrorCode(err) != booking.InvalidWindow {
					return err
				}
			}
			return err
		})
		var made []booking.Request
		for i, err := range errs {
			switch {
			case i < changes:
				if err != nil && !errors.Is(err, booking.ErrLiveRequestsAhead) && !errors.Is(err, booking.ErrBusinessChanged) {
					t.Errorf("change %d = %v, want nil, ErrLiveRequestsAhead or ErrBusinessChanged", i, err)
				}
			case err == nil:
				made = append(made, rs[i])
			default:
				switch booking.ErrorCode(err) {
				case booking.WindowTaken, booking.InvalidWindow, booking.RateLimited:
				default:
					t.Errorf("create %d = %v, want nil, WINDOW_TAKEN, INVALID_WINDOW or RATE_LIMITED", i, err)
				}
			}
		}
		if len(made) == 0 {
			t.Fatal("no create passed")
		}
		for i, a := range made {
			for _, b := range made[i+1:] {
				if a.Window.Start.Before(b.Window.End) && b.Window.Start.Before(a.Window.End) {
					t.Errorf("requests %s (%s–%s) and %s (%s–%s) overlap at a business of one crew",
						a.Code, a.Window.Start.Format("15:04"), a.Window.End.Format("15:04"), b.Code, b.Window.Start.Format("15:04"), b.Window.End.Format("15:04"))
				}
			}
		}
		// Every request stored is one that passed.
		if got := stored(t, e.store, rs[changes:]); len(got) != len(made) {
			t.Errorf("%d requests stored, %d creates passed", len(got), len(made))
		}
		t.Logf("%d creates passed", len(made))
	})
}
