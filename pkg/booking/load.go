package booking

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
)

// DecodeBusiness decodes one business record (the getBusiness shape, private
// fields allowed) and validates it.
func DecodeBusiness(data []byte) (*Business, error) {
	var b Business
	rec := record{Business: &b}
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("business record: %w", err)
	}
	b.Private = rec.Private
	if err := b.Validate(); err != nil {
		return nil, err
	}
	return &b, nil
}

// LoadBusinesses reads a JSON array of business records and validates each.
// Slugs must be unique, and so must sites: two businesses cannot have the
// same site (host and path, as ParseSiteLink reads their url and
// booking_url). An error names the business and the field.
func LoadBusinesses(r io.Reader) ([]*Business, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("businesses file: want a JSON array of business records: %w", err)
	}
	seen := make(map[string]bool, len(raw))
	siteOwner := make(map[SiteLink]string, 2*len(raw))
	bs := make([]*Business, 0, len(raw))
	for i, rec := range raw {
		b, err := DecodeBusiness(bytes.TrimSpace(rec))
		if err != nil {
			return nil, fmt.Errorf("businesses[%d]: %w", i, err)
		}
		if seen[b.Slug] {
			return nil, fmt.Errorf("businesses[%d]: business %q: slug: used twice", i, b.Slug)
		}
		if b.Phone != "" && !isPublicPhone(b.Phone) {
			return nil, fmt.Errorf("businesses[%d]: business %q: phone: %s", i, b.Slug, publicPhoneRule)
		}
		if len(b.Services) == 0 && !b.SettingUp() {
			return nil, fmt.Errorf("businesses[%d]: business %q: services: is empty; %s", i, b.Slug, noServiceRule)
		}
		seen[b.Slug] = true
		for _, f := range [...]struct{ field, url string }{{"url", b.URL}, {"booking_url", b.BookingURL}} {
			site, _ := ParseSiteLink(f.url) // Validate checked it
			if other, ok := siteOwner[site]; ok && other != b.Slug {
				return nil, fmt.Errorf("businesses[%d]: business %q: %s: the site %s is a site of business %q too; a link to it must name one business",
					i, b.Slug, f.field, site, other)
			}
			siteOwner[site] = b.Slug
		}
		bs = append(bs, b)
	}
	return bs, nil
}

