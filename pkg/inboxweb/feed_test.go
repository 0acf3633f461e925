package inboxweb_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// feedAddress is a feed's address as the page shows it.
var feedAddress = regexp.MustCompile(`id="feed-address" readonly value="(` + regexp.QuoteMeta(siteURL) + `/calendar/([^"]+)\.ics)"`)

// TestFeedForms: the settings page makes a calendar feed address, shows
// it once, replaces it and stops it; only the token's hash is stored.
func TestFeedForms(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	f.setSchedule(t, slug, func(b *booking.Business) { b.FeedTokenSHA256 = "" }) // the demo file gives it one
	a, csrf := f.signIn(t, slug)
	opens := func(token string) bool {
		t.Helper()
		b, err := f.bookings.OpenFeed(context.Background(), token)
		if err != nil && booking.ErrorCode(err) != booking.NotFound {
			t.Fatal(err)
		}
		return err == nil && b.Slug == slug
	}
	newFeed := func(lang string) (address, token, page string) {
		t.Helper()
		res := f.do(t, a, "POST", "/inbox/settings/feed?lang="+lang, url.Values{"csrf": {csrf}})
		m := feedAddress.FindStringSubmatch(res.body)
		if res.status != http.StatusOK || m == nil {
			t.Fatalf("got %d\n%s\nwant 200 and the feed's address", res.status, res.body)
		}
		if got := res.header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("got Cache-Control %q, want no-store: the address is shown once", got)
		}
		return m[1], m[2], res.body
	}

	wantIn(t, f.do(t, a, "GET", "/inbox/settings", nil).body, "You have no calendar feed.", "Make a new feed address")
	_, first, shown := newFeed("en")
	wantIn(t, shown, "Copy it now: it is shown only this once.")
	if !opens(first) {
		t.Fatal("the address shown opens no feed")
	}
	if got, want := f.business(t, slug).FeedTokenSHA256, booking.HashInboxToken(first); got != want {
		t.Errorf("stored %q, want the token's SHA-256 %q, never the token", got, want)
	}
	page := f.do(t, a, "GET", "/inbox/settings", nil).body
	wantIn(t, page, "Your calendar feed is on.", "A new address stops the old one at once", "Stop the feed")
	wantNotIn(t, page, first)

	address, second, shown := newFeed("es")
	wantIn(t, shown, "Cópiela ahora: solo se muestra esta vez.")
	if !opens(second) {
		t.Error("the second address opens no feed")
	}
	if !strings.HasPrefix(address, siteURL+"/calendar/"+slug+".") {
		t.Errorf("got address %s, want %s/calendar/%s.<secret>.ics", address, siteURL, slug)
	}
	if opens(first) {
		t.Error("the first address still opens the feed after a new one")
	}

	for _, tt := range []struct {
		name string
		who  agent
		form url.Values
		path string
	}{
		{"new, no CSRF token", a, url.Values{}, "/inbox/settings/feed"},
		{"stop, no CSRF token", a, url.Values{}, "/inbox/settings/feed-stop"},
		{"stop, from another site", agent{session: a.session, header: []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}}, url.Values{"csrf": {csrf}}, "/inbox/settings/feed-stop"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := f.business(t, slug).FeedTokenSHA256
			if res := f.do(t, tt.who, "POST", tt.path, tt.form); res.status != http.StatusForbidden {
				t.Errorf("got %d, want 403", res.status)
			}
			if f.business(t, slug).FeedTokenSHA256 != before {
				t.Error("the feed token changed")
			}
		})
	}

	res := f.do(t, a, "POST", "/inbox/settings/feed-stop", url.Values{"csrf": {csrf}})
	if want := "/inbox/settings?done=feed-stopped"; res.status != http.StatusSeeOther || res.location != want {
		t.Fatalf("got %d to %q, want 303 to %q", res.status, res.location, want)
	}
	if f.business(t, slug).FeedTokenSHA256 != "" || opens(second) {
		t.Error("the feed still opens after stopping it")
	}
	wantIn(t, f.do(t, a, "GET", res.location, nil).body, "The calendar feed is stopped", "You have no calendar feed.")
}
