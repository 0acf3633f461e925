package inboxweb

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/url"
	"slices"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// A signed-in page is gzipped, and it holds the session's CSRF token: if
// it also repeated what a URL's query says, another site could guess the
// token a character at a time from the answers' sizes (BREACH). So the
// token is never written as it is: each session read for a response
// (handler.session) carries it masked afresh, a random pad and the token
// XOR the pad, so no two answers hold the same token string; a form's
// token is accepted when it is a masking of the session's (csrfMatches).
// And a signed-in page's language link repeats only the query values the
// page checked (switchQuery), so that nothing a stranger puts in a link is
// written beside the business's data either.

// maskCSRF is token masked with a fresh random pad: base64url of the pad
// followed by token XOR pad.
func maskCSRF(token string) string {
	b := make([]byte, 2*len(token))
	pad, masked := b[:len(token)], b[len(token):]
	_, _ = rand.Read(pad) // crypto/rand.Read never fails
	for i := range masked {
		masked[i] = token[i] ^ pad[i]
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// unmaskCSRF is the token a masking holds; ok is false when s is no
// masking (not base64url, or of an odd length).
func unmaskCSRF(s string) (token []byte, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) == 0 || len(b)%2 != 0 {
		return nil, false
	}
	n := len(b) / 2
	token = make([]byte, n)
	for i := range token {
		token[i] = b[i] ^ b[n+i]
	}
	return token, true
}

// csrfMatches reports whether sent, a form's token, and mine, the masked
// token of the session (as handler.session gives it), hold the same
// token, compared in constant time. An unmasked token never matches.
func csrfMatches(sent, mine string) bool {
	a, ok := unmaskCSRF(sent)
	b, okMine := unmaskCSRF(mine)
	return ok && okMine && subtle.ConstantTimeCompare(a, b) == 1
}

// switchQuery is the query a signed-in page's language link keeps of q:
// the values the page reads and that hold nothing a stranger chose: the
// service being edited (one of b's), the form to add one, and dates.
// Anything else (what just happened, the list's next page, an unknown
// key) is left out.
func switchQuery(q url.Values, b *booking.Business) url.Values {
	kept := url.Values{}
	if id := q.Get("edit"); slices.ContainsFunc(b.Services, func(s booking.Service) bool { return s.ID == id }) {
		kept.Set("edit", id)
	}
	if q.Get("add") == "1" {
		kept.Set("add", "1")
	}
	for _, k := range []string{"day", "from", "to"} {
		if _, err := time.Parse(time.DateOnly, q.Get(k)); err == nil {
			kept.Set(k, q.Get(k))
		}
	}
	return kept
}
