package httpapi_test

import (
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/httpapi"
)

// TestDaysOffAndNotice, through the JSON API: a business whose record
// carries days off and a notice answers getBusiness byte for byte as one
// without them, while its availability and creates follow them.
func TestDaysOffAndNotice(t *testing.T) {
	const slug = "split-day-plumbing"
	apiWith := func(edit func(*booking.Business)) http.Handler {
		client, table := dynamotest.Minidyn(t)
		store := dynamo.New(client, table)
		dynamotest.PutBusinesses(t, store, "../booking/testdata/businesses.json", edit)
		bookings := bookingtest.New(t, booking.Config{Store: store, SiteURL: siteURL, Now: bookingtest.NewClock(start).Now})
		return httpapi.New(bookings, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	plain := apiWith(nil)
	// start is Thursday 16:00 in Los Angeles: 20 hours' notice reaches
	// Friday 12:00; Monday 2026-11-23 is off.
	scheduled := apiWith(func(b *booking.Business) {
		if b.Slug == slug {
			b.DaysOff = []booking.DayOff{{From: "2026-11-23", Note: "Private note"}, {From: "2026-12-24", To: "2026-12-26"}}
			b.MinNoticeMinutes = 20 * 60
		}
	})

	a := call(t, plain, "GET", "/api/v1/businesses/"+slug, "")
	b := call(t, scheduled, "GET", "/api/v1/businesses/"+slug, "")
	if a.status != 200 || b.status != 200 || a.raw != b.raw {
		t.Fatalf("getBusiness differs with days off and notice:\n%d %s\n%d %s", a.status, a.raw, b.status, b.raw)
	}

	count := func(h http.Handler, day string) int {
		t.Helper()
		res := call(t, h, "GET", "/api/v1/businesses/"+slug+"/availability?from="+day+"&days=1", "")
		if res.status != 200 {
			t.Fatalf("got %d %s", res.status, res.raw)
		}
		return len(res.body["windows"].([]any))
	}
	for _, tt := range []struct {
		day             string
		plain, schedule int
	}{
		{"2026-11-20", 4, 2}, // Friday: 08:00 and 10:00 are within the notice
		{"2026-11-23", 4, 0}, // Monday: off
		{"2026-11-24", 4, 4},
	} {
		if got, want := count(plain, tt.day), tt.plain; got != want {
			t.Errorf("%s without a schedule: got %d windows, want %d", tt.day, got, want)
		}
		if got, want := count(scheduled, tt.day), tt.schedule; got != want {
			t.Errorf("%s with the schedule: got %d windows, want %d", tt.day, got, want)
		}
	}

	for _, tt := range []struct {
		window, want string
	}{
		{"2026-11-20T18:00:00Z", "TOO_LATE"},       // Friday 10:00, within the notice
		{"2026-11-23T16:00:00Z", "INVALID_WINDOW"}, // Monday 08:00, a day off
	} {
		res := call(t, scheduled, "POST", "/api/v1/businesses/"+slug+"/requests", requestBody(tt.window, "3235550142"))
		if res.errorCode(t) != tt.want {
			t.Errorf("create for %s: got %d %s, want %s", tt.window, res.status, res.raw, tt.want)
		}
		if res := call(t, plain, "POST", "/api/v1/businesses/"+slug+"/requests", requestBody(tt.window, "3235550143")); res.status != 201 {
			t.Errorf("create for %s without a schedule: got %d %s, want 201", tt.window, res.status, res.raw)
		}
	}
	if res := call(t, scheduled, "POST", "/api/v1/businesses/"+slug+"/requests", requestBody("2026-11-20T21:00:00Z", "3235550144")); res.status != 201 {
		t.Errorf("create after the notice: got %d %s, want 201", res.status, res.raw)
	}
}
