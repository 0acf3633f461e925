package stripepay_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

func TestCheckout(t *testing.T) {
	f := newFixture(t)
	c := f.create(t, "austin-rapid-plumbing", "78701", "es", 1)
	sessions := f.stripe.Sessions()
	if len(sessions) != 1 {
		t.Fatalf("got %d sessions, want 1", len(sessions))
	}
	s := sessions[0]
	if c.Status != booking.StatusPendingPayment || c.PaymentURL == nil || *c.PaymentURL != "https://checkout.stripe.com/c/pay/"+s.ID {
		t.Fatalf("got %+v, want pending_payment with the session's URL", c)
	}
	r := f.request(t, c.Code)
	wantForm := map[string]string{
		"mode":                                          "payment",
		"payment_method_types[0]":                       "card",
		"line_items[0][quantity]":                       "1",
		"line_items[0][price_data][currency]":           "usd",
		"line_items[0][price_data][unit_amount]":        "4900",
		"line_items[0][price_data][product_data][name]": "Depósito: Austin Rapid Plumbing",
		"locale":                 "es",
		"client_reference_id":    c.Code,
		"metadata[request_code]": c.Code,
		"payment_intent_data[metadata][request_code]": c.Code,
		"success_url": siteURL + "/pay/" + c.Code + "/return?session_id={CHECKOUT_SESSION_ID}",
		"cancel_url":  siteURL + "/r/" + c.Code,
		// The hold is 30 minutes, shorter than Stripe's least: 31 from now.
		"expires_at": strconv.FormatInt(start.Add(31*time.Minute).Unix(), 10),
	}
	for k, want := range wantForm {
		if got := s.Form.Get(k); got != want {
			t.Errorf("%s: got %q, want %q", k, got, want)
		}
	}
	if !r.HoldExpires.Equal(start.Add(30 * time.Minute)) {
		t.Errorf("got hold until %s, want 30 minutes", r.HoldExpires)
	}
	for k := range s.Form {
		if strings.Contains(k, "email") || strings.Contains(k, "customer") || strings.Contains(s.Form.Get(k), "Test Person") {
			t.Errorf("the session carries %s=%s: Stripe must not learn the person's details", k, s.Form.Get(k))
		}
	}

	t.Run("a hold longer than 31 minutes ends the session", func(t *testing.T) {
		r := r
		r.HoldExpires = start.Add(2 * time.Hour)
		b, _ := f.bookings.Business(context.Background(), r.BusinessSlug)
		if _, err := f.provider.Checkout(context.Background(), r, b); err != nil {
			t.Fatal(err)
		}
		all := f.stripe.Sessions()
		if got, want := all[len(all)-1].Form.Get("expires_at"), strconv.FormatInt(r.HoldExpires.Unix(), 10); got != want {
			t.Errorf("got expires_at %s, want the hold's end %s", got, want)
		}
		if got := all[len(all)-1].Form.Get("locale"); got != "es" {
			t.Errorf("got locale %q, want es", got)
		}
	})
	t.Run("when Stripe fails, payment_url is the service's page", func(t *testing.T) {
		f.stripe.FailNext(400)
		c := f.create(t, "austin-rapid-plumbing", "78701", "en", 2)
		if c.PaymentURL == nil || *c.PaymentURL != siteURL+"/pay/"+c.Code {
			t.Errorf("got %v, want %s/pay/%s", c.PaymentURL, siteURL, c.Code)
		}
		if got := f.request(t, c.Code).Status; got != booking.StatusPendingPayment {
			t.Errorf("got %s, want the request stored pending_payment", got)
		}
	})
	t.Run("a simulated deposit never reaches Stripe", func(t *testing.T) {
		before := len(f.stripe.Sessions())
		c := f.create(t, "mile-high-electric", "80202", "en", 3)
		if c.PaymentURL == nil || *c.PaymentURL != siteURL+"/pay/"+c.Code {
			t.Errorf("got %v, want %s/pay/%s", c.PaymentURL, siteURL, c.Code)
		}
		if got := len(f.stripe.Sessions()); got != before {
			t.Errorf("got %d sessions, want %d", got, before)
		}
	})
}

