// Package ical writes iCalendar (RFC 5545): a calendar of events in one
// time zone, with the VTIMEZONE that defines it, lines folded at 75 octets
// and text escaped. It writes only what Doorstep's calendars need; reading
// is left to the calendar apps (the tests read it back with a parser).
package ical

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// ContentType is the media type of what Encode writes.
const ContentType = "text/calendar; charset=utf-8"

// ProdID names Doorstep as the maker of a calendar whose ProdID is "".
const ProdID = "-//Doorstep//Calendar 1.0//EN"

// Calendar is a VCALENDAR.
type Calendar struct {
	ProdID string // "": ProdID
	// Name is the calendar's name in the apps that show one
	// (X-WR-CALNAME); "" for none.
	Name string
	// Location is the time zone the events' times are written in, as
	// TZID=<its name> with a VTIMEZONE for it; UTC (or nil) writes them in
	// UTC.
	Location *time.Location
	// Refresh is how often a subscribed calendar should be read again
	// (REFRESH-INTERVAL, X-PUBLISHED-TTL); 0 for no such hint.
	Refresh time.Duration
	Events  []Event
}

// Event is a VEVENT.
type Event struct {
	UID         string
	Sequence    int
	Status      string // CONFIRMED, TENTATIVE or CANCELLED
	Stamp       time.Time
	Start, End  time.Time
	Summary     string
	Description string
	Location    string // where, as text; "" for none
	URL         string // "" for none
}

// The statuses of an event.
const (
	StatusConfirmed = "CONFIRMED"
	StatusTentative = "TENTATIVE"
	StatusCancelled = "CANCELLED"
)

// Encode writes c as an iCalendar object.
func (c Calendar) Encode() []byte {
	w := &writer{}
	w.line("BEGIN:VCALENDAR")
	w.line("VERSION:2.0")
	prodID := c.ProdID
	if prodID == "" {
		prodID = ProdID
	}
	w.line("PRODID:" + prodID)
	w.line("CALSCALE:GREGORIAN")
	w.line("METHOD:PUBLISH")
	if c.Name != "" {
		w.line("X-WR-CALNAME:" + Escape(c.Name))
	}
	loc := c.Location
	if loc == nil {
		loc = time.UTC
	}
	zoned := loc != time.UTC && loc.String() != "UTC"
	if zoned {
		w.line("X-WR-TIMEZONE:" + loc.String())
	}
	if c.Refresh > 0 {
		d := duration(c.Refresh)
		w.line("REFRESH-INTERVAL;VALUE=DURATION:" + d)
		w.line("X-PUBLISHED-TTL:" + d)
	}
	if zoned {
		from, to := c.span()
		w.timezone(loc, from, to)
	}
	for _, e := range c.Events {
		w.line("BEGIN:VEVENT")
		w.line("UID:" + Escape(e.UID))
		w.line("DTSTAMP:" + utc(e.Stamp))
		if zoned {
			w.line("DTSTART;TZID=" + loc.String() + ":" + local(e.Start.In(loc)))
			w.line("DTEND;TZID=" + loc.String() + ":" + local(e.End.In(loc)))
		} else {
			w.line("DTSTART:" + utc(e.Start))
			w.line("DTEND:" + utc(e.End))
		}
		w.line(fmt.Sprintf("SEQUENCE:%d", e.Sequence))
		if e.Status != "" {
			w.line("STATUS:" + e.Status)
		}
		w.line("SUMMARY:" + Escape(e.Summary))
		if e.Description != "" {
			w.line("DESCRIPTION:" + Escape(e.Description))
		}
		if e.Location != "" {
			w.line("LOCATION:" + Escape(e.Location))
		}
		if e.URL != "" {
			w.line("URL:" + e.URL)
		}
		if e.Status == StatusCancelled {
			w.line("TRANSP:TRANSPARENT")
		}
		w.line("END:VEVENT")
	}
	w.line("END:VCALENDAR")
	return w.buf.Bytes()
}

