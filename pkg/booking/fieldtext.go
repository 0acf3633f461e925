package booking

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text a stranger sends is copied into other people's e-mails, the
// business's inbox and the operator's terminal. These rules keep it text:
//
//   - A single-line field (address.street, address.unit, address.city,
//     contact.name, assistant_name) holds no control character (Unicode Cc,
//     which covers tab, CR, LF and ESC), no line or paragraph separator
//     (U+2028, U+2029) and no bidirectional formatting character (U+061C,
//     U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which could make
//     a message read in another order than it is written. Other format
//     characters stay: the joiners (U+200C, U+200D) are part of names in
//     some scripts and of emoji.
//   - description keeps its line breaks and tabs: CR LF and a lone CR are
//     stored as LF, and it holds no other of the characters above.
//
// The rules refuse rather than strip, so that what is stored is what the
// person sent (or its line breaks as LF).

// unsafeRune reports whether r is a character no text field may hold,
// except where a field's own rule lets line breaks and tabs through.
func unsafeRune(r rune) bool {
	switch {
	case unicode.Is(unicode.Cc, r), r == '\u2028', r == '\u2029':
		return true
	case r == '\u061c', r == '\u200e', r == '\u200f':
		return true
	case '\u202a' <= r && r <= '\u202e', '\u2066' <= r && r <= '\u2069':
		return true
	}
	return false
}

// firstUnsafe returns the first rune of s that unsafeRune refuses and for
// which allowed is false (allowed may be nil).
func firstUnsafe(s string, allowed func(rune) bool) (rune, bool) {
	for _, r := range s {
		if unsafeRune(r) && (allowed == nil || !allowed(r)) {
			return r, true
		}
	}
	return 0, false
}

// oneLine checks a single-line field: nil, or an error with code naming
// field and the character it may not hold (never the text itself).
func oneLine(code Code, field, s string) *Error {
	if r, bad := firstUnsafe(s, nil); bad {
		return Errorf(code, "%s must be one line of text, without %s", field, runeName(r))
	}
	return nil
}

// normalizeDescription stores line breaks as LF and checks that the
// description holds no other control or bidirectional formatting character.
func normalizeDescription(s string) (string, *Error) {
	if strings.ContainsRune(s, '\r') {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	lineBreakOrTab := func(r rune) bool { return r == '\n' || r == '\t' }
	if r, bad := firstUnsafe(s, lineBreakOrTab); bad {
		return s, Errorf(InvalidRequest, "description may hold line breaks and tabs, but not %s", runeName(r))
	}
	return s, nil
}

// runeName names a character for an error message: "a line break (U+000A)".
func runeName(r rune) string {
	code := fmt.Sprintf("U+%04X", r)
	switch r {
	case '\n', '\r', '\u2028', '\u2029', '\u0085':
		return "a line break (" + code + ")"
	case '\t':
		return "a tab (" + code + ")"
	}
	if unicode.Is(unicode.Cc, r) {
		return "the control character " + code
	}
	return "the text direction character " + code
}

// Bounds of excerpt: what an error message repeats of the input.
const (
	excerptRunes = 40 // characters of the input
	excerptBytes = 64 // bytes of their quoted form, escapes included
)

// Excerpt is excerpt, for the edges' own messages.
func Excerpt(s string) string { return excerpt(s) }

// excerpt quotes s for an error message, Go-style (control characters,
// invalid UTF-8 and other unprintable characters escaped), cut to at most
// excerptRunes characters and excerptBytes bytes inside the quotes, with
// "..." after the closing quote when it was cut. No message repeats more of
// what a caller sent than this.
func excerpt(s string) string {
	b := make([]byte, 0, excerptBytes+6)
	b = append(b, '"')
	for i, n := 0, 0; i < len(s); n++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		q := strconv.Quote(s[i : i+size])
		q = q[1 : len(q)-1]
		if n == excerptRunes || len(b)-1+len(q) > excerptBytes {
			return string(append(b, '"')) + "..."
		}
		b = append(b, q...)
		i += size
	}
	return string(append(b, '"'))
}

// CleanLine is s with every character a single-line field may not hold
// replaced by a space: for text stored before these rules, on its way into
// a message.
func CleanLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unsafeRune(r) {
			return ' '
		}
		return r
	}, s)
}

// CleanText is s with its line breaks as LF and every other character the
// description may not hold replaced by a space: for text stored before
// these rules, on its way into a message.
func CleanText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r', r == '\u2028', r == '\u2029', r == '\u0085':
			return '\n'
		case unsafeRune(r):
			return ' '
		}
		return r
	}, s)
}
