package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// How a business comes on board by itself ({SITE_URL}/start): its owner
// types the business's name, its trade and their e-mail address; a link
// to that address (SignupTTL, once) creates the business in preview, not
// accepting requests, and signs the owner in. See docs/business.md,
// "Coming on board".
const (
	SignupTTL = 24 * time.Hour // a sign-up link lives this long, and is used once
	// MaxSignupEmailsPerDay is how many sign-up e-mails (or sign-in links
	// instead, for an address that owns a business) one address is sent
	// on a UTC day.
	MaxSignupEmailsPerDay = 3
	// DefaultSignupsPerHour is how many businesses a stack creates by
	// sign-up in a clock hour (UTC) when Config.SignupsPerHour is 0.
	DefaultSignupsPerHour = 30
	// SignupTimezone is a new business's time zone until its owner sets
	// one: the Eastern zone, where most people in the US live.
	SignupTimezone = "America/New_York"
	// maxSignupSlug is the longest slug made from a name, before any -N.
	maxSignupSlug = 48
	// maxSlugTries is how many slugs (name, name-2, …) a sign-up tries.
	maxSlugTries = 200
)

// Trades are the trades a business can sign up with, as the demo
// businesses use them.
var Trades = []string{"plumbing", "electrical", "hvac", "cleaning"}

// ReservedSlugs are slugs no sign-up takes (a taken one gets -2, -3 …):
// the site's own top-level paths and names that would read as Doorstep's.
var ReservedSlugs = []string{
	"admin", "api", "book", "businesses", "dev", "doorstep", "help", "inbox", "login", "mcp",
	"new", "openapi", "pay", "privacy", "r", "settings", "sign-in", "start", "static", "status",
	"support", "terms", "webhooks", "www",
}

// SignupInput is what the sign-up form sends.
type SignupInput struct {
	Name  string // the business's name
	Trade string // one of Trades
	Email string // the owner's address: the business's inbox_email
	Terms bool   // the owner agreed to the terms
}

// SignupField is a field of the sign-up form that is wrong, and the code
// that says how.
type SignupField struct {
	Field string // name, trade, email or terms
	Code  Code
}

// SignupRecord is a pending sign-up as the store keeps it until its link
// is used (or its TTL deletes it): the token's hash, never the token.
type SignupRecord struct {
	TokenHash string
	Name      string
	Trade     string
	Email     string // the address the link went to, as typed (trimmed)
	Expires   time.Time
}

// SignupStart is what StartSignup did; the page says the same whatever it
// was. Token is set, and is e-mailed, when Business is nil (a sign-up
// link, to Email) or not (a sign-in link to Business, whose inbox_email
// the address is). Limited: the address had its MaxSignupEmailsPerDay,
// and nothing is sent.
type SignupStart struct {
	Token    string
	Business *Business
	Email    string
	Limited  bool
}

// Errors the store's sign-up create answers with (Store.CreateSignup).
var (
	// ErrSlugTaken: a business (or a site item of another) has the slug.
	ErrSlugTaken = errors.New("the slug is taken")
	// ErrInboxEmailTaken: a business has the address as its inbox_email.
	ErrInboxEmailTaken = errors.New("the inbox_email is another business's")
)

// CheckSignup returns each field of in that is wrong, in the form's
// order; none when in can be signed up.
func CheckSignup(in SignupInput) []SignupField {
	var bad []SignupField
	// The name is owner text (ownertext.go): the rules an owner's edit of
	// it meets, and a slug must be made of it. No phone number is the
	// business's own yet.
	name := strings.TrimSpace(in.Name)
	if OwnerTextProblem(name, MaxBusinessName, "") != "" || SlugFromName(name) == "" {
		bad = append(bad, SignupField{"name", InvalidName})
	}
	if !slices.Contains(Trades, in.Trade) {
		bad = append(bad, SignupField{"trade", InvalidRequest})
	}
	if email := strings.TrimSpace(in.Email); email == "" {
		bad = append(bad, SignupField{"email", InvalidEmail})
	} else if _, ok := NormalizeEmail(email); !ok {
		bad = append(bad, SignupField{"email", InvalidEmail})
	}
	if !in.Terms {
		bad = append(bad, SignupField{"terms", InvalidRequest})
	}
	return bad
}

