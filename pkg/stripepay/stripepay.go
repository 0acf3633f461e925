// Package stripepay is the Stripe adapter of booking.Payments, with
// stripe-go: Checkout Sessions for deposits, refunds, the webhook, and the
// person's way to Stripe's page and back. Doorstep never sees card data.
package stripepay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"time"

	stripe "github.com/stripe/stripe-go/v84"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Config configures a Provider.
type Config struct {
	SecretKey string // Stripe's secret API key (sk_live_..., sk_test_...)
	SiteURL   string // the service's public address; the person comes back to {SiteURL}/pay/{code}/return
	// APIURL is Stripe's API address: "" for Stripe's own; stripe-mock or a
	// test server's otherwise.
	APIURL     string
	HTTPClient *http.Client // nil for stripe-go's (80 s timeout)
	Now        func() time.Time
	// Log gets the provider's failures. Lines name the PaymentIntent, never
	// the request's code: the code opens the person's page.
	Log *slog.Logger
}

// Provider is the Stripe payment provider. Its Stripe calls:
//
//   - POST /v1/checkout/sessions: one session per deposit (Checkout);
//   - GET /v1/checkout/sessions/{id}: the session a person came back from
//     (Returned);
//   - POST /v1/refunds: a refund of the deposit's PaymentIntent, with the
//     Idempotency-Key doorstep-refund-<payment intent> (Refund).
//
// The webhook's Stripe-Signature check is stripe-go's webhook package; it
// calls nothing. Refunds owed by a stored move come from the table's stream
// (streams.Refunds), which calls Refund.
type Provider struct {
	client  *stripe.Client
	siteURL string
	now     func() time.Time
	log     *slog.Logger
}

var _ booking.Payments = (*Provider)(nil)

// New returns a Provider. It calls nothing.
func New(c Config) *Provider {
	cfg := &stripe.BackendConfig{
		HTTPClient: c.HTTPClient,
		// Errors are logged by Provider, as JSON with the request's code.
		LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull},
	}
	if c.APIURL != "" {
		cfg.URL = stripe.String(c.APIURL)
	}
	now, log := c.Now, c.Log
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Provider{
		client:  stripe.NewClient(c.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(cfg))),
		siteURL: c.SiteURL,
		now:     now,
		log:     log,
	}
}

// Stripe's bounds on a Checkout Session's expires_at: from 30 minutes to
// 24 hours after it is created. minCheckoutLife has a minute to spare for
// the clocks' difference.
const (
	minCheckoutLife = 31 * time.Minute
	maxCheckoutLife = 24*time.Hour - time.Minute
)

// checkoutTimeout bounds the creation of a Checkout Session, retries
// included.
const checkoutTimeout = 5 * time.Second

// metadataCode is the metadata key of the request's code, on the session
// and on its PaymentIntent (and so on any refund's payment in Stripe's
// dashboard).
const metadataCode = "request_code"

