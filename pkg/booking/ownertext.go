package booking

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Text a business owner types (its name, its services' names and
// descriptions) reaches strangers' phones and inboxes in Doorstep's
// messages. It is bounded, so that a business cannot use Doorstep to send
// strangers somewhere else:
//
//   - a business name is one line of up to MaxBusinessName characters, a
//     service name one line of up to MaxServiceName, a service description
//     one line of up to MaxServiceDescription (a text message carries the
//     name; the form and the e-mails carry the description);
//   - none holds a link (a scheme such as https:, "www.", or a host name
//     ending in a common top-level domain such as .com), an e-mail address,
//     or a phone number (seven digits or more, separators allowed) other
//     than the business's own phone. Years are no phone number: a run of
//     4-digit years from 1900 to 2099 ("2010 - 2020") passes.
//
// The checks read the text as a reader would, not as its bytes are
// (lookAlike): NFKC-normalised (full-width "ｅｖｉｌ．ｃｏｍ" is
// "evil.com", "５５５" is "555"), invisible format characters taken out,
// a dot written "[.]", "(.)", "{.}", "[dot]" or " dot com" read as a dot,
// and a letter O or o, I or l standing for a digit among a phone number's
// digits ("(5O2) 555-O142") read as that digit. What is stored is what
// the owner typed.
//
// Business.Validate applies the rules, so that a loaded file and an
// owner's edit pass the same ones; OwnerTextProblem lets a page say which
// field broke which rule.

// The longest owner texts, in characters.
const (
	MaxBusinessName       = 60
	MaxServiceName        = 50
	MaxServiceDescription = 200
)

// TextProblem is what is wrong with an owner's text; "" for nothing.
type TextProblem string

// The problems of an owner's text.
const (
	TextEmpty TextProblem = "empty"
	TextLong  TextProblem = "long"
	TextLines TextProblem = "lines" // a line break or another character no text field holds
	TextLink  TextProblem = "link"
	TextEmail TextProblem = "email"
	TextPhone TextProblem = "phone"
)

var (
	// linkPattern: a scheme, "www.", or a host name whose last label is a
	// common top-level domain. A plain "e.g." or "St.Louis" is no link.
	linkPattern  = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://|\bwww\.|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|info|biz|io|co|us|me|ly|app|dev|site|online|shop|store|xyz|link|page|top|mx|es|gl|to|tv|ws|cc|ai)\b`)
	emailPattern = regexp.MustCompile(`[^\s@]+@[^\s@]+\.[^\s@]+`)
	// digitRunPattern: digits with the separators a phone number is
	// written with; OwnerTextProblem counts the digits.
	digitRunPattern = regexp.MustCompile(`\+?[0-9][0-9 ().\-/]*[0-9]`)
)

// OwnerTextProblem checks an owner's text of at most max characters: ""
// when it passes, else the first rule it breaks. ownPhone is the
// business's own phone (international format), the one number the text may
// hold.
func OwnerTextProblem(s string, max int, ownPhone string) TextProblem {
	switch {
	case strings.TrimSpace(s) == "":
		return TextEmpty
	case utf8.RuneCountInString(s) > max:
		return TextLong
	}
	if _, bad := firstUnsafe(s, nil); bad {
		return TextLines
	}
	s = lookAlike(s)
	switch {
	case emailPattern.MatchString(s):
		return TextEmail
	case linkPattern.MatchString(s):
		return TextLink
	}
	own := digitsOf(ownPhone)
	for _, run := range digitRunPattern.FindAllString(s, -1) {
		d := digitsOf(run)
		if len(d) < 7 || yearsOnly(run) {
			continue
		}
		if own == "" || !(d == own || strings.HasSuffix(own, d) && len(d) >= 10) {
			return TextPhone
		}
	}
	return ""
}

var (
	// spelledDot: a dot in brackets ("evil[.]com", "evil (dot) com",
	// "evil{punto}com"), or the word between a name and com, net or org
	// ("evil dot com"): a word alone before another top-level domain is
	// too often ordinary text ("el punto es").
	spelledDot = regexp.MustCompile(`(?i)\s*[\[({]\s*(?:\.|dot|punto)\s*[\])}]\s*|\s+(?:dot|punto)\s+(com|net|org)\b`)
	// digitLetters: a word made only of the letters that pass for 0 and 1.
	digitLetters = regexp.MustCompile(`[OoIl]+`)
	// yearRun: 4-digit years of 1900 to 2099, each apart from the next.
	yearRun = regexp.MustCompile(`^(?:19|20)[0-9]{2}(?:[ ().\-/]+(?:19|20)[0-9]{2})+$`)
)

// lookAlike is s as OwnerTextProblem checks it: NFKC-normalised, without
// format characters (zero-width spaces, soft hyphens, joiners), an
// ideographic full stop as a dot, a dot spelled out as a dot, and a word of
// O, o, I and l a digit touches as the digits it looks like.
func lookAlike(s string) string {
	s = norm.NFKC.String(s)
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\u3002':
			return '.'
		case unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, s)
	s = spelledDot.ReplaceAllString(s, ".$1")
	return replaceDigitLetters(s)
}

// replaceDigitLetters reads as digits each word of s made only of O, o, I
// and l that a digit touches ("5O2", "555-O142", "O142"). A word beside
// other letters ("Solo", "Ollie 555") stays a word, and so does one apart
// from digits ("1998 o 2000", "lol").
func replaceDigitLetters(s string) string {
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	var b strings.Builder
	last := 0
	for _, m := range digitLetters.FindAllStringIndex(s, -1) {
		start, end := m[0], m[1]
		before, _ := utf8.DecodeLastRuneInString(s[:start])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if unicode.IsLetter(before) || unicode.IsLetter(after) || !(start > 0 && isDigit(s[start-1]) || end < len(s) && isDigit(s[end])) {
			continue
		}
		b.WriteString(s[last:start])
		for _, c := range []byte(s[start:end]) {
			if c == 'O' || c == 'o' {
				b.WriteByte('0')
			} else {
				b.WriteByte('1')
			}
		}
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// yearsOnly reports whether a run of digits is 4-digit years of 1900 to
// 2099 apart ("2010 - 2020", "1998/2024"): no phone number is written in
// groups of four alone.
func yearsOnly(run string) bool { return yearRun.MatchString(run) }

// digitsOf is the digits of s.
func digitsOf(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// textRule is what a TextProblem means, for Validate's error.
var textRule = map[TextProblem]string{
	TextEmpty: "is empty",
	TextLong:  "is longer than %d characters",
	TextLines: "must be one line of text",
	TextLink:  "may not hold a link",
	TextEmail: "may not hold an e-mail address",
	TextPhone: "may not hold a phone number other than the business's phone",
}

// ownerTextErr checks an owner's text of the field: nil when it passes.
func ownerTextErr(field, s string, max int, ownPhone string) error {
	p := OwnerTextProblem(s, max, ownPhone)
	switch p {
	case "":
		return nil
	case TextLong:
		return fieldErr(field, textRule[p], max)
	}
	return fieldErr(field, "%s", textRule[p])
}
