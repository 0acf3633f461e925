package booking

// Fuzz targets for the domain's parsers and the window cutter. `go test`
// runs each target's seeds (the f.Add calls and testdata/fuzz/<FuzzName>/) as
// a normal test; `make fuzz` runs each target with -fuzz for a while.

import (
	"encoding/binary"
	"fmt"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fuzzSlugs are the test businesses a fuzzed uint8 picks from, in a fixed order.
var fuzzSlugs = []string{"split-day-plumbing", "all-day-plumbing", "late-night-plumbing", "deposit-plumbing", "paused-plumbing", "example-plumbing"}

// wantDomainError fails the test unless err is an *Error (not wrapped, not
// any other error, which would reach a client as SERVER_ERROR) with one of the
// codes allowed at this stage and a message.
func wantDomainError(t *testing.T, stage string, err error, allowed ...Code) {
	t.Helper()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("%s: got error %T %v, want a *booking.Error", stage, err, err)
	}
	if !slices.Contains(allowed, e.Code) {
		t.Fatalf("%s: got code %s (%s), want one of %v", stage, e.Code, e.Message, allowed)
	}
	if e.Message == "" {
		t.Fatalf("%s: got code %s with an empty message", stage, e.Code)
	}
}

// isNANP reports whether s is 10 ASCII digits whose area code and exchange
// start with 2 to 9.
func isNANP(s string) bool {
	if len(s) != 10 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s[0] >= '2' && s[3] >= '2'
}

func FuzzCreateBody(f *testing.F) {
	bs := testBusinesses(f)
	now := createNow
	valid := []byte(validBody)
	f.Add(valid, uint8(0), "")
	f.Add(valid, uint8(0), "a-retry-key-1")
	f.Add(withField(f, valid, "idempotency_key", "a-retry-key-1", false), uint8(0), "a-retry-key-1")
	f.Add(withField(f, valid, "window_start", "2026-11-23T08:00:00-08:00", false), uint8(0), "")
	f.Add(withField(f, valid, "window_start", "2026-11-20T01:00:00Z", false), uint8(1), "")
	f.Add(withField(f, valid, "window_start", "2026-11-21T06:00:00Z", false), uint8(2), "")
	deposit := withField(f, withField(f, valid, "address.zip", "10001", false), "window_start", "2026-11-23T13:00:00Z", false)
	f.Add(withField(f, deposit, "deposit_accepted", true, false), uint8(3), "")
	f.Add(deposit, uint8(3), "")
	f.Add(valid, uint8(4), "")
	f.Add(valid, uint8(5), "")
	f.Add([]byte(`{"window_start":"2026-11-23T16:00:00Z","address":{"street":"1 A St","zip":"90012"},"contact":{"name":"A","phone":"3235550142"}}`), uint8(0), "")
	f.Add([]byte(`{"window_start":"2026-11-23T16:00:00Z","address":{"street":"1 A St","zip":"90012"},"contact":{"name":"A","phone":3235550142}}`), uint8(0), "")
	f.Add(withField(f, valid, "contact.name", "Ana\n\nYour deposit failed: pay at http://evil.example/pay", false), uint8(0), "")
	f.Add(withField(f, valid, "description", "Sink:\r\n\tslow\u202e\x1b[0m", false), uint8(0), "")
	f.Add(withField(f, valid, "window_start", "2026-11-24T16:00:00+24:00", false), uint8(0), "")
	f.Add([]byte(`{"window_start":null}`), uint8(0), "")
	f.Add([]byte(`{} {}`), uint8(0), "")
	f.Add([]byte(`[`), uint8(0), "")
	f.Add([]byte(``), uint8(0), "")

	f.Fuzz(func(t *testing.T, body []byte, business uint8, headerKey string) {
		b := bs[fuzzSlugs[int(business)%len(fuzzSlugs)]]
		// JSON is only a convenient shape for the fuzzer's inputs here: the
		// JSON edge's decoder has its own tests (pkg/httpapi).
		in, ok := inputFromJSON(body, headerKey)
		if !ok {
			return
		}
		if first, again := in.BodyHash(), in.BodyHash(); again != first {
			t.Fatalf("BodyHash is not deterministic: %q, then %q", first, again)
		}
		d, err := in.checkFields(b)
		if err != nil {
			wantDomainError(t, "checkFields", err, InvalidWindow, InvalidAddress, InvalidZIP, InvalidName,
				InvalidPhone, InvalidEmail, InvalidRequest, ServiceUnavailable)
			return
		}
		if err := d.checkBusinessRules(b, now); err != nil {
			wantDomainError(t, "checkBusinessRules", err, BookingPaused, OutOfArea, DepositTerms, TooLate, InvalidWindow)
			return
		}

		// The body passed every check the domain makes before the store.
		r := d.Request
		if !isNANP(r.Contact.Phone) {
			t.Errorf("got phone %q, want 10 digits, area code and exchange starting 2-9", r.Contact.Phone)
		}
		if !IsZIP(r.Address.ZIP) || !slices.Contains(b.ServiceArea.ZIPCodes, r.Address.ZIP) {
			t.Errorf("got zip %q, want 5 digits in the service area %v", r.Address.ZIP, b.ServiceArea.ZIPCodes)
		}
		w, ok := b.WindowAt(r.Window.Start, now)
		if !ok || w.Date != r.Window.Date || !w.Start.Equal(r.Window.Start) || !w.End.Equal(r.Window.End) {
			t.Errorf("got window %+v, but WindowAt answers %+v, %v", r.Window, w, ok)
		}
		if !r.Window.Start.After(now) {
			t.Errorf("got window start %s, want after now %s", r.Window.Start, now)
		}
		if r.Window.Start.Location() != time.UTC {
			t.Errorf("got window start in %s, want UTC", r.Window.Start.Location())
		}
		if !b.AcceptingRequests {
			t.Errorf("got a request past the checks of %s, which is paused", b.Slug)
		}
		if b.BookingDeposit != nil && !d.depositAccepted {
			t.Errorf("got a request to %s, which takes a deposit, without deposit_accepted", b.Slug)
		}
		for _, f := range []struct {
			field string
			value string
			min   int
			max   int
		}{
			{"address.street", r.Address.Street, 1, maxStreet},
			{"address.unit", r.Address.Unit, 0, maxAddressLine},
			{"address.city", r.Address.City, 0, maxAddressLine},
			{"contact.name", r.Contact.Name, 1, maxName},
			{"description", r.Description, 0, MaxDescription},
			{"assistant_name", r.AssistantName, 0, MaxAssistantName},
		} {
			if n := utf8.RuneCountInString(f.value); n < f.min || n > f.max {
				t.Errorf("got %s of %d characters, want %d to %d", f.field, n, f.min, f.max)
			}
			if f.value != strings.TrimSpace(f.value) {
				t.Errorf("got %s %q, want it trimmed", f.field, f.value)
			}
			for _, c := range f.value {
				if unsafeRune(c) && !(f.field == "description" && (c == '\n' || c == '\t')) {
					t.Errorf("got %s %q holding %U: want no control, line separator or text direction character", f.field, f.value, c)
				}
			}
		}
		if e, ok := NormalizeEmail(r.Contact.Email); !ok || e != r.Contact.Email {
			t.Errorf("got email %q, which NormalizeEmail does not keep as is", r.Contact.Email)
		}
		if !slices.Contains(urgencies, r.Urgency) || !isLanguage(r.Language) {
			t.Errorf("got urgency %q and language %q, want values from their lists", r.Urgency, r.Language)
		}
		if n := utf8.RuneCountInString(d.key); d.key != "" && (n < MinIdempotencyKey || n > MaxIdempotencyKey) {
			t.Errorf("got idempotency key of %d characters, want %d to %d", n, MinIdempotencyKey, MaxIdempotencyKey)
		}
		if r.ServiceID != "" {
			if s, ok := b.service(r.ServiceID); !ok || s.Name != r.ServiceName {
				t.Errorf("got service %q %+v, want one the business offers", r.ServiceID, r.ServiceName)
			}
		}
	})
}