// SlugFromName makes a slug of a business's name: accents dropped
// ("Fontanería José" is "fontaneria-jose"), a few letters spelt out (ß
// ss, æ ae, ø o, ł l, đ d, ı i, & and), lowercase ASCII letters and digits, every
// other run of characters one hyphen, at most maxSignupSlug characters
// (cut at a hyphen when it can). "" when nothing of the name is left.
func SlugFromName(name string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	plain, _, err := transform.String(t, strings.ToLower(name))
	if err != nil {
		plain = strings.ToLower(name)
	}
	plain = strings.NewReplacer("ß", "ss", "æ", "ae", "œ", "oe", "ø", "o", "ł", "l", "đ", "d", "ð", "d", "þ", "th", "ı", "i", "&", " and ").Replace(plain)
	var b strings.Builder
	hyphen := false
	for _, r := range plain {
		if r < utf8.RuneSelf && (unicode.IsLower(r) || unicode.IsDigit(r)) {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
			continue
		}
		hyphen = true
	}
	slug := b.String()
	if len(slug) > maxSignupSlug {
		slug = slug[:maxSignupSlug]
		if i := strings.LastIndexByte(slug, '-'); i > maxSignupSlug/2 {
			slug = slug[:i]
		}
		slug = strings.TrimSuffix(slug, "-")
	}
	return slug
}

// slugCandidates returns the nth slug a sign-up of base tries (n from 0):
// base, base-2, base-3 …, passing over ReservedSlugs.
func slugCandidate(base string, n int) string {
	if n == 0 {
		return base
	}
	return base + "-" + strconv.Itoa(n+1)
}

// StartSignup begins a sign-up from the form: in must pass CheckSignup
// (else an *Error with the first wrong field's code). It counts one
// e-mail to the address for its UTC day, a conditional write, counted
// whatever comes next: past MaxSignupEmailsPerDay it returns Limited,
// and sends nothing. An address that is a business's inbox_email gets a
// sign-in token for that business (as StartSignIn mints, SignInTTL);
// any other a sign-up token, of which only the hash is stored with
// what was typed, until its Expires (SignupTTL). Nothing else is stored.
func (s *Bookings) StartSignup(ctx context.Context, in SignupInput) (SignupStart, error) {
	if bad := CheckSignup(in); len(bad) > 0 {
		return SignupStart{}, Errorf(bad[0].Code, "the sign-up's %s is not valid", bad[0].Field)
	}
	email := strings.TrimSpace(in.Email)
	now := s.now()
	allowed, err := s.store.CountSignupEmail(ctx, EmailHash(Mailbox(email)), MaxSignupEmailsPerDay, now)
	if err != nil {
		return SignupStart{}, err
	}
	if !allowed {
		s.observer.LimitHit(ctx, LimitSignupEmails)
		return SignupStart{Email: email, Limited: true}, nil
	}
	b, err := s.store.BusinessByInboxEmail(ctx, email)
	switch {
	case err == nil:
		token := newWebToken()
		rec := SignInRecord{TokenHash: WebTokenHash(token), Slug: b.Slug, EmailHash: EmailHash(email), Expires: now.Add(SignInTTL)}
		if err := s.store.PutSignInToken(ctx, rec); err != nil {
			return SignupStart{}, err
		}
		return SignupStart{Token: token, Business: b, Email: b.InboxEmail}, nil
	case ErrorCode(err) != NotFound:
		return SignupStart{}, err
	}
	token := newWebToken()
	rec := SignupRecord{TokenHash: WebTokenHash(token), Name: strings.TrimSpace(in.Name), Trade: in.Trade, Email: email, Expires: now.Add(SignupTTL)}
	if err := s.store.PutSignupToken(ctx, rec); err != nil {
		return SignupStart{}, err
	}
	return SignupStart{Token: token, Email: email}, nil
}

// signupUnauthorized is the answer to a sign-up link that is used,
// expired or none.
func signupUnauthorized() error {
	return Errorf(Unauthorized, "this sign-up link was used already, has expired or is not one; sign up again")
}

