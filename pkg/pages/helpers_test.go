package pages_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
	"github.com/doorstep/doorstep/pkg/pages"
)

const siteURL = "https://book.example.com"

// demoFile is the local server's demo businesses.
var demoFile = filepath.Join("..", "..", "infra", "local", "businesses.json")

// start is the fixtures' clock at the beginning: Monday 2026-11-23, 8:00 AM
// in Denver (mile-high-electric, simulated deposit) and 9:00 AM in Austin
// (austin-rapid-plumbing, a Stripe deposit).
var start = time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)

// The person's details: none of them but the city may reach a page.
const (
	personName  = "Quentin Zebulon"
	personPhone = "720555014" // and a last digit per request: a phone may have 3 open requests
	personEmail = "quentin.zebulon@example.com"
	street      = "4417 Wisteria Lane"
	unit        = "Apt 9Q"
	city        = "Lakewood"
)

type fixture struct {
	phones   int // requests sent
	clock    *bookingtest.Clock
	store    *dynamo.Store
	bookings *booking.Bookings
	h        http.Handler
}

func newFixture(t *testing.T, config func(*pages.Config)) *fixture {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	f := &fixture{clock: bookingtest.NewClock(start), store: dynamo.New(client, table)}
	dynamotest.PutBusinesses(t, f.store, demoFile, nil)
	f.bookings = bookingtest.New(t, booking.Config{Store: f.store, SiteURL: siteURL, Now: f.clock.Now})
	c := pages.Config{Bookings: f.bookings, Now: f.clock.Now, Log: slog.New(slog.DiscardHandler)}
	if config != nil {
		config(&c)
	}
	f.h = pages.New(c)
	return f
}

// create sends a request to slug, with its deposit accepted, for the first
// open window daysAhead days from today in the business's time zone.
func (f *fixture) create(t *testing.T, slug, zip, lang string, daysAhead int) booking.Created {
	t.Helper()
	b := f.business(t, slug)
	from := f.clock.Now().In(b.Location()).AddDate(0, 0, daysAhead)
	w := f.windows(t, slug, from.Format("2006-01-02"), 1)
	if len(w) == 0 {
		t.Fatalf("no open window of %s on %s", slug, from.Format("2006-01-02"))
	}
	in := booking.CreateInput{
		WindowStart: w[0].Start,
		Address:     booking.Address{Street: street, Unit: unit, City: city, ZIP: zip},
		Contact:     contact(f.phones),
		Description: "The breaker trips.", Language: &lang, DepositAccepted: true,
	}
	f.phones++
	c, _, err := f.bookings.CreateRequest(context.Background(), b, in)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// contact is the person's contact on their nth request: a phone may have
// 3 open requests.
func contact(nth int) booking.Contact {
	n := nth % 10
	return booking.Contact{Name: personName, Phone: fmt.Sprint(personPhone, n), Email: fmt.Sprint(n, personEmail), SMSConsent: true}
}

// business returns the business with the given slug.
func (f *fixture) business(t *testing.T, slug string) *booking.Business {
	return pagetest.Business(t, f.bookings, slug)
}

// windows returns the open windows of slug for days days from the date
// from (YYYY-MM-DD).
func (f *fixture) windows(t *testing.T, slug, from string, days int) []booking.Window {
	return pagetest.Windows(t, f.bookings, f.business(t, slug), from, days)
}

// request reads the stored request with the given code, whoever's it is.
func (f *fixture) request(t *testing.T, code string) booking.Request {
	return pagetest.Request(t, f.bookings, code)
}

// paySimulated pays the simulated deposit of the request with the given
// code, as the simulated payment page does.
func (f *fixture) paySimulated(t *testing.T, code string) {
	t.Helper()
	if _, err := f.bookings.PaySimulated(context.Background(), code); err != nil {
		t.Fatalf("pay: %v", err)
	}
}

// businessMove makes action on the request with the given code as the
// business slug; windowStart is the new window's start for a move.
func (f *fixture) businessMove(t *testing.T, slug, code string, action booking.Action, windowStart string) {
	pagetest.BusinessMove(t, f.bookings, slug, code, action, windowStart)
}

// response is an answer of the pages.
type response struct {
	status   int
	header   http.Header
	body     string
	location string
}

// do sends a request to the pages, form posted when not nil, and checks
// the exchange against the OpenAPI document (openapitest).
func (f *fixture) do(t *testing.T, method, path string, form url.Values, header ...string) response {
	t.Helper()
	req := pagetest.NewRequest(method, path, form, header...)
	res := pagetest.Recorded(openapitest.Serve(t, f.h, req)) // every exchange is checked against the OpenAPI document
	return response{status: res.Status, header: res.Header, body: res.Body, location: res.Location}
}

// wantIn and wantNotIn are pagetest's.
var (
	wantIn    = pagetest.WantIn
	wantNotIn = pagetest.WantNotIn
)
