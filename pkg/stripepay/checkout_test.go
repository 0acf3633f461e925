package stripepay_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/stripepay"
)

// checkoutHandler is the fixture's checkout routes over its fake Stripe.
func (f *fixture) checkoutHandler() http.Handler {
	return stripepay.NewCheckoutHandler(stripepay.CheckoutConfig{
		Bookings: f.bookings, Payments: f.provider, Now: f.clock.Now, Log: slog.New(slog.DiscardHandler),
	})
}

// get sends GET path to h and returns the status and the Location header.
func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := serve(t, h, httptest.NewRequest(http.MethodGet, path, nil))
	if got := rec.Header().Get("Cache-Control"); rec.Code == http.StatusSeeOther && got != "no-store" {
		t.Errorf("%s: got Cache-Control %q, want no-store", path, got)
	}
	return rec.Code, rec.Header().Get("Location")
}

// sessionsOf returns the IDs of the sessions opened for the request code,
// oldest first.
func (f *fixture) sessionsOf(code string) []string {
	var ids []string
	for _, s := range f.stripe.Sessions() {
		if s.Metadata["request_code"] == code {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

func TestCheckoutRoute(t *testing.T) {
	f := newFixture(t)
	h := f.checkoutHandler()
	c := f.create(t, "austin-rapid-plumbing", "78701", "en", 1)

	t.Run("a due deposit: a new session, and the person sent there", func(t *testing.T) {
		status, location := get(t, h, "/pay/"+c.Code+"/checkout")
		ids := f.sessionsOf(c.Code)
		if len(ids) != 2 {
			t.Fatalf("got %d sessions for the request, want 2 (the create's, this one)", len(ids))
		}
		if status != http.StatusSeeOther || location != "https://checkout.stripe.com/c/pay/"+ids[1] {
			t.Errorf("got %d to %q, want 303 to the new session", status, location)
		}
	})
	t.Run("Stripe down: the status page says so", func(t *testing.T) {
		f.stripe.FailNext(400)
		status, location := get(t, h, "/pay/"+c.Code+"/checkout")
		if status != http.StatusSeeOther || location != "/r/"+c.Code+"?done=unavailable" {
			t.Errorf("got %d to %q, want 303 to /r/%s?done=unavailable", status, location, c.Code)
		}
	})
	simulated := f.create(t, "mile-high-electric", "80202", "en", 2)
	lapsed := f.create(t, "austin-rapid-plumbing", "78701", "en", 3)
	f.clock.Add(30 * time.Minute)
	defer f.clock.Set(start)
	for _, tt := range []struct{ name, code string }{
		{"a simulated deposit", simulated.Code},
		{"a hold that lapsed", lapsed.Code},
		{"an unknown code", "ZZZZ-ZZZZ-ZZZZ"},
	} {
		t.Run(tt.name+": the status page, no session", func(t *testing.T) {
			before := len(f.stripe.Sessions())
			status, location := get(t, h, "/pay/"+tt.code+"/checkout")
			if status != http.StatusSeeOther || location != "/r/"+tt.code {
				t.Errorf("got %d to %q, want 303 to /r/%s", status, location, tt.code)
			}
			if got := len(f.stripe.Sessions()); got != before {
				t.Errorf("got %d sessions, want %d", got, before)
			}
		})
	}
	t.Run("only GET", func(t *testing.T) {
		rec := serve(t, h, httptest.NewRequest(http.MethodPost, "/pay/"+c.Code+"/checkout", nil))
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("got %d, want 405", rec.Code)
		}
	})
}

func TestReturnRoute(t *testing.T) {
	f := newFixture(t)
	h := f.checkoutHandler()
	c := f.create(t, "austin-rapid-plumbing", "78701", "es", 1)
	other := f.create(t, "austin-rapid-plumbing", "78701", "en", 2)
	paid := f.sessionsOf(c.Code)[0]
	f.stripe.Pay(t, paid, "pi_test_1")
	back := func(code, id string) (int, string) { return get(t, h, "/pay/"+code+"/return?session_id="+id) }

	t.Run("paid: the request moves on at once", func(t *testing.T) {
		for i := range 2 { // back twice (a reload): paid once
			if status, location := back(c.Code, paid); status != http.StatusSeeOther || location != "/r/"+c.Code+"?done=paid" {
				t.Fatalf("return %d: got %d to %q, want 303 to /r/%s?done=paid", i+1, status, location, c.Code)
			}
		}
		r := f.request(t, c.Code)
		if r.Status != booking.StatusNew || r.Deposit.State != booking.DepositPaid || r.Deposit.PaymentRef != "pi_test_1" || len(r.History) != 2 {
			t.Errorf("got %s, deposit %+v, %d events; want new, paid by pi_test_1, 2 events", r.Status, r.Deposit, len(r.History))
		}
		// The webhook, coming after, finds it done.
		p, err := f.provider.Returned(t.Context(), paid)
		if err != nil {
			t.Fatal(err)
		}
		if out, err := f.bookings.ApplyPayment(t.Context(), p); err != nil || out != booking.PaymentAlreadyApplied {
			t.Errorf("webhook after: got %v %v, want already applied", out, err)
		}
	})
	t.Run("nothing paid, or not for this request: the status page as it is", func(t *testing.T) {
		unpaid := f.sessionsOf(other.Code)[0]
		for _, id := range []string{unpaid, "cs_test_9999", "../refunds", "", paid} {
			if status, location := back(other.Code, id); status != http.StatusSeeOther || location != "/r/"+other.Code {
				t.Errorf("%q: got %d to %q, want 303 to /r/%s", id, status, location, other.Code)
			}
		}
		if got := f.request(t, other.Code).Status; got != booking.StatusPendingPayment {
			t.Errorf("got %s, want pending_payment", got)
		}
		if status, location := back("ZZZZ-ZZZZ-ZZZZ", paid); status != http.StatusSeeOther || location != "/r/ZZZZ-ZZZZ-ZZZZ" {
			t.Errorf("unknown code: got %d to %q, want 303 to its 404", status, location)
		}
		if got := f.stripe.Refunds(); len(got) != 0 {
			t.Errorf("got refunds %+v, want none", got)
		}
	})
	t.Run("a second payment of a paid request is refunded, once", func(t *testing.T) {
		// A second session, opened while the first was still unpaid.
		if _, err := f.provider.Checkout(t.Context(), f.request(t, other.Code), mustBusiness(t, f, "austin-rapid-plumbing")); err != nil {
			t.Fatal(err)
		}
		ids := f.sessionsOf(other.Code)
		f.stripe.Pay(t, ids[0], "pi_test_2")
		f.stripe.Pay(t, ids[1], "pi_test_3")
		if status, location := back(other.Code, ids[0]); status != http.StatusSeeOther || location != "/r/"+other.Code+"?done=paid" {
			t.Fatalf("first: got %d to %q, want done=paid", status, location)
		}
		for i := range 2 {
			if status, location := back(other.Code, ids[1]); status != http.StatusSeeOther || location != "/r/"+other.Code+"?done=refunded" {
				t.Fatalf("second, return %d: got %d to %q, want done=refunded", i+1, status, location)
			}
		}
		if got := f.stripe.Refunds(); len(got) != 1 || got[0].PaymentIntent != "pi_test_3" || got[0].Metadata["request_code"] != other.Code {
			t.Errorf("got refunds %+v, want one of pi_test_3", got)
		}
		if got := f.request(t, other.Code).Deposit.PaymentRef; got != "pi_test_2" {
			t.Errorf("got the deposit paid by %s, want pi_test_2", got)
		}
	})
	t.Run("paid after the hold lapsed: refunded, the request expired", func(t *testing.T) {
		late := f.create(t, "austin-rapid-plumbing", "78701", "en", 3)
		f.clock.Add(30 * time.Minute) // the hold lapses; the session is open a minute more
		defer f.clock.Set(start)
		id := f.sessionsOf(late.Code)[0]
		f.stripe.Pay(t, id, "pi_test_late")
		before := len(f.stripe.Refunds())
		for i := range 2 { // back twice: refunded once
			if status, location := back(late.Code, id); status != http.StatusSeeOther || location != "/r/"+late.Code+"?done=refunded" {
				t.Errorf("return %d: got %d to %q, want done=refunded", i+1, status, location)
			}
		}
		if got := f.stripe.Refunds(); len(got) != before+1 || got[before].PaymentIntent != "pi_test_late" {
			t.Errorf("got refunds %+v, want one more, of pi_test_late", got)
		}
		f.wantLateRefunded(t, late.Code, "pi_test_late")
	})
}

func mustBusiness(t *testing.T, f *fixture, slug string) *booking.Business {
	t.Helper()
	b, err := f.bookings.Business(t.Context(), slug)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
