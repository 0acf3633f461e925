package inboxweb_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestSameSite: a form is taken only when the browser's headers show it
// comes from this site (https://book.example.com), its whole origin; the
// session and its CSRF token are valid in every case.
func TestSameSite(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	a, csrf := f.signIn(t, slug)
	tests := []struct {
		name   string
		header []string // over the default Sec-Fetch-Site: same-origin; "" is not sent
		want   int
	}{
		{"Origin and Sec-Fetch-Site of this site", []string{"Origin", siteURL}, http.StatusSeeOther},
		{"Sec-Fetch-Site same-origin, no Origin", nil, http.StatusSeeOther},
		{"Sec-Fetch-Site same-origin, Origin null (no-referrer pages)", []string{"Origin", "null"}, http.StatusSeeOther},
		{"Sec-Fetch-Site none", []string{"Sec-Fetch-Site", "none", "Origin", siteURL}, http.StatusSeeOther},
		{"Origin only", []string{"Sec-Fetch-Site", "", "Origin", siteURL}, http.StatusSeeOther},
		{"Origin with the default port", []string{"Sec-Fetch-Site", "", "Origin", "https://BOOK.example.com:443"}, http.StatusSeeOther},
		{"Referer of this site only", []string{"Sec-Fetch-Site", "", "Origin", "", "Referer", siteURL + "/inbox/settings"}, http.StatusSeeOther},

		{"no Origin, a foreign Referer", []string{"Sec-Fetch-Site", "", "Origin", "", "Referer", "http://evil.example/x"}, http.StatusForbidden},
		{"no Origin, Referer nor Sec-Fetch-Site", []string{"Sec-Fetch-Site", "", "Origin", ""}, http.StatusForbidden},
		{"Origin over http", []string{"Sec-Fetch-Site", "", "Origin", "http://book.example.com"}, http.StatusForbidden},
		{"Origin on another port", []string{"Sec-Fetch-Site", "", "Origin", "https://book.example.com:8443"}, http.StatusForbidden},
		{"Origin of a subdomain", []string{"Sec-Fetch-Site", "", "Origin", "https://evil.book.example.com"}, http.StatusForbidden},
		{"Origin null alone", []string{"Sec-Fetch-Site", "", "Origin", "null"}, http.StatusForbidden},
		{"Referer over http", []string{"Sec-Fetch-Site", "", "Origin", "", "Referer", "http://book.example.com/inbox"}, http.StatusForbidden},
		{"Sec-Fetch-Site cross-site, Origin of this site", []string{"Sec-Fetch-Site", "cross-site", "Origin", siteURL}, http.StatusForbidden},
		{"Sec-Fetch-Site same-site", []string{"Sec-Fetch-Site", "same-site"}, http.StatusForbidden},
		{"Sec-Fetch-Site same-origin, a foreign Origin", []string{"Origin", "https://evil.example"}, http.StatusForbidden},
		{"Sec-Fetch-Site same-origin, Origin over http", []string{"Origin", "http://book.example.com"}, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, agent{session: a.session, header: tt.header}, "POST", "/inbox/settings", url.Values{"csrf": {csrf}, "accepting_requests": {"off"}})
			if res.status != tt.want {
				t.Fatalf("got %d %s, want %d", res.status, res.body, tt.want)
			}
			if paused := !f.business(t, slug).AcceptingRequests; paused != (tt.want == http.StatusSeeOther) {
				t.Errorf("paused %v after a %d", paused, res.status)
			}
			if _, err := f.inbox(t, slug).SetAcceptingRequests(t.Context(), true); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("the sign-in form", func(t *testing.T) {
		before := f.mail.count()
		res := f.do(t, agent{header: []string{"Sec-Fetch-Site", "", "Origin", "", "Referer", "http://evil.example/x"}}, "POST", "/inbox/sign-in", url.Values{"email": {f.business(t, slug).InboxEmail}})
		if res.status != http.StatusForbidden || f.mail.count() != before {
			t.Errorf("got %d and %d e-mails, want 403 and none", res.status, f.mail.count()-before)
		}
	})
}

// TestDuplicatedFields: a form that sends one of its fields twice is
// refused (400), whichever; nothing changes.
func TestDuplicatedFields(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	code := f.create(t, slug, "", "", 1)
	a, csrf := f.signIn(t, slug)
	tests := []struct {
		name, path string
		form       url.Values
	}{
		{"the CSRF token twice", "/inbox/requests/" + code + "/accept", url.Values{"csrf": {csrf, csrf}}},
		{"the deposit twice", "/inbox/requests/" + code + "/decline", url.Values{"csrf": {csrf}, "deposit": {"refunded", "kept"}}},
		{"online requests twice", "/inbox/settings", url.Values{"csrf": {csrf}, "accepting_requests": {"off", "on"}}},
		{"the sign-in address twice", "/inbox/sign-in", url.Values{"email": {f.business(t, slug).InboxEmail, "x@example.com"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.mail.count()
			res := f.do(t, a, "POST", tt.path, tt.form)
			if res.status != http.StatusBadRequest {
				t.Fatalf("got %d, want 400", res.status)
			}
			wantIn(t, res.body, "This form could not be sent: it is not one of your inbox&#39;s forms. Nothing changed.")
			if r := f.request(t, code); r.Status != booking.StatusNew {
				t.Errorf("the request is %s, want new", r.Status)
			}
			if !f.business(t, slug).AcceptingRequests || f.mail.count() != before {
				t.Error("something changed")
			}
		})
	}
}