// span is the time the VTIMEZONE must cover: every event's times, and a
// year either side (a calendar app may show them against other times).
func (c Calendar) span() (from, to time.Time) {
	for i, e := range c.Events {
		if i == 0 || e.Start.Before(from) {
			from = e.Start
		}
		if i == 0 || e.End.After(to) {
			to = e.End
		}
	}
	if len(c.Events) == 0 {
		from = time.Now()
		to = from
	}
	return from.AddDate(-1, 0, 0), to.AddDate(1, 0, 0)
}

// timezone writes the VTIMEZONE of loc over [from, to]: the offset in
// force at from, then each change of offset, as Go's time zone database
// has them, written out one by one (no recurrence rules to get wrong).
func (w *writer) timezone(loc *time.Location, from, to time.Time) {
	w.line("BEGIN:VTIMEZONE")
	w.line("TZID:" + loc.String())
	t := from.In(loc)
	name, offset := t.Zone()
	w.observance(t.IsDST(), local(t.Truncate(time.Hour)), offset, offset, name)
	for {
		_, end := t.ZoneBounds()
		if end.IsZero() || end.After(to) {
			break
		}
		next := end.In(loc)
		nextName, nextOffset := next.Zone()
		// DTSTART is the wall time, in the offset before the change, at
		// which the change happens.
		wall := end.UTC().Add(time.Duration(offset) * time.Second)
		w.observance(next.IsDST(), local(wall), offset, nextOffset, nextName)
		t, offset = next, nextOffset
	}
	w.line("END:VTIMEZONE")
}

func (w *writer) observance(dst bool, start string, from, to int, name string) {
	kind := "STANDARD"
	if dst {
		kind = "DAYLIGHT"
	}
	w.line("BEGIN:" + kind)
	w.line("DTSTART:" + start)
	w.line("TZOFFSETFROM:" + utcOffset(from))
	w.line("TZOFFSETTO:" + utcOffset(to))
	if name != "" {
		w.line("TZNAME:" + Escape(name))
	}
	w.line("END:" + kind)
}

func utc(t time.Time) string   { return t.UTC().Format("20060102T150405Z") }
func local(t time.Time) string { return t.Format("20060102T150405") }

// utcOffset writes seconds east of UTC as RFC 5545's UTC-OFFSET: +hhmm,
// or +hhmmss when there are seconds.
func utcOffset(sec int) string {
	sign := "+"
	if sec < 0 {
		sign, sec = "-", -sec
	}
	s := fmt.Sprintf("%s%02d%02d", sign, sec/3600, sec/60%60)
	if sec%60 != 0 {
		s += fmt.Sprintf("%02d", sec%60)
	}
	return s
}

// duration writes d as RFC 5545's DURATION in whole minutes: PT1H, PT90M.
func duration(d time.Duration) string {
	m := int(d / time.Minute)
	if m%60 == 0 {
		return fmt.Sprintf("PT%dH", m/60)
	}
	return fmt.Sprintf("PT%dM", m)
}

// Escape escapes s as a TEXT value: backslash, semicolon, comma and line
// breaks (a CR LF, CR or LF is one \n). The other control characters,
// which TEXT may not hold (but a tab), are left out.
func Escape(s string) string {
	s = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
	s = strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f {
			return -1
		}
		return r
	}, s)
	return strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\n", `\n`).Replace(s)
}

// writer writes content lines, folded, each ended by CR LF.
type writer struct {
	buf bytes.Buffer
}

// maxLine is the most octets of a line, without its CR LF (RFC 5545 3.1).
const maxLine = 75

// line writes one content line, folded so that no line is longer than
// maxLine octets: each continuation starts with a space, and a UTF-8
// sequence is never split.
func (w *writer) line(s string) {
	limit := maxLine
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		w.buf.WriteString(s[:cut])
		w.buf.WriteString("\r\n ")
		s = s[cut:]
		limit = maxLine - 1 // the leading space counts
	}
	w.buf.WriteString(s)
	w.buf.WriteString("\r\n")
}
