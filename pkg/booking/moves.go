package booking

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// change names a move of a request: what, by whom, and what it needs.
type change struct {
	action Action
	actor  Actor
	// windowStart is the new window's start, for ActionMove.
	windowStart time.Time
	// paymentRef is the payment provider's reference of the payment, for
	// ActionPay (see DepositRecord.PaymentRef).
	paymentRef string
	// business is the request's business when the caller has it (the
	// business's own moves); nil: move reads it when it needs it.
	business *Business
	// check, when not nil, is asked once the Lifecycle allows the move
	// (MoveCheck).
	check MoveCheck
}

// MoveCheck is a caller's own condition on a move: it is given the
// request as read (as its business sees it) and the transition the
// Lifecycle allows, before anything is written. An error from it refuses
// the move as it is, and nothing is stored.
type MoveCheck func(before InboxRequest, t Transition) error

// MovedError is a move refused because of the state the request is in:
// the Lifecycle does not allow it from there (the request as read), or
// another move changed the request between the read and the write (the
// store's condition failed; the request as read again after it). Request
// is the request as it now stands, as its business sees it. Its code is
// Err's, INVALID_TRANSITION.
type MovedError struct {
	Err     error
	Request InboxRequest
}

func (e *MovedError) Error() string { return e.Err.Error() }

func (e *MovedError) Unwrap() error { return e.Err }

// move applies c to r, the request as read, and returns the request as
// stored after it: every move of every actor goes through here, checked
// against the one Lifecycle table.
func (s *Bookings) move(ctx context.Context, r Request, c change, now time.Time) (Request, error) {
	from := r.Effective(now).Status
	if c.action == ActionExpire {
		if from != StatusExpired {
			return Request{}, &MovedError{Errorf(InvalidTransition, "this request has not lapsed: its payment hold has not ended, or its window has not started"), inboxView(r, now)}
		}
		from = r.Status
	}
	t, err := Allowed(from, c.action, c.actor)
	if err != nil {
		return Request{}, &MovedError{err, inboxView(r, now)}
	}
	if c.check != nil {
		if err := c.check(inboxView(r, now), t); err != nil {
			return Request{}, err
		}
	}
	after := r
	after.Status = t.To
	// The deposit's fate is part of the request item: stored in the same
	// write as the state.
	after.Deposit = r.depositAfter(t, c.actor, c.paymentRef, now)
	// A window move, and an accept, need the business: its windows, and
	// when to remind the person (RemindAt).
	remind := t.To == StatusAccepted && (t.From != StatusAccepted || t.Effects().MoveWindow)
	// A request that reaches the inbox by a move (its deposit paid) gets
	// the business's nudge (NudgeAt), from now.
	nudge := t.To == StatusNew && t.From != StatusNew
	var b *Business
	if t.Effects().MoveWindow || remind || nudge {
		if b = c.business; b == nil {
			b, err = s.store.Business(ctx, r.BusinessSlug)
			switch {
			case err != nil && !t.Effects().MoveWindow && !remind && ErrorCode(err) == NotFound:
				b, nudge = nil, false // a payment for a business gone: nobody to nudge
			case err != nil:
				return Request{}, err
			}
		}
	}
	if t.Effects().MoveWindow {
		w, err := b.openWindow(c.windowStart, now)
		if err != nil {
			return Request{}, err
		}
		if w.Start.Equal(r.Window.Start) {
			return Request{}, Errorf(InvalidWindow, "the request already has the window starting %s", w.Start.Format(time.RFC3339))
		}
		after.Window = w
		after.ChangedByBusiness = true
	}
	switch {
	case remind:
		remindAfter(&after, b, now) // the reminder of the new window, if still ahead
	case nudge:
		after.ReminderDue = b.NudgeAt(after, now)
	case t.To != StatusAccepted:
		after.ReminderDue = time.Time{} // leaving accepted (or new): no reminder, no nudge
	}
	after.History = append(append([]Event(nil), r.History...), Event{
		At: now.UTC().Truncate(time.Second), By: c.actor, Action: c.action,
		From: r.Status, To: t.To, Window: after.Window,
	})
	var crews Crews
	if t.Effects().MoveWindow {
		crews = b.Crews()
	}
	if err := s.store.MoveRequest(ctx, r, after, t, crews, now); err != nil {
		if ErrorCode(err) != InvalidTransition {
			return Request{}, err
		}
		// The request changed since it was read: read once more, to say
		// how it stands.
		fresh, ferr := s.store.Request(ctx, r.Code)
		if ferr != nil {
			return Request{}, err
		}
		if onlyNoted(r, *fresh) {
			return s.move(ctx, *fresh, c, now)
		}
		return Request{}, &MovedError{err, inboxView(*fresh, now)}
	}
	s.observer.RequestMoved(ctx, c.action)
	return after, nil
}

