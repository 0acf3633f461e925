package stripepay_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/stripepay"
	"github.com/doorstep/doorstep/pkg/stripepay/stripetest"
)

// post sends a webhook event with the given Stripe-Signature header, as
// Stripe sends it.
func post(t *testing.T, h http.Handler, payload []byte, signature string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, stripepay.WebhookPath, bytes.NewReader(payload))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if signature != "" {
		req.Header.Set("Stripe-Signature", signature)
	}
	return serve(t, h, req)
}

func TestWebhook(t *testing.T) {
	f := newFixture(t)
	h := &stripepay.Webhook{Bookings: f.bookings, Payments: f.provider, Secret: stripetest.WebhookSecret, Log: slog.New(slog.DiscardHandler)}

	// paidEvent pays the session of the request with code and returns the
	// checkout.session.completed event Stripe sends for it.
	paidEvent := func(t *testing.T, code, pi string) []byte {
		t.Helper()
		for _, s := range f.stripe.Sessions() {
			if s.Metadata["request_code"] == code {
				f.stripe.Pay(t, s.ID, pi)
				s.PaymentStatus, s.PaymentIntent = "paid", pi
				return stripetest.Event("evt_"+pi, "checkout.session.completed", s)
			}
		}
		t.Fatalf("no session for %s", code)
		return nil
	}

	c := f.create(t, "austin-rapid-plumbing", "78701", "en", 1)
	event := paidEvent(t, c.Code, "pi_test_1")

	t.Run("refused without a valid signature", func(t *testing.T) {
		old := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: event, Secret: stripetest.WebhookSecret, Timestamp: time.Now().Add(-10 * time.Minute)})
		tampered := bytes.Replace(event, []byte(`"amount_total":4900`), []byte(`"amount_total":1`), 1)
		for name, rec := range map[string]*httptest.ResponseRecorder{
			"no header":      post(t, h, event, ""),
			"another secret": post(t, h, event, stripetest.Sign(event, "whsec_other")),
			"too old":        post(t, h, event, old.Header),
			"tampered body":  post(t, h, tampered, stripetest.Sign(event, stripetest.WebhookSecret)),
			"garbage header": post(t, h, event, "t=abc,v1="+hex.EncodeToString([]byte("x"))),
		} {
			if rec.Code != http.StatusBadRequest {
				t.Errorf("%s: got %d, want 400", name, rec.Code)
			}
		}
		if got := f.request(t, c.Code).Status; got != booking.StatusPendingPayment {
			t.Errorf("got %s, want still pending_payment", got)
		}
	})
	t.Run("paid: the request is new, its deposit paid by the PaymentIntent", func(t *testing.T) {
		// API Gateway's adapter hands the header over split at its commas.
		t0, v1, _ := strings.Cut(stripetest.Sign(event, stripetest.WebhookSecret), ",")
		req := httptest.NewRequest(http.MethodPost, stripepay.WebhookPath, bytes.NewReader(event))
		req.Header.Add("Stripe-Signature", t0)
		req.Header.Add("Stripe-Signature", v1)
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
		if rec := serve(t, h, req); rec.Code != http.StatusOK {
			t.Fatalf("got %d %s, want 200", rec.Code, rec.Body)
		}
		r := f.request(t, c.Code)
		if r.Status != booking.StatusNew || r.Deposit.State != booking.DepositPaid || r.Deposit.PaymentRef != "pi_test_1" {
			t.Errorf("got %s, deposit %+v; want new, paid by pi_test_1", r.Status, r.Deposit)
		}
	})
	t.Run("the same event again changes nothing", func(t *testing.T) {
		history := len(f.request(t, c.Code).History)
		if rec := post(t, h, event, stripetest.Sign(event, stripetest.WebhookSecret)); rec.Code != http.StatusOK {
			t.Fatalf("got %d %s, want 200", rec.Code, rec.Body)
		}
		if r := f.request(t, c.Code); len(r.History) != history || r.Status != booking.StatusNew {
			t.Errorf("got %s with %d events, want new with %d", r.Status, len(r.History), history)
		}
		if got := f.stripe.Refunds(); len(got) != 0 {
			t.Errorf("got refunds %+v, want none", got)
		}
	})
	t.Run("a late payment is refunded and the request stays expired", func(t *testing.T) {
		late := f.create(t, "austin-rapid-plumbing", "78701", "en", 2)
		f.clock.Add(30 * time.Minute) // the hold lapses; the session is open a minute more
		defer f.clock.Add(-30 * time.Minute)
		e := paidEvent(t, late.Code, "pi_test_late")
		if rec := post(t, h, e, stripetest.Sign(e, stripetest.WebhookSecret)); rec.Code != http.StatusOK {
			t.Fatalf("got %d %s, want 200", rec.Code, rec.Body)
		}
		refunds := f.stripe.Refunds()
		if len(refunds) != 1 || refunds[0].PaymentIntent != "pi_test_late" || refunds[0].Metadata["request_code"] != late.Code {
			t.Errorf("got refunds %+v, want pi_test_late's", refunds)
		}
		f.wantLateRefunded(t, late.Code, "pi_test_late")
		// Delivered again: refunded once.
		if rec := post(t, h, e, stripetest.Sign(e, stripetest.WebhookSecret)); rec.Code != http.StatusOK {
			t.Fatalf("again: got %d, want 200", rec.Code)
		}
		if got := len(f.stripe.Refunds()); got != 1 {
			t.Errorf("got %d refunds, want 1", got)
		}
	})
	t.Run("a second payment of a paid request is refunded", func(t *testing.T) {
		before := len(f.stripe.Refunds())
		e := stripetest.Event("evt_second", "checkout.session.completed", stripetest.Session{
			ID: "cs_test_other", AmountTotal: 4900, Currency: "usd", PaymentStatus: "paid", PaymentIntent: "pi_test_second",
			Metadata: map[string]string{"request_code": c.Code},
		})
		if rec := post(t, h, e, stripetest.Sign(e, stripetest.WebhookSecret)); rec.Code != http.StatusOK {
			t.Fatalf("got %d %s, want 200", rec.Code, rec.Body)
		}
		if got := f.stripe.Refunds(); len(got) != before+1 || got[before].PaymentIntent != "pi_test_second" {
			t.Errorf("got refunds %+v, want pi_test_second's", got)
		}
		if r := f.request(t, c.Code); r.Deposit.PaymentRef != "pi_test_1" {
			t.Errorf("got the deposit paid by %s, want still pi_test_1", r.Deposit.PaymentRef)
		}
	})
	t.Run("a failed refund is a 500, so that Stripe sends the event again", func(t *testing.T) {
		e := stripetest.Event("evt_unknown", "checkout.session.completed", stripetest.Session{
			ID: "cs_test_unknown", AmountTotal: 4900, Currency: "usd", PaymentStatus: "paid", PaymentIntent: "pi_test_unknown",
			Metadata: map[string]string{"request_code": "ZZZZ-ZZZZ-ZZZZ"},
		})
		f.stripe.FailNext(400)
		if rec := post(t, h, e, stripetest.Sign(e, stripetest.WebhookSecret)); rec.Code != http.StatusInternalServerError {
			t.Errorf("got %d, want 500", rec.Code)
		}
		if rec := post(t, h, e, stripetest.Sign(e, stripetest.WebhookSecret)); rec.Code != http.StatusOK {
			t.Errorf("delivered again: got %d, want 200", rec.Code)
		}
		last := f.stripe.Refunds()[len(f.stripe.Refunds())-1]
		if last.PaymentIntent != "pi_test_unknown" {
			t.Errorf("got last refund %+v, want pi_test_unknown's", last)
		}
	})
	t.Run("other events and unpaid sessions change nothing", func(t *testing.T) {
		other := f.create(t, "austin-rapid-plumbing", "78701", "en", 3)
		for i, s := range f.stripe.Sessions() {
			if s.Metadata["request_code"] != other.Code {
				continue
			}
			for _, e := range [][]byte{
				stripetest.Event(fmt.Sprint("evt_unpaid_", i), "checkout.session.completed", s),
				stripetest.Event(fmt.Sprint("evt_expired_", i), "checkout.session.expired", s),
			} {
				if rec := post(t, h, e, stripetest.Sign(e, stripetest.WebhookSecret)); rec.Code != http.StatusOK {
					t.Errorf("got %d, want 200", rec.Code)
				}
			}
		}
		if got := f.request(t, other.Code).Status; got != booking.StatusPendingPayment {
			t.Errorf("got %s, want pending_payment", got)
		}
	})
	t.Run("only POST", func(t *testing.T) {
		rec := serve(t, h, httptest.NewRequest(http.MethodGet, stripepay.WebhookPath, nil))
		if rec.Code != http.StatusMethodNotAllowed || !strings.Contains(rec.Header().Get("Allow"), "POST") {
			t.Errorf("got %d Allow %q, want 405 Allow POST", rec.Code, rec.Header().Get("Allow"))
		}
	})
}