// fuzzNormalizer fuzzes a normalizer from seeds: what it refuses comes back
// as "", what it accepts it accepts again unchanged, and accepted checks the
// rest of what it promises of an accepted s.
func fuzzNormalizer(f *testing.F, name string, normalize func(string) (string, bool), seeds []string, accepted func(t *testing.T, s, got string)) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := normalize(s)
		if !ok {
			if got != "" {
				t.Fatalf("%s(%q) = %q, false: want \"\" when refused", name, s, got)
			}
			return
		}
		if again, ok := normalize(got); !ok || again != got {
			t.Fatalf("%s(%q) = %q, %v, want %q again", name, got, again, ok, got)
		}
		accepted(t, s, got)
	})
}

func FuzzNormalizePhone(f *testing.F) {
	seeds := []string{"5125550142", "(512) 555-0142", "512.555.0142", "+1 512 555 0142", "1-512-555-0142",
		" +15125550142 ", "", "+", "1", "+1", "0125550142", "5121550142", "+44 512 555 0142", "１５１２５５５０１４２", "+ 1 512 555 0142", "++15125550142"}
	fuzzNormalizer(f, "NormalizePhone", NormalizePhone, seeds, func(t *testing.T, s, got string) {
		if !isNANP(got) {
			t.Fatalf("NormalizePhone(%q) = %q, want 10 ASCII digits, area code and exchange starting 2-9", s, got)
		}
		// The digits are the input's, less a leading country code 1.
		digits := strings.Map(func(r rune) rune {
			if '0' <= r && r <= '9' {
				return r
			}
			return -1
		}, s)
		if digits != got && digits != "1"+got {
			t.Fatalf("NormalizePhone(%q) = %q, want the input's digits %q, less a leading 1", s, got, digits)
		}
		// Every spelling decisions.md names reads as the same number.
		a, e, l := got[:3], got[3:6], got[6:]
		for _, spelling := range []string{"(" + a + ") " + e + "-" + l, a + "." + e + "." + l, "+1 " + a + " " + e + " " + l, "1-" + a + "-" + e + "-" + l} {
			if again, ok := NormalizePhone(spelling); !ok || again != got {
				t.Errorf("NormalizePhone(%q) = %q, %v, want %q", spelling, again, ok, got)
			}
		}
	})
}

