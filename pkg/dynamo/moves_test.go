package dynamo_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// holdLapsed is when a pending request created at now has lost its hold.
var holdLapsed = now.Add(31 * time.Minute)

// lifecycleFixture is one request on a fresh table, and the service over
// it, whose clock the test sets.
type lifecycleFixture struct {
	engine
	clock    time.Time
	bookings *booking.Bookings
}

func newLifecycleFixture(t *testing.T, eng dynamotest.Engine) *lifecycleFixture {
	t.Helper()
	client, table := eng.Open(t)
	f := &lifecycleFixture{engine: engine{store: dynamo.New(client, table), client: client, table: table}, clock: now}
	f.bookings = bookingtest.New(t, booking.Config{Store: f.store, SiteURL: "https://book.example.com", Now: func() time.Time { return f.clock }})
	// Not an example business: an example one takes no way to be told
	// (booking.ErrNoWaysHere), which the contact tests add.
	b := loadBusiness(t)
	b.Example = false
	if err := f.store.PutBusiness(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	return f
}

// forEachLifecycle runs test on a new lifecycleFixture of each engine.
func forEachLifecycle(t *testing.T, test func(t *testing.T, f *lifecycleFixture)) {
	t.Helper()
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) { test(t, newLifecycleFixture(t, eng)) })
	}
}

// paths reach each state from a create: the first move from new (or
// pending_payment) and the ones after it, by the actors that may make them.
var paths = map[booking.Status][]booking.Action{
	booking.StatusPendingPayment: nil,
	booking.StatusNew:            nil,
	booking.StatusAccepted:       {booking.ActionAccept},
	booking.StatusDeclined:       {booking.ActionDecline},
	booking.StatusCompleted:      {booking.ActionAccept, booking.ActionComplete},
	booking.StatusCancelled:      {booking.ActionCancel},
	booking.StatusNoShow:         {booking.ActionAccept, booking.ActionNoShow},
	booking.StatusExpired:        {booking.ActionExpire},
}

// expireAt is when a request created at now in state from has lapsed, for
// the sweep to expire it: a pending_payment one when its payment hold ends,
// a new one (never answered) when its window starts. Other states never
// lapse; the time is then that of a pending_payment one.
func expireAt(from booking.Status) time.Time {
	if from == booking.StatusNew {
		return monday
	}
	return holdLapsed
}

// reach creates a request and moves it to state s.
func (f *lifecycleFixture) reach(t *testing.T, s booking.Status) booking.Request {
	t.Helper()
	r := newRequest(slug, phone(1), monday)
	if s == booking.StatusPendingPayment || s == booking.StatusExpired {
		r = pending(r, now.Add(30*time.Minute))
	}
	r.History = []booking.Event{{At: now, By: booking.ActorCustomer, Action: booking.ActionCreate, To: r.Status, Window: r.Window}}
	mustCreate(t, f.engine, r, nil, now)
	for _, a := range paths[s] {
		if a == booking.ActionExpire {
			f.clock = holdLapsed
		}
		if err := move(context.Background(), f.bookings, r.Code, a, "", f.clock); err != nil {
			t.Fatalf("reach %s: %s: %v", s, a, err)
		}
		got, err := f.store.Request(context.Background(), r.Code)
		if err != nil {
			t.Fatal(err)
		}
		r = *got
	}
	f.clock = now
	return r
}

func transition(from booking.Status, a booking.Action) (booking.Transition, bool) {
	i := slices.IndexFunc(booking.Lifecycle, func(tr booking.Transition) bool { return tr.From == from && tr.Action == a })
	if i < 0 {
		return booking.Transition{}, false
	}
	return booking.Lifecycle[i], true
}

