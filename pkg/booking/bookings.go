package booking

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Bookings is the booking domain's one service. Its methods say who is
// acting: a visitor (the public operations), the business (proven by
// OpenInbox), the person who sent a request (by its code), the operator,
// the payment provider and the sweeper. Every move of a request goes
// through the Lifecycle in one place (move).
type Bookings struct {
	store   Store
	siteURL string
	// payments opens the checkout of a deposit that is not simulated;
	// nil: every deposit is paid at {SITE_URL}/pay/{code}.
	payments Payments
	// simulate has every deposit simulated (Config.SimulateDeposits).
	simulate bool
	// personalDataDays is how long after a request ended its personal
	// details are kept (Config.PersonalDataDays).
	personalDataDays int
	now              func() time.Time
	// observer hears of creates, refusals, moves and limit hits (metrics).
	observer Observer
	// textsOff: the deployment sends no texts (Config.TextsOff).
	textsOff bool
	// signupsPerHour bounds the businesses created by sign-up in a clock
	// hour (Config.SignupsPerHour); formSiteURL is what their booking_url
	// is built on (Config.FormSiteURL).
	signupsPerHour int
	formSiteURL    string
	// approval and operator: how a business's going live is approved
	// (Config.NewBusinessApproval, Config.Operator).
	approval string
	operator OperatorNotices
}

// Config is what the service is made of.
type Config struct {
	Store Store // required
	// SiteURL is the public address, an absolute http(s) URL, that status,
	// API and payment URLs are built on; a trailing slash is dropped.
	SiteURL string
	// Payments opens the checkout of a deposit that is not simulated; nil:
	// every deposit is paid at {SITE_URL}/pay/{code}.
	Payments Payments
	Now      func() time.Time // the clock; required
	// Observer hears of creates, refusals, moves and limit hits (metrics);
	// nil: nobody does.
	Observer Observer
	// SimulateDeposits has every deposit simulated, as a preview
	// business's are: for a server that can take no real payment (the
	// local server, a stack deployed without Stripe). getBusiness's
	// booking_deposit.simulated and each new request's deposit then say
	// simulated: true, and the deposit is paid on the service's simulated
	// page.
	SimulateDeposits bool
	// PersonalDataDays is how many days after a request ended its
	// personal details are erased (ErasePersonalData): 0 is
	// DefaultPersonalDataDays; fewer than MinPersonalDataDays is a
	// configuration error.
	PersonalDataDays int
	// TextsOff says the deployment sends no texts (no SMS origination
	// identity): what the person and the business are told of how the
	// person hears back (PersonReach) then leaves texts out.
	TextsOff bool
	// SignupsPerHour is how many businesses sign-ups create in a clock
	// hour (UTC), the stack's SignupsPerHour: 0 is
	// DefaultSignupsPerHour; a negative number is a configuration error.
	SignupsPerHour int
	// FormSiteURL is the https address a new business's booking_url is
	// built on ({FormSiteURL}/book/{slug}); "" is SiteURL. A stored
	// booking_url must be https: the local server, served over http,
	// gives an https name here and shows its own form in its reads
	// (infra/local/bookingurl.go).
	FormSiteURL string
	// NewBusinessApproval is how a business's first going live is
	// approved: ApprovalOperator (the default; "" is it) or ApprovalAuto.
	NewBusinessApproval string
	// Operator is told of a business waiting for approval (GoLive); nil:
	// nobody is, and ctl businesses list --pending still lists it.
	Operator OperatorNotices
}

// NoSiteURL is the SiteURL of a service that builds no link to the site
// (the sweeper, the operator's command line): a name that cannot resolve
// (.invalid, RFC 2606), so that a link built by mistake leads nowhere.
const NoSiteURL = "https://no-site.invalid"

