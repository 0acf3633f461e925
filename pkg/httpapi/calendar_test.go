package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
)

// feedFixture is the inbox fixture with the calendar feeds mounted, and
// feed tokens for split-day-plumbing (A) and all-day-plumbing (B).
type feedFixture struct {
	*inboxFixture
	store        *dynamo.Store
	feedA, feedB string
}

func newFeedFixture(t *testing.T) *feedFixture {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	fx := &feedFixture{inboxFixture: &inboxFixture{clock: bookingtest.NewClock(start)}, store: store}
	dynamotest.PutBusinesses(t, store, "../booking/testdata/businesses.json", func(b *booking.Business) {
		switch b.Slug {
		case "split-day-plumbing":
			fx.tokenA, b.InboxTokenSHA256 = booking.NewInboxToken(b.Slug)
			fx.feedA, b.FeedTokenSHA256 = booking.NewFeedToken(b.Slug)
		case "all-day-plumbing":
			fx.tokenB, b.InboxTokenSHA256 = booking.NewInboxToken(b.Slug)
			fx.feedB, b.FeedTokenSHA256 = booking.NewFeedToken(b.Slug)
		}
	})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	fx.bookings = bookingtest.New(t, booking.Config{Store: store, SiteURL: siteURL, Now: fx.clock.Now})
	mux := http.NewServeMux()
	mux.Handle(httpapi.InboxPrefix+"/", httpapi.NewInbox(fx.bookings, log))
	mux.Handle(httpapi.CalendarPrefix, httpapi.NewCalendarFeed(fx.bookings, log))
	mux.Handle("/", httpapi.New(fx.bookings, log))
	fx.h = mux
	return fx
}

// feed reads a feed through the handler, checked against the document;
// it returns the status and, for a 200, the parsed calendar.
func (fx *feedFixture) feed(t *testing.T, method, path string) (int, *ics.Calendar, []byte) {
	t.Helper()
	rec := openapitest.Serve(t, fx.h, httptest.NewRequest(method, path, nil))
	body := rec.Body.Bytes()
	if rec.Code != 200 {
		if got := rec.Header().Get("Content-Type"); got != "text/plain; charset=utf-8" {
			t.Errorf("%s %s: got %d with Content-Type %q, want plain text", method, path, rec.Code, got)
		}
		return rec.Code, nil, body
	}
	for h, want := range map[string]string{"Content-Type": "text/calendar; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"} {
		if got := rec.Header().Get(h); got != want {
			t.Errorf("%s %s: got %s %q, want %q", method, path, h, got, want)
		}
	}
	cal, err := ics.ParseCalendar(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s: not iCalendar: %v\n%s", path, err, body)
	}
	return rec.Code, cal, body
}

// feedEvents reads a feed that must answer 200 and returns its events by
// UID.
func (fx *feedFixture) feedEvents(t *testing.T, token string) map[string]*ics.VEvent {
	t.Helper()
	status, cal, body := fx.feed(t, "GET", "/calendar/"+token+".ics")
	if status != 200 {
		t.Fatalf("got %d %s, want the feed", status, body)
	}
	events := map[string]*ics.VEvent{}
	for _, e := range cal.Events() {
		events[e.Id()] = e
	}
	return events
}

func prop(e *ics.VEvent, p ics.ComponentProperty) string {
	if v := e.GetProperty(p); v != nil {
		return v.Value
	}
	return ""
}

func uid(code string) string { return code + "@book.example.com" }