// TestLifecycle makes every move of every state on both engines: each move
// of the Lifecycle succeeds once, with its effects on the phone counter and
// the window holds, and every other move is refused with nothing changed.
func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	newWindow := monday.Add(2 * time.Hour) // the next window of the same morning
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) {
			for _, from := range booking.Statuses {
				for _, action := range booking.Actions {
					t.Run(string(from)+"/"+string(action), func(t *testing.T) {
						f := newLifecycleFixture(t, eng)
						r := f.reach(t, from)
						if action == booking.ActionExpire {
							f.clock = expireAt(from)
						}
						var windowStart string
						if action == booking.ActionMove {
							windowStart = newWindow.Format(time.RFC3339)
						}
						err := move(ctx, f.bookings, r.Code, action, windowStart, f.clock)
						got, readErr := f.store.Request(ctx, r.Code)
						if readErr != nil {
							t.Fatal(readErr)
						}

						tr, allowed := transition(from, action)
						if !allowed {
							if code(err) != booking.InvalidTransition {
								t.Fatalf("Move() = %v, want INVALID_TRANSITION", err)
							}
							if got.Status != r.Status || len(got.History) != len(r.History) {
								t.Errorf("refused move changed the request: status %s, %d events; want %s, %d",
									got.Status, len(got.History), r.Status, len(r.History))
							}
							return
						}
						if err != nil {
							t.Fatalf("Move() = %v, want nil", err)
						}
						f.checkMoved(t, r, *got, tr, newWindow)

						// The same move again is refused: the request has left
						// the state (a window move: the window is its own now).
						err = move(ctx, f.bookings, r.Code, action, windowStart, f.clock)
						if want := booking.InvalidTransition; action == booking.ActionMove {
							want = booking.InvalidWindow
							if code(err) != want {
								t.Errorf("the same move again = %v, want %s", err, want)
							}
						} else if code(err) != want {
							t.Errorf("the same move again = %v, want %s", err, want)
						}
					})
				}
			}
		})
	}
}

// checkMoved checks the stored request and its side items after tr.
func (f *lifecycleFixture) checkMoved(t *testing.T, before, after booking.Request, tr booking.Transition, newWindow time.Time) {
	t.Helper()
	e := tr.Effects()
	if after.Status != tr.To {
		t.Errorf("status = %s, want %s", after.Status, tr.To)
	}
	if len(after.History) != len(before.History)+1 {
		t.Fatalf("history has %d events, want %d", len(after.History), len(before.History)+1)
	}
	ev := after.History[len(after.History)-1]
	if ev.Action != tr.Action || ev.From != tr.From || ev.To != tr.To || ev.By != actorOf(tr.Action) || !ev.At.Equal(f.clock) {
		t.Errorf("last event = %+v, want %s by %s from %s to %s at %s", ev, tr.Action, actorOf(tr.Action), tr.From, tr.To, f.clock)
	}
	wantWindow := before.Window.Start // the event names the window the request has after the move
	if e.MoveWindow {
		wantWindow = newWindow
	}
	if !ev.Window.Start.Equal(wantWindow) || !ev.Window.Start.Equal(after.Window.Start) {
		t.Errorf("last event's window starts %s, want %s", ev.Window.Start, wantWindow)
	}

	wantOpen := int64(1)
	if !tr.To.Open() {
		wantOpen = 0
	}
	if got := attrN(t, f.item(t, phoneKey(slug, phone(1))), "open_count"); got != wantOpen {
		t.Errorf("open_count = %d, want %d", got, wantOpen)
	}

	oldHold := f.item(t, holdKey(slug, before.Window.Start))
	switch {
	case e.ReleaseHold || e.MoveWindow:
		if oldHold != nil {
			t.Errorf("the old window's hold is still there: %v", oldHold)
		}
	case attrS(oldHold, "request_code") != before.Code:
		t.Errorf("the window's hold = %v, want one for %s", oldHold, before.Code)
	case e.EndPaymentHold && attrN(t, oldHold, "expires_at") != before.Window.End.Unix():
		t.Errorf("paid hold expires_at = %d, want the window's end %d", attrN(t, oldHold, "expires_at"), before.Window.End.Unix())
	}
	if e.MoveWindow {
		if !after.Window.Start.Equal(newWindow) || !after.ChangedByBusiness {
			t.Errorf("window = %v, changed_by_business %v; want %v, true", after.Window, after.ChangedByBusiness, newWindow)
		}
		if h := f.item(t, holdKey(slug, newWindow)); attrS(h, "request_code") != before.Code {
			t.Errorf("the new window's hold = %v, want one for %s", h, before.Code)
		}
	}

	// In the sweep index while it waits for a payment or an answer, until
	// it lapses; in no other state.
	item := f.item(t, requestKey(before.Code))
	wantSweepAt := int64(-1)
	if at := after.LapsesAt(); !at.IsZero() {
		wantSweepAt = at.Unix()
	}
	if got := attrN(t, item, "sweep_at"); got != wantSweepAt || (attrS(item, "sweep_shard") != "") != (wantSweepAt >= 0) {
		t.Errorf("%s: sweep_at = %d, sweep_shard %q; want sweep_at %d (-1: none), and a shard with it", after.Status, got, attrS(item, "sweep_shard"), wantSweepAt)
	}
	if got, want := attrS(item, "inbox_slug") != "", after.SeenByBusiness(); got != want {
		t.Errorf("in the inbox index = %v, want %v", got, want)
	}
}