// New returns the service c configures, or an error that says what in c is
// missing or wrong, so that a function fails at start rather than on its
// first request.
func New(c Config) (*Bookings, error) {
	var errs []error
	if c.Store == nil {
		errs = append(errs, errors.New("booking: no store"))
	}
	if u, err := url.Parse(c.SiteURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" ||
		u.RawQuery != "" || u.Fragment != "" {
		errs = append(errs, fmt.Errorf("booking: the site URL must be an absolute http(s) URL without query or fragment, got %q", c.SiteURL))
	}
	if c.Now == nil {
		errs = append(errs, errors.New("booking: no clock"))
	}
	days, err := personalDataDays(c.PersonalDataDays)
	if err != nil {
		errs = append(errs, err)
	}
	if c.SignupsPerHour < 0 {
		errs = append(errs, fmt.Errorf("booking: signups per hour must be 0 (the default, %d) or more, got %d", DefaultSignupsPerHour, c.SignupsPerHour))
	}
	if c.SignupsPerHour == 0 {
		c.SignupsPerHour = DefaultSignupsPerHour
	}
	if c.FormSiteURL == "" {
		c.FormSiteURL = c.SiteURL
	}
	approval := c.NewBusinessApproval
	switch approval {
	case "":
		approval = ApprovalOperator
	case ApprovalOperator, ApprovalAuto:
	default:
		errs = append(errs, fmt.Errorf("booking: NewBusinessApproval: want %s or %s, got %q", ApprovalOperator, ApprovalAuto, approval))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	s := &Bookings{signupsPerHour: c.SignupsPerHour, formSiteURL: strings.TrimSuffix(c.FormSiteURL, "/"),
		approval: approval, operator: c.Operator, personalDataDays: days, store: c.Store, siteURL: strings.TrimSuffix(c.SiteURL, "/"), payments: c.Payments,
		simulate: c.SimulateDeposits, now: c.Now, observer: c.Observer, textsOff: c.TextsOff}
	if s.observer == nil {
		s.observer = nobody{}
	}
	// Every change the domain makes to a business record is the owner's:
	// checked and recorded in one place (ownerWrites).
	s.store = ownerWrites{Store: c.Store, now: c.Now}
	return s, nil
}

// Delivery is what the deployment delivers (Config.TextsOff), for
// PersonReach; an edge that read the number's opt-out sets OptedOut.
func (s *Bookings) Delivery() Delivery { return Delivery{TextsOff: s.textsOff} }

// DeliveryTo is Delivery for the person of contact c, with whether their
// e-mail address is recorded undeliverable (one read, only when c has an
// address).
func (s *Bookings) DeliveryTo(ctx context.Context, c Contact) (Delivery, error) {
	d := s.Delivery()
	if c.Email == "" {
		return d, nil
	}
	u, err := s.UndeliverableEmail(ctx, c.Email)
	if err != nil {
		return d, err
	}
	d.EmailUndeliverable = u != nil
	return d, nil
}

// Business returns the business with the given slug (getBusiness), read
// leniently (any case, spaces around it). A string that cannot be a slug is
// NOT_FOUND without a lookup. The record is the public side's
// (Store.PublicBusiness): shared with other callers, never to be changed.
func (s *Bookings) Business(ctx context.Context, slug string) (*Business, error) {
	slug = strings.ToLower(strings.TrimSpace(slug))
	if !IsSlug(slug) {
		return nil, Errorf(NotFound, "no business has the slug %s", excerpt(slug))
	}
	b, err := s.store.PublicBusiness(ctx, slug)
	if err != nil {
		return nil, err
	}
	return s.withPayments(b), nil
}

// withPayments returns b as this server takes its deposit: a copy whose
// deposit is simulated when deposits are (Config.SimulateDeposits); b itself
// otherwise. The store's record (and its cache) is never changed.
func (s *Bookings) withPayments(b *Business) *Business {
	if b.Suspended && b.AcceptingRequests {
		// A suspended business takes no requests: the public sees it paused.
		c := *b
		c.AcceptingRequests = false
		b = &c
	}
	if !s.simulate || b.BookingDeposit == nil || b.BookingDeposit.Simulated {
		return b
	}
	c, d := *b, *b.BookingDeposit
	d.Simulated = true
	c.BookingDeposit = &d
	return &c
}

// WindowQuery selects the days of listArrivalWindows.
type WindowQuery struct {
	// From is the first day, a date value (midnight UTC of the day); zero:
	// today in the business's time zone.
	From time.Time
	Days int // 1 to MaxDays
}

// ArrivalWindows lists the open windows of b (listArrivalWindows).
func (s *Bookings) ArrivalWindows(ctx context.Context, b *Business, q WindowQuery) (Availability, error) {
	if q.Days < 1 || q.Days > MaxDays {
		return Availability{}, DaysError(strconv.Itoa(q.Days))
	}
	now := s.now()
	first := q.From
	if first.IsZero() {
		first = b.today(now)
	}
	a := Availability{Timezone: b.Timezone, AcceptingRequests: b.TakesRequests(), Windows: []Window{}}
	if !b.TakesRequests() || first.After(b.lastBookableDate(now)) {
		return a, nil
	}
	// Local days are at most 14 hours away from UTC days: a day either side
	// covers every window of the range.
	held, err := s.store.HeldWindows(ctx, b.Slug, first.AddDate(0, 0, -1), first.AddDate(0, 0, q.Days+1), now)
	if err != nil {
		return Availability{}, err
	}
	// A window is listed while it has room: fewer holds than crews.
	holds := make(map[int64]int, len(held))
	for _, t := range held {
		holds[t.Unix()]++
	}
	crews := b.Crews().PerWindow
	a.Windows = b.Windows(now, first, q.Days, func(t time.Time) bool { return holds[t.Unix()] >= crews })
	return a, nil
}

// CreateRequest sends a service request to b (createServiceRequest).
// replayed is true when the answer is the stored answer to an earlier call
// with the same idempotency key and body.
func (s *Bookings) CreateRequest(ctx context.Context, b *Business, in CreateInput) (c Created, replayed bool, err error) {
	defer func() { s.observeCreate(ctx, replayed, err) }()
	dr, err := in.checkFields(b)
	if err != nil {
		return Created{}, false, err
	}
	now := s.now()
	hash := in.BodyHash()
	if err := dr.checkBusinessRules(b, now); err != nil {
		// A retry whose first attempt succeeded gets its answer again, even if
		// the business or the clock would now refuse the request.
		if dr.key == "" {
			return Created{}, false, err
		}
		rec, lookupErr := s.store.IdempotencyRecord(ctx, b.Slug, dr.key, now)
		switch {
		case lookupErr != nil:
			return Created{}, false, lookupErr
		case rec == nil:
			return Created{}, false, err
		}
		return replay(*rec, hash)
	}

	r := dr.newRequest(s.withPayments(b), now)
	r.IdempotencyKey = dr.key // its record goes when the request is erased
	c = s.created(r)
	if r.Deposit != nil && !r.Deposit.Simulated && s.payments != nil {
		// The checkout opens before the request is stored, so that the 201
		// stored with the idempotency key carries its address and a retry
		// gets the same one. A request that is then not stored (its window
		// was just taken, its key used) leaves a checkout whose address
		// nobody was given; it lapses by itself. When the provider fails
		// (it logs why), payment_url stays the service's own page, which
		// opens a checkout when the person gets there.
		if url, err := s.payments.Checkout(ctx, r, b); err == nil {
			c.PaymentURL = &url
		}
	}
	var rec *IdempotencyRecord
	if dr.key != "" {
		rec = &IdempotencyRecord{Key: dr.key, BodyHash: hash, Response: c, Expires: now.Add(IdempotencyKeyTTL)}
	}
	err = s.store.CreateRequest(ctx, r, rec, b.Limits(), now)
	var used *KeyUsedError
	switch {
	case errors.As(err, &used):
		return replay(used.Record, hash)
	case ErrorCode(err) == RateLimited:
		// The business hears of it once an hour (notify). The refusal
		// stands even if that record cannot be written: the next refusal
		// of the hour writes it.
		_, _ = s.store.RecordLimitHit(ctx, b.Slug, now)
		wait := RetryAfter(err)
		return Created{}, false, &Error{Code: RateLimited, RetryAfter: wait, Message: fmt.Sprintf(
			"%s is taking no more online requests right now; try again in %s, or call them at %s",
			b.Name, roundUpMinutes(wait), b.Phone)}
	case ErrorCode(err) == RequestRefused:
		// Said as a business says it cannot help online, never why.
		return Created{}, false, Errorf(RequestRefused, "%s cannot take this request online; please call them at %s", b.Name, b.Phone)
	case err != nil:
		return Created{}, false, err
	}
	return c, false, nil
}

// roundUpMinutes writes d for people: "1 minute", "15 minutes".
func roundUpMinutes(d time.Duration) string {
	n := int((d + time.Minute - 1) / time.Minute)
	if n <= 1 {
		return "1 minute"
	}
	return strconv.Itoa(n) + " minutes"
}

// replay answers a call whose idempotency key already has a live record:
// the stored answer for the same body, IDEMPOTENCY_KEY_REUSED for another.
func replay(rec IdempotencyRecord, hash string) (Created, bool, error) {
	if rec.BodyHash != hash {
		return Created{}, false, Errorf(IdempotencyKeyReused, "this idempotency key was used with a different request body; use a new key for a new request")
	}
	return rec.Response, true, nil
}

func (s *Bookings) created(r Request) Created {
	c := Created{
		Code:      r.Code,
		Status:    r.Status,
		StatusURL: s.siteURL + "/r/" + r.Code,
		APIURL:    s.siteURL + "/api/v1/requests/" + r.Code,
	}
	if r.Status == StatusPendingPayment {
		pay := s.siteURL + "/pay/" + r.Code
		c.PaymentURL = &pay
	}
	return c
}

// RequestStatus returns the status of a request (getServiceRequest). The
// code is read leniently, as CanonicalCode says.
func (s *Bookings) RequestStatus(ctx context.Context, code string) (RequestStatus, error) {
	r, b, err := s.CustomerRequest(ctx, code)
	if err != nil {
		return RequestStatus{}, err
	}
	return statusView(r, b, s.now()), nil
}

// StatusReach is how the person of a request is written to, for a front
// door that shows no contact details (the tool server's status text): the
// ways that reach them (PersonReach, with their address's record read),
// their address masked (MaskEmail), and the ways their status page offers
// to add (AddableWays; none once the request cannot change).
type StatusReach struct {
	Reach       Reach
	MaskedEmail string
	Addable     Reach
	StatusURL   string // the person's status page, where they add a way
}

// RequestStatusReach is RequestStatus with how its person is written to.
func (s *Bookings) RequestStatusReach(ctx context.Context, code string) (RequestStatus, StatusReach, error) {
	r, b, err := s.CustomerRequest(ctx, code)
	if err != nil {
		return RequestStatus{}, StatusReach{}, err
	}
	now := s.now()
	d, err := s.DeliveryTo(ctx, r.Contact)
	if err != nil {
		return RequestStatus{}, StatusReach{}, err
	}
	sr := StatusReach{Reach: PersonReach(b, r.Contact, d), MaskedEmail: MaskEmail(r.Contact.Email), StatusURL: s.siteURL + "/r/" + r.Code}
	if r.CanAddContact(now) {
		sr.Addable = AddableWays(b, r.Contact, d)
	}
	return statusView(r, b, now), sr, nil
}
