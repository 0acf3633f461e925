package bookform_test

import (
	"context"
	"html"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

const siteURL = "https://book.example.com"

// demoFile is the local server's demo businesses.
var demoFile = filepath.Join("..", "..", "infra", "local", "businesses.json")

// start is the fixtures' clock at the beginning: Monday 2026-11-23, 8:00
// AM in Denver and in Phoenix.
var start = time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)

// key is the tests' form key.
var key = []byte("0123456789abcdef0123456789abcdef")

// The demo businesses the tests use.
const (
	plain   = "desert-cool-hvac"          // en and es, no deposit, ZIP 85004
	spanish = "limpieza-la-estrella"      // es by default, no deposit, ZIP 90026
	preview = "mile-high-electric"        // preview, simulated deposit, ZIP 80202
	paid    = "austin-rapid-plumbing"     // a deposit paid at Stripe, ZIP 78701
	paused  = "hudson-heights-electric"   // online requests paused
	example = "lakeshore-heating-and-air" // made up
)

type fixture struct {
	clock    *bookingtest.Clock
	store    *dynamo.Store
	bookings *booking.Bookings
	h        http.Handler
}

// newFixture serves the form over the demo businesses, each changed by
// edit when it is not nil.
func newFixture(t *testing.T, edit func(*booking.Business)) *fixture {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	f := &fixture{clock: bookingtest.NewClock(start), store: dynamo.New(client, table)}
	dynamotest.PutBusinesses(t, f.store, demoFile, edit)
	f.bookings = bookingtest.New(t, booking.Config{Store: f.store, SiteURL: siteURL, Now: f.clock.Now})
	h, err := bookform.New(bookform.Config{Bookings: f.bookings, Key: key, Now: f.clock.Now, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	f.h = h
	return f
}

// get fetches path; header is name, value pairs.
func (f *fixture) get(t *testing.T, path string, header ...string) pagetest.Response {
	t.Helper()
	return pagetest.Do(t, f.h, "GET", path, nil, header...)
}

// post sends form to slug's form, as the browser does from the form's page.
func (f *fixture) post(t *testing.T, slug string, form url.Values) pagetest.Response {
	t.Helper()
	return pagetest.Do(t, f.h, "POST", bookform.Path+slug, form, "Sec-Fetch-Site", "same-origin")
}

// business returns the business with the given slug.
func (f *fixture) business(t *testing.T, slug string) *booking.Business {
	return pagetest.Business(t, f.bookings, slug)
}

// day is the date daysAhead days from today in slug's time zone.
func (f *fixture) day(t *testing.T, slug string, daysAhead int) string {
	t.Helper()
	return f.clock.Now().In(f.business(t, slug).Location()).AddDate(0, 0, daysAhead).Format("2006-01-02")
}

// windows returns slug's open windows on day (YYYY-MM-DD).
func (f *fixture) windows(t *testing.T, slug, day string) []booking.Window {
	return pagetest.Windows(t, f.bookings, f.business(t, slug), day, 1)
}

// stored returns how many requests slug holds, in any state.
func (f *fixture) stored(t *testing.T, slug string) int {
	t.Helper()
	p, err := f.store.BusinessRequests(context.Background(), booking.RequestQuery{Slug: slug, From: start.AddDate(0, 0, -1), To: start.AddDate(0, 1, 0), Limit: booking.MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	return len(p.Requests)
}

var hidden = regexp.MustCompile(`<input type="hidden" name="([a-z]+)" value="([^"]*)">`)

// filled opens the last step of slug's form for a service, ZIP code and
// day, and returns its hidden fields with a person's answers: the first
// open window, an address, a contact, and the deposit accepted.
func (f *fixture) filled(t *testing.T, slug, service, zip, day string) url.Values {
	t.Helper()
	res := f.get(t, bookform.Path+slug+"?"+url.Values{"service": {service}, "zip": {zip}, "day": {day}}.Encode())
	if res.Status != 200 {
		t.Fatalf("the last step: got %d %s", res.Status, res.Body)
	}
	v := url.Values{}
	for _, m := range hidden.FindAllStringSubmatch(res.Body, -1) {
		v.Set(m[1], html.UnescapeString(m[2]))
	}
	ws := f.windows(t, slug, day)
	if len(ws) == 0 {
		t.Fatalf("no open window of %s on %s", slug, day)
	}
	v.Set("window", ws[0].Start.Format(time.RFC3339))
	v.Set("street", "4417 Wisteria Lane")
	v.Set("unit", "Apt 9Q")
	v.Set("city", "Lakewood")
	v.Set("zip", zip)
	v.Set("name", "Quentin Zebulon")
	v.Set("phone", "(720) 555-0142")
	v.Set("email", "quentin@example.com")
	v.Set("urgency", "soon")
	v.Set("description", "The breaker trips.")
	v.Set("deposit_accepted", "yes")
	return v
}

// with returns a copy of v with name set to value ("" deletes it).
func with(v url.Values, pairs ...string) url.Values {
	c := url.Values{}
	for k, vs := range v {
		c[k] = append([]string(nil), vs...)
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			c.Del(pairs[i])
			continue
		}
		c.Set(pairs[i], pairs[i+1])
	}
	return c
}

// wantIn and wantNotIn are pagetest's.
var (
	wantIn    = pagetest.WantIn
	wantNotIn = pagetest.WantNotIn
)

// developerText is what no page the person reads may show.
var developerText = []string{"contact.name", "contact.phone", "contact.email", "address.street", "address.zip", "window_start",
	"deposit_accepted must", "service_id", "idempotency", "INVALID_", "WINDOW_TAKEN", "TOO_MANY_OPEN", "RATE_LIMITED", "REQUEST_REFUSED", "booking:"}