// TestExpireLeavesAnotherRequestsHold: a request whose payment hold lapsed
// may have lost its window to another request; expiring it then must leave
// that other request's hold alone (it releases a hold only if it still
// holds it), or the window would be booked twice.
func TestExpireLeavesAnotherRequestsHold(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		lapsed := f.reach(t, booking.StatusPendingPayment)
		taker := newRequest(slug, phone(2), monday)
		mustCreate(t, f.engine, taker, nil, holdLapsed) // the lapsed hold counts as absent
		if h := f.item(t, holdKey(slug, monday)); attrS(h, "request_code") != taker.Code {
			t.Fatalf("the window's hold = %v, want the new request's", h)
		}

		f.clock = holdLapsed
		if err := move(ctx, f.bookings, lapsed.Code, booking.ActionExpire, "", f.clock); err != nil {
			t.Fatalf("expire: %v", err)
		}
		if h := f.item(t, holdKey(slug, monday)); attrS(h, "request_code") != taker.Code {
			t.Errorf("after the expiry the window's hold = %v, want it still the new request's", h)
		}
		if got := attrN(t, f.item(t, phoneKey(slug, phone(1))), "open_count"); got != 0 {
			t.Errorf("the expired request's phone: open_count = %d, want 0", got)
		}
	})
}

// TestRecordLatePayment records a payment that came after the hold lapsed
// on the expired request's deposit, only while the request is as read.
func TestRecordLatePayment(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		r := f.reach(t, booking.StatusExpired)
		after := r
		d := *r.Deposit
		d.State, d.PaymentRef = booking.DepositRefunded, "pi_late"
		after.Deposit = &d
		if err := f.store.RecordLatePayment(ctx, r, after); err != nil {
			t.Fatalf("RecordLatePayment() = %v", err)
		}
		got, err := f.store.Request(ctx, r.Code)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != booking.StatusExpired || got.Deposit.State != booking.DepositRefunded || got.Deposit.PaymentRef != "pi_late" {
			t.Errorf("got %s, deposit %+v; want expired, refunded pi_late", got.Status, got.Deposit)
		}
		// The request as first read is gone: a second write from it is refused.
		if err := f.store.RecordLatePayment(ctx, r, after); code(err) != booking.InvalidTransition {
			t.Errorf("RecordLatePayment(from a stale read) = %v, want INVALID_TRANSITION", err)
		}
	})
}

// TestPaymentAfterItsHoldWasReleased: a payment that read the request
// pending_payment, while the sweep expired it (releasing its hold) before
// the payment's move was sent, is refused INVALID_TRANSITION, as any move
// that came too late: infra/chaos found it answered 500 on the payment
// page ("no hold on its window names it").
func TestPaymentAfterItsHoldWasReleased(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		read := f.reach(t, booking.StatusPendingPayment)
		f.clock = holdLapsed
		if err := move(ctx, f.bookings, read.Code, booking.ActionExpire, "", f.clock); err != nil {
			t.Fatal(err)
		}
		tr, _ := transition(booking.StatusPendingPayment, booking.ActionPay)
		paid := read
		paid.Status, paid.HoldExpires = booking.StatusNew, time.Time{}
		deposit := *read.Deposit
		deposit.State, deposit.PaymentRef = booking.DepositPaid, booking.PaymentRefSimulated
		paid.Deposit = &deposit
		paid.History = append(slices.Clone(read.History), booking.Event{At: now, By: booking.ActorSystem, Action: booking.ActionPay,
			From: booking.StatusPendingPayment, To: booking.StatusNew, Window: read.Window})
		err := f.store.MoveRequest(ctx, read, paid, tr, booking.Crews{PerWindow: 1, Ever: 1}, now)
		if got := code(err); got != booking.InvalidTransition {
			t.Errorf("the payment's move = %v (%s), want INVALID_TRANSITION", err, got)
		}
		got, err := f.store.Request(ctx, read.Code)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != booking.StatusExpired {
			t.Errorf("stored %s, want expired", got.Status)
		}
	})
}