// FinishSignup uses a sign-up token, once and within SignupTTL: it
// creates the business (NewSignupBusiness) and opens a session of it, as
// FinishSignIn does. The business's create spends the token, counts the
// stack's hour and claims its slug, site and inbox_email in one
// transaction (Store.CreateSignup): a taken slug tries the next
// (name-2, name-3 …), never a read. Past the stack's SignupsPerHour it is
// RATE_LIMITED, and the link stays good to use later. When the address
// has come to own a business meanwhile, the token is spent and the
// session is that business's. A used, expired or unknown token is
// UNAUTHORIZED.
func (s *Bookings) FinishSignup(ctx context.Context, token string) (Session, error) {
	if !isWebToken(token) {
		return Session{}, signupUnauthorized()
	}
	now := s.now()
	hash := WebTokenHash(token)
	rec, err := s.store.SignupToken(ctx, hash, now)
	switch {
	case ErrorCode(err) == NotFound:
		return Session{}, signupUnauthorized()
	case err != nil:
		return Session{}, err
	}
	base := SlugFromName(rec.Name)
	if base == "" {
		base = "business"
	}
	var b *Business
	for n, tried := 0, 0; tried < maxSlugTries; n++ {
		slug := slugCandidate(base, n)
		if slices.Contains(ReservedSlugs, slug) || !IsSlug(slug) {
			continue
		}
		tried++
		b, err = s.NewSignupBusiness(slug, rec)
		if err != nil {
			return Session{}, err
		}
		b = RecordChange(nil, b, rec.Email, now) // its history starts: created by its owner
		err = s.store.CreateSignup(ctx, b, hash, s.signupsPerHour, now)
		if !errors.Is(err, ErrSlugTaken) {
			break
		}
	}
	switch {
	case errors.Is(err, ErrSlugTaken):
		return Session{}, fmt.Errorf("sign up %q: no free slug in %d tries: %w", base, maxSlugTries, err)
	case errors.Is(err, ErrInboxEmailTaken):
		return s.signupOwned(ctx, hash, rec, now)
	case ErrorCode(err) == NotFound:
		return Session{}, signupUnauthorized()
	case ErrorCode(err) == RateLimited:
		s.observer.LimitHit(ctx, LimitSignups)
		next := now.Truncate(time.Hour).Add(time.Hour)
		return Session{}, &Error{Code: RateLimited, RetryAfter: next.Sub(now),
			Message: fmt.Sprintf("%d businesses signed up this hour; the link still works after %s", s.signupsPerHour, next.UTC().Format(time.Kitchen+" UTC"))}
	case err != nil:
		return Session{}, err
	}
	return s.openSession(ctx, b, EmailHash(rec.Email), now)
}

// signupOwned uses a sign-up token whose address owns a business now: it
// spends the token and signs in to that business.
func (s *Bookings) signupOwned(ctx context.Context, hash string, rec SignupRecord, now time.Time) (Session, error) {
	if err := s.store.SpendSignupToken(ctx, hash, now); err != nil {
		if ErrorCode(err) == NotFound {
			return Session{}, signupUnauthorized()
		}
		return Session{}, err
	}
	b, err := s.store.BusinessByInboxEmail(ctx, rec.Email)
	if err != nil {
		if ErrorCode(err) == NotFound {
			return Session{}, signupUnauthorized()
		}
		return Session{}, err
	}
	return s.openSession(ctx, b, EmailHash(rec.Email), now)
}

// openSession opens a session of b, from the address with emailHash.
func (s *Bookings) openSession(ctx context.Context, b *Business, emailHash string, now time.Time) (Session, error) {
	sess := Session{Token: newWebToken(), CSRF: newWebToken(), Inbox: &Inbox{s: s, b: b}, Expires: now.Add(SessionTTL)}
	err := s.store.PutSession(ctx, SessionRecord{
		TokenHash: WebTokenHash(sess.Token), Slug: b.Slug, EmailHash: emailHash, CSRF: sess.CSRF, Expires: sess.Expires,
	})
	if err != nil {
		return Session{}, err
	}
	return sess, nil
}

// NewSignupBusiness is the business a sign-up creates under slug, before
// its owner changes anything: the name and trade typed, the address the
// link went to as its inbox_email, booking_url (and, until the owner
// gives their own site, url) {FormSiteURL}/book/{slug}; in preview, not
// accepting requests; open Monday to Friday 08:00–17:00 in
// SignupTimezone, 2-hour windows, 14 days ahead, in English; no service,
// no ZIP code, no phone, city or state yet (Validate lets a business in
// preview and not accepting requests go without them). It is validated.
func (s *Bookings) NewSignupBusiness(slug string, rec SignupRecord) (*Business, error) {
	day := []Interval{{Open: "08:00", Close: "17:00"}}
	bookingURL := s.formSiteURL + "/book/" + slug
	b := &Business{
		Slug: slug, Name: rec.Name, Trade: rec.Trade, URL: bookingURL, BookingURL: bookingURL,
		Preview: true, Timezone: SignupTimezone, Languages: []string{"en"}, DefaultLanguage: "en",
		ServiceArea:       ServiceArea{ZIPCodes: []string{}},
		AcceptingRequests: false, ArrivalWindowMinutes: 120, BooksUpToDaysAhead: 14,
		Hours:    Hours{Mon: day, Tue: day, Wed: day, Thu: day, Fri: day, Sat: []Interval{}, Sun: []Interval{}},
		Services: []Service{},
	}
	b.InboxEmail = rec.Email
	if err := b.Validate(); err != nil {
		return nil, fmt.Errorf("sign-up business: %w", err)
	}
	return b, nil
}

// SettingUp reports whether b is a business being set up: in preview and
// not accepting requests. Such a business may yet lack a phone, a city
// and state, a service area and services (Validate); it takes no
// request.
func (b *Business) SettingUp() bool { return b.Preview && !b.AcceptingRequests }