func FuzzNormalizeEmail(f *testing.F) {
	seeds := []string{"", "ana@example.com", "ana.ruiz+plumber@mail.example.co", "ana", "ana@", "@example.com", "ana@localhost",
		"ana@example.", "ana@.example.com", "ana ruiz@example.com", "<ana@example.com>", "Ana <ana@example.com>", `"ana"@example.com`,
		"ana@[192.0.2.1]", "a@b@example.com", "ana@exa mple.com", "(comment)ana@example.com", "ana@example.com.", "ñandú@ejemplo.es",
		"a@[127.0.0.1]", "a@-b.com", "a@b-.com", "=?utf-8?q?x?=@b.com", "=?utf-8?b?YQ==?=@b.com", "a..b@b.com", "a@b..com",
		"a@127.0.0.1", "a@b.c0m", "ana@xn--ejemplo-9za.es", "ana@ejemplo.xn--p1ai", "A.Ruiz+x@Example.COM", "a\r\n@b.com",
		strings.Repeat("a", 64) + "@example.com", strings.Repeat("a", 65) + "@example.com", "a@" + strings.Repeat("b", 63) + ".com",
		"a@" + strings.Repeat("b", 64) + ".com"}
	fuzzNormalizer(f, "NormalizeEmail", NormalizeEmail, seeds, func(t *testing.T, s, got string) {
		if got != s {
			t.Fatalf("NormalizeEmail(%q) = %q, want the address as given", s, got)
		}
		if s == "" {
			return
		}
		at := strings.LastIndexByte(got, '@')
		if at <= 0 || len(got) > maxEmail {
			t.Fatalf("NormalizeEmail(%q) accepted an address without a local part or over %d bytes", s, maxEmail)
		}
		domain := got[at+1:]
		if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
			t.Fatalf("NormalizeEmail(%q) accepted domain %q, want a dotted name", s, domain)
		}
		if strings.ContainsAny(got, " <>\"\t\r\n") {
			t.Fatalf("NormalizeEmail(%q) accepted spaces, quotes or angle brackets", s)
		}
		// What it accepts, Go's RFC 5322 parser reads as the same bare address.
		if a, err := mail.ParseAddress(got); err != nil || a.Address != got || a.Name != "" {
			t.Fatalf("NormalizeEmail(%q) accepted what net/mail reads as %v, %v", s, a, err)
		}
		local, domain := got[:at], got[at+1:]
		for i := 0; i < len(got); i++ {
			if got[i] <= ' ' || got[i] >= 0x7f {
				t.Fatalf("NormalizeEmail(%q) accepted byte %#x: want printable ASCII only", s, got[i])
			}
		}
		if strings.Count(got, "@") != 1 || len(local) > maxEmailLocal || len(domain) > maxEmailDomain {
			t.Fatalf("NormalizeEmail(%q) accepted local part %d or domain %d bytes long, or more than one @", s, len(local), len(domain))
		}
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") ||
			strings.ContainsAny(local, `"()[]\,;:`) || strings.Contains(local, "=?") {
			t.Fatalf("NormalizeEmail(%q) accepted local part %q: want a dot-atom without an encoded word", s, local)
		}
		labels := strings.Split(domain, ".")
		for _, label := range labels {
			if label == "" || len(label) > maxEmailLabel || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") ||
				strings.Trim(label, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") != "" {
				t.Fatalf("NormalizeEmail(%q) accepted domain label %q: want 1 to 63 letters, digits and inner hyphens", s, label)
			}
		}
		if tld := strings.ToLower(labels[len(labels)-1]); !strings.HasPrefix(tld, "xn--") &&
			(len(tld) < 2 || strings.Trim(tld, "abcdefghijklmnopqrstuvwxyz") != "") {
			t.Fatalf("NormalizeEmail(%q) accepted top-level domain %q: want letters or an A-label", s, tld)
		}
	})
}

func FuzzIsZIP(f *testing.F) {
	for _, s := range []string{"90012", "9001", "900123", " 90012", "9001a", "９００１２", "", "00000", "90012\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := len(s) == 5
		for i := 0; i < len(s); i++ {
			want = want && '0' <= s[i] && s[i] <= '9'
		}
		if got := IsZIP(s); got != want {
			t.Fatalf("IsZIP(%q) = %v, want %v", s, got, want)
		}
	})
}

