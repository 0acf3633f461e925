package pages_test

import (
	"context"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"github.com/doorstep/doorstep/pkg/booking"
)

// The person's "Add to calendar": offered once the business accepts, a
// .ics of one event with the feed's UID, its SEQUENCE raised by a move,
// the window in the business's time zone, nothing of the person but the
// city; gone again once cancelled.
func TestCalendarEvent(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	const slug = "desert-cool-hvac" // America/Phoenix, no deposit
	c := f.create(t, slug, "85006", "es", 1)
	icsPath := "/r/" + c.Code + ".ics"

	res := f.do(t, "GET", "/r/"+c.Code, nil)
	wantNotIn(t, res.body, icsPath, "Añadir al calendario")
	if res := f.do(t, "GET", icsPath, nil); res.status != 404 {
		t.Fatalf("before accept: got %d, want the 404 page", res.status)
	}

	f.businessMove(t, slug, c.Code, booking.ActionAccept, "")
	res = f.do(t, "GET", "/r/"+c.Code, nil)
	wantIn(t, res.body, `href="`+icsPath+`"`, "Añadir al calendario")

	feed, err := f.bookings.BusinessFeed(ctx, f.business(t, slug))
	if err != nil || len(feed.Events) != 1 {
		t.Fatalf("feed: got %+v, %v", feed, err)
	}
	event := func() *ics.VEvent {
		t.Helper()
		res := f.do(t, "GET", icsPath, nil)
		if res.status != 200 || res.header.Get("Content-Type") != "text/calendar; charset=utf-8" {
			t.Fatalf("got %d %s %s", res.status, res.header.Get("Content-Type"), res.body)
		}
		wantNotIn(t, res.body, personName, street, unit, personEmail, personPhone)
		cal, err := ics.ParseCalendar(strings.NewReader(res.body))
		if err != nil {
			t.Fatalf("not iCalendar: %v\n%s", err, res.body)
		}
		if len(cal.Events()) != 1 {
			t.Fatalf("got %d events, want 1", len(cal.Events()))
		}
		return cal.Events()[0]
	}
	check := func(e *ics.VEvent, seq string) {
		t.Helper()
		r := f.request(t, c.Code)
		if got, want := e.Id(), feed.Events[0].UID; got != want || want != c.Code+"@book.example.com" {
			t.Errorf("UID %q, want the feed's %q", got, want)
		}
		if got := e.GetProperty(ics.ComponentPropertySequence).Value; got != seq {
			t.Errorf("SEQUENCE %s, want %s", got, seq)
		}
		if got := e.GetProperty(ics.ComponentPropertyStatus).Value; got != "CONFIRMED" {
			t.Errorf("STATUS %s", got)
		}
		dt := e.GetProperty(ics.ComponentPropertyDtStart)
		phoenix, _ := time.LoadLocation("America/Phoenix")
		if dt.ICalParameters["TZID"][0] != "America/Phoenix" || dt.Value != r.Window.Start.In(phoenix).Format("20060102T150405") {
			t.Errorf("DTSTART;%v:%s, want the window %v in America/Phoenix", dt.ICalParameters, dt.Value, r.Window.Start)
		}
		if at, err := e.GetStartAt(); err != nil || !at.Equal(r.Window.Start) {
			t.Errorf("start %v %v, want %v", at, err, r.Window.Start)
		}
		if end, err := e.GetEndAt(); err != nil || !end.Equal(r.Window.End) {
			t.Errorf("end %v %v, want %v", end, err, r.Window.End)
		}
		desc := e.GetProperty(ics.ComponentPropertyDescription).Value
		if !strings.Contains(desc, siteURL+"/r/"+c.Code) || !strings.Contains(desc, "Horario de llegada") {
			t.Errorf("DESCRIPTION %q, want the status page, in Spanish", desc)
		}
		if got := e.GetProperty(ics.ComponentPropertyLocation).Value; got != city {
			t.Errorf("LOCATION %q, want the city alone", got)
		}
	}
	check(event(), "0")

	// The business moves the visit: the same UID, SEQUENCE 1, the new time.
	r := f.request(t, c.Code)
	var to string
	for _, w := range f.windows(t, slug, r.Window.Date, 2) {
		if !w.Start.Equal(r.Window.Start) {
			to = w.Start.Format(time.RFC3339)
			break
		}
	}
	f.businessMove(t, slug, c.Code, booking.ActionMove, to)
	check(event(), "1")

	// Cancelled: no visit, no event, no link.
	if _, err := f.bookings.CustomerCancel(ctx, c.Code); err != nil {
		t.Fatal(err)
	}
	if res := f.do(t, "GET", icsPath, nil); res.status != 404 {
		t.Errorf("after cancel: got %d, want the 404 page", res.status)
	}
	wantNotIn(t, f.do(t, "GET", "/r/"+c.Code, nil).body, icsPath)
	if res := f.do(t, "GET", "/r/ZZZZ-ZZZZ-ZZZZ.ics", nil); res.status != 404 {
		t.Errorf("unknown code: got %d, want the 404 page", res.status)
	}
}
