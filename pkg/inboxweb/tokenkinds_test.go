package inboxweb_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/inboxweb"
)

// TestTokenKindsKeepToTheirRoutes posts each kind of link's token (a
// sign-in link's, a one-tap link's, a new inbox address's, a sign-up's)
// to every other kind's route: each is refused (410) and spends nothing,
// and each then works at its own route.
func TestTokenKindsKeepToTheirRoutes(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "mile-high-electric"
	a, csrf := f.signIn(t, slug)

	f.do(t, agent{}, "POST", "/inbox/sign-in", url.Values{"email": {"inbox@" + slug + ".example.com"}})
	signIn := strings.TrimPrefix(f.mail.last(t).link, siteURL)
	code := f.create(t, slug, "", "", 1)
	oneTap, _, _ := strings.Cut(f.oneTap(t, slug, code), "?")
	if res := f.do(t, a, "POST", "/inbox/settings/inbox-email", url.Values{"csrf": {csrf}, "inbox_email": {"office@" + slug + ".example.com"}}); res.status != http.StatusSeeOther {
		t.Fatalf("asking for a new address's link: got %d", res.status)
	}
	f.mail.mu.Lock()
	change := strings.TrimPrefix(f.mail.changes[len(f.mail.changes)-1].link, siteURL)
	f.mail.mu.Unlock()
	if res := f.do(t, agent{}, "POST", "/start", signupForm("Fontanería José", "plumbing", "jose@fontaneria.example.com", true, "en")); res.status != http.StatusOK {
		t.Fatalf("the sign-up form: got %d", res.status)
	}
	sent := f.mail.signupsSent()
	signup, _, _ := strings.Cut(strings.TrimPrefix(sent[len(sent)-1].link, siteURL), "?")

	// Each link's path, its kind's route (the path without the token) and
	// where its own route's button leads. The new address's link comes
	// last: it ends the sessions the sign-in links open.
	links := []struct {
		name, path, route, location string
	}{
		{"sign-in", signIn, "/inbox/sign-in/", "/inbox"},
		{"one-tap", oneTap, "/inbox/sign-in/", "/inbox/requests/" + code},
		{"sign-up", signup, "/start/", "/inbox"},
		{"new inbox address", change, "/inbox/email/", "/inbox/settings/texts?done=inbox-email"},
	}
	routes := []string{"/inbox/sign-in/", "/inbox/email/", "/start/"}
	for _, l := range links {
		token, ok := strings.CutPrefix(l.path, l.route)
		if !ok || token == "" {
			t.Fatalf("%s: the link %q is not on %s", l.name, l.path, l.route)
		}
		for _, route := range routes {
			if route == l.route {
				continue
			}
			t.Run(l.name+" at "+route, func(t *testing.T) {
				res := f.do(t, agent{}, "POST", route+token, url.Values{})
				if res.status != http.StatusGone || res.cookie(inboxweb.CookieName) != nil {
					t.Errorf("got %d, cookie %v, want 410 and no session", res.status, res.cookie(inboxweb.CookieName))
				}
			})
		}
	}
	for _, l := range links {
		t.Run(l.name+" at its own route after", func(t *testing.T) {
			form := url.Values{}
			if l.name == "one-tap" {
				form.Set("next", l.location)
			}
			res := f.do(t, agent{}, "POST", l.path, form)
			if res.status != http.StatusSeeOther || res.location != l.location || res.cookie(inboxweb.CookieName) == nil {
				t.Errorf("got %d to %q, cookie %v, want 303 to %s with a session\n%s", res.status, res.location, res.cookie(inboxweb.CookieName), l.location, f.log)
			}
		})
	}
}
