package bookform

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// A form token proves that a POST comes from a form this service rendered,
// lately: it is the time the form was rendered and an HMAC-SHA256, under
// the service's form key, of that time, the business's slug and the form's
// idempotency key. Without the key nobody can make one, and a token is
// good for one business and one idempotency key, for TokenTTL.

// TokenTTL is how long a rendered form may be sent: long enough to fill it
// in slowly, short enough that a copied token soon stops working.
const TokenTTL = 2 * time.Hour

// maxSkew is how far in the future a token's time may be: the functions'
// clocks differ a little.
const maxSkew = time.Minute

// MinKeyBytes is the least length of a form key.
const MinKeyBytes = 32

// token makes the token of a form of slug with the idempotency key idem,
// rendered at now.
func token(key []byte, slug, idem string, now time.Time) string {
	issued := strconv.FormatInt(now.Unix(), 10)
	return issued + "." + sign(key, slug, idem, issued)
}

func sign(key []byte, slug, idem, issued string) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte("bookform\x00" + slug + "\x00" + idem + "\x00" + issued))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// validToken reports whether tok is a token this service made for a form
// of slug with the idempotency key idem, no longer than TokenTTL before
// now.
func validToken(key []byte, tok, slug, idem string, now time.Time) bool {
	issued, mac, ok := strings.Cut(tok, ".")
	if !ok || len(issued) > 12 {
		return false
	}
	sec, err := strconv.ParseInt(issued, 10, 64)
	if err != nil {
		return false
	}
	at := time.Unix(sec, 0)
	if now.Sub(at) > TokenTTL || at.Sub(now) > maxSkew {
		return false
	}
	return hmac.Equal([]byte(mac), []byte(sign(key, slug, idem, issued)))
}

// newIdempotencyKey is a form's idempotency key: 128 random bits, 22
// characters (booking's keys take 8 to 80).
func newIdempotencyKey() string {
	b := make([]byte, 16)
	rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}
