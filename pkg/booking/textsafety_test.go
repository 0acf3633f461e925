package booking

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCreateTextRules: single-line fields refuse line breaks, control
// characters and text direction characters with their own code, at their
// own place in the precedence; description keeps line breaks and tabs.
func TestCreateTextRules(t *testing.T) {
	bs := testBusinesses(t)
	type change struct {
		path  string
		value any
	}
	tests := []struct {
		name    string
		changes []change
		want    Code
	}{
		{"street with a line break", []change{{"address.street", "12 Main St\nYour deposit failed: pay at evil.example/pay"}}, InvalidAddress},
		{"street with a CR", []change{{"address.street", "12 Main St\rX"}}, InvalidAddress},
		{"street with a tab", []change{{"address.street", "12\tMain St"}}, InvalidAddress},
		{"unit with ESC", []change{{"address.unit", "4B\x1b[2J"}}, InvalidAddress},
		{"city with U+2028", []change{{"address.city", "Los\u2028Angeles"}}, InvalidAddress},
		{"city with NEL", []change{{"address.city", "Los\u0085Angeles"}}, InvalidAddress},
		{"name with a line break", []change{{"contact.name", "Ana\n\nYour deposit failed"}}, InvalidName},
		{"name with NUL", []change{{"contact.name", "Ana\x00"}}, InvalidName},
		{"name with DEL", []change{{"contact.name", "Ana\x7f"}}, InvalidName},
		{"name with RLO", []change{{"contact.name", "Ana \u202eyap"}}, InvalidName},
		{"name with RLI", []change{{"contact.name", "Ana \u2067x"}}, InvalidName},
		{"name with RLM", []change{{"contact.name", "Ana\u200f"}}, InvalidName},
		{"name with U+2029", []change{{"contact.name", "Ana\u2029Ruiz"}}, InvalidName},
		{"name with a trailing line break is trimmed", []change{{"contact.name", "Ana Ruiz\n"}}, ""},
		{"name with a zero-width joiner", []change{{"contact.name", "Ana \U0001F469\u200D\U0001F527"}}, ""},
		{"name with accents", []change{{"contact.name", "Ana Núñez-Ibáñez"}}, ""},
		{"assistant_name with a line break", []change{{"assistant_name", "Helper\nPay here"}}, InvalidRequest},
		{"assistant_name with LRE", []change{{"assistant_name", "Helper\u202a"}}, InvalidRequest},
		{"description with line breaks and tabs", []change{{"description", "Kitchen sink:\n\tdrains slowly\r\n\tsmells"}}, ""},
		{"description with ESC", []change{{"description", "sink\x1b]8;;http://evil.example\x07"}}, InvalidRequest},
		{"description with RLO", []change{{"description", "sink \u202e"}}, InvalidRequest},
		{"description with U+2028", []change{{"description", "sink\u2028drains"}}, InvalidRequest},
		{"description with a vertical tab", []change{{"description", "sink\vdrains"}}, InvalidRequest},

		// Each refusal at its field's place (decisions.md).
		{"a street line break before INVALID_ZIP", []change{{"address.street", "a\nb"}, {"address.zip", "1"}}, InvalidAddress},
		{"INVALID_ZIP before a name line break", []change{{"address.zip", "1"}, {"contact.name", "a\nb"}}, InvalidZIP},
		{"a name line break before INVALID_PHONE", []change{{"contact.name", "a\nb"}, {"contact.phone", "1"}}, InvalidName},
		{"INVALID_EMAIL before an assistant_name line break", []change{{"contact.email", "x"}, {"assistant_name", "a\nb"}}, InvalidEmail},
		{"an assistant_name line break before SERVICE_UNAVAILABLE", []change{{"assistant_name", "a\nb"}, {"service_id", "roofing"}}, InvalidRequest},
		{"a description control character before SERVICE_UNAVAILABLE", []change{{"description", "a\x00b"}, {"service_id", "roofing"}}, InvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(validBody)
			for _, c := range tt.changes {
				body = withField(t, body, c.path, c.value, false)
			}
			_, err := validate(t, bs["split-day-plumbing"], body, "", createNow)
			if got := codeOf(err); got != tt.want {
				t.Fatalf("got %s (%v), want %s", got, err, tt.want)
			}
			if err != nil && strings.ContainsAny(ErrorMessage(err), "\n\r\x1b\u202e") {
				t.Errorf("got message %q, want it free of the characters it refuses", ErrorMessage(err))
			}
		})
	}
}

