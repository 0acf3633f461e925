package booking

import "strings"

// Limits of an e-mail address (RFC 5321 section 4.5.3.1, and 254 for the
// whole address as a path holds it).
const (
	maxEmailLocal  = 64
	maxEmailDomain = 253
	maxEmailLabel  = 63
)

// NormalizeEmail checks an e-mail address: "" (not given) is fine, else it
// must be an address a mail service delivers to as written, and it is
// returned as given. The rule, stricter than RFC 5322:
//
//   - ASCII only, at most 254 bytes, exactly one "@".
//   - The local part is 1 to 64 characters of RFC 5322's atext (letters,
//     digits and !#$%&'*+-/=?^_`{|}~) with single inner dots: no quoted
//     local part, no comment, no spaces, no leading, trailing or repeated
//     dot, and no "=?" (which starts an RFC 2047 encoded word).
//   - The domain is a DNS name of 2 labels or more, at most 253 characters:
//     each label 1 to 63 letters, digits and inner hyphens; the last label
//     (the top-level domain) is letters, or an A-label ("xn--..."). No IP
//     literal ("[127.0.0.1]"), no dotless host ("localhost"), no trailing
//     dot.
//
// Internationalised addresses are refused: Amazon SES sends only to an
// ASCII local part, and takes a non-ASCII domain only in its punycode
// form, so a person with one sends it as "ana@xn--ejemplo-9za.es".
func NormalizeEmail(s string) (string, bool) {
	if s == "" {
		return "", true
	}
	if len(s) > maxEmail {
		return "", false
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || !isDotAtom(local) || strings.Contains(local, "=?") || !isMailDomain(domain) {
		return "", false
	}
	return s, true
}

// isDotAtom reports whether s is a local part: 1 to 64 atext characters
// with single inner dots.
func isDotAtom(s string) bool {
	if s == "" || len(s) > maxEmailLocal || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '.' && !isAtext(c) {
			return false
		}
	}
	return true
}

// isAtext reports whether c is an RFC 5322 atext character.
func isAtext(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}

// isMailDomain reports whether s is a domain an address may have: two
// labels or more of letters, digits and inner hyphens, in any case, and a
// top-level domain of letters or an A-label.
func isMailDomain(s string) bool {
	if len(s) > maxEmailDomain {
		return false
	}
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	for _, label := range labels {
		if label == "" || len(label) > maxEmailLabel || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if len(tld) > 4 && strings.EqualFold(tld[:4], "xn--") {
		return true
	}
	for i := 0; i < len(tld); i++ {
		if c := tld[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return len(tld) >= 2
}
