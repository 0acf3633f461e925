package booking

import (
	"context"
	"time"
)

// What became of a request's deposit: DepositRecord.State, and the state
// the status response shows.
const (
	DepositDue      = "due"      // asked for; it can be paid until the hold ends
	DepositPaid     = "paid"     // paid; the business holds it until the job
	DepositRefunded = "refunded" // given back in full
	DepositKept     = "kept"     // kept by the business
	DepositDeducted = "deducted" // taken off the final bill: the job was done
	DepositExpired  = "expired"  // not paid before the hold ended; nothing was charged
	// DepositCancelled: the person cancelled the request before paying;
	// nothing was charged. The list of states has no word for it.
	DepositCancelled = "cancelled"
)

// DepositStates lists every deposit state, in the order of a deposit's life.
var DepositStates = []string{
	DepositDue, DepositPaid, DepositRefunded, DepositKept, DepositDeducted, DepositExpired, DepositCancelled,
}

// DepositOutcome returns the state r's deposit is in after transition t,
// made by actor at now: the spec's deposit rules, as a function of the move
// and of the request as it stands before it. It is "" when r has no
// deposit, and the deposit's own state when the move does not touch it
// (accept, move, or any move after the deposit's fate is settled).
//
//	due:  pay → paid; expire → expired; cancel (before paying) → cancelled
//	paid: decline, spam (not a genuine request) → refunded
//	      expire (the business never answered) → refunded
//	      cancel by the business (or an operator) → refunded
//	      cancel by the person → refunded when the window starts at least
//	        FreeCancellationHours after now, or when the business moved the
//	        window; kept otherwise
//	      no_show → kept; refunded when the business moved the window
//	      complete → deducted
//
// Hours are real hours (a window after a daylight-saving change is still
// counted in elapsed time), and the deadline itself still counts as early.
func DepositOutcome(r Request, t Transition, actor Actor, now time.Time) string {
	d := r.Deposit
	if d == nil {
		return ""
	}
	state := d.State
	if state == "" {
		state = DepositDue // stored before deposits had states
	}
	switch state {
	case DepositDue:
		switch t.Action {
		case ActionPay:
			return DepositPaid
		case ActionExpire:
			return DepositExpired
		case ActionCancel:
			return DepositCancelled
		}
	case DepositPaid:
		switch t.Action {
		case ActionDecline, ActionSpam, ActionExpire:
			// Marked not genuine, or unanswered till its window started:
			// as good as declined, whose rule is a refund.
			return DepositRefunded
		case ActionCancel:
			if actor != ActorCustomer || r.ChangedByBusiness || r.cancelsEarly(now) {
				return DepositRefunded
			}
			return DepositKept
		case ActionNoShow:
			if r.ChangedByBusiness {
				return DepositRefunded
			}
			return DepositKept
		case ActionComplete:
			return DepositDeducted
		}
	}
	return state
}

// cancelsEarly reports whether a cancel at now is early enough for the
// deposit to be refunded: at least FreeCancellationHours before the window.
func (r Request) cancelsEarly(now time.Time) bool {
	return !now.After(r.FreeCancellationUntil())
}

// FreeCancellationUntil is the last instant at which the person may cancel
// with the deposit refunded (the window moved by the business aside).
func (r Request) FreeCancellationUntil() time.Time {
	if r.Deposit == nil {
		return time.Time{}
	}
	return r.Window.Start.Add(-time.Duration(r.Deposit.FreeCancellationHours) * time.Hour)
}

// depositAfter returns r's deposit record as it is after transition t by
// actor at now: DepositOutcome's state, since when, and for a payment the
// provider's reference of it. It is r's own record when nothing changes.
func (r Request) depositAfter(t Transition, actor Actor, paymentRef string, now time.Time) *DepositRecord {
	state := DepositOutcome(r, t, actor, now)
	if r.Deposit == nil || state == r.Deposit.State {
		return r.Deposit
	}
	d := *r.Deposit
	d.State = state
	d.Since = now.UTC().Truncate(time.Second)
	if at := r.LapsesAt(); t.Action == ActionExpire && !at.IsZero() {
		d.Since = at // it lapsed then, whenever the sweep came
	}
	if t.Action == ActionPay {
		d.PaymentRef = paymentRef
	}
	return &d
}

// RefundOwed reports whether the change of a deposit record from before to
// after (one stored move) owes the person their money back through the
// payment provider: the deposit became refunded, it was paid for real, and
// the provider's reference of the payment is known. A simulated deposit
// moves no money either way.
//
// The move stores the refunded state in the same write as the request's
// state; the refund itself happens after, from the table's stream, so a
// crash between the two cannot lose it (the stream delivers the change
// until its handler succeeds), and the provider's refund is idempotent on
// the payment, so a change delivered twice refunds once.
func RefundOwed(before, after *DepositRecord) bool {
	return after != nil && after.State == DepositRefunded && !after.Simulated && after.PaymentRef != "" &&
		(before == nil || before.State != DepositRefunded)
}

