package stripepay

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"

	stripe "github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/doorstep/doorstep/pkg/booking"
)

// WebhookPath is where Stripe posts its events.
const WebhookPath = "/webhooks/stripe"

// maxEventBytes bounds a webhook body; Stripe's events are a few KiB.
const maxEventBytes = 256 << 10

// Webhook is the handler of Stripe's events at WebhookPath. It verifies the
// Stripe-Signature header with the endpoint's signing secret and, when a
// Checkout Session is paid (checkout.session.completed with payment_status
// paid), moves the request pending_payment → new (booking.Bookings.ApplyPayment),
// recording the PaymentIntent. A payment the request cannot take (its hold
// lapsed, it was cancelled, another session paid it) is refunded here, as
// on the person's return from Stripe (ReturnPath), which says so.
//
// Every effect is idempotent, so the same event delivered again (Stripe
// retries until it gets a 2xx, and may deliver twice) changes nothing: the
// move happens once (the request records the PaymentIntent it was paid
// with, and a move only happens from pending_payment), and the refund is
// keyed on the PaymentIntent. Nothing needs the event's id stored. Any
// failure is a 500, so that Stripe delivers the event again.
type Webhook struct {
	Bookings *booking.Bookings
	Payments booking.Payments // refunds unwanted payments
	Secret   string           // the endpoint's signing secret, whsec_...
	Log      *slog.Logger
}

func (h *Webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		reply(w, http.StatusMethodNotAllowed, "only POST")
		return
	}
	payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxEventBytes))
	if err != nil {
		reply(w, http.StatusBadRequest, "body too large or unreadable")
		return
	}
	// The fields read below (a session's metadata, amount_total, currency,
	// payment_status, payment_intent) are the same in every API version,
	// so an endpoint on another version is no reason to refuse its events.
	// The header is "t=...,v1=...": API Gateway's adapter splits a header
	// at its commas into several values, so they are joined back.
	signature := strings.Join(r.Header.Values("Stripe-Signature"), ",")
	event, err := webhook.ConstructEventWithOptions(payload, signature, h.Secret,
		webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	if err != nil {
		h.Log.Warn("stripe webhook: refused", "error", err)
		reply(w, http.StatusBadRequest, "signature check failed")
		return
	}
	log := h.Log.With("event", event.ID, "type", string(event.Type))
	switch event.Type {
	case stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded:
	default:
		reply(w, http.StatusOK, "ignored")
		return
	}
	var s stripe.CheckoutSession
	if err := json.Unmarshal(event.Data.Raw, &s); err != nil {
		log.Error("stripe webhook: session", "error", err)
		reply(w, http.StatusBadRequest, "not a checkout session")
		return
	}
	pay := paymentOf(&s)
	log = log.With("payment", pay.Ref) // never the code: it opens the person's page
	if !pay.Paid || pay.Ref == "" {
		log.Info("stripe webhook: session not paid yet")
		reply(w, http.StatusOK, "not paid yet")
		return
	}
	outcome, err := settle(r.Context(), h.Bookings, h.Payments, pay)
	switch {
	case outcome == booking.PaymentUnwanted && err != nil:
		log.Error("stripe webhook: refund of a payment the request cannot take", "error", err)
		reply(w, http.StatusInternalServerError, "try again")
		return
	case err != nil:
		log.Error("stripe webhook: apply payment", "error", err)
		reply(w, http.StatusInternalServerError, "try again")
		return
	}
	switch outcome {
	case booking.PaymentApplied:
		log.Info("stripe webhook: deposit paid")
	case booking.PaymentAlreadyApplied:
		log.Info("stripe webhook: deposit paid before")
	case booking.PaymentUnwanted:
		log.Warn("stripe webhook: payment refunded: the request could not take it")
	default:
		log.Error("stripe webhook: unknown outcome", "outcome", outcome)
		reply(w, http.StatusInternalServerError, "try again")
		return
	}
	reply(w, http.StatusOK, "done")
}

// reply answers Stripe; it reads only the status.
func reply(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"result": msg})
}