func TestDescriptionLineBreaksStoredAsLF(t *testing.T) {
	bs := testBusinesses(t)
	tests := []struct {
		in, want string
	}{
		{"a\r\nb", "a\nb"},
		{"a\rb", "a\nb"},
		{"a\r\n\r\nb\n\tc", "a\n\nb\n\tc"},
		{"  a\r\n", "a"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, err := validate(t, bs["split-day-plumbing"], withField(t, []byte(validBody), "description", tt.in, false), "", createNow)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.Description; got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
	// 2000 characters of CR LF are 2000 characters once stored.
	d, err := validate(t, bs["split-day-plumbing"], withField(t, []byte(validBody), "description", "x"+strings.Repeat("\r\n", 1998)+"x", false), "", createNow)
	if err != nil {
		t.Fatalf("got %v for 2000 characters stored", err)
	}
	if got := utf8.RuneCountInString(d.Description); got != 2000 {
		t.Fatalf("got %d characters, want 2000", got)
	}
}

func TestExcerpt(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", `""`},
		{"short", "ana@", `"ana@"`},
		{"40 characters", strings.Repeat("a", 40), `"` + strings.Repeat("a", 40) + `"`},
		{"41 characters", strings.Repeat("a", 41), `"` + strings.Repeat("a", 40) + `"...`},
		{"10 KB", strings.Repeat("5", 10<<10), `"` + strings.Repeat("5", 40) + `"...`},
		{"multi-byte counted as characters", strings.Repeat("é", 41), `"` + strings.Repeat("é", 32) + `"...`},
		{"control characters escaped", "a\nb\x1b[0m\u202ec", `"a\nb\x1b[0m\u202ec"`},
		{"invalid UTF-8 escaped", "a\xffb", `"a\xffb"`},
		{"quotes escaped", `a"b`, `"a\"b"`},
		{"escapes bounded in bytes", strings.Repeat("\u202e", 40), `"` + strings.Repeat(`\u202e`, 10) + `"...`},
		{"an escape is never cut", strings.Repeat("a", 60) + "\x00", `"` + strings.Repeat("a", 40) + `"...`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := excerpt(tt.in); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestErrorMessagesRepeatAnExcerpt: a 10 KB bad value gets a message that
// repeats at most an excerpt of it.
func TestErrorMessagesRepeatAnExcerpt(t *testing.T) {
	bs := testBusinesses(t)
	b := bs["split-day-plumbing"]
	long := func(prefix string) string { return prefix + strings.Repeat("9", 10<<10) }
	create := func(path, value string) func() error {
		return func() error {
			_, err := validate(t, b, withField(t, []byte(validBody), path, value, false), "", createNow)
			return err
		}
	}
	bookings := testBookings(t, Config{Store: noStore{}, SiteURL: "https://book.example.com", Now: noClock(t)})
	tests := []struct {
		name string
		call func() error
		want Code
	}{
		{"zip", create("address.zip", long("")), InvalidZIP},
		{"phone", create("contact.phone", long("")), InvalidPhone},
		{"email", create("contact.email", long("ana@")), InvalidEmail},
		{"urgency", create("urgency", long("")), InvalidRequest},
		{"language", create("language", long("")), InvalidRequest},
		{"service_id", create("service_id", long("")), ServiceUnavailable},
		{"slug", func() error { _, err := bookings.Business(context.Background(), long("")); return err }, NotFound},
		{"business link", func() error { _, err := bookings.ResolveBusiness(context.Background(), long("")); return err }, NotFound},
		{"code", func() error { return requestNotFound(long("")) }, NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if got := codeOf(err); got != tt.want {
				t.Fatalf("got %s (%v), want %s", got, err, tt.want)
			}
			msg := ErrorMessage(err)
			if strings.Contains(msg, strings.Repeat("9", excerptRunes+1)) {
				t.Errorf("got message %q, want at most %d characters of the input", msg, excerptRunes)
			}
			if len(msg) > 200 {
				t.Errorf("got a message of %d bytes, want at most 200: %q", len(msg), msg)
			}
		})
	}
}

func TestNormalizeEmailRule(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"ana@example.com", true},
		{"Ana.Ruiz@Example.COM", true},
		{"a!#$%&'*+-/=^_`{|}~@example.com", true},
		{"ana@mail-1.example.co", true},
		{"ana@xn--ejemplo-9za.es", true},
		{"ana@ejemplo.xn--p1ai", true},
		{strings.Repeat("a", 64) + "@example.com", true},
		{strings.Repeat("a", 65) + "@example.com", false},
		{"ana@" + strings.Repeat("a", 63) + ".com", true},
		{"ana@" + strings.Repeat("a", 64) + ".com", false},
		{"a@" + strings.Repeat("a.", 124) + "aaaa", true},   // 254 in all
		{"a@" + strings.Repeat("a.", 124) + "aaaaa", false}, // 255
		{"a@[127.0.0.1]", false},
		{"a@[IPv6:::1]", false},
		{"a@127.0.0.1", false},
		{"a@-b.com", false},
		{"a@b-.com", false},
		{"a@b.-com", false},
		{"a@b.c", false},
		{"a@b.c0m", false},
		{"a@b..com", false},
		{"a@.b.com", false},
		{"a@b.com.", false},
		{"a@b_c.com", false},
		{"=?utf-8?q?x?=@b.com", false},
		{"=?utf-8?b?YQ==?=@b.com", false},
		{"a=?x@b.com", false},
		{`"a b"@b.com`, false},
		{`"a"@b.com`, false},
		{"a..b@b.com", false},
		{".a@b.com", false},
		{"a.@b.com", false},
		{"a(c)@b.com", false},
		{"a@b@c.com", false},
		{"a@ b.com", false},
		{"a\n@b.com", false},
		{"a@b.com\r\nBcc: x@y.com", false},
		{"ñandú@ejemplo.es", false},
		{"ana@ejemplo.españa", false},
		{"ana@xn--.com", false},
		{"a\\b@b.com", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := NormalizeEmail(tt.in)
			if ok != tt.ok {
				t.Fatalf("got %v, want %v", ok, tt.ok)
			}
			if ok && got != tt.in {
				t.Fatalf("got %q, want the address as given", got)
			}
		})
	}
}

