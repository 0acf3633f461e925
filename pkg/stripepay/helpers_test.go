package stripepay_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
	"github.com/doorstep/doorstep/pkg/stripepay"
	"github.com/doorstep/doorstep/pkg/stripepay/stripetest"
)

const siteURL = "https://book.example.com"

// start is the fixtures' clock at the beginning: Monday 2026-11-23, 9:00 AM
// in Austin (America/Chicago), where the first open window is 10:00-12:00.
var start = time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)

// fixture is the demo businesses on minidyn, a fake Stripe, the Stripe
// provider over it, and the domain's service on one clock.
type fixture struct {
	clock    *bookingtest.Clock
	store    *dynamo.Store
	stripe   *stripetest.Server
	provider *stripepay.Provider
	bookings *booking.Bookings
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	f := &fixture{clock: bookingtest.NewClock(start), store: dynamo.New(client, table), stripe: stripetest.NewServer(t)}
	f.stripe.Now = f.clock.Now
	dynamotest.PutBusinesses(t, f.store, filepath.Join("..", "..", "infra", "local", "businesses.json"), nil)
	f.provider = stripepay.New(stripepay.Config{
		SecretKey: stripetest.SecretKey, SiteURL: siteURL, APIURL: f.stripe.URL, Now: f.clock.Now,
		Log: slog.New(slog.DiscardHandler),
	})
	f.bookings = bookingtest.New(t, booking.Config{Store: f.store, SiteURL: siteURL, Payments: f.provider, Now: f.clock.Now})
	return f
}

// create sends a request with its deposit accepted to the business slug,
// for its first open window, from a phone of its own.
func (f *fixture) create(t *testing.T, slug, zip, lang string, phone int) booking.Created {
	t.Helper()
	b := mustBusiness(t, f, slug)
	a, err := f.bookings.ArrivalWindows(context.Background(), b, booking.WindowQuery{Days: 7})
	if err != nil || len(a.Windows) == 0 {
		t.Fatalf("windows of %s: %v %v", slug, a.Windows, err)
	}
	in := booking.CreateInput{
		WindowStart: a.Windows[phone%len(a.Windows)].Start,
		Address:     booking.Address{Street: "1 Test St", City: "Austin", ZIP: zip},
		Contact:     booking.Contact{Name: "Test Person", Phone: fmt.Sprintf("512555%04d", phone)},
		Language:    &lang, DepositAccepted: true,
	}
	c, _, err := f.bookings.CreateRequest(context.Background(), b, in)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// request reads a stored request.
func (f *fixture) request(t *testing.T, code string) booking.Request {
	t.Helper()
	r, err := f.bookings.OperatorRequest(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wantLateRefunded checks that the request stays expired and its deposit
// says the late payment was refunded: the person's status page and the API
// tell them.
func (f *fixture) wantLateRefunded(t *testing.T, code, paymentIntent string) {
	t.Helper()
	r := f.request(t, code)
	if r.Effective(f.clock.Now()).Status != booking.StatusExpired || r.Deposit.State != booking.DepositRefunded || r.Deposit.PaymentRef != paymentIntent {
		t.Errorf("got %s, deposit %+v; want expired, refunded %s", r.Status, r.Deposit, paymentIntent)
	}
	if st, err := f.bookings.RequestStatus(context.Background(), code); err != nil || st.Deposit.State != booking.DepositRefunded {
		t.Errorf("status response: got %+v, %v; want the deposit refunded", st.Deposit, err)
	}
}

// serve sends req to h, the webhook or the checkout routes, and checks the
// exchange against the OpenAPI document (openapitest): every test of these
// routes goes through here, and every answer must carry
// X-Content-Type-Options: nosniff.
func serve(t *testing.T, h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	rec := openapitest.Serve(t, h, req)
	if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("%s %s: got X-Content-Type-Options %q (status %d), want nosniff", req.Method, req.URL.Path, got, rec.Code)
	}
	return rec
}
