package inboxweb_test

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestCSRFMaskedPerResponse: each answer carries the session's CSRF token
// masked afresh, so two renders of one page hold different strings, and a
// form with either is accepted. A tampered, cut or unmasked token is
// refused with a sentence (403), never a server error.
func TestCSRFMaskedPerResponse(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	a, first := f.signIn(t, slug)
	second := f.csrf(t, a)
	if first == second {
		t.Fatalf("two renders of the inbox carry one CSRF token %q, want each masked afresh", first)
	}
	for i, token := range []string{first, second} {
		set := []string{"off", "on"}[i]
		res := f.do(t, a, "POST", "/inbox/accepting", url.Values{"csrf": {token}, "accepting_requests": {set}})
		if res.status != http.StatusSeeOther {
			t.Fatalf("accepting_requests=%s with the token of render %d: got %d, want 303:\n%s", set, i+1, res.status, res.body)
		}
	}
	raw, err := base64.RawURLEncoding.DecodeString(first)
	if err != nil || len(raw)%2 != 0 {
		t.Fatalf("the token %q is not base64url of a pad and a masked token", first)
	}
	n := len(raw) / 2
	unmasked := make([]byte, n)
	for i := range unmasked {
		unmasked[i] = raw[i] ^ raw[n+i]
	}
	flipped := []byte(first)
	if flipped[10] == 'A' {
		flipped[10] = 'B'
	} else {
		flipped[10] = 'A'
	}
	tests := []struct {
		name, token string
	}{
		{"one character changed", string(flipped)},
		{"cut by one character", first[:len(first)-1]},
		{"cut in half", first[:len(first)/2]},
		{"the session's token unmasked", string(unmasked)},
		{"not base64url", strings.Repeat("*", len(first))},
		{"10 KB", strings.Repeat("A", 10<<10)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, a, "POST", "/inbox/accepting", url.Values{"csrf": {tt.token}, "accepting_requests": {"off"}})
			if res.status != http.StatusForbidden {
				t.Fatalf("got %d, want 403:\n%s", res.status, res.body)
			}
			wantIn(t, res.body, "This form could not be sent: it is not from your open inbox page.")
			if !f.business(t, slug).AcceptingRequests {
				t.Error("online requests were paused")
			}
		})
	}
}

var languageLink = regexp.MustCompile(`id="lang" href="[^"]*"`)

// TestLanguageLinkRepeatsNoStrangersQuery: a signed-in page's language
// link keeps only the query values the page checked, so that what a link
// from elsewhere puts in the query is never written beside the page's
// data and its CSRF token (BREACH).
func TestLanguageLinkRepeatsNoStrangersQuery(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	code := f.create(t, slug, "", "", 1)
	a, _ := f.signIn(t, slug)
	service := f.business(t, slug).Services[0].ID
	tests := []struct {
		name, path, wantLink string
	}{
		{"the inbox", "/inbox?guess=csrf-AbC&lang=en", `href="/inbox?lang=es"`},
		{"a request", "/inbox/requests/" + code + "?guess=602-555&lang=en", `href="/inbox/requests/` + code + `?lang=es"`},
		{"a service edited", "/inbox/settings/services?edit=" + service + "&guess=x&lang=en", `href="/inbox/settings/services?edit=` + service + `&amp;lang=es"`},
		{"no such service", "/inbox/settings/services?edit=guess-602&lang=en", `href="/inbox/settings/services?lang=es"`},
		{"a new service", "/inbox/settings/services?add=1&lang=en", `href="/inbox/settings/services?add=1&amp;lang=es"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, a, "GET", tt.path, nil)
			wantIn(t, res.body, tt.wantLink)
			wantNotIn(t, res.body, "guess")
		})
	}
	// The export form keeps a date typed wrong in its field, and its
	// language link only the good one.
	res := f.do(t, a, "GET", "/inbox/export.csv?from=2026-11-01&to=guess&lang=en", nil)
	if got, want := languageLink.FindString(res.body), `id="lang" href="/inbox/export.csv?from=2026-11-01&amp;lang=es"`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