// Payments is a payment provider that takes deposits for real (Stripe, in
// pkg/stripepay). Simulated deposits never reach it: their page is the
// service's own, {SITE_URL}/pay/{code} (pkg/pages), where a button moves
// the request on and no money moves.
type Payments interface {
	// Checkout opens a payment of r's deposit to b, payable until the hold
	// ends, and returns the address of the provider's page where the person
	// pays it. The provider learns the request's code and language, the
	// business's name and the amount; never the person's details.
	Checkout(ctx context.Context, r Request, b *Business) (url string, err error)

	// Returned reports the payment made at the checkout named by id, which
	// the provider put in the address it sent the person back to. An id the
	// provider does not know is NOT_FOUND.
	Returned(ctx context.Context, id string) (Payment, error)

	// Refund gives the payment ref for request code back in full. Calling
	// it again for the same payment refunds nothing more and succeeds.
	Refund(ctx context.Context, code, ref string) error
}

// Payment is what a person paid for a request's deposit at the provider.
type Payment struct {
	Code        string // the request the payment is for
	Ref         string // the provider's reference of the payment
	AmountCents int
	Currency    string
	Paid        bool // false while the payment is not complete
}

// PaymentOutcome says what a payment did to its request.
type PaymentOutcome int

const (
	// PaymentApplied: the request moved from pending_payment to new.
	PaymentApplied PaymentOutcome = iota + 1
	// PaymentAlreadyApplied: this payment had moved the request before (a
	// notification delivered again, or the person's return and the
	// provider's notification both reporting it).
	PaymentAlreadyApplied
	// PaymentUnwanted: the request cannot take this payment (its hold
	// lapsed, it was cancelled, another payment paid it, the amount is not
	// the deposit's, its deposit is simulated, or no request has the
	// code). The caller refunds it.
	PaymentUnwanted
)

// ApplyPayment moves the request p is for from pending_payment to new, as
// the payment provider (ActorSystem), recording p.Ref; see PaymentOutcome.
// p must be paid. It is safe to call again with the same payment.
func (s *Bookings) ApplyPayment(ctx context.Context, p Payment) (PaymentOutcome, error) {
	if !p.Paid {
		return 0, Errorf(InvalidRequest, "payment %s is not complete", p.Ref)
	}
	r, err := s.request(ctx, p.Code)
	switch {
	case ErrorCode(err) == NotFound:
		return PaymentUnwanted, nil
	case err != nil:
		return 0, err
	case r.Deposit == nil || r.Deposit.Simulated || p.AmountCents != r.Deposit.AmountCents || p.Currency != r.Deposit.Currency:
		return PaymentUnwanted, nil
	case r.Deposit.PaymentRef == p.Ref && r.Deposit.State == DepositRefunded:
		return PaymentUnwanted, nil // recorded as a late payment: refund it (again; refunds are idempotent)
	case r.Deposit.PaymentRef == p.Ref:
		return PaymentAlreadyApplied, nil
	}
	_, err = s.moveByCode(ctx, r.Code, change{action: ActionPay, actor: ActorSystem, paymentRef: p.Ref})
	if ErrorCode(err) != InvalidTransition {
		if err != nil {
			return 0, err
		}
		return PaymentApplied, nil
	}
	// Moved by someone else just now: by this same payment, or not.
	if r, err = s.request(ctx, p.Code); err != nil {
		return 0, err
	}
	if r.Deposit.PaymentRef == p.Ref {
		return PaymentAlreadyApplied, nil
	}
	return PaymentUnwanted, s.recordLatePayment(ctx, r, p)
}

// recordLatePayment records on r's deposit that payment p came when r could
// no longer take it (its hold had lapsed, or the person had cancelled before
// paying) and is refunded, so that the person's status page and the status
// response say so. A deposit another payment paid is left as it is: that
// payment is the deposit's. A request moved meanwhile is left too.
func (s *Bookings) recordLatePayment(ctx context.Context, r Request, p Payment) error {
	if r.Deposit.PaymentRef != "" {
		return nil
	}
	now := s.now()
	if st := r.Effective(now).Status; st != StatusExpired && st != StatusCancelled {
		return nil
	}
	d := *r.Deposit
	d.State, d.Since, d.PaymentRef = DepositRefunded, now.UTC().Truncate(time.Second), p.Ref
	after := r
	after.Deposit = &d
	if err := s.store.RecordLatePayment(ctx, r, after); err != nil && ErrorCode(err) != InvalidTransition {
		return err
	}
	return nil
}