// linkScheme returns the scheme the link s was written with, as ParseSiteLink
// reads it ("" for none).
func linkScheme(s string) string {
	lower := asciiLower(s)
	for _, scheme := range []string{"https://", "http://"} {
		if strings.HasPrefix(lower, scheme) {
			return scheme
		}
	}
	return ""
}

func FuzzParseSiteLink(f *testing.F) {
	for _, s := range []string{
		"https://www.acme.example.com/Book/?utm=1#top", "acme.example.com", "HTTP://ACME.EXAMPLE.COM:80/book", "//acme.example.com/a/./b/../c",
		"acme.example.com:8443/book", "https://acme.example.com:443/book", "http://acme.example.com:443/", "www.com", "www.www.example.com",
		"acme.example.com./book", "acme.example.com/%7Euser/%2Fx%41", "acme.example.com/bo%zz", "javascript:alert(1)", "mailto:a@b.com",
		"https://user@acme.example.com/", "ftp://acme.example.com/", "acme.example.com/a b", `acme.example.com\book`, "https://[::1]:443/",
		"acme.example.com:0", "acme.example.com:65536", "acme.example.com:+80", "ACME.example.com/İstanbul", "-acme.example.com", "acme.example.com//book//",
	} {
		f.Add(s, "https://acme.example.com/", "https://acme.example.com/book")
	}
	f.Add("platform.example.com/acme/book", "https://platform.example.com/acme", "https://www.acme.example.com")
	f.Add("platform.example.com/acmeplumbing", "https://platform.example.com/acme", "https://platform.example.com/acme/book")
	bs := testBusinesses(f)

	f.Fuzz(func(t *testing.T, s, url, bookingURL string) {
		l, ok := ParseSiteLink(s)
		if !ok {
			if l != (SiteLink{}) {
				t.Fatalf("ParseSiteLink(%q) = %+v, false: want the zero link when refused", s, l)
			}
			return
		}
		host, port, hasPort := strings.Cut(l.Host, ":")
		if !isHostName(host) || strings.HasPrefix(host, "www.") && strings.Contains(host[len("www."):], ".") {
			t.Errorf("ParseSiteLink(%q): got host %q, want a lower-case DNS name without www.", s, l.Host)
		}
		if n, err := strconv.Atoi(port); hasPort && (err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port) {
			t.Errorf("ParseSiteLink(%q): got port %q, want a number from 1 to 65535", s, port)
		}
		if l.Path != "" && (!strings.HasPrefix(l.Path, "/") || strings.HasSuffix(l.Path, "/") || strings.Contains(l.Path, "//") ||
			slices.Contains(strings.Split(l.Path, "/"), ".") || slices.Contains(strings.Split(l.Path, "/"), "..")) {
			t.Errorf("ParseSiteLink(%q): got path %q, want a clean path", s, l.Path)
		}
		if strings.ContainsAny(l.Path, "?#") {
			t.Errorf("ParseSiteLink(%q): got path %q, want the query and fragment dropped", s, l.Path)
		}

		// A parsed link reads back as itself. Spelled with the scheme it was
		// written with, always; without one, unless it kept a port (80 or
		// 443) that is not its own scheme's default: a link without a scheme
		// takes both as the default, which link_test.go holds to.
		if again, ok := ParseSiteLink(linkScheme(s) + l.String()); !ok || again != l {
			t.Errorf("ParseSiteLink(%q) = %+v, but ParseSiteLink(%q) = %+v, %v", s, l, linkScheme(s)+l.String(), again, ok)
		}
		if port != "80" && port != "443" {
			if again, ok := ParseSiteLink(l.String()); !ok || again != l {
				t.Errorf("ParseSiteLink(%q) = %+v, but ParseSiteLink(%q) = %+v, %v", s, l, l.String(), again, ok)
			}
		}

		// OwnsLink: the same host as one of the business's sites, and that
		// site's path or a path under it on a segment boundary. Never a link
		// on another host.
		fuzzed := &Business{URL: url, BookingURL: bookingURL}
		for _, b := range append([]*Business{fuzzed}, bs[fuzzSlugs[0]], bs[fuzzSlugs[3]]) {
			want := false
			for _, site := range b.Sites() {
				under := site.Path == "" || l.Path == site.Path || strings.HasPrefix(l.Path, site.Path+"/")
				want = want || site.Host == l.Host && under
			}
			if got := b.OwnsLink(l); got != want {
				t.Errorf("business with sites %v: OwnsLink(%+v) = %v, want %v", b.Sites(), l, got, want)
			}
		}
		for _, site := range fuzzed.Sites() {
			if !fuzzed.OwnsLink(site) {
				t.Errorf("business with sites %v does not own its site %+v", fuzzed.Sites(), site)
			}
		}
	})
}

