package notify

import (
	"strings"
	"unicode"

	"github.com/doorstep/doorstep/pkg/booking"
)

// What a stranger wrote (the person's name, the assistant's name, the
// description) reaches other people's inboxes in Doorstep's messages. It
// never reads as Doorstep's own text and never becomes a link:
//
//   - A single-line field stays on one line (theirLine): create refuses
//     line breaks and control characters in it, and text stored before that
//     rule has them replaced by spaces here.
//   - The description is set apart as the person's quoted words
//     (theirWords): under a label saying whose words they are, each line
//     behind "> ", as a reply quotes a letter.
//   - Nothing of it can be a link (defang), in the way security teams
//     write links that must not be clicked, which a person still reads:
//     "http://" and "https://" become "hxxp://" and "hxxps://", any other
//     "://" becomes "[://]", and a dot between a letter, digit or hyphen
//     and a letter (a domain's dot: "evil.example/pay", "www.evil.example",
//     "ana@evil.example") becomes "[.]", as do the dots that IDNA reads as
//     one (U+3002, U+FF0E, U+FF61). A dot before a digit stays: "3.5
//     inches" is a number, not a link.

// theirLine is a single-line field as a message shows it.
func theirLine(s string) string {
	return defang(strings.TrimSpace(booking.CleanLine(s)))
}

// theirWords is the description as a message shows it: label, then each
// line quoted, or "" when there is none.
func theirWords(label, description string) string {
	description = strings.TrimSpace(booking.CleanText(description))
	if description == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(label)
	for line := range strings.SplitSeq(description, "\n") {
		b.WriteString("\n>")
		if line = strings.TrimRight(line, " \t"); line != "" {
			b.WriteString(" " + defang(line))
		}
	}
	return b.String()
}

// defang writes s so that no mail client or phone makes a link of it.
func defang(s string) string {
	if !strings.ContainsAny(s, ".:\u3002\uff0e\uff61") {
		return s
	}
	rs := []rune(s)
	out := make([]rune, 0, len(rs)+16)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == ':' && i+2 < len(rs) && rs[i+1] == '/' && rs[i+2] == '/':
			if scheme := schemeBefore(rs, i); strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https") {
				// The scheme is written already, as it was: "http" is
				// the last letters of out. Its "tt" becomes "xx".
				start := len(out) - len(scheme)
				out[start+1], out[start+2] = 'x', 'x'
				out = append(out, ':', '/', '/')
			} else {
				out = append(out, []rune("[://]")...)
			}
			i += 2
		case isDot(r) && i > 0 && i+1 < len(rs) && isLabelRune(rs[i-1]) && unicode.IsLetter(rs[i+1]):
			out = append(out, '[', '.', ']')
		default:
			out = append(out, r)
		}
	}
	return string(out)
}

// schemeBefore returns the letters, digits, "+", "-" and "." that end
// just before rs[i].
func schemeBefore(rs []rune, i int) string {
	j := i
	for j > 0 {
		c := rs[j-1]
		if !(c < unicode.MaxASCII && (unicode.IsLetter(c) || unicode.IsDigit(c) || c == '+' || c == '-' || c == '.')) {
			break
		}
		j--
	}
	return string(rs[j:i])
}

func isDot(r rune) bool { return r == '.' || r == '\u3002' || r == '\uff0e' || r == '\uff61' }

func isLabelRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' }
