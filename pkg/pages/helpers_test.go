package pages_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
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
	phones int // requests sent
	clock  *bookingtest.Clock
	store  *dynamo.Store
	desk   *booking.Desk
	mover  *booking.Mover
	h      http.Handler
}

func newFixture(t *testing.T, config func(*pages.Config)) *fixture {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	f := &fixture{clock: bookingtest.NewClock(start), store: dynamo.New(client, table)}
	dynamotest.PutBusinesses(t, f.store, demoFile, nil)
	f.desk = booking.NewDesk(f.store, siteURL, f.clock.Now)
	f.mover = booking.NewMover(f.store, f.clock.Now)
	c := pages.Config{Desk: f.desk, Mover: f.mover, Now: f.clock.Now, Log: slog.New(slog.DiscardHandler)}
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
	b, err := f.desk.Business(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	from := f.clock.Now().In(b.Location()).AddDate(0, 0, daysAhead).Format("2006-01-02")
	a, err := f.desk.ArrivalWindows(context.Background(), slug, from, "1")
	if err != nil || len(a.Windows) == 0 {
		t.Fatalf("windows of %s on %s: %v %v", slug, from, a.Windows, err)
	}
	body, _ := json.Marshal(map[string]any{
		"window_start": a.Windows[0].Start.Format(time.RFC3339),
		"address":      map[string]string{"street": street, "unit": unit, "city": city, "zip": zip},
		"contact":      map[string]any{"name": personName, "phone": fmt.Sprint(personPhone, f.phones%10), "email": personEmail, "sms_consent": true},
		"description":  "The breaker trips.", "language": lang, "deposit_accepted": true,
	})
	f.phones++
	c, _, err := f.desk.CreateRequest(context.Background(), slug, body, "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fixture) request(t *testing.T, code string) booking.Request {
	t.Helper()
	r, err := f.mover.Request(context.Background(), "", code, booking.ActorSystem)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (f *fixture) move(t *testing.T, in booking.MoveInput) {
	t.Helper()
	if _, err := f.mover.Move(context.Background(), in); err != nil {
		t.Fatalf("%s: %v", in.Action, err)
	}
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
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := openapitest.Serve(t, f.h, req) // every exchange is checked against the OpenAPI document
	return response{status: rec.Code, header: rec.Header(), body: rec.Body.String(), location: rec.Header().Get("Location")}
}

// wantIn fails unless body holds every piece.
func wantIn(t *testing.T, body string, pieces ...string) {
	t.Helper()
	for _, p := range pieces {
		if !strings.Contains(body, p) {
			t.Errorf("the page lacks %q:\n%s", p, body)
		}
	}
}

// wantNotIn fails if body holds any piece.
func wantNotIn(t *testing.T, body string, pieces ...string) {
	t.Helper()
	for _, p := range pieces {
		if strings.Contains(body, p) {
			t.Errorf("the page shows %q, want it left out", p)
		}
	}
}