// FuzzWindowQuery: the window cutter given a first day and a number of
// days as listArrivalWindows's from and days give them (edge.ParseDate,
// edge.ParseDays, whose own target is in pkg/edge): a from that is not a
// date is today, a days that is not 1 to MaxDays is DefaultDays.
func FuzzWindowQuery(f *testing.F) {
	for _, q := range []struct{ from, days string }{
		{"", ""}, {"2026-11-23", "1"}, {"2026-11-23", "14"}, {"2026-02-29", "7"}, {"2028-02-29", "07"}, {"2026-2-01", "0"},
		{"2026-11-23T00:00:00Z", "15"}, {"tomorrow", "-1"}, {"0000-01-01", "+3"}, {"9999-12-31", "7.5"}, {" 2026-11-23", " 7"},
		{"2026-11-23\x00", "99999999999999999999"}, {"２０２６-11-23", "١"},
	} {
		f.Add(q.from, q.days, int64(1795132800), uint8(0)) // 2026-11-20T00:00:00Z
	}
	f.Add("", "", int64(1795132800), uint8(3))
	f.Add("", "", int64(-62135596800), uint8(1)) // 0001-01-01
	bs := testBusinesses(f)

	f.Fuzz(func(t *testing.T, from, days string, nowUnix int64, business uint8) {
		b := bs[fuzzSlugs[int(business)%len(fuzzSlugs)]]
		// Any instant from year 1 to 9999.
		const first, span = -62135596800, 315537897600
		now := time.Unix(first+int64(uint64(nowUnix)%span), 0).UTC()

		day := b.today(now)
		if d, err := time.Parse(dateLayout, from); err == nil {
			day = d
		}
		n, err := strconv.Atoi(days)
		if err != nil || n < 1 || n > MaxDays {
			n = DefaultDays
		}
		// What the two give the window cutter: no panic, only days asked for.
		last := day.AddDate(0, 0, n-1).Format(dateLayout)
		for _, w := range b.Windows(now, day, n, nil) {
			if w.Date < day.Format(dateLayout) || w.Date > last || !w.Start.After(now) {
				t.Fatalf("from %s, %d days, now %s: got window %+v", day.Format(dateLayout), n, now, w)
			}
		}
	})
}

// fuzzZones are the time zones FuzzWindows picks from: the usual, the ones
// with a 30-minute (Lord_Howe) or 2-hour (Troll) daylight-saving shift,
// odd offsets (Chatham +12:45, Kolkata +5:30, Kathmandu +5:45), changes at
// midnight (Havana, Santiago), and a negative summer shift (Casablanca).
var fuzzZones = []string{
	"America/Los_Angeles", "America/New_York", "Pacific/Chatham", "Australia/Lord_Howe", "Asia/Kolkata", "UTC",
	"Europe/London", "America/Phoenix", "Antarctica/Troll", "Asia/Kathmandu", "America/Havana", "America/Santiago",
	"Africa/Casablanca", "Pacific/Kiritimati", "America/St_Johns",
}

// hoursFromBytes reads a week of opening hours from data: per day (Sunday
// first) a count byte (0 to 3 intervals), then per interval two big-endian
// uint16s: minutes after the previous close to open, and minutes open. An
// interval that would end after 24:00 ends the day. Missing data is a closed
// day.
func hoursFromBytes(data []byte) (Hours, [7][][2]int) {
	var h Hours
	var minutes [7][][2]int
	days := h.days()
	for d := range days {
		if len(data) == 0 {
			break
		}
		n := int(data[0] % 4)
		data = data[1:]
		intervals := []Interval{}
		prevClose := 0
		for i := 0; i < n && len(data) >= 4; i++ {
			open := prevClose + int(binary.BigEndian.Uint16(data))%1440
			closeMin := open + 1 + int(binary.BigEndian.Uint16(data[2:]))%1440
			data = data[4:]
			if open > 1439 || closeMin > 1440 {
				break
			}
			intervals = append(intervals, Interval{Open: clockString(open), Close: clockString(closeMin)})
			minutes[d] = append(minutes[d], [2]int{open, closeMin})
			prevClose = closeMin
		}
		*days[d] = intervals
	}
	return h, minutes
}

func clockString(min int) string { return fmt.Sprintf("%02d:%02d", min/60, min%60) }

// hoursBytes is the inverse of hoursFromBytes, for seeds: per day (Sunday
// first) a list of [open, close] minutes.
func hoursBytes(week [7][][2]int) []byte {
	var data []byte
	for _, day := range week {
		data = append(data, byte(len(day)))
		prevClose := 0
		for _, iv := range day {
			data = binary.BigEndian.AppendUint16(data, uint16(iv[0]-prevClose))
			data = binary.BigEndian.AppendUint16(data, uint16(iv[1]-iv[0]-1))
			prevClose = iv[1]
		}
	}
	return data
}

