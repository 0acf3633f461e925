package booking

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Mover moves requests through the Lifecycle: the business's inbox, the
// operator's CLI, the hold sweeper, payments and the person's own page all
// move requests through it, so every move is checked against the one table.
type Mover struct {
	store Store
	now   func() time.Time
}

// NewMover returns a Mover over store, with now as its clock.
func NewMover(store Store, now func() time.Time) *Mover {
	return &Mover{store: store, now: now}
}

// MoveInput names a move.
type MoveInput struct {
	Code   string // the request's code, read leniently (CanonicalCode)
	Action Action
	Actor  Actor
	// Slug, when not empty, is the business the request must belong to:
	// another business's request is NOT_FOUND, as is one the business does
	// not see (SeenByBusiness) when Actor is ActorBusiness.
	Slug string
	// WindowStart is the new window's start (RFC 3339) for ActionMove.
	WindowStart string
	// PaymentRef is the payment provider's reference of the payment, for
	// ActionPay (see DepositRecord.PaymentRef).
	PaymentRef string
}

// Move applies in and returns the request as stored after it.
func (m *Mover) Move(ctx context.Context, in MoveInput) (Request, error) {
	return m.move(ctx, in, m.now())
}

func (m *Mover) move(ctx context.Context, in MoveInput, now time.Time) (Request, error) {
	r, err := m.Request(ctx, in.Slug, in.Code, in.Actor)
	if err != nil {
		return Request{}, err
	}
	from := r.Effective(now).Status
	if in.Action == ActionExpire {
		if from != StatusExpired {
			return Request{}, Errorf(InvalidTransition, "the payment hold of this request has not lapsed")
		}
		from = r.Status
	}
	t, err := Allowed(from, in.Action, in.Actor)
	if err != nil {
		return Request{}, err
	}
	after := r
	after.Status = t.To
	// The deposit's fate is part of the request item: stored in the same
	// write as the state.
	after.Deposit = r.depositAfter(t, in.Actor, in.PaymentRef, now)
	if t.Effects().MoveWindow {
		b, err := m.store.Business(ctx, r.BusinessSlug)
		if err != nil {
			return Request{}, err
		}
		w, err := b.openWindow(in.WindowStart, now)
		if err != nil {
			return Request{}, err
		}
		if w.Start.Equal(r.Window.Start) {
			return Request{}, Errorf(InvalidWindow, "the request already has the window starting %s", w.Start.Format(time.RFC3339))
		}
		after.Window = w
		after.ChangedByBusiness = true
	}
	after.History = append(append([]Event(nil), r.History...), Event{
		At: now.UTC().Truncate(time.Second), By: in.Actor, Action: in.Action,
		From: r.Status, To: t.To, Window: after.Window,
	})
	if err := m.store.MoveRequest(ctx, r, after, t, now); err != nil {
		return Request{}, err
	}
	return after, nil
}

// Request returns the stored request with the given code. slug and actor
// limit what may be read, as MoveInput says.
func (m *Mover) Request(ctx context.Context, slug, code string, actor Actor) (Request, error) {
	notFound := Errorf(NotFound, "no request has the code %q", code)
	canonical, ok := CanonicalCode(code)
	if !ok {
		return Request{}, notFound
	}
	r, err := m.store.Request(ctx, canonical)
	if err != nil {
		return Request{}, err
	}
	if slug != "" && (r.BusinessSlug != slug || (actor == ActorBusiness && !r.SeenByBusiness())) {
		return Request{}, notFound
	}
	return *r, nil
}

// openWindow returns the window a move may take: start must be the start
// of a window of b that has not started and is within the horizon. Whether
// another request holds it is for the store's condition to say.
func (b *Business) openWindow(start string, now time.Time) (Window, error) {
	t, err := time.Parse(time.RFC3339, start)
	if err != nil {
		return Window{}, Errorf(InvalidWindow, "window_start must be an ISO 8601 date-time, such as 2026-11-24T15:00:00Z")
	}
	if !t.After(now) {
		return Window{}, Errorf(TooLate, "the arrival window starting %s has already started; pick a later one", t.UTC().Format(time.RFC3339))
	}
	w, ok := b.WindowAt(t, now)
	if !ok {
		return Window{}, Errorf(InvalidWindow, "%s is not the start of an arrival window of %s within %d days",
			t.UTC().Format(time.RFC3339), b.Name, b.BooksUpToDaysAhead)
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

// ExpireLapsed moves every pending_payment request whose payment hold has
// lapsed at now to expired, each with the Lifecycle's effects (its window
// opens again, its phone's count goes down). It is safe to run twice or
// concurrently: a request already moved is skipped, never moved twice.
func (m *Mover) ExpireLapsed(ctx context.Context, now time.Time) (SweepResult, error) {
	var expired, skipped atomic.Int64
	var failed error // the moves that failed; the sweep goes on past them
	err := m.store.LapsedPayments(ctx, now, func(codes []string) error {
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			firstErr error
			next     = make(chan string)
		)
		for range min(sweepWorkers, len(codes)) {
			wg.Go(func() {
				for code := range next {
					_, err := m.move(ctx, MoveInput{Code: code, Action: ActionExpire, Actor: ActorSystem}, now)
					switch {
					case err == nil:
						expired.Add(1)
					case ErrorCode(err) == InvalidTransition:
						skipped.Add(1)
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
		// A request that cannot be expired must not keep every request
		// after it (in later pages and shards) from being swept, sweep
		// after sweep: only a cancelled ctx ends the sweep early.
		failed = errors.Join(failed, firstErr)
		return ctx.Err()
	})
	return SweepResult{Expired: int(expired.Load()), Skipped: int(skipped.Load())}, errors.Join(err, failed)
}