// onlyNoted reports whether the only changes from r to fresh are the
// reminder (or, of a new request, the nudge) the sweeper recorded, and
// the ways to hear back the person added: they change neither the state
// nor the window, but the move's condition pins them (remind_at, the
// history's length), so the move is then made again from fresh, as
// nobody's move was lost. Each retry follows a change that happened, so
// they end. Any other change since the read stays a conflict.
func onlyNoted(r, fresh Request) bool {
	return notedOnly(r, fresh, ActionRemind, ActionNudge, ActionContact)
}

// notedOnly reports whether the only changes from r to fresh are events
// with the given actions (at least one), or a reminder recorded too late to
// send, with the state and the window as they were.
func notedOnly(r, fresh Request, actions ...Action) bool {
	if fresh.Status != r.Status || !fresh.Window.Start.Equal(r.Window.Start) || len(fresh.History) < len(r.History) {
		return false
	}
	noted := len(fresh.History) > len(r.History)
	for _, e := range fresh.History[len(r.History):] {
		if !slices.Contains(actions, e.Action) {
			return false
		}
	}
	// A reminder recorded too late to send leaves no event, only its
	// remind_at gone.
	reminded := !r.ReminderDue.IsZero() && fresh.ReminderDue.IsZero()
	return (r.Status == StatusAccepted || r.Status == StatusNew || r.Status == StatusPendingPayment) && (noted || reminded)
}

// request returns the stored request with the given code, read leniently
// (CanonicalCode), whoever's it is.
func (s *Bookings) request(ctx context.Context, code string) (Request, error) {
	canonical, ok := CanonicalCode(code)
	if !ok {
		return Request{}, requestNotFound(code)
	}
	r, err := s.store.Request(ctx, canonical)
	if err != nil {
		return Request{}, err
	}
	return *r, nil
}

func requestNotFound(code string) error {
	return Errorf(NotFound, "no request has the code %s", excerpt(code))
}

// CustomerRequest returns the request with the given code and its
// business: what the person who holds the code may read.
func (s *Bookings) CustomerRequest(ctx context.Context, code string) (Request, *Business, error) {
	r, err := s.request(ctx, code)
	if err != nil {
		return Request{}, nil, err
	}
	b, err := s.store.PublicBusiness(ctx, r.BusinessSlug)
	if err != nil {
		return Request{}, nil, err
	}
	return r, b, nil
}

// CustomerCancel cancels the request with the given code, as the person
// who sent it.
func (s *Bookings) CustomerCancel(ctx context.Context, code string) (Request, error) {
	return s.moveByCode(ctx, code, change{action: ActionCancel, actor: ActorCustomer})
}

// PaySimulated pays the simulated deposit of the request with the given
// code: the request moves on as the payment provider would move it
// (ActorSystem), and no money moves.
func (s *Bookings) PaySimulated(ctx context.Context, code string) (Request, error) {
	return s.moveByCode(ctx, code, change{action: ActionPay, actor: ActorSystem, paymentRef: PaymentRefSimulated})
}

