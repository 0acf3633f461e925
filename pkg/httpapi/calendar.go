package httpapi

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/ical"
)

// CalendarPrefix is where the businesses' calendar feeds are:
// {SITE_URL}/calendar/{token}.ics.
const CalendarPrefix = booking.FeedPathPrefix

// feedRefresh is how often a subscribed calendar is asked to read the
// feed again; the apps decide (Google reads a feed every few hours).
const feedRefresh = time.Hour

// NewCalendarFeed returns the handler of the businesses' calendar feeds:
//
//	GET /calendar/{token}.ics
//
// The token (booking.NewFeedToken) says which business and proves it; the
// feed (booking.BusinessFeed) is iCalendar, the windows in the business's
// time zone. A wrong, revoked or malformed token, and any other path, is
// a plain 404: the address is the feed's only key. The access log records
// the route pattern, never the token.
func NewCalendarFeed(bookings *booking.Bookings, log *slog.Logger) http.Handler {
	mux := edge.Mux(CalendarRoutes(bookings, log))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { calendarError(w, http.StatusNotFound) })
	return edge.AccessLog(log, mux)
}

// CalendarRoutes is the calendar feed's route table; {token} is the feed
// token followed by ".ics".
func CalendarRoutes(bookings *booking.Bookings, log *slog.Logger) []edge.Route {
	feed := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutSuffix(r.PathValue("token"), ".ics")
		if !ok {
			calendarError(w, http.StatusNotFound)
			return
		}
		ctx := r.Context()
		b, err := bookings.OpenFeed(ctx, token)
		if err == nil {
			var feed booking.CalendarFeed
			if feed, err = bookings.BusinessFeed(ctx, b); err == nil {
				writeCalendar(w, FeedCalendar(feed).Encode())
				return
			}
		}
		if booking.ErrorCode(err) == booking.NotFound {
			calendarError(w, http.StatusNotFound)
			return
		}
		log.ErrorContext(ctx, "calendar feed failed", "error", err.Error())
		calendarError(w, http.StatusInternalServerError)
	})
	return []edge.Route{{Method: http.MethodGet, Path: CalendarPrefix + "{token}", Handler: feed}}
}

// FeedCalendar is a business's feed as iCalendar, in its default language.
func FeedCalendar(f booking.CalendarFeed) ical.Calendar {
	b := f.Business
	lang := b.DefaultLanguage
	c := ical.Calendar{Name: "Doorstep · " + b.Name, Location: b.Location(), Refresh: feedRefresh}
	for _, e := range f.Events {
		words := feedWords[lang]
		if words == nil {
			words = feedWords["en"]
		}
		c.Events = append(c.Events, ical.Event{
			UID: e.UID, Sequence: e.Sequence, Status: eventStatus(e.Status), Stamp: e.Stamp,
			Start: e.Window.Start, End: e.Window.End,
			Summary:     e.Title(lang, e.City),
			Description: words[e.Status] + "\n" + words["inbox"] + " " + e.Link,
			URL:         e.Link,
		})
	}
	return c
}

// feedWords are the feed's descriptions: the request's state, then its
// inbox page.
var feedWords = map[string]map[booking.Status]string{
	"en": {booking.StatusAccepted: "Accepted job.", booking.StatusNew: "New request, not answered yet: accept it or offer another window.", booking.StatusCancelled: "Cancelled.", "inbox": "In your inbox:"},
	"es": {booking.StatusAccepted: "Trabajo aceptado.", booking.StatusNew: "Solicitud nueva, aún sin respuesta: acéptela u ofrezca otro horario.", booking.StatusCancelled: "Cancelada.", "inbox": "En su bandeja:"},
}

// eventStatus is the iCalendar STATUS of a request in state s.
func eventStatus(s booking.Status) string {
	switch s {
	case booking.StatusAccepted:
		return ical.StatusConfirmed
	case booking.StatusCancelled:
		return ical.StatusCancelled
	}
	return ical.StatusTentative
}

// WriteCalendar headers: the feed's address is a secret, so nothing keeps
// or passes it on.
func writeCalendar(w http.ResponseWriter, body []byte) {
	h := w.Header()
	h.Set("Content-Type", ical.ContentType)
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Robots-Tag", "noindex")
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// calendarError is a plain-text answer with nothing in it to learn from.
func calendarError(w http.ResponseWriter, status int) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write([]byte(http.StatusText(status) + "\n"))
}
