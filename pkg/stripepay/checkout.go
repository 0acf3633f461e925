package stripepay

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// The person's way to Stripe's page and back. They are served by the
// payment function, not by the person's pages (pkg/pages), which do not
// link stripe-go (docs/performance.md: the bootstrap sizes). These routes render nothing:
// every answer is a 303, to Stripe or to the status page {SITE_URL}/r/{code},
// whose ?done= says what happened (the page shows it only when the stored
// request agrees).
//
//	GET /pay/{code}/checkout  open a Checkout Session for the due deposit, 303 to it
//	GET /pay/{code}/return    Stripe's success_url: ?session_id={CHECKOUT_SESSION_ID}
const (
	CheckoutPath = "/pay/{code}/checkout"
	ReturnPath   = "/pay/{code}/return"
)

// The status page's ?done= values these routes send the person back with.
const (
	DonePaid        = "paid"        // the deposit is paid
	DoneRefunded    = "refunded"    // the payment could not be used and is refunded
	DoneUnavailable = "unavailable" // Stripe could not open a checkout just now
)

// CheckoutConfig is what the checkout routes need.
type CheckoutConfig struct {
	Bookings *booking.Bookings // the requests and their businesses, and the pay move
	Payments booking.Payments  // Stripe (Provider)
	Now      func() time.Time
	// Log gets what happened and the failures; never the request's
	// code, which opens the person's page.
	Log *slog.Logger
}

type checkoutHandler struct {
	CheckoutConfig
}

// NewCheckoutHandler returns the handler of GET CheckoutPath and GET
// ReturnPath.
func NewCheckoutHandler(c CheckoutConfig) http.Handler {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	h := &checkoutHandler{c}
	mux := http.NewServeMux()
	if c.Payments == nil { // Stripe off: nothing to open, nothing to come back from
		mux.HandleFunc("GET "+CheckoutPath, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, statusURL(r.PathValue("code"), DoneUnavailable), http.StatusSeeOther)
		})
		mux.HandleFunc("GET "+ReturnPath, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, statusURL(r.PathValue("code"), ""), http.StatusSeeOther)
		})
	} else {
		mux.HandleFunc("GET "+CheckoutPath, h.checkout)
		mux.HandleFunc("GET "+ReturnPath, h.returned)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The code is in the address: no caching, no referrer.
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		mux.ServeHTTP(w, r)
	})
}

// statusURL is the status page of the request with code, with ?done= when
// done is not empty. An unknown code gets the pages' 404 there.
func statusURL(code, done string) string {
	u := "/r/" + url.PathEscape(code)
	if done != "" {
		u += "?done=" + done
	}
	return u
}

// request reads the request in the path and its business; ok is false
// when they cannot be read, and the person has been sent to the status
// page, which says why.
func (h *checkoutHandler) request(w http.ResponseWriter, r *http.Request) (booking.Request, *booking.Business, bool) {
	code := r.PathValue("code")
	req, b, err := h.Bookings.CustomerRequest(r.Context(), code)
	if err != nil {
		if booking.ErrorCode(err) != booking.NotFound {
			h.Log.Error("stripe checkout: read the request", "route", r.Pattern, "error", err)
		}
		http.Redirect(w, r, statusURL(code, ""), http.StatusSeeOther)
		return booking.Request{}, nil, false
	}
	return req, b, true
}

// checkout opens a Checkout Session for a deposit that is due and paid at
// Stripe, and sends the person there. Anything else (a simulated deposit,
// one paid, expired or cancelled, no deposit) goes to the status page.
func (h *checkoutHandler) checkout(w http.ResponseWriter, r *http.Request) {
	req, b, ok := h.request(w, r)
	if !ok {
		return
	}
	if req.Deposit == nil || req.Deposit.Simulated || req.Effective(h.Now()).Status != booking.StatusPendingPayment {
		http.Redirect(w, r, statusURL(req.Code, ""), http.StatusSeeOther)
		return
	}
	u, err := h.Payments.Checkout(r.Context(), req, b)
	if err != nil { // logged by the provider
		http.Redirect(w, r, statusURL(req.Code, DoneUnavailable), http.StatusSeeOther)
		return
	}
	h.Log.Info("stripe checkout: opened")
	http.Redirect(w, r, u, http.StatusSeeOther)
}