// Checkout creates a Checkout Session for r's deposit: one card payment of
// the deposit's amount, in the request's language, the request's code in
// its metadata, back to ReturnPath on success and to the status page on
// cancel. It expires when the hold ends, or 31 minutes after now if the
// hold ends sooner, as Stripe's minimum is 30: a payment made in between is
// one the request cannot take any more, and the webhook refunds it.
func (p *Provider) Checkout(ctx context.Context, r booking.Request, b *booking.Business) (string, error) {
	d := r.Deposit
	if d == nil {
		return "", fmt.Errorf("checkout: request %s has no deposit", r.Code)
	}
	now := p.now()
	expires := r.HoldExpires
	expires = maxTime(expires, now.Add(minCheckoutLife))
	expires = minTime(expires, now.Add(maxCheckoutLife))
	name, lang := "Deposit: "+b.Name, "en"
	if r.Language == "es" {
		name, lang = "Depósito: "+b.Name, "es"
	}
	params := &stripe.CheckoutSessionCreateParams{
		Mode:               stripe.String(string(stripe.CheckoutSessionModePayment)),
		PaymentMethodTypes: stripe.StringSlice([]string{"card"}), // paid at once: the hold is short
		LineItems: []*stripe.CheckoutSessionCreateLineItemParams{{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(d.Currency),
				UnitAmount:  stripe.Int64(int64(d.AmountCents)),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(name)},
			},
		}},
		ExpiresAt:         stripe.Int64(expires.Unix()),
		Locale:            stripe.String(lang),
		ClientReferenceID: stripe.String(r.Code),
		Metadata:          map[string]string{metadataCode: r.Code},
		PaymentIntentData: &stripe.CheckoutSessionCreatePaymentIntentDataParams{
			Description: stripe.String("Doorstep request " + r.Code),
			Metadata:    map[string]string{metadataCode: r.Code},
		},
		// Stripe fills in {CHECKOUT_SESSION_ID}: ReturnPath asks it what was
		// paid (Returned), then sends the person to the status page.
		SuccessURL: stripe.String(p.siteURL + "/pay/" + r.Code + "/return?session_id={CHECKOUT_SESSION_ID}"),
		CancelURL:  stripe.String(p.siteURL + "/r/" + r.Code),
	}
	// The service opens the checkout while the person's create call waits:
	// past checkoutTimeout it gives up, and payment_url is the service's
	// page, which opens a checkout when the person gets there.
	ctx, cancel := context.WithTimeout(ctx, checkoutTimeout)
	defer cancel()
	s, err := p.client.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		p.log.Error("stripe: create checkout session", "error", err)
		return "", fmt.Errorf("stripe: create checkout session for %s: %w", r.Code, err)
	}
	return s.URL, nil
}

// sessionID is the shape of a Checkout Session's ID. Anything else is not
// sent to Stripe, whose client puts the ID in the path as it is.
var sessionID = regexp.MustCompile(`^cs_[A-Za-z0-9_]{1,250}$`)

// Returned retrieves the Checkout Session id and reports its payment.
func (p *Provider) Returned(ctx context.Context, id string) (booking.Payment, error) {
	notFound := booking.Errorf(booking.NotFound, "no checkout session %s", booking.Excerpt(id))
	if !sessionID.MatchString(id) {
		return booking.Payment{}, notFound
	}
	s, err := p.client.V1CheckoutSessions.Retrieve(ctx, id, nil)
	var stripeErr *stripe.Error
	if errors.As(err, &stripeErr) && stripeErr.Code == stripe.ErrorCodeResourceMissing {
		return booking.Payment{}, notFound
	}
	if err != nil {
		return booking.Payment{}, fmt.Errorf("stripe: retrieve checkout session: %w", err)
	}
	return paymentOf(s), nil
}

// paymentOf is the payment a Checkout Session reports.
func paymentOf(s *stripe.CheckoutSession) booking.Payment {
	pay := booking.Payment{
		Code:        s.Metadata[metadataCode],
		AmountCents: int(s.AmountTotal),
		Currency:    string(s.Currency),
		Paid:        s.PaymentStatus == stripe.CheckoutSessionPaymentStatusPaid,
	}
	if s.PaymentIntent != nil {
		pay.Ref = s.PaymentIntent.ID
	}
	return pay
}

// Refund refunds the PaymentIntent ref in full. The Idempotency-Key is
// derived from the payment, so a retry within Stripe's 24 hours gets the
// first refund back; after that, Stripe refuses a second refund of the
// same payment with charge_already_refunded, which counts as done. Either
// way a payment is refunded once, however often this runs.
func (p *Provider) Refund(ctx context.Context, code, ref string) error {
	params := &stripe.RefundCreateParams{
		PaymentIntent: stripe.String(ref),
		Metadata:      map[string]string{metadataCode: code},
	}
	params.SetIdempotencyKey("doorstep-refund-" + ref)
	_, err := p.client.V1Refunds.Create(ctx, params)
	var stripeErr *stripe.Error
	if errors.As(err, &stripeErr) && stripeErr.Code == stripe.ErrorCodeChargeAlreadyRefunded {
		return nil
	}
	if err != nil {
		p.log.Error("stripe: refund", "payment", ref, "error", err)
		return fmt.Errorf("stripe: refund %s of %s: %w", ref, code, err)
	}
	p.log.Info("stripe: refunded", "payment", ref)
	return nil
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