// OperatorRequest returns any request, for the operator.
func (s *Bookings) OperatorRequest(ctx context.Context, code string) (Request, error) {
	return s.request(ctx, code)
}

// OperatorMove moves any request by action, as the operator; windowStart
// is the new window's start for ActionMove (zero for any other).
func (s *Bookings) OperatorMove(ctx context.Context, code string, action Action, windowStart time.Time) (Request, error) {
	return s.moveByCode(ctx, code, change{action: action, actor: ActorOperator, windowStart: windowStart})
}

func (s *Bookings) moveByCode(ctx context.Context, code string, c change) (Request, error) {
	now := s.now()
	r, err := s.request(ctx, code)
	if err != nil {
		return Request{}, err
	}
	return s.move(ctx, r, c, now)
}

// openWindow returns the window a move may take: start must be the start
// of a window of b that has not started, within the horizon and not on a
// day off. The business's notice does not bind its own moves (nor the
// operator's): a window within the notice is the business's own choice.
// Whether another request holds it is for the store's condition to say.
func (b *Business) openWindow(t time.Time, now time.Time) (Window, error) {
	if t.IsZero() {
		return Window{}, Errorf(InvalidWindow, "a move needs the start of the window to move the request to")
	}
	w, code := b.windowAt(t, now, 0)
	if code != "" {
		return Window{}, windowRefusal(b, code, t, now, 0)
	}
	return w, nil
}

// sweepWorkers is how many lapsed requests a sweep expires at once.
const sweepWorkers = 8

// SweepResult says what a sweep did.
type SweepResult struct {
	Expired int // requests this sweep moved to expired
	Skipped int // requests another sweep (or a payment) moved first
}

// ExpireLapsed moves to expired, as the sweeper (ActorSystem), every
// request that has lapsed at now: pending_payment with its payment hold
// ended, or new (never answered) with its window started. Each move has the
// Lifecycle's effects (its window opens again, its phone's count goes
// down). It is safe to run twice or concurrently: a request already moved
// is skipped, never moved twice.
func (s *Bookings) ExpireLapsed(ctx context.Context, now time.Time) (SweepResult, error) {
	expire := func(code string) error {
		r, err := s.request(ctx, code)
		if err != nil {
			return err
		}
		_, err = s.move(ctx, r, change{action: ActionExpire, actor: ActorSystem}, now)
		return err
	}
	expired, skipped, err := eachListed(ctx, now, s.store.Lapsed, sweepWorkers, expire)
	return SweepResult{Expired: expired, Skipped: skipped}, err
}

// eachListed runs do on every code list passes (a page at a time, up to
// workers codes at once) and counts those done and those skipped: do's
// INVALID_TRANSITION, a request another run (or the person) moved on
// first. A code that fails otherwise must not keep every code after it
// (in later pages and shards) from being done, run after run: its error
// is joined to the others and the run goes on; only a cancelled ctx ends
// it early.
func eachListed(ctx context.Context, now time.Time, list func(ctx context.Context, now time.Time, fn func(codes []string) error) error, workers int, do func(code string) error) (done, skipped int, err error) {
	var doneN, skippedN atomic.Int64
	var failed error
	err = list(ctx, now, func(codes []string) error {
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			firstErr error
			next     = make(chan string)
		)
		for range min(workers, len(codes)) {
			wg.Go(func() {
				for code := range next {
					switch err := do(code); {
					case err == nil:
						doneN.Add(1)
					case ErrorCode(err) == InvalidTransition:
						skippedN.Add(1)
					default:
						mu.Lock()
						firstErr = errors.Join(firstErr, err)
						mu.Unlock()
					}
				}
			})
		}
		for _, code := range codes {
			next <- code
		}
		close(next)
		wg.Wait()
		failed = errors.Join(failed, firstErr)
		return ctx.Err()
	})
	return int(doneN.Load()), int(skippedN.Load()), errors.Join(err, failed)
}