// returned is where Stripe sends the person after paying. The paid session
// moves the request on at once, as the webhook would (settle): the person
// sees the deposit paid without waiting for Stripe's event, which then
// finds it done. A payment the request cannot take is refunded (the webhook
// refunds it too; a refund is idempotent on the payment). A session that is
// unknown, unpaid or for another request changes nothing.
func (h *checkoutHandler) returned(w http.ResponseWriter, r *http.Request) {
	req, _, ok := h.request(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	p, err := h.Payments.Returned(ctx, r.URL.Query().Get("session_id"))
	switch {
	case booking.ErrorCode(err) == booking.NotFound:
		http.Redirect(w, r, statusURL(req.Code, ""), http.StatusSeeOther)
		return
	case err != nil:
		h.Log.Error("stripe return: retrieve the session", "error", err)
		http.Redirect(w, r, statusURL(req.Code, ""), http.StatusSeeOther)
		return
	case p.Code != req.Code || !p.Paid || p.Ref == "":
		http.Redirect(w, r, statusURL(req.Code, ""), http.StatusSeeOther)
		return
	}
	log := h.Log.With("payment", p.Ref)
	outcome, err := settle(ctx, h.Bookings, h.Payments, p)
	switch {
	case outcome == booking.PaymentUnwanted:
		if err != nil {
			log.Error("stripe return: refund of a payment the request cannot take; the webhook retries it", "error", err)
		} else {
			log.Warn("stripe return: payment refunded: the request could not take it")
		}
		http.Redirect(w, r, statusURL(req.Code, DoneRefunded), http.StatusSeeOther)
	case err != nil:
		log.Error("stripe return: apply the payment; the webhook retries it", "error", err)
		http.Redirect(w, r, statusURL(req.Code, ""), http.StatusSeeOther)
	default:
		log.Info("stripe return: deposit paid")
		http.Redirect(w, r, statusURL(req.Code, DonePaid), http.StatusSeeOther)
	}
}

// settle applies the paid payment p to its request and refunds it when the
// request cannot take it: what the webhook and the person's return both do.
// The outcome is set when the payment was applied or found unwanted, even
// if the refund then failed (err says so).
func settle(ctx context.Context, bookings *booking.Bookings, payments booking.Payments, p booking.Payment) (booking.PaymentOutcome, error) {
	outcome, err := bookings.ApplyPayment(ctx, p)
	if err != nil {
		return 0, err
	}
	if outcome == booking.PaymentUnwanted {
		return outcome, payments.Refund(ctx, p.Code, p.Ref)
	}
	return outcome, nil
}

// Routes is the payment function's route table (NewHandler).
func Routes(c CheckoutConfig, webhookSecret string) []edge.Route {
	var webhook http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reply(w, http.StatusNotFound, "payments are off")
	})
	if c.Payments != nil {
		webhook = &Webhook{Bookings: c.Bookings, Payments: c.Payments, Secret: webhookSecret, Log: c.Log}
	}
	checkout := NewCheckoutHandler(c)
	return []edge.Route{
		{Method: http.MethodPost, Path: WebhookPath, Handler: webhook},
		{Method: http.MethodGet, Path: CheckoutPath, Handler: checkout},
		{Method: http.MethodGet, Path: ReturnPath, Handler: checkout},
	}
}

// NewHandler is the payment function's handler: Stripe's events at
// WebhookPath (signed with webhookSecret) and the person's way to Stripe
// and back under /pay/ (NewCheckoutHandler), over one provider. With no
// provider (c.Payments nil: a stack deployed without Stripe) the webhook is
// a 404 and the way to Stripe leads back to the status page, which says
// the payment cannot be opened now.
func NewHandler(c CheckoutConfig, webhookSecret string) http.Handler {
	// By path: each handler answers a wrong method itself.
	mux := http.NewServeMux()
	for _, r := range Routes(c, webhookSecret) {
		mux.Handle(r.Path, r.Handler)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every answer, the mux's own 404 and 405 too.
		w.Header().Set("X-Content-Type-Options", "nosniff")
		mux.ServeHTTP(w, r)
	})
}