// everyDay is the same intervals on each of the seven days.
func everyDay(intervals ...[2]int) [7][][2]int {
	var w [7][][2]int
	for i := range w {
		w[i] = intervals
	}
	return w
}

// zoneOffsets lists the UTC offsets (seconds east) loc uses from a day
// before date to two days after it, sampled every quarter hour: what a wall
// clock time on date can mean.
func zoneOffsets(date time.Time, loc *time.Location) []int {
	var offsets []int
	for t := date.Add(-24 * time.Hour); t.Before(date.Add(48 * time.Hour)); t = t.Add(15 * time.Minute) {
		if _, off := t.In(loc).Zone(); !slices.Contains(offsets, off) {
			offsets = append(offsets, off)
		}
	}
	return offsets
}

// wallClockInstant is the earliest instant at which loc's wall clock reads
// minute of day min on date (a midnight UTC date value), and false when no
// instant does (skipped by a daylight-saving change). It knows nothing of
// localInstant: it tries every offset loc uses around the date.
func wallClockInstant(date time.Time, min int, offsets []int, loc *time.Location) (time.Time, bool) {
	wall := date.Add(time.Duration(min) * time.Minute)
	var best time.Time
	found := false
	for _, off := range offsets {
		t := wall.Add(-time.Duration(off) * time.Second)
		if t.In(loc).Format("2006-01-02 15:04") != wall.Format("2006-01-02 15:04") {
			continue
		}
		if !found || t.Before(best) {
			best, found = t, true
		}
	}
	return best.UTC(), found
}

// daysOffFromBytes reads days off from data: per entry (at most 8) two
// bytes, the first day as days after today less 3, and how many more days
// the entry covers (modulo 4; 0 is a single day, written without to). It
// returns them and the set of dates they cover, worked out here.
func daysOffFromBytes(data []byte, today time.Time) ([]DayOff, map[string]bool) {
	var list []DayOff
	set := map[string]bool{}
	for i := 0; i+1 < len(data) && len(list) < 8; i += 2 {
		from := today.AddDate(0, 0, int(data[i])-3)
		more := int(data[i+1] % 4)
		d := DayOff{From: from.Format(dateLayout)}
		if more > 0 {
			d.To = from.AddDate(0, 0, more).Format(dateLayout)
		}
		list = append(list, d)
		for k := 0; k <= more; k++ {
			set[from.AddDate(0, 0, k).Format(dateLayout)] = true
		}
	}
	return list, set
}

