package booking

import (
	"regexp"
	"strings"
	"unicode/utf8"
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
//     than the business's own phone.
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
	switch {
	case emailPattern.MatchString(s):
		return TextEmail
	case linkPattern.MatchString(s):
		return TextLink
	}
	own := digitsOf(ownPhone)
	for _, run := range digitRunPattern.FindAllString(s, -1) {
		d := digitsOf(run)
		if len(d) < 7 {
			continue
		}
		if own == "" || !(d == own || strings.HasSuffix(own, d) && len(d) >= 10) {
			return TextPhone
		}
	}
	return ""
}

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