var (
	slugPattern     = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	phonePattern    = regexp.MustCompile(`^\+[1-9][0-9]{7,14}$`)
	statePattern    = regexp.MustCompile(`^[A-Z]{2}$`)
	currencyPattern = regexp.MustCompile(`^[a-z]{3}$`)
	zipPattern      = regexp.MustCompile(`^[0-9]{5}$`)
	clockPattern    = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$`)
)

// isPublicPhone reports whether p may be a business's new public phone:
// international format, + and up to 15 digits; a North American one (+1)
// is +1 and a number NormalizePhone takes (area code and exchange starting
// with 2 to 9), so that "+10123456789" is no phone. The loader's file and
// an owner's change (UpdateDetails) are held to it; Validate, which every
// stored record is read through, only to the international format, so
// that a number stored before this rule does not make its business
// unreadable: its owner is asked for another at the next change of it.
func isPublicPhone(p string) bool {
	if !phonePattern.MatchString(p) {
		return false
	}
	if rest, ok := strings.CutPrefix(p, "+1"); ok {
		d, ok := NormalizePhone(p)
		return ok && d == rest
	}
	return true
}

// noServiceRule is why a loaded business that is live or takes requests
// needs a service. The file is held to it, and an owner's change
// (UpdateServices refuses the last one's removal), but not Validate, which
// every stored record is read through: a record that lost its last
// service before the rule stays readable.
const noServiceRule = "a business that is live or takes requests keeps at least one"

// publicPhoneRule is what isPublicPhone asks, for an error.
const publicPhoneRule = "want international format with a leading +; a North American number (+1) has 10 digits, its area code and exchange starting with 2 to 9"

// ReadPublicPhone reads a business's public phone as its owner types it,
// separators allowed: a North American number as NormalizePhone reads it
// (10 digits, 1 or +1 before them), stored as +1 and its 10 digits; or
// another country's, + and its country code first. ok is false for
// anything else: "+0123456789" is no number, and not +1 0123456789.
func ReadPublicPhone(s string) (phone string, ok bool) {
	s = strings.TrimSpace(s)
	if d, ok := NormalizePhone(s); ok {
		return "+1" + d, true
	}
	rest, plus := strings.CutPrefix(s, "+")
	if !plus {
		return "", false
	}
	digits := strings.Map(func(r rune) rune {
		switch {
		case '0' <= r && r <= '9':
			return r
		case strings.ContainsRune(" -.()", r):
			return -1
		}
		return 'x'
	}, rest)
	if p := "+" + digits; isPublicPhone(p) {
		return p, true
	}
	return "", false
}

// Validate checks a business record and prepares it for use (time zone,
// parsed hours). Its error names the business and the field at fault.
func (b *Business) Validate() error {
	if err := b.validate(); err != nil {
		return fmt.Errorf("business %q: %w", b.Slug, err)
	}
	return nil
}

func (b *Business) validate() error {
	switch {
	case !IsSlug(b.Slug):
		return fieldErr("slug", "want lowercase letters, digits and single dashes, got %q", b.Slug)
	case b.Name == "":
		return fieldErr("name", "is empty")
	case b.Trade == "":
		return fieldErr("trade", "is empty")
	case !isSiteURL(b.URL):
		return fieldErr("url", "want an absolute https URL of a site (a host name with a dot, no user name), got %q", b.URL)
	case !isSiteURL(b.BookingURL):
		return fieldErr("booking_url", "want an absolute https URL of a site (a host name with a dot, no user name), got %q", b.BookingURL)
	case !phonePattern.MatchString(b.Phone) && !(b.SettingUp() && b.Phone == ""):
		return fieldErr("phone", "want international format with a leading +, got %q", b.Phone)
	case b.City == "" && !b.SettingUp():
		return fieldErr("city", "is empty")
	case !statePattern.MatchString(b.State) && !(b.SettingUp() && b.State == ""):
		return fieldErr("state", "want a two-letter state code, got %q", b.State)
	case b.ArrivalWindowMinutes < 15 || b.ArrivalWindowMinutes > 720:
		return fieldErr("arrival_window_minutes", "want 15 to 720, got %d", b.ArrivalWindowMinutes)
	case b.BooksUpToDaysAhead < 0 || b.BooksUpToDaysAhead > 365:
		return fieldErr("books_up_to_days_ahead", "want 0 to 365, got %d", b.BooksUpToDaysAhead)
	}
	if err := ownerTextErr("name", b.Name, MaxBusinessName, b.Phone); err != nil {
		return err
	}
	loc, err := location(b.Timezone)
	if err != nil || b.Timezone == "" || b.Timezone == "Local" {
		return fieldErr("timezone", "unknown time zone %q", b.Timezone)
	}
	b.loc = loc
	if err := b.validateLanguages(); err != nil {
		return err
	}
	if b.License != nil && (b.License.Number == "" || b.License.Authority == "") {
		return fieldErr("license", "want number and authority, or null")
	}
	// A business being set up (SettingUp: in preview, not accepting
	// requests, as a sign-up makes it) may have no phone, city, state,
	// service area or service yet; it takes no request until it has. A
	// service area it has has its label.
	if b.ServiceArea.Label == "" && (!b.SettingUp() || len(b.ServiceArea.ZIPCodes) > 0) {
		return fieldErr("service_area.label", "is empty")
	}
	if len(b.ServiceArea.ZIPCodes) == 0 && !b.SettingUp() {
		return fieldErr("service_area.zip_codes", "is empty")
	}
	for i, z := range b.ServiceArea.ZIPCodes {
		if !zipPattern.MatchString(z) {
			return fieldErr(fmt.Sprintf("service_area.zip_codes[%d]", i), "want 5 digits, got %q", z)
		}
	}
	if err := b.validateDeposit(); err != nil {
		return err
	}
	if err := b.Private.validate(); err != nil {
		return err
	}
	if b.daysOff, err = parseDaysOff(b.DaysOff); err != nil {
		return err
	}
	if err := b.Hours.validate(); err != nil {
		return err
	}
	return b.validateServices()
}

func (b *Business) validateLanguages() error {
	if len(b.Languages) == 0 {
		return fieldErr("languages", "is empty")
	}
	seen := map[string]bool{}
	for i, l := range b.Languages {
		if !isLanguage(l) || seen[l] {
			return fieldErr(fmt.Sprintf("languages[%d]", i), "want en or es, once each, got %q", l)
		}
		seen[l] = true
	}
	if !seen[b.DefaultLanguage] {
		return fieldErr("default_language", "want one of languages, got %q", b.DefaultLanguage)
	}
	return nil
}

func (b *Business) validateDeposit() error {
	d := b.BookingDeposit
	if d == nil {
		return nil
	}
	r := d.Rules
	switch {
	case d.AmountCents <= 0:
		return fieldErr("booking_deposit.amount_cents", "want a positive amount, got %d", d.AmountCents)
	case !currencyPattern.MatchString(d.Currency):
		return fieldErr("booking_deposit.currency", "want a lowercase 3-letter code, got %q", d.Currency)
	case d.Simulated != b.Preview:
		return fieldErr("booking_deposit.simulated", "must equal preview (%v)", b.Preview)
	case d.PayWithinMinutes < 1 || d.PayWithinMinutes > 1440:
		return fieldErr("booking_deposit.pay_within_minutes", "want 1 to 1440, got %d", d.PayWithinMinutes)
	case d.FreeCancellationHours < 0:
		return fieldErr("booking_deposit.free_cancellation_hours", "is negative")
	case !isWebURL(d.TermsURL):
		return fieldErr("booking_deposit.terms_url", "want an absolute https URL, got %q", d.TermsURL)
	case r.JobDone == "" || r.CustomerNotThere == "" || r.CustomerCancelsEarly == "" ||
		r.CustomerCancelsLate == "" || r.BusinessDeclinesOrCancels == "" || r.BusinessMovesTheWindow == "":
		return fieldErr("booking_deposit.rules", "every rule needs a text")
	}
	return nil
}

// validate parses every interval and checks that each day's intervals are
// well formed, sorted and do not overlap. A missing day is a closed day.
func (h *Hours) validate() error {
	for d, intervals := range h.days() {
		if *intervals == nil {
			*intervals = []Interval{}
		}
		prevClose := 0
		for i := range *intervals {
			iv := &(*intervals)[i]
			field := fmt.Sprintf("hours.%s[%d]", dayKeys[d], i)
			var ok bool
			if iv.openMin, ok = clockMinutes(iv.Open); !ok || iv.Open == "24:00" {
				return fieldErr(field+".open", "want HH:MM (00:00 to 23:59), got %q", iv.Open)
			}
			if iv.closeMin, ok = clockMinutes(iv.Close); !ok {
				return fieldErr(field+".close", "want HH:MM (00:01 to 24:00), got %q", iv.Close)
			}
			if iv.closeMin <= iv.openMin {
				return fieldErr(field, "closes (%s) before it opens (%s)", iv.Close, iv.Open)
			}
			if iv.openMin < prevClose {
				return fieldErr(field, "overlaps or precedes the interval before it")
			}
			prevClose = iv.closeMin
		}
	}
	return nil
}

func (b *Business) validateServices() error {
	seen := map[string]bool{}
	for i, s := range b.Services {
		field := fmt.Sprintf("services[%d]", i)
		switch {
		case !slugPattern.MatchString(s.ID):
			return fieldErr(field+".id", "want lowercase letters, digits and dashes, got %q", s.ID)
		case seen[s.ID]:
			return fieldErr(field+".id", "%q used twice", s.ID)
		case s.Name.EN == "" || s.Name.ES == "":
			return fieldErr(field+".name", "want text in en and es")
		case s.Description.EN == "" || s.Description.ES == "":
			return fieldErr(field+".description", "want text in en and es")
		}
		for _, t := range []struct {
			field, text string
			max         int
		}{
			{".name.en", s.Name.EN, MaxServiceName}, {".name.es", s.Name.ES, MaxServiceName},
			{".description.en", s.Description.EN, MaxServiceDescription}, {".description.es", s.Description.ES, MaxServiceDescription},
		} {
			if err := ownerTextErr(field+t.field, t.text, t.max, b.Phone); err != nil {
				return err
			}
		}
		seen[s.ID] = true
	}
	return nil
}

// clockMinutes parses "HH:MM" (00:00 to 24:00) into minutes after midnight.
func clockMinutes(s string) (int, bool) {
	if !clockPattern.MatchString(s) {
		return 0, false
	}
	return int(s[0]-'0')*600 + int(s[1]-'0')*60 + int(s[3]-'0')*10 + int(s[4]-'0'), true
}

func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "https" && u.Host != ""
}

// isSiteURL reports whether s is an https URL that ParseSiteLink reads, so
// that links to the page can name the business.
func isSiteURL(s string) bool {
	_, ok := ParseSiteLink(s)
	return isWebURL(s) && ok
}

func isLanguage(s string) bool { return s == "en" || s == "es" }

func fieldErr(field, format string, args ...any) error {
	return fmt.Errorf("%s: %s", field, fmt.Sprintf(format, args...))
}

// locations keeps each time zone location read: time.LoadLocation reads
// and parses the zone file on every call, and every business read (a
// Lambda's, each time its cache is cold) would pay for it.
var locations sync.Map // name → *time.Location

func location(name string) (*time.Location, error) {
	if loc, ok := locations.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	locations.Store(name, loc)
	return loc, nil
}
