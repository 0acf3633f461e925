package edge_test

// Fuzz targets for the parsers of wire strings. `go test` runs each
// target's seeds (the f.Add calls and testdata/fuzz/<FuzzName>/) as a
// normal test; `make fuzz` runs each target with -fuzz for a while.

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// wantError fails the test unless err is a *booking.Error (not wrapped,
// not any other error, which would reach a client as SERVER_ERROR) with
// code and a message.
func wantError(t *testing.T, stage string, err error, code booking.Code) {
	t.Helper()
	e, ok := err.(*booking.Error)
	if !ok {
		t.Fatalf("%s: got error %T %v, want a *booking.Error", stage, err, err)
	}
	if e.Code != code {
		t.Fatalf("%s: got code %s (%s), want %s", stage, e.Code, e.Message, code)
	}
	if e.Message == "" {
		t.Fatalf("%s: got code %s with an empty message", stage, e.Code)
	}
}

// windowStartPattern is RFC 3339's date-time, read with ParseWindowStart's
// limits: an offset of at most 23:59, a fraction of 1 to 9 digits.
var windowStartPattern = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$`)

func FuzzParseWindowStart(f *testing.F) {
	for _, s := range []string{"2026-11-23T16:00:00Z", "2026-11-23t16:00:00z", "2026-11-23T08:00:00-08:00", "2026-11-23T16:00:00+23:59",
		"2026-11-23T16:00:00+24:00", "2026-11-23T16:00:00+23:60", "2026-11-23T16:00:00+99:99", "2026-12-31T23:59:60Z",
		"2026-11-23T16:00:00,5Z", "2026-11-23T16:00:00.123456789Z", "2026-11-23T16:00:00.1234567891Z", "2026-02-29T16:00:00Z",
		"2026-11-23T16:00:00", "2026-11-23 16:00:00Z", "2026-11-23T16:00:00-00:00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := edge.ParseWindowStart(s)
		// The oracle: the pattern, and a date and time that exist, as Go's
		// RFC 3339 parser reads them once T and Z are upper case.
		want, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
		wantOK := windowStartPattern.MatchString(s) && err == nil
		if ok != wantOK {
			t.Fatalf("ParseWindowStart(%q) = %v, want %v (time.Parse: %v)", s, ok, wantOK, err)
		}
		if !ok {
			return
		}
		if !got.Equal(want) {
			t.Fatalf("ParseWindowStart(%q) = %s, want %s", s, got, want)
		}
		if _, offset := got.Zone(); offset <= -24*3600 || offset >= 24*3600 {
			t.Fatalf("ParseWindowStart(%q) has offset %ds, want less than 24 hours", s, offset)
		}
		if got.Second() == 60 {
			t.Fatalf("ParseWindowStart(%q) accepted a leap second", s)
		}
	})
}

// daysPattern is what ParseDays accepts besides "": an optional sign and
// decimal digits, as strconv.Atoi reads them.
var daysPattern = regexp.MustCompile(`^[+-]?[0-9]+$`)

// FuzzWindowQuery: listArrivalWindows's from and days, as ParseDate and
// ParseDays read them (the window cutter they feed has its own target in
// pkg/booking).
func FuzzWindowQuery(f *testing.F) {
	for _, q := range []struct{ from, days string }{
		{"", ""}, {"2026-11-23", "1"}, {"2026-11-23", "14"}, {"2026-02-29", "7"}, {"2028-02-29", "07"}, {"2026-2-01", "0"},
		{"2026-11-23T00:00:00Z", "15"}, {"tomorrow", "-1"}, {"0000-01-01", "+3"}, {"9999-12-31", "7.5"}, {" 2026-11-23", " 7"},
		{"2026-11-23\x00", "99999999999999999999"}, {"２０２６-11-23", "١"},
	} {
		f.Add(q.from, q.days)
	}
	f.Fuzz(func(t *testing.T, from, days string) {
		day, err := edge.ParseDate("from", from)
		if err != nil {
			wantError(t, "ParseDate", err, booking.InvalidDate)
		} else {
			if day.Location() != time.UTC || day.Hour() != 0 || day.Minute() != 0 || day.Second() != 0 || day.Nanosecond() != 0 {
				t.Fatalf("ParseDate(%q) = %s, want midnight UTC", from, day)
			}
			if got := day.Format(time.DateOnly); got != from {
				t.Fatalf("ParseDate(%q) = %s, want the same day", from, got)
			}
		}

		n, daysErr := edge.ParseDays(days)
		v, convErr := strconv.Atoi(days)
		wantOK := days == "" || daysPattern.MatchString(days) && convErr == nil && 1 <= v && v <= booking.MaxDays
		switch {
		case daysErr != nil:
			wantError(t, "ParseDays", daysErr, booking.InvalidRequest)
			if wantOK {
				t.Fatalf("ParseDays(%q) refused a whole number from 1 to %d", days, booking.MaxDays)
			}
		case !wantOK || n < 1 || n > booking.MaxDays || days == "" && n != booking.DefaultDays || days != "" && n != v:
			t.Fatalf("ParseDays(%q) = %d, want an error or the number, 1 to %d (%d when empty)", days, n, booking.MaxDays, booking.DefaultDays)
		}
	})
}