func TestCheckoutReplay(t *testing.T) {
	f := newFixture(t)
	b := mustBusiness(t, f, "austin-rapid-plumbing")
	a, err := f.bookings.ArrivalWindows(context.Background(), b, booking.WindowQuery{Days: 1})
	if err != nil {
		t.Fatal(err)
	}
	in := booking.CreateInput{
		WindowStart: a.Windows[0].Start, Address: booking.Address{Street: "1 Test St", ZIP: "78701"},
		Contact: booking.Contact{Name: "Test Person", Phone: "5125550100"}, DepositAccepted: true,
		IdempotencyKeys: []string{"replay-key-1"},
	}
	first, _, err := f.bookings.CreateRequest(context.Background(), b, in)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Add(time.Minute)
	again, replayed, err := f.bookings.CreateRequest(context.Background(), b, in)
	if err != nil {
		t.Fatal(err)
	}
	if !replayed || *again.PaymentURL != *first.PaymentURL || again.Code != first.Code {
		t.Errorf("got %+v (replayed %v), want the first answer %+v", again, replayed, first)
	}
	if !strings.HasPrefix(*first.PaymentURL, "https://checkout.stripe.com/") {
		t.Errorf("got payment_url %s, want a Checkout Session's", *first.PaymentURL)
	}
}

func TestReturned(t *testing.T) {
	f := newFixture(t)
	c := f.create(t, "austin-rapid-plumbing", "78701", "en", 1)
	id := f.stripe.Sessions()[0].ID
	ctx := context.Background()

	got, err := f.provider.Returned(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if want := (booking.Payment{Code: c.Code, AmountCents: 4900, Currency: "usd"}); got != want {
		t.Errorf("unpaid: got %+v, want %+v", got, want)
	}
	f.stripe.Pay(t, id, "pi_test_1")
	got, err = f.provider.Returned(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if want := (booking.Payment{Code: c.Code, Ref: "pi_test_1", AmountCents: 4900, Currency: "usd", Paid: true}); got != want {
		t.Errorf("paid: got %+v, want %+v", got, want)
	}
	for _, bad := range []string{"cs_test_9999", "../refunds", "pi_test_1", ""} {
		calls := len(f.stripe.Requests())
		if _, err := f.provider.Returned(ctx, bad); booking.ErrorCode(err) != booking.NotFound {
			t.Errorf("%q: got %v, want NOT_FOUND", bad, err)
		}
		if bad != "cs_test_9999" && len(f.stripe.Requests()) != calls {
			t.Errorf("%q: got a call to Stripe, want none", bad)
		}
	}
}

func TestRefund(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for i := range 2 {
		if err := f.provider.Refund(ctx, "7K3M-Q9TD-2HXA", "pi_test_1"); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	refunds := f.stripe.Refunds()
	if len(refunds) != 1 {
		t.Fatalf("got %d refunds, want 1", len(refunds))
	}
	if r := refunds[0]; r.PaymentIntent != "pi_test_1" || r.IdempotencyKey != "doorstep-refund-pi_test_1" || r.Metadata["request_code"] != "7K3M-Q9TD-2HXA" {
		t.Errorf("got %+v, want pi_test_1 keyed doorstep-refund-pi_test_1 with the code", r)
	}
	t.Run("after Stripe forgot the key: already refunded counts as done", func(t *testing.T) {
		f.stripe.ForgetKeys()
		if err := f.provider.Refund(ctx, "7K3M-Q9TD-2HXA", "pi_test_1"); err != nil {
			t.Fatal(err)
		}
		if got := len(f.stripe.Refunds()); got != 1 {
			t.Errorf("got %d refunds, want 1", got)
		}
	})
	t.Run("a failure is an error", func(t *testing.T) {
		f.stripe.FailNext(400)
		if err := f.provider.Refund(ctx, "7K3M-Q9TD-2HXA", "pi_test_2"); err == nil {
			t.Error("got no error, want one")
		}
	})
}
