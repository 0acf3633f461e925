package inboxweb_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/notify"
)

// oneTap stores a one-tap link to request code of slug, as notify does
// for the e-mail that tells the business of it, and returns its path.
func (f *fixture) oneTap(t *testing.T, slug, code string) string {
	t.Helper()
	token, rec, ok := booking.NewRequestLink(f.business(t, slug), code, f.clock.Now())
	if !ok {
		t.Fatalf("%s has no inbox address", slug)
	}
	if err := f.store.PutSignInToken(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(notify.OneTapLink(siteURL, token, code), siteURL)
}

// TestOneTapLink: the new request's link shows one button and changes
// nothing however often it is fetched (mail scanners fetch links); the
// button signs in and opens that request, once; answering still takes its
// own form with the CSRF token; a used or expired link says so and offers
// the sign-in form, which comes back to the request.
func TestOneTapLink(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "mile-high-electric"
	ctx := context.Background()
	code := f.create(t, slug, "", "", 1)
	link := f.oneTap(t, slug, code)

	t.Run("a GET, twice, changes nothing", func(t *testing.T) {
		for range 2 {
			res := f.do(t, agent{}, "GET", link, nil)
			if res.status != http.StatusOK || res.cookie(inboxweb.CookieName) != nil {
				t.Fatalf("got %d, cookie %v, want 200 and no session", res.status, res.cookie(inboxweb.CookieName))
			}
			wantIn(t, res.body, "<h1>Open the request</h1>", `id="sign-in" type="submit">Open the request</button>`,
				`<input type="hidden" name="next" value="/inbox/requests/`+code+`">`)
			wantNotIn(t, res.body, "Quentin", "4417 Wisteria") // nothing of the request before the button
		}
		if r := f.request(t, code); r.Status != booking.StatusNew || len(r.History) != 2 {
			t.Errorf("got %s with %d events, want new, untouched", r.Status, len(r.History))
		}
	})
	var a agent
	t.Run("the button signs in and opens the request", func(t *testing.T) {
		res := f.do(t, agent{}, "POST", link, url.Values{"next": {"/inbox/requests/" + code}})
		c := res.cookie(inboxweb.CookieName)
		if res.status != http.StatusSeeOther || c == nil || res.location != "/inbox/requests/"+code {
			t.Fatalf("got %d to %q, cookie %v, want 303 to the request with a session", res.status, res.location, c)
		}
		a = agent{session: c.Value}
		page := f.do(t, a, "GET", res.location, nil)
		wantIn(t, page.body, `data-state="new"`, personName, `id="accept"`)
		if r := f.request(t, code); r.Status != booking.StatusNew {
			t.Errorf("signing in moved the request to %s", r.Status)
		}
	})
	t.Run("answering still takes the CSRF token", func(t *testing.T) {
		if res := f.do(t, a, "POST", "/inbox/requests/"+code+"/accept", url.Values{}); res.status != http.StatusForbidden {
			t.Errorf("accept without the CSRF token: got %d, want 403", res.status)
		}
		res := f.do(t, a, "POST", "/inbox/requests/"+code+"/accept", url.Values{"csrf": {f.csrf(t, a)}})
		if res.status != http.StatusSeeOther || f.request(t, code).Status != booking.StatusAccepted {
			t.Errorf("accept: got %d, %s, want 303, accepted", res.status, f.request(t, code).Status)
		}
	})
	refused := func(t *testing.T, link string) {
		t.Helper()
		res := f.do(t, agent{}, "POST", link, url.Values{"next": {"/inbox/requests/" + code}})
		if res.status != http.StatusGone || res.cookie(inboxweb.CookieName) != nil {
			t.Fatalf("got %d, cookie %v, want 410 and no session", res.status, res.cookie(inboxweb.CookieName))
		}
		wantIn(t, res.body, "This sign-in link cannot be used any more: it was used already, or it expired.",
			`action="/inbox/sign-in"`, `<input type="hidden" name="next" value="/inbox/requests/`+code+`">`)
	}
	t.Run("a used link is refused", func(t *testing.T) { refused(t, link) })
	t.Run("an expired link is refused", func(t *testing.T) {
		other := f.create(t, slug, "", "", 2)
		late := f.oneTap(t, slug, other)
		f.clock.Add(booking.RequestLinkTTL)
		defer f.clock.Add(-booking.RequestLinkTTL)
		refused(t, late)
		if r := f.request(t, other); r.Status != booking.StatusNew {
			t.Errorf("got %s, want new, untouched", r.Status)
		}
	})
	t.Run("the link opens its own request, whatever next says", func(t *testing.T) {
		other := f.create(t, slug, "", "", 3)
		res := f.do(t, agent{}, "POST", f.oneTap(t, slug, other), url.Values{"next": {"/inbox/settings"}})
		if res.status != http.StatusSeeOther || res.location != "/inbox/requests/"+other {
			t.Errorf("got %d to %q, want 303 to /inbox/requests/%s", res.status, res.location, other)
		}
	})
	t.Run("a link of an old inbox address is refused", func(t *testing.T) {
		other := f.create(t, slug, "", "", 4)
		stale := f.oneTap(t, slug, other)
		err := f.store.UpdateBusiness(ctx, slug, func(stored *booking.Business) (*booking.Business, error) {
			c := *stored
			c.InboxEmail = "new-desk@example.com"
			return &c, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		res := f.do(t, agent{}, "POST", stale, url.Values{})
		if res.status != http.StatusGone {
			t.Errorf("got %d, want 410", res.status)
		}
	})
}