func TestCalendarFeed(t *testing.T) {
	fx := newFeedFixture(t)
	ctx := context.Background()
	newCode := fx.create(t, "split-day-plumbing", mon08, "(213) 555-0101")
	moved := fx.create(t, "split-day-plumbing", mon10, "(213) 555-0102")
	cancelled := fx.create(t, "split-day-plumbing", mon15, "(213) 555-0103")
	other := fx.create(t, "all-day-plumbing", mon08, "(213) 555-0104")
	for _, step := range []struct{ code, path, body string }{
		{moved, "/accept", ""},
		{moved, "/move", `{"window_start":"` + mon13 + `"}`},
		{moved, "/move", `{"window_start":"2026-11-24T16:00:00Z"}`}, // Tuesday 08:00
		{cancelled, "/cancel", ""},
	} {
		if res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+step.code+step.path, step.body); res.status != 200 {
			t.Fatalf("%s%s: got %d %s", step.code, step.path, res.status, res.raw)
		}
	}
	// Offering another window answers a new request: it is confirmed at
	// the new window (issue 20).
	offered := fx.create(t, "split-day-plumbing", mon13, "(213) 555-0105")
	if res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+offered+"/move", `{"window_start":"2026-11-24T18:00:00Z"}`); res.status != 200 {
		t.Fatalf("%s/move: got %d %s", offered, res.status, res.raw)
	}
	// Out of range, put straight into the store: a window beyond the
	// horizon (14 days) and one that ended more than 30 days ago.
	b, err := fx.bookings.Business(ctx, "split-day-plumbing")
	if err != nil {
		t.Fatal(err)
	}
	for i, at := range []time.Time{start.AddDate(0, 0, 20), start.AddDate(0, 0, -32)} {
		r := booking.Request{
			Code: []string{"FARF-UTUR-E000", "LONG-PAST-0000"}[i], BusinessSlug: b.Slug, Status: booking.StatusAccepted,
			ServiceName: b.Services[0].Name, Window: booking.Window{Start: at, End: at.Add(2 * time.Hour)},
			Address: booking.Address{Street: "1 Elm St", City: "Pasadena", ZIP: "90012"}, Contact: booking.Contact{Name: "X", Phone: "2135550199"},
			Urgency: "soon", Language: "en", Created: at.AddDate(0, 0, -2),
		}
		if err := fx.store.CreateRequest(ctx, r, nil, bookingtest.Unlimited, r.Created); err != nil {
			t.Fatal(err)
		}
	}

	events := fx.feedEvents(t, fx.feedA)
	if len(events) != 4 {
		t.Errorf("got %d events, want 4: %v", len(events), events)
	}
	if events[uid(other)] != nil {
		t.Errorf("business A's feed has business B's request %s", other)
	}
	for _, c := range []string{"FARF-UTUR-E000", "LONG-PAST-0000"} {
		if events[uid(c)] != nil {
			t.Errorf("got %s, out of the range", c)
		}
	}
	la, _ := time.LoadLocation("America/Los_Angeles")
	tests := []struct {
		code, status, seq, start string
	}{
		{newCode, "TENTATIVE", "0", "20261123T080000"},
		{moved, "CONFIRMED", "2", "20261124T080000"},
		{cancelled, "CANCELLED", "0", "20261123T150000"},
		{offered, "CONFIRMED", "1", "20261124T100000"},
	}
	for _, tt := range tests {
		e := events[uid(tt.code)]
		if e == nil {
			t.Errorf("no event %s", uid(tt.code))
			continue
		}
		if got := prop(e, ics.ComponentPropertyStatus); got != tt.status {
			t.Errorf("%s: STATUS %s, want %s", tt.code, got, tt.status)
		}
		if got := prop(e, ics.ComponentPropertySequence); got != tt.seq {
			t.Errorf("%s: SEQUENCE %s, want %s", tt.code, got, tt.seq)
		}
		dt := e.GetProperty(ics.ComponentPropertyDtStart)
		if dt.Value != tt.start || dt.ICalParameters["TZID"][0] != "America/Los_Angeles" {
			t.Errorf("%s: DTSTART;%v:%s, want TZID=America/Los_Angeles:%s", tt.code, dt.ICalParameters, dt.Value, tt.start)
		}
		at, err := e.GetStartAt()
		want, _ := time.ParseInLocation("20060102T150405", tt.start, la)
		if err != nil || !at.Equal(want) {
			t.Errorf("%s: start %v %v, want %v", tt.code, at, err, want)
		}
		end, err := e.GetEndAt()
		if err != nil || end.Sub(at) != 2*time.Hour {
			t.Errorf("%s: end %v %v, want the 2-hour window", tt.code, end, err)
		}
		if got, want := prop(e, ics.ComponentPropertyDescription), siteURL+"/inbox/requests/"+tt.code; !strings.Contains(got, want) {
			t.Errorf("%s: DESCRIPTION %q, want the inbox link %s", tt.code, got, want)
		}
		if got := prop(e, ics.ComponentPropertySummary); got != "Drain cleaning" {
			t.Errorf("%s: SUMMARY %q", tt.code, got)
		}
	}
	if n := len(fx.feedEvents(t, fx.feedB)); n != 1 {
		t.Errorf("business B's feed: got %d events, want its 1", n)
	}

	// Once its window started, the new request unanswered is expired, and
	// left out; the accepted and the cancelled ones stay, and so does the
	// one an offer answered (it never expires unanswered).
	fx.clock.Set(time.Date(2026, 11, 23, 17, 0, 0, 0, time.UTC))
	events = fx.feedEvents(t, fx.feedA)
	if events[uid(newCode)] != nil || events[uid(moved)] == nil || events[uid(cancelled)] == nil || events[uid(offered)] == nil || len(events) != 3 {
		t.Errorf("after the new request's window started: got %v, want %s, %s and %s", events, moved, cancelled, offered)
	}

	// 40 days on: the windows above ended more than 30 days ago, and the
	// one that was beyond the horizon ended 20 days ago.
	fx.clock.Add(40 * 24 * time.Hour)
	if events := fx.feedEvents(t, fx.feedA); len(events) != 1 || events[uid("FARF-UTUR-E000")] == nil {
		t.Errorf("40 days on: got %v, want FARF-UTUR-E000 alone", events)
	}
}

func TestCalendarFeedNotFound(t *testing.T) {
	fx := newFeedFixture(t)
	ctx := context.Background()
	wrong, _ := booking.NewFeedToken("split-day-plumbing")
	for _, path := range []string{
		"/calendar/" + wrong + ".ics",             // a token that is not the business's
		"/calendar/" + fx.tokenA + ".ics",         // the inbox token opens no feed
		"/calendar/" + fx.feedA,                   // no .ics
		"/calendar/nobody." + wrong[19:] + ".ics", // no such business
		"/calendar/x.ics", "/calendar/", "/calendar/a/b.ics",
		"/calendar/paused-plumbing.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.ics", // a business without a feed
	} {
		if status, _, body := fx.feed(t, "GET", path); status != 404 {
			t.Errorf("%s: got %d %s, want 404", path, status, body)
		}
	}
	if status, _, _ := fx.feed(t, "POST", "/calendar/"+fx.feedA+".ics"); status != 404 {
		t.Errorf("POST: got %d, want 404", status)
	}
	// A new token (as infra/ctl mint-feed-token stores it) revokes the old.
	var fresh string
	err := fx.store.UpdateBusiness(ctx, "split-day-plumbing", func(b *booking.Business) (*booking.Business, error) {
		fresh, b.FeedTokenSHA256 = booking.NewFeedToken(b.Slug)
		return b, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if status, _, _ := fx.feed(t, "GET", "/calendar/"+fx.feedA+".ics"); status != 404 {
		t.Errorf("revoked token: got %d, want 404", status)
	}
	fx.feedEvents(t, fresh)
}
