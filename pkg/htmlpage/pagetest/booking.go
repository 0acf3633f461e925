package pagetest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/edge"
)

// Business returns the business with the given slug.
func Business(t testing.TB, bookings *booking.Bookings, slug string) *booking.Business {
	t.Helper()
	b, err := bookings.Business(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Windows returns b's open windows for days days from the date from
// (YYYY-MM-DD).
func Windows(t testing.TB, bookings *booking.Bookings, b *booking.Business, from string, days int) []booking.Window {
	t.Helper()
	first, err := edge.ParseDate("from", from)
	if err != nil {
		t.Fatal(err)
	}
	a, err := bookings.ArrivalWindows(context.Background(), b, booking.WindowQuery{From: first, Days: days})
	if err != nil {
		t.Fatalf("windows of %s on %s: %v", b.Slug, from, err)
	}
	return a.Windows
}

// Request reads the stored request with the given code, whoever's it is.
func Request(t testing.TB, bookings *booking.Bookings, code string) booking.Request {
	t.Helper()
	r, err := bookings.OperatorRequest(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// BusinessMove makes action on the request with the given code as the
// business slug, outside the pages (booking.Bookings.OperatorInbox);
// windowStart is the new window's start (RFC 3339) for a move, "" for
// any other action.
func BusinessMove(t testing.TB, bookings *booking.Bookings, slug, code string, action booking.Action, windowStart string) {
	t.Helper()
	var start time.Time
	if windowStart != "" {
		var ok bool
		if start, ok = edge.ParseWindowStart(windowStart); !ok {
			t.Fatalf("%s: window start %q is not RFC 3339", action, windowStart)
		}
	}
	if _, err := bookingtest.Inbox(t, bookings, slug).Move(context.Background(), code, action, start); err != nil {
		t.Fatalf("%s: %v", action, err)
	}
}

// CheckTexts fails for a text that is empty, or that one language has and
// the other does not.
func CheckTexts(t testing.TB, en, es map[string]string) {
	t.Helper()
	langs := map[string]map[string]string{"en": en, "es": es}
	for lang, other := range map[string]string{"en": "es", "es": "en"} {
		for key, s := range langs[lang] {
			if s == "" {
				t.Errorf("%s: %s is empty", lang, key)
			}
			if _, ok := langs[other][key]; !ok {
				t.Errorf("%s has %s, %s does not", lang, key, other)
			}
		}
	}
}

// CheckHeaders fails unless header carries the headers every page carries
// (htmlpage.Site.Headers) with a CSP whose frame-ancestors is
// frameAncestors, and sets no cookie.
func CheckHeaders(t testing.TB, header http.Header, frameAncestors string) {
	t.Helper()
	for k, want := range map[string]string{
		"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
	} {
		if got := header.Get(k); got != want {
			t.Errorf("%s: got %q, want %q", k, got, want)
		}
	}
	csp := header.Get("Content-Security-Policy")
	if !strings.HasPrefix(csp, "default-src 'none'; style-src 'sha256-") || !strings.HasSuffix(csp, "; frame-ancestors "+frameAncestors) {
		t.Errorf("got CSP %q, want only the page's style sheet, and frame-ancestors %s", csp, frameAncestors)
	}
	if c := header.Values("Set-Cookie"); len(c) > 0 {
		t.Errorf("got cookies %v, want none", c)
	}
}
