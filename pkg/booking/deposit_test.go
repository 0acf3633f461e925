package booking

import (
	"context"
	"slices"
	"testing"
	"time"
)

// depositRequest is a request of deposit-plumbing (America/New_York, 24
// free-cancellation hours) for the window Sunday 2026-11-01 10:00-12:00
// EST, the day clocks fall back: 24 real hours before its start is 11:00
// EDT on Saturday, not 10:00.
func depositRequest(status Status, state string, moved bool) Request {
	start := time.Date(2026, 11, 1, 15, 0, 0, 0, time.UTC)
	return Request{
		Code: "7K3M-Q9TD-2HXA", BusinessSlug: "deposit-plumbing", Status: status,
		Window:            Window{Date: "2026-11-01", Start: start, End: start.Add(2 * time.Hour)},
		ChangedByBusiness: moved,
		Created:           time.Date(2026, 10, 25, 12, 0, 0, 0, time.UTC),
		HoldExpires:       time.Date(2026, 10, 25, 12, 30, 0, 0, time.UTC),
		Deposit: &DepositRecord{AmountCents: 4500, Currency: "usd", FreeCancellationHours: 24, State: state,
			Since: time.Date(2026, 10, 25, 12, 0, 0, 0, time.UTC)},
	}
}

// transition returns the Lifecycle's transition from from by action.
func transition(t *testing.T, from Status, action Action) Transition {
	t.Helper()
	for _, tr := range Lifecycle {
		if tr.From == from && tr.Action == action {
			return tr
		}
	}
	t.Fatalf("no transition from %s by %s", from, action)
	return Transition{}
}