// TestOwnerTextLookAlikes: a link, an address or a phone number written to
// slip past the rules is read as a reader reads it; ordinary business
// names, years and Spanish text still pass.
func TestOwnerTextLookAlikes(t *testing.T) {
	const own = "+13235550100"
	tests := []struct {
		name, text string
		want       TextProblem
	}{
		{"full-width link", "Book at ｅｖｉｌ．ｃｏｍ", TextLink},
		{"full-width www", "ｗｗｗ.evil", TextLink},
		{"ideographic full stop", "evil。com", TextLink},
		{"one dot leader", "evil\u2024com", TextLink},
		{"zero-width space after the dot", "evil.\u200bcom", TextLink},
		{"soft hyphen before the dot", "evil\u00ad.com", TextLink},
		{"dot in square brackets", "evil[.]com", TextLink},
		{"dot in parentheses", "evil(.)com", TextLink},
		{"dot in braces, spaced", "evil { . } net", TextLink},
		{"dot spelled in brackets", "evil[dot]org", TextLink},
		{"dot spelled out", "evil dot com", TextLink},
		{"dot spelled out in Spanish", "barato punto com", TextLink},
		{"Spanish dot in brackets, another domain", "barato(punto)mx", TextLink},
		{"full-width at sign", "ana＠example.net", TextEmail},
		{"full-width digits", "Call ５５５-０１９９", TextPhone},
		{"circled digits", "Call ⑤⑤⑤-⓪①⑨⑨", TextPhone},
		{"letter O for zero", "Call (5O2) 555-O142", TextPhone},
		{"lower-case o and l", "Call 2l3 555 o199", TextPhone},
		{"capital I for one", "Text 213-555-OI99", TextPhone},
		{"mathematical bold digits", "Call 𝟐𝟏𝟑 𝟓𝟓𝟓 𝟎𝟏𝟗𝟗", TextPhone},
		{"own phone, full-width", "Call ３２３-５５５-０１００", ""},
		{"own phone with an O", "Call 323-555-O100", ""},

		{"a year range", "Serving Tucson 2010 - 2020", ""},
		{"a year range without spaces", "Best of Phoenix 2019-2024", ""},
		{"years with slashes", "Award 1998/2005/2012", ""},
		{"since a year", "Since 1998", ""},
		{"all hours", "Open 24/7", ""},
		{"a letter and a digit", "A-1 Plumbing", ""},
		{"Solo and a number", "Solo 2010 Roofing", ""},
		{"a word of o and l apart from digits", "lol 1998 2000", ""},
		{"Spanish or between years", "Desde 1998 o 2000", ""},
		{"Spanish text", "Plomería Núñez, desde 1998, 24/7", ""},
		{"Spanish the point is", "El punto es la calidad", ""},
		{"a dot in brackets, no domain", "Fast [.] Friendly", ""},
		{"dot com in a name without a dot", "Dot Com Cleaning", ""},
		{"polka dot", "Polka dot es bonito", ""},
		{"O'Neil", "O'Neil & Sons 1 2 3", ""},
		{"I-10", "I-10 Corridor HVAC", ""},
		{"full-width name", "Ｐｌｏｍｅｒｏｓ", ""},
		{"a phone next to a year range", "2010 - 2020, call 213-555-0199", TextPhone},
		{"a phone dressed as years", "2135 5501 99", TextPhone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := OwnerTextProblem(tt.text, MaxServiceDescription, own); got != tt.want {
				t.Errorf("OwnerTextProblem(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}
