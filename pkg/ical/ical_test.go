package ical_test

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	ics "github.com/arran4/golang-ical"
	"pgregory.net/rapid"

	"github.com/doorstep/doorstep/pkg/ical"
)

func parse(t *testing.T, data []byte) *ics.Calendar {
	t.Helper()
	cal, err := ics.ParseCalendar(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, data)
	}
	return cal
}

// Every line ends with CR LF and is at most 75 octets; a continuation
// starts with one space.
func checkLines(t *testing.T, data []byte) {
	t.Helper()
	if !bytes.HasSuffix(data, []byte("\r\n")) {
		t.Fatal("does not end with CR LF")
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\r\n"), "\r\n") {
		if len(l) > 75 {
			t.Errorf("line of %d octets: %q", len(l), l)
		}
		if strings.ContainsAny(l, "\r\n") {
			t.Errorf("bare CR or LF in %q", l)
		}
	}
}

func TestEncodeParses(t *testing.T) {
	chicago, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 24, 9, 0, 0, 0, chicago)
	long := strings.Repeat("Calentador de agua; fuga, goteo\\ñ ", 6) + "\nsegunda línea"
	c := ical.Calendar{
		ProdID: "-//Doorstep//Test//EN", Name: "Austin, Rapid; Plumbing", Location: chicago, Refresh: time.Hour,
		Events: []ical.Event{
			{UID: "AAAA-BBBB-CCCC@book.example.com", Sequence: 2, Status: ical.StatusConfirmed,
				Stamp: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC), Start: start, End: start.Add(2 * time.Hour),
				Summary: long, Description: "https://book.example.com/inbox/requests/AAAA-BBBB-CCCC", URL: "https://book.example.com/r/AAAA-BBBB-CCCC"},
			{UID: "DDDD@book.example.com", Status: ical.StatusCancelled, Stamp: start, Start: start.AddDate(0, 5, 0), End: start.AddDate(0, 5, 0).Add(time.Hour), Summary: "x"},
		},
	}
	data := c.Encode()
	checkLines(t, data)
	cal := parse(t, data)
	events := cal.Events()
	if len(events) != 2 {
		t.Fatalf("got %d events", len(events))
	}
	e := events[0]
	if got := e.Id(); got != "AAAA-BBBB-CCCC@book.example.com" {
		t.Errorf("UID %q", got)
	}
	if got := e.GetProperty(ics.ComponentPropertySummary).Value; got != long {
		t.Errorf("summary after folding and escaping:\n got %q\nwant %q", got, long)
	}
	if got := e.GetProperty(ics.ComponentPropertySequence).Value; got != "2" {
		t.Errorf("SEQUENCE %q", got)
	}
	dt := e.GetProperty(ics.ComponentPropertyDtStart)
	if dt.Value != "20261124T090000" || dt.ICalParameters["TZID"][0] != "America/Chicago" {
		t.Errorf("DTSTART %v %q", dt.ICalParameters, dt.Value)
	}
	got, err := e.GetStartAt()
	if err != nil || !got.Equal(start) {
		t.Errorf("start %v %v, want %v", got, err, start)
	}
	if s := events[1].GetProperty(ics.ComponentPropertyStatus).Value; s != "CANCELLED" {
		t.Errorf("STATUS %q", s)
	}

	// The VTIMEZONE has the offsets and changes of the zone: the events
	// of November (CST) and April (CDT) are the instants they were.
	tzs := cal.Timezones()
	if len(tzs) != 1 || tzs[0].GetProperty(ics.ComponentPropertyTzid).Value != "America/Chicago" {
		t.Fatalf("got VTIMEZONEs %v", tzs)
	}
	changes := map[string]string{}
	for _, sub := range tzs[0].SubComponents() {
		var base *ics.ComponentBase
		switch s := sub.(type) {
		case *ics.Standard:
			base = &s.ComponentBase
		case *ics.Daylight:
			base = &s.ComponentBase
		default:
			t.Fatalf("unexpected %T in VTIMEZONE", sub)
		}
		changes[base.GetProperty(ics.ComponentPropertyDtStart).Value] =
			base.GetProperty(ics.ComponentProperty(ics.PropertyTzoffsetfrom)).Value + ">" +
				base.GetProperty(ics.ComponentProperty(ics.PropertyTzoffsetto)).Value
	}
	for at, want := range map[string]string{"20260308T020000": "-0600>-0500", "20261101T020000": "-0500>-0600", "20270314T020000": "-0600>-0500"} {
		if changes[at] != want {
			t.Errorf("change at %s: got %q, want %q (all: %v)", at, changes[at], want, changes)
		}
	}
}

func TestUTCAndNoDST(t *testing.T) {
	phoenix, _ := time.LoadLocation("America/Phoenix")
	start := time.Date(2026, 7, 1, 8, 0, 0, 0, phoenix)
	data := ical.Calendar{ProdID: "-//x//EN", Location: phoenix, Events: []ical.Event{{UID: "u", Stamp: start, Start: start, End: start.Add(time.Hour), Summary: "s"}}}.Encode()
	cal := parse(t, data)
	if n := len(cal.Timezones()[0].SubComponents()); n != 1 {
		t.Errorf("Phoenix: got %d observances, want 1 (no DST)\n%s", n, data)
	}
	data = ical.Calendar{ProdID: "-//x//EN", Events: []ical.Event{{UID: "u", Stamp: start, Start: start, End: start.Add(time.Hour), Summary: "s"}}}.Encode()
	if !bytes.Contains(data, []byte("DTSTART:20260701T150000Z\r\n")) || bytes.Contains(data, []byte("VTIMEZONE")) {
		t.Errorf("UTC calendar:\n%s", data)
	}
}

func TestEscape(t *testing.T) {
	if got := ical.Escape("a\\b;c,d\r\ne\nf"); got != `a\\b\;c\,d\ne\nf` {
		t.Errorf("got %q", got)
	}
}

// Any text survives the writing and a parser's reading: folded lines of
// at most 75 octets, escapes undone, line breaks as \n, other control
// characters dropped.
func TestTextRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.StringOf(rapid.SampledFrom([]rune("aé€😀 ,;:\\\"\r\n\t\x01xyz0"))).Draw(t, "text")
		start := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
		data := ical.Calendar{Events: []ical.Event{{UID: "u", Stamp: start, Start: start, End: start, Summary: "x" + text, Description: text + "y"}}}.Encode()
		for _, l := range strings.Split(string(data), "\r\n") {
			if len(l) > 75 || !utf8.ValidString(l) {
				t.Fatalf("line of %d octets (valid UTF-8: %v): %q", len(l), utf8.ValidString(l), l)
			}
		}
		cal, err := ics.ParseCalendar(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("parse: %v\n%s", err, data)
		}
		want := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\x01", "").Replace(text)
		e := cal.Events()[0]
		if got := e.GetProperty(ics.ComponentPropertySummary).Value; got != "x"+want {
			t.Fatalf("SUMMARY: got %q, want %q\n%s", got, "x"+want, data)
		}
		if got := e.GetProperty(ics.ComponentPropertyDescription).Value; got != want+"y" {
			t.Fatalf("DESCRIPTION: got %q, want %q\n%s", got, want+"y", data)
		}
	})
}
