package booking

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Request codes are 12 Crockford base32 characters (60 bits from a
// cryptographic source), shown in three dashed groups: "7K3M-Q9TD-2HXA".
const (
	codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	codeChars    = 12
)

// NewCode returns a fresh, unguessable request code.
func NewCode() string {
	var raw [codeChars]byte
	rand.Read(raw[:]) // never fails (crypto/rand panics rather than return short)
	var b strings.Builder
	for i, r := range raw {
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		b.WriteByte(codeAlphabet[r&31])
	}
	return b.String()
}

// CanonicalCode reads a code as a person might type it back (any case,
// with or without dashes or spaces, O for 0, I or L for 1) and returns it in
// the form NewCode gives. ok is false when it cannot be a code.
func CanonicalCode(s string) (string, bool) {
	var b strings.Builder
	n := 0
	for _, r := range strings.ToUpper(s) {
		switch r {
		case '-', ' ':
			continue
		case 'O':
			r = '0'
		case 'I', 'L':
			r = '1'
		}
		if r > 127 || !strings.ContainsRune(codeAlphabet, r) || n == codeChars {
			return "", false
		}
		if n > 0 && n%4 == 0 {
			b.WriteByte('-')
		}
		b.WriteRune(r)
		n++
	}
	return b.String(), n == codeChars
}

// LogRef is how logs name a request: the first 12 hex digits of the SHA-256
// of its code. The lines of one request share it, and an operator holding a
// code can find them, but it cannot be turned back into the code, which
// opens the person's pages (status, cancel, payment).
func LogRef(code string) string {
	sum := sha256.Sum256([]byte(code))
	return hex.EncodeToString(sum[:6])
}

// LogMessageRef is how logs name a notification: its ID (code#event/kind/
// audience/channel) with the code replaced by its LogRef.
func LogMessageRef(id string) string {
	code, rest, ok := strings.Cut(id, "#")
	if !ok {
		return LogRef(id)
	}
	return LogRef(code) + "#" + rest
}