func FuzzWindows(f *testing.F) {
	const (
		nov20 = 1795132800 // 2026-11-20T00:00:00Z
		mar13 = 1804939200 // 2027-03-13T12:00:00Z, the day before spring forward in the US
		nov06 = 1825416000 // 2027-11-06T12:00:00Z, the day before fall back in the US
		apr03 = 1806854400 // 2027-04-03T12:00:00Z, around Lord Howe's and Chatham's fall back
		oct02 = 1822569600 // 2027-10-02T12:00:00Z, around Lord Howe's spring forward
	)
	split := hoursBytes(everyDay([2]int{8 * 60, 12 * 60}, [2]int{13 * 60, 17 * 60}))
	allDay := hoursBytes(everyDay([2]int{0, 1440}))
	fromOne := hoursBytes(everyDay([2]int{60, 1440}))
	night := hoursBytes(everyDay([2]int{22 * 60, 1440}))
	early := hoursBytes(everyDay([2]int{0, 3*60 + 30}))
	odd := hoursBytes(everyDay([2]int{7*60 + 13, 9*60 + 59}, [2]int{10 * 60, 10*60 + 15}, [2]int{23*60 + 44, 1440}))
	for _, s := range []struct {
		hours   []byte
		length  uint16 // minutes is 15 + length % 706
		zone    uint8
		now     int64
		from    int16
		days    uint8
		horizon uint16
		daysOff []byte // see daysOffFromBytes
		notice  uint16 // minutes, modulo MaxNoticeMinutes+1
	}{
		{split, 105, 0, nov20, 3, 0, 14, nil, 0},
		{allDay, 45, 0, mar13, 0, 2, 30, nil, 0},
		{allDay, 45, 0, nov06, 0, 2, 30, nil, 0},
		{allDay, 30, 0, mar13, 0, 2, 30, nil, 0},   // 45 minutes: 01:30 PST runs to 03:15 PDT, past 03:00
		{allDay, 75, 0, mar13, 0, 2, 30, nil, 0},   // 90 minutes: 01:30 PST runs to 04:00 PDT, past 03:00
		{early, 75, 0, mar13, 0, 2, 30, nil, 0},    // the same, closing at 03:30: 01:30 PST ends 04:00 PDT
		{fromOne, 75, 0, mar13, 0, 2, 30, nil, 0},  // 90 minutes from 01:00: 02:30 is skipped
		{fromOne, 105, 1, mar13, 0, 2, 30, nil, 0}, // 120 minutes from 01:00: 01:00 EST runs to 04:00 EDT, past 03:00
		{allDay, 15, 3, apr03, 0, 3, 30, nil, 0},
		{fromOne, 15, 3, oct02, 0, 3, 30, nil, 0},
		{allDay, 0, 2, apr03, 0, 3, 30, nil, 0},
		{odd, 0, 2, oct02 - 86400*5, 0, 13, 30, nil, 0},
		{allDay, 705, 4, nov20, 0, 13, 365, nil, 0},
		{night, 45, 5, nov20, -2, 13, 0, nil, 0},
		{allDay, 30, 8, 1837512000, 0, 3, 30, nil, 0},  // Troll, 2028-03-26: 01:00 UTC+0 to 03:00 UTC+2
		{allDay, 105, 8, 1837512000, 0, 3, 30, nil, 0}, // the same, 120-minute windows from 00:00: 00:00 runs to 03:00
		{allDay, 15, 10, mar13, 0, 3, 30, nil, 0},      // Havana, 2027-03-14: midnight is skipped
		{allDay, 15, 11, 1806667200, 0, 3, 30, nil, 0}, // Santiago, 2027-04-03: 23:00 to 24:00 twice
		{allDay, 15, 11, 1819972800, 0, 3, 30, nil, 0}, // Santiago, 2027-09-05: midnight is skipped
		{allDay, 45, 12, 1832068800, 0, 6, 60, nil, 0}, // Casablanca, 2028-01-23: 03:00 back to 02:00
		{[]byte{}, 0, 0, nov20, 0, 6, 14, nil, 0},
		// Days off and notice: the spring-forward and fall-back days off in
		// Los Angeles, a range, today and the horizon's last day off,
		// notice across midnight and a week's notice.
		{allDay, 45, 0, mar13, 0, 3, 30, []byte{1, 0}, 0},
		{allDay, 45, 0, nov06, 0, 3, 30, []byte{1, 0}, 90},
		{split, 45, 0, nov20, 0, 13, 14, []byte{2, 2, 9, 0}, 0},
		{split, 45, 0, nov20, 0, 13, 14, []byte{0, 0, 14, 0}, 0},
		{split, 45, 0, nov20, 0, 2, 14, nil, 16 * 60},
		{allDay, 15, 11, 1819972800, 0, 3, 30, []byte{0, 1}, 23 * 60},
		{allDay, 0, 4, nov20, 0, 13, 30, []byte{3, 0, 5, 2, 7, 0}, uint16(MaxNoticeMinutes)},
	} {
		f.Add(s.hours, s.length, s.zone, s.now, s.from, s.days, s.horizon, s.daysOff, s.notice)
	}
	tmpl := testBusinesses(f)["all-day-plumbing"]

	f.Fuzz(func(t *testing.T, hoursData []byte, length uint16, zone uint8, nowUnix int64, fromDelta int16, days uint8, horizon uint16,
		daysOffData []byte, noticeMinutes uint16) {
		hours, week := hoursFromBytes(hoursData)
		b := *tmpl
		b.Hours = hours
		b.Timezone = fuzzZones[int(zone)%len(fuzzZones)]
		b.ArrivalWindowMinutes = 15 + int(length)%706
		b.BooksUpToDaysAhead = int(horizon) % 366
		b.MinNoticeMinutes = int(noticeMinutes) % (MaxNoticeMinutes + 1)
		loc0, err := location(b.Timezone)
		if err != nil {
			t.Fatal(err)
		}
		// Any second from 2000 to 2049, in zones whose rules tzdata knows.
		const first, span = 946684800, 50 * 365 * 86400
		now := time.Unix(first+int64(uint64(nowUnix)%span), 0).UTC()
		y, m, d := now.In(loc0).Date()
		today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		var offDays map[string]bool
		b.DaysOff, offDays = daysOffFromBytes(daysOffData, today)
		if err := b.Validate(); err != nil {
			return // only businesses the loader would take
		}
		loc, L := b.loc, b.ArrivalWindowMinutes
		windowLen := time.Duration(L) * time.Minute
		earliest := now.Add(time.Duration(b.MinNoticeMinutes) * time.Minute)
		from := today.AddDate(0, 0, int(fromDelta)%(b.BooksUpToDaysAhead+5)-2)
		n := 1 + int(days)%MaxDays
		last := today.AddDate(0, 0, b.BooksUpToDaysAhead)

		got := b.Windows(now, from, n, nil)

		// What decisions.md says the list is, worked out here from the
		// hours, day by day.
		var want []Window
		for i := 0; i < n; i++ {
			day := from.AddDate(0, 0, i)
			if day.After(last) {
				break
			}
			if offDays[day.Format(dateLayout)] {
				continue
			}
			offsets := zoneOffsets(day, loc)
			for _, iv := range week[day.Weekday()] {
				for min := iv[0]; min+L <= iv[1]; min += L {
					start, ok := wallClockInstant(day, min, offsets, loc)
					if ok && start.After(earliest) {
						want = append(want, Window{Date: day.Format(dateLayout), Start: start, End: start.Add(windowLen)})
					}
				}
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%s, %d-minute windows, now %s, from %s, %d days: got %d windows, want %d\ngot  %v\nwant %v",
				b.Timezone, L, now, from.Format(dateLayout), n, len(got), len(want), got, want)
		}
		for i := range got {
			if got[i].Date != want[i].Date || !got[i].Start.Equal(want[i].Start) || !got[i].End.Equal(want[i].End) {
				t.Fatalf("%s, %d-minute windows, now %s: window %d: got %+v, want %+v", b.Timezone, L, now, i, got[i], want[i])
			}
		}

		for i, w := range got {
			local := w.Start.In(loc)
			if w.Start.Location() != time.UTC || w.End.Location() != time.UTC {
				t.Errorf("window %+v: want start and end in UTC", w)
			}
			if !w.Start.After(now) {
				t.Errorf("window %+v: starts at or before now %s", w, now)
			}
			if !w.Start.After(earliest) {
				t.Errorf("window %+v: starts within the notice (%d minutes from %s)", w, b.MinNoticeMinutes, now)
			}
			if offDays[w.Date] {
				t.Errorf("window %+v: on a day off %v", w, b.DaysOff)
			}
			if w.End.Sub(w.Start) != windowLen {
				t.Errorf("window %+v: lasts %s, want %s", w, w.End.Sub(w.Start), windowLen)
			}
			if w.Date != local.Format(dateLayout) {
				t.Errorf("window %+v: date is not the local date of its start (%s)", w, local)
			}
			if w.Date < from.Format(dateLayout) || w.Date > last.Format(dateLayout) {
				t.Errorf("window %+v: outside %s to the horizon %s", w, from.Format(dateLayout), last.Format(dateLayout))
			}
			min := local.Hour()*60 + local.Minute()
			inside := local.Second() == 0 && slices.ContainsFunc(week[local.Weekday()], func(iv [2]int) bool {
				return iv[0] <= min && min+L <= iv[1] && (min-iv[0])%L == 0
			})
			if !inside {
				t.Errorf("window %+v (local %s): not a start cut from that day's hours %v", w, local, week[local.Weekday()])
			}
			if at, ok := b.WindowAt(w.Start, now); !ok || at.Date != w.Date || !at.Start.Equal(w.Start) || !at.End.Equal(w.End) {
				t.Errorf("window %+v: WindowAt answers %+v, %v", w, at, ok)
			}
			if i == 0 {
				continue
			}
			prev := got[i-1]
			if !prev.Start.Before(w.Start) {
				t.Errorf("windows %d and %d: %s then %s, want sorted by start", i-1, i, prev.Start, w.Start)
			}
			// Windows never overlap, but for the case decisions.md makes:
			// cut on the wall clock (start + length <= close in minutes of
			// the day) with end = start + length, a window that starts
			// before a spring-forward gap and ends after it runs past the
			// next window's start, and past its close on the wall clock, by
			// the time the clocks skipped (New York, 120-minute windows
			// from 01:00: 01:00 EST to 04:00 EDT, and 03:00 EDT to 05:00).
			// Reported to the lead; this holds the overlap to that case.
			if overlap := prev.End.Sub(w.Start); overlap > 0 {
				_, before := prev.Start.In(loc).Zone()
				_, after := w.Start.In(loc).Zone()
				if skipped := time.Duration(after-before) * time.Second; overlap > skipped {
					t.Errorf("windows %+v and %+v overlap by %s, more than a clock change (%s) explains", prev, w, overlap, skipped)
				}
			}
		}
		// And WindowAt finds no other start: probe a minute either side of
		// each start, and each end, within the days listed.
		starts := make(map[int64]bool, len(got))
		for _, w := range got {
			starts[w.Start.Unix()] = true
		}
		lastListed := from.AddDate(0, 0, n-1)
		if lastListed.After(last) {
			lastListed = last
		}
		for _, w := range got {
			for _, p := range []time.Time{w.Start.Add(-time.Minute), w.Start.Add(time.Minute), w.End} {
				date := p.In(loc).Format(dateLayout)
				if !p.After(now) || date < from.Format(dateLayout) || date > lastListed.Format(dateLayout) {
					continue
				}
				if at, ok := b.WindowAt(p, now); ok != starts[p.Unix()] {
					t.Errorf("WindowAt(%s) = %+v, %v, but the list has it: %v", p, at, ok, starts[p.Unix()])
				}
			}
		}
	})
}
