package booking

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Desk does what a visitor can do on a business's site: read the business,
// list its open arrival windows, send a service request and check on it.
// Both edges (the JSON API and the tool server) call it.
type Desk struct {
	store    Store
	siteURL  string
	now      func() time.Time
	payments Payments // nil: every deposit is paid at {SITE_URL}/pay/{code}
}

// NewDesk returns a Desk over store. siteURL is the public address (no
// trailing slash) that status, API and payment URLs are built on; now is the
// clock.
func NewDesk(store Store, siteURL string, now func() time.Time, opts ...DeskOption) *Desk {
	d := &Desk{store: store, siteURL: strings.TrimSuffix(siteURL, "/"), now: now}
	for _, opt := range opts {
		opt(d)
	}
	return d
}

// DeskOption configures a Desk.
type DeskOption func(*Desk)

// WithPayments has the deposits that are not simulated paid at p's
// checkout: their payment_url is the provider's page. Without it (and for
// simulated deposits always) payment_url is the service's own page,
// {SITE_URL}/pay/{code}.
func WithPayments(p Payments) DeskOption {
	return func(d *Desk) { d.payments = p }
}

// Business returns the business with the given slug (getBusiness).
func (d *Desk) Business(ctx context.Context, slug string) (*Business, error) {
	return d.business(ctx, slug)
}

// business looks a business up by slug, read leniently (any case, spaces
// around it). A string that cannot be a slug is NOT_FOUND without a lookup.
func (d *Desk) business(ctx context.Context, slug string) (*Business, error) {
	slug = strings.ToLower(strings.TrimSpace(slug))
	if !IsSlug(slug) {
		return nil, Errorf(NotFound, "no business has the slug %q", slug)
	}
	return d.store.Business(ctx, slug)
}

// ArrivalWindows lists the open windows of a business (listArrivalWindows).
// from is a YYYY-MM-DD date ("" for today in the business's time zone) and
// days a whole number from 1 to 14 ("" for 7).
func (d *Desk) ArrivalWindows(ctx context.Context, slug, from, days string) (Availability, error) {
	b, err := d.business(ctx, slug)
	if err != nil {
		return Availability{}, err
	}
	now := d.now()
	first, err := ParseDate(from, now, b.loc)
	if err != nil {
		return Availability{}, err
	}
	n, err := ParseDays(days)
	if err != nil {
		return Availability{}, err
	}
	a := Availability{Timezone: b.Timezone, AcceptingRequests: b.AcceptingRequests, Windows: []Window{}}
	if !b.AcceptingRequests || first.After(b.lastBookableDate(now)) {
		return a, nil
	}
	// Local days are at most 14 hours away from UTC days: a day either side
	// covers every window of the range.
	held, err := d.store.HeldWindows(ctx, b.Slug, first.AddDate(0, 0, -1), first.AddDate(0, 0, n+1), now)
	if err != nil {
		return Availability{}, err
	}
	heldSet := make(map[int64]bool, len(held))
	for _, t := range held {
		heldSet[t.Unix()] = true
	}
	a.Windows = b.Windows(now, first, n, func(t time.Time) bool { return heldSet[t.Unix()] })
	return a, nil
}

// CreateRequest sends a service request (createServiceRequest). body is the
// JSON body; headerKey the Idempotency-Key header, "" when absent. replayed is
// true when the answer is the stored answer to an earlier call with the same
// key and body.
func (d *Desk) CreateRequest(ctx context.Context, slug string, body []byte, headerKey string) (c Created, replayed bool, err error) {
	b, err := d.business(ctx, slug)
	if err != nil {
		return Created{}, false, err
	}
	in, err := DecodeCreateInput(body)
	if err != nil {
		return Created{}, false, err
	}
	dr, err := in.checkFields(b, headerKey)
	if err != nil {
		return Created{}, false, err
	}
	now := d.now()
	hash := in.BodyHash()
	if err := dr.checkBusinessRules(b, now); err != nil {
		// A retry whose first attempt succeeded gets its answer again, even if
		// the business or the clock would now refuse the request.
		if dr.key != "" {
			if rec, lookupErr := d.store.IdempotencyRecord(ctx, b.Slug, dr.key, now); lookupErr != nil {
				return Created{}, false, lookupErr
			} else if rec != nil {
				return replay(*rec, hash)
			}
		}
		return Created{}, false, err
	}

	r := dr.Request
	r.Code = NewCode()
	r.BusinessSlug = b.Slug
	r.Created = now.UTC().Truncate(time.Second)
	r.Status = StatusNew
	if dep := b.BookingDeposit; dep != nil {
		r.Status = StatusPendingPayment
		r.HoldExpires = r.Created.Add(time.Duration(dep.PayWithinMinutes) * time.Minute)
		r.Deposit = &DepositRecord{
			AmountCents: dep.AmountCents, Currency: dep.Currency, Simulated: dep.Simulated,
			FreeCancellationHours: dep.FreeCancellationHours, State: DepositDue, Since: r.Created,
		}
	}
	r.History = []Event{{At: r.Created, By: ActorCustomer, Action: ActionCreate, To: r.Status, Window: r.Window}}
	c = d.created(r)
	if r.Deposit != nil && !r.Deposit.Simulated && d.payments != nil {
		// The checkout opens before the request is stored, so that the 201
		// stored with the idempotency key carries its address and a retry
		// gets the same one. A request that is then not stored (its window
		// was just taken, its key used) leaves a checkout whose address
		// nobody was given; it lapses by itself. When the provider fails
		// (it logs why), payment_url stays the service's own page, which
		// opens a checkout when the person gets there.
		if url, err := d.payments.Checkout(ctx, r, b); err == nil {
			c.PaymentURL = &url
		}
	}
	var rec *IdempotencyRecord
	if dr.key != "" {
		rec = &IdempotencyRecord{Key: dr.key, BodyHash: hash, Response: c, Expires: now.Add(IdempotencyKeyTTL)}
	}
	err = d.store.CreateRequest(ctx, r, rec, now)
	var used *KeyUsedError
	if errors.As(err, &used) {
		return replay(used.Record, hash)
	}
	if err != nil {
		return Created{}, false, err
	}
	return c, false, nil
}

// replay answers a call whose idempotency key already has a record.
func replay(rec IdempotencyRecord, hash string) (Created, bool, error) {
	if rec.BodyHash != hash {
		return Created{}, false, Errorf(IdempotencyKeyReused, "this idempotency key was used with a different request body; use a new key for a new request")
	}
	return rec.Response, true, nil
}

func (d *Desk) created(r Request) Created {
	c := Created{
		Code:      r.Code,
		Status:    r.Status,
		StatusURL: d.siteURL + "/r/" + r.Code,
		APIURL:    d.siteURL + "/api/v1/requests/" + r.Code,
	}
	if r.Status == StatusPendingPayment {
		pay := d.siteURL + "/pay/" + r.Code
		c.PaymentURL = &pay
	}
	return c
}

// Request returns the status of a request (getServiceRequest). The code is
// read leniently, as CanonicalCode says.
func (d *Desk) Request(ctx context.Context, code string) (RequestStatus, error) {
	canonical, ok := CanonicalCode(code)
	if !ok {
		return RequestStatus{}, Errorf(NotFound, "no request has the code %q", code)
	}
	r, err := d.store.Request(ctx, canonical)
	if err != nil {
		return RequestStatus{}, err
	}
	b, err := d.store.Business(ctx, r.BusinessSlug)
	if err != nil {
		return RequestStatus{}, err
	}
	return statusView(*r, b, d.now()), nil
}