func TestDepositOutcome(t *testing.T) {
	var (
		// 10:30 EDT Saturday: after 10:00 on the local clock, yet 24.5 real
		// hours before the window, so still early.
		early    = time.Date(2026, 10, 31, 14, 30, 0, 0, time.UTC)
		deadline = time.Date(2026, 10, 31, 15, 0, 0, 0, time.UTC)  // exactly 24 h before
		late     = time.Date(2026, 10, 31, 15, 0, 1, 0, time.UTC)  // a second after
		hourLate = time.Date(2026, 10, 31, 15, 30, 0, 0, time.UTC) // 23.5 h before
	)
	tests := []struct {
		name   string
		from   Status
		action Action
		actor  Actor
		state  string
		moved  bool
		now    time.Time
		want   string
	}{
		{"pay", StatusPendingPayment, ActionPay, ActorSystem, DepositDue, false, early, DepositPaid},
		{"pay, record without a state", StatusPendingPayment, ActionPay, ActorSystem, "", false, early, DepositPaid},
		{"expire unpaid", StatusPendingPayment, ActionExpire, ActorSystem, DepositDue, false, early, DepositExpired},
		{"cancel unpaid: nothing was paid", StatusPendingPayment, ActionCancel, ActorCustomer, DepositDue, false, hourLate, DepositCancelled},
		{"accept keeps it paid", StatusNew, ActionAccept, ActorBusiness, DepositPaid, false, early, DepositPaid},
		{"move keeps it paid", StatusNew, ActionMove, ActorBusiness, DepositPaid, false, early, DepositPaid},
		{"decline", StatusNew, ActionDecline, ActorBusiness, DepositPaid, false, hourLate, DepositRefunded},
		{"spam", StatusNew, ActionSpam, ActorBusiness, DepositPaid, false, hourLate, DepositRefunded},
		{"expire unanswered: as a decline", StatusNew, ActionExpire, ActorSystem, DepositPaid, false, hourLate, DepositRefunded},
		{"expire unanswered after the business moved the window", StatusNew, ActionExpire, ActorSystem, DepositPaid, true, hourLate, DepositRefunded},
		{"business cancels, late", StatusAccepted, ActionCancel, ActorBusiness, DepositPaid, false, hourLate, DepositRefunded},
		{"operator cancels, late", StatusAccepted, ActionCancel, ActorOperator, DepositPaid, false, hourLate, DepositRefunded},
		{"customer cancels early: real hours across the DST change", StatusAccepted, ActionCancel, ActorCustomer, DepositPaid, false, early, DepositRefunded},
		{"customer cancels at the deadline", StatusNew, ActionCancel, ActorCustomer, DepositPaid, false, deadline, DepositRefunded},
		{"customer cancels a second late", StatusNew, ActionCancel, ActorCustomer, DepositPaid, false, late, DepositKept},
		{"customer cancels late", StatusAccepted, ActionCancel, ActorCustomer, DepositPaid, false, hourLate, DepositKept},
		{"customer cancels late after the business moved the window", StatusAccepted, ActionCancel, ActorCustomer, DepositPaid, true, hourLate, DepositRefunded},
		{"no-show", StatusAccepted, ActionNoShow, ActorBusiness, DepositPaid, false, hourLate, DepositKept},
		{"no-show after the business moved the window", StatusAccepted, ActionNoShow, ActorBusiness, DepositPaid, true, hourLate, DepositRefunded},
		{"complete", StatusAccepted, ActionComplete, ActorBusiness, DepositPaid, false, hourLate, DepositDeducted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := depositRequest(tt.from, tt.state, tt.moved)
			if got := DepositOutcome(r, transition(t, tt.from, tt.action), tt.actor, tt.now); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("no deposit", func(t *testing.T) {
		r := depositRequest(StatusNew, DepositPaid, false)
		r.Deposit = nil
		if got := DepositOutcome(r, transition(t, StatusNew, ActionDecline), ActorBusiness, early); got != "" {
			t.Errorf("got %q, want none", got)
		}
	})
	t.Run("every outcome is a deposit state", func(t *testing.T) {
		for _, tr := range Lifecycle {
			for _, state := range DepositStates {
				for _, actor := range []Actor{ActorCustomer, ActorBusiness, ActorOperator, ActorSystem} {
					r := depositRequest(tr.From, state, false)
					if got := DepositOutcome(r, tr, actor, late); !slices.Contains(DepositStates, got) {
						t.Errorf("%s %s by %s from deposit %s: got %q, not a deposit state", tr.From, tr.Action, actor, state, got)
					}
				}
			}
		}
	})
	t.Run("a settled deposit stays settled", func(t *testing.T) {
		for _, state := range []string{DepositRefunded, DepositKept, DepositDeducted, DepositExpired, DepositCancelled} {
			for _, tr := range Lifecycle {
				r := depositRequest(tr.From, state, true)
				if got := DepositOutcome(r, tr, ActorCustomer, late); got != state {
					t.Errorf("%s by %s from %s: got %q, want %q", tr.Action, ActorCustomer, state, got, state)
				}
			}
		}
	})
}

func TestDepositAfter(t *testing.T) {
	now := time.Date(2026, 10, 25, 12, 10, 30, 500, time.UTC)
	t.Run("pay records the payment and when", func(t *testing.T) {
		r := depositRequest(StatusPendingPayment, DepositDue, false)
		d := r.depositAfter(transition(t, StatusPendingPayment, ActionPay), ActorSystem, "pi_123", now)
		if d.State != DepositPaid || d.PaymentRef != "pi_123" || !d.Since.Equal(now.Truncate(time.Second)) {
			t.Errorf("got %+v, want paid by pi_123 since %s", d, now.Truncate(time.Second))
		}
		if r.Deposit.State != DepositDue {
			t.Errorf("got the request's own record changed to %s, want it left due", r.Deposit.State)
		}
	})
	t.Run("expire dates the expiry at the hold's end", func(t *testing.T) {
		r := depositRequest(StatusPendingPayment, DepositDue, false)
		d := r.depositAfter(transition(t, StatusPendingPayment, ActionExpire), ActorSystem, "", now.Add(time.Hour))
		if d.State != DepositExpired || !d.Since.Equal(r.HoldExpires) {
			t.Errorf("got %+v, want expired since %s", d, r.HoldExpires)
		}
	})
	t.Run("an unanswered expiry dates the refund at the window's start", func(t *testing.T) {
		r := depositRequest(StatusNew, DepositPaid, false)
		r.Deposit.PaymentRef = "pi_123"
		d := r.depositAfter(transition(t, StatusNew, ActionExpire), ActorSystem, "", r.Window.Start.Add(time.Minute))
		if d.State != DepositRefunded || !d.Since.Equal(r.Window.Start) || d.PaymentRef != "pi_123" {
			t.Errorf("got %+v, want refunded since %s, pi_123", d, r.Window.Start)
		}
		if !RefundOwed(r.Deposit, d) {
			t.Errorf("RefundOwed(%+v, %+v) = false, want true: the payment goes back", r.Deposit, d)
		}
	})
	t.Run("a move that does not touch it keeps the record", func(t *testing.T) {
		r := depositRequest(StatusNew, DepositPaid, false)
		r.Deposit.PaymentRef = "pi_123"
		d := r.depositAfter(transition(t, StatusNew, ActionAccept), ActorBusiness, "", now)
		if d != r.Deposit {
			t.Errorf("got %+v, want the same record %+v", d, r.Deposit)
		}
	})
	t.Run("refund keeps the payment's reference", func(t *testing.T) {
		r := depositRequest(StatusNew, DepositPaid, false)
		r.Deposit.PaymentRef = "pi_123"
		d := r.depositAfter(transition(t, StatusNew, ActionDecline), ActorBusiness, "", now)
		if d.State != DepositRefunded || d.PaymentRef != "pi_123" {
			t.Errorf("got %+v, want refunded, pi_123", d)
		}
	})
}

func TestRefundOwed(t *testing.T) {
	paid := &DepositRecord{State: DepositPaid, PaymentRef: "pi_1"}
	refunded := &DepositRecord{State: DepositRefunded, PaymentRef: "pi_1"}
	tests := []struct {
		name          string
		before, after *DepositRecord
		want          bool
	}{
		{"paid, then refunded", paid, refunded, true},
		{"stored refunded at once", nil, refunded, true},
		{"refunded before", refunded, refunded, false},
		{"kept", paid, &DepositRecord{State: DepositKept, PaymentRef: "pi_1"}, false},
		{"simulated", paid, &DepositRecord{State: DepositRefunded, Simulated: true, PaymentRef: PaymentRefSimulated}, false},
		{"never paid", paid, &DepositRecord{State: DepositRefunded}, false},
		{"no deposit", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RefundOwed(tt.before, tt.after); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// oneRequestStore keeps one request; a move passes if the request is still
// in the move's from state, as the real store's condition says.
type oneRequestStore struct {
	Store
	r     Request
	moves int
}

func (s *oneRequestStore) Request(_ context.Context, code string) (*Request, error) {
	if code != s.r.Code {
		return nil, Errorf(NotFound, "no request %s", code)
	}
	r := s.r
	return &r, nil
}

// Business is the request's business, with its defaults: a paid request
// reaching the inbox gets its nudge from it.
func (s *oneRequestStore) Business(_ context.Context, slug string) (*Business, error) {
	return &Business{Slug: slug}, nil
}

func (s *oneRequestStore) PublicBusiness(ctx context.Context, slug string) (*Business, error) {
	return s.Business(ctx, slug)
}

func (s *oneRequestStore) OwnBusiness(ctx context.Context, slug string) (*Business, error) {
	return s.Business(ctx, slug)
}

func (s *oneRequestStore) RecordLatePayment(_ context.Context, before, after Request) error {
	if s.r.Status != before.Status || s.r.Deposit.State != before.Deposit.State {
		return Errorf(InvalidTransition, "moved")
	}
	s.r = after
	return nil
}

func (s *oneRequestStore) MoveRequest(_ context.Context, before, after Request, t Transition, _ Crews, _ time.Time) error {
	if s.r.Status != t.From {
		return Errorf(InvalidTransition, "moved")
	}
	s.r = after
	s.moves++
	return nil
}

func TestApplyPayment(t *testing.T) {
	now := time.Date(2026, 10, 25, 12, 10, 0, 0, time.UTC)
	payment := Payment{Code: "7K3M-Q9TD-2HXA", Ref: "pi_1", AmountCents: 4500, Currency: "usd", Paid: true}
	tests := []struct {
		name      string
		edit      func(*Request)
		payment   Payment
		at        time.Time
		want      PaymentOutcome
		wantState string
		wantMoves int
	}{
		{"applied", nil, payment, now, PaymentApplied, DepositPaid, 1},
		{"code read leniently", nil, Payment{Code: "7k3m q9td 2hxa", Ref: "pi_1", AmountCents: 4500, Currency: "usd", Paid: true}, now, PaymentApplied, DepositPaid, 1},
		{"the same payment again", func(r *Request) {
			r.Status, r.Deposit.State, r.Deposit.PaymentRef = StatusNew, DepositPaid, "pi_1"
		}, payment, now, PaymentAlreadyApplied, DepositPaid, 0},
		{"another payment of a paid request", func(r *Request) {
			r.Status, r.Deposit.State, r.Deposit.PaymentRef = StatusNew, DepositPaid, "pi_0"
		}, payment, now, PaymentUnwanted, DepositPaid, 0},
		// A late payment is refunded, and the deposit says so (the person is told).
		{"after the hold lapsed", nil, payment, now.Add(time.Hour), PaymentUnwanted, DepositRefunded, 0},
		{"after the person cancelled", func(r *Request) {
			r.Status, r.Deposit.State = StatusCancelled, DepositCancelled
		}, payment, now, PaymentUnwanted, DepositRefunded, 0},
		{"a late payment delivered again: refunded again (idempotent)", func(r *Request) {
			r.Status, r.Deposit.State, r.Deposit.PaymentRef = StatusExpired, DepositRefunded, "pi_1"
		}, payment, now, PaymentUnwanted, DepositRefunded, 0},
		{"another amount", nil, Payment{Code: payment.Code, Ref: "pi_1", AmountCents: 100, Currency: "usd", Paid: true}, now, PaymentUnwanted, DepositDue, 0},
		{"another currency", nil, Payment{Code: payment.Code, Ref: "pi_1", AmountCents: 4500, Currency: "eur", Paid: true}, now, PaymentUnwanted, DepositDue, 0},
		{"a simulated deposit", func(r *Request) { r.Deposit.Simulated = true }, payment, now, PaymentUnwanted, DepositDue, 0},
		{"unknown code", nil, Payment{Code: "ZZZZ-ZZZZ-ZZZZ", Ref: "pi_1", AmountCents: 4500, Currency: "usd", Paid: true}, now, PaymentUnwanted, DepositDue, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := depositRequest(StatusPendingPayment, DepositDue, false)
			if tt.edit != nil {
				tt.edit(&r)
			}
			s := &oneRequestStore{r: r}
			got, err := testBookings(t, Config{Store: s, Now: func() time.Time { return tt.at }, SiteURL: "https://book.example.com"}).ApplyPayment(context.Background(), tt.payment)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || s.r.Deposit.State != tt.wantState || s.moves != tt.wantMoves {
				t.Errorf("got outcome %d, deposit %s, %d moves; want %d, %s, %d", got, s.r.Deposit.State, s.moves, tt.want, tt.wantState, tt.wantMoves)
			}
			if tt.want == PaymentApplied && (s.r.Status != StatusNew || s.r.Deposit.PaymentRef != "pi_1") {
				t.Errorf("got %s paid by %q, want new paid by pi_1", s.r.Status, s.r.Deposit.PaymentRef)
			}
		})
	}
	t.Run("not paid yet", func(t *testing.T) {
		s := &oneRequestStore{r: depositRequest(StatusPendingPayment, DepositDue, false)}
		p := payment
		p.Paid = false
		if _, err := testBookings(t, Config{Store: s, Now: func() time.Time { return now }, SiteURL: "https://book.example.com"}).ApplyPayment(context.Background(), p); ErrorCode(err) != InvalidRequest {
			t.Errorf("got %v, want INVALID_REQUEST", err)
		}
	})
}

func TestMoveStoresTheDepositOutcome(t *testing.T) {
	r := depositRequest(StatusNew, DepositPaid, false)
	r.Deposit.PaymentRef = "pi_1"
	s := &oneRequestStore{r: r}
	at := time.Date(2026, 10, 31, 15, 30, 0, 0, time.UTC) // 23.5 h before the window
	after, err := testBookings(t, Config{Store: s, Now: func() time.Time { return at }, SiteURL: "https://book.example.com"}).CustomerCancel(context.Background(), r.Code)
	if err != nil {
		t.Fatal(err)
	}
	if s.r.Deposit.State != DepositKept || !s.r.Deposit.Since.Equal(at) || after.Deposit.State != DepositKept {
		t.Errorf("got stored %+v, returned %+v; want kept since %s", s.r.Deposit, after.Deposit, at)
	}
	v := statusView(s.r, &Business{}, at)
	if v.Deposit.State != DepositKept || !v.Deposit.Since.Equal(at) || v.Deposit.PayBy != nil {
		t.Errorf("got status deposit %+v, want kept since %s, no pay_by", v.Deposit, at)
	}
}
