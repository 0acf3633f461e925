package inboxweb_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/inboxweb"
)

// feedAddress is a feed's address as the page shows it.
var feedAddress = regexp.MustCompile(`<code id="feed-address-value">(` + regexp.QuoteMeta(siteURL) + `/calendar/([^"<]+)\.ics)</code>`)

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
	// withFeed is a with the cookie a POST of the feed form set.
	withFeed := func(res response) agent {
		t.Helper()
		c := res.cookie("doorstep_inbox_feed")
		if c == nil || c.Path != "/inbox/settings" || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.MaxAge != 600 {
			t.Fatalf("got the feed cookie %+v, want one for /inbox/settings, HttpOnly, SameSite=Strict, 10 minutes", c)
		}
		return agent{header: []string{"Cookie", inboxweb.CookieName + "=" + a.session + "; doorstep_inbox_feed=" + c.Value}}
	}
	newFeed := func(lang string) (address, token, page string) {
		t.Helper()
		res := f.do(t, a, "POST", "/inbox/settings/feed?lang="+lang, url.Values{"csrf": {csrf}})
		if res.status != http.StatusSeeOther || res.location != "/inbox/settings/feed" {
			t.Fatalf("got %d to %q, want 303 to /inbox/settings/feed", res.status, res.location)
		}
		b := withFeed(res)
		before := f.business(t, slug).FeedTokenSHA256
		var m []string
		for range 2 { // a reload shows the same address, and makes none
			res = f.do(t, b, "GET", "/inbox/settings/feed?lang="+lang, nil)
			got := feedAddress.FindStringSubmatch(res.body)
			if res.status != http.StatusOK || got == nil || (m != nil && got[1] != m[1]) {
				t.Fatalf("got %d\n%s\nwant 200 and the feed's address, the same on a reload", res.status, res.body)
			}
			m = got
		}
		if f.business(t, slug).FeedTokenSHA256 != before {
			t.Error("opening the page again changed the feed")
		}
		if got := res.header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("got Cache-Control %q, want no-store", got)
		}
		if csp := res.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'sha256-") {
			t.Errorf("got CSP %q, want the copy script allowed by its hash", csp)
		}
		wantIn(t, res.body, `<button type="button" id="copy" class="secondary" hidden`,
			`<a class="button" id="subscribe" href="webcal://`+strings.TrimPrefix(m[1], "https://")+`">`)
		// Back on the settings page, the cookie ends.
		settings := f.do(t, b, "GET", "/inbox/settings/calendar", nil)
		if c := settings.cookie("doorstep_inbox_feed"); c == nil || c.MaxAge >= 0 {
			t.Errorf("the settings page kept the feed cookie: %+v", c)
		}
		return m[1], m[2], res.body
	}

	wantIn(t, f.do(t, a, "GET", "/inbox/settings/calendar", nil).body, "You have no calendar feed.", "Make a new feed address")
	_, first, shown := newFeed("en")
	wantIn(t, shown, "Copy it now, or subscribe: once you go back to the settings it is not shown again.", "Copy the address", "Subscribe in your calendar app")
	if !opens(first) {
		t.Fatal("the address shown opens no feed")
	}
	if got, want := f.business(t, slug).FeedTokenSHA256, booking.HashInboxToken(first); got != want {
		t.Errorf("stored %q, want the token's SHA-256 %q, never the token", got, want)
	}
	page := f.do(t, a, "GET", "/inbox/settings/calendar", nil).body
	wantIn(t, page, "Your calendar feed is on.", "A new address stops the old one at once", "Stop the feed")
	wantNotIn(t, page, first)

	address, second, shown := newFeed("es")
	wantIn(t, shown, "Cópiela ahora, o suscríbase", "Copiar la dirección", "Suscribirse en su aplicación de calendario")
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

	t.Run("the page without the cookie", func(t *testing.T) {
		if res := f.do(t, a, "GET", "/inbox/settings/feed", nil); res.status != http.StatusSeeOther || res.location != "/inbox/settings/calendar" {
			t.Errorf("got %d to %q, want 303 to the settings' calendar section", res.status, res.location)
		}
	})
	t.Run("the page with the cookie of the address before", func(t *testing.T) {
		old := agent{header: []string{"Cookie", inboxweb.CookieName + "=" + a.session + "; doorstep_inbox_feed=" + first}}
		if res := f.do(t, old, "GET", "/inbox/settings/feed", nil); res.status != http.StatusSeeOther || strings.Contains(res.body, first) {
			t.Errorf("got %d, want 303 and no address", res.status)
		}
	})

	res := f.do(t, a, "POST", "/inbox/settings/feed-stop", url.Values{"csrf": {csrf}})
	if want := "/inbox/settings/calendar?done=feed-stopped"; res.status != http.StatusSeeOther || res.location != want {
		t.Fatalf("got %d to %q, want 303 to %q", res.status, res.location, want)
	}
	if f.business(t, slug).FeedTokenSHA256 != "" || opens(second) {
		t.Error("the feed still opens after stopping it")
	}
	wantIn(t, f.do(t, a, "GET", res.location, nil).body, "The calendar feed is stopped", "You have no calendar feed.")
}
