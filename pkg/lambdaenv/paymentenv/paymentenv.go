package paymentenv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/secretenv"
	"github.com/doorstep/doorstep/pkg/stripepay"
)

// StripeKeys are Stripe's secrets. They live in AWS Secrets Manager, in the
// secret STRIPE_SECRET_ARN names, as JSON: {"secret_key": "sk_...",
// "webhook_secret": "whsec_..."}. A function reads them at start; they are
// never in the environment, the template or the repository.
type StripeKeys struct {
	SecretKey     string `json:"secret_key"`
	WebhookSecret string `json:"webhook_secret"`
}

// Stripe is what a function that takes payments knows of Stripe.
type Stripe struct {
	Keys    StripeKeys
	SiteURL string // the person comes back to {SiteURL}/pay/{code}/return
	// APIURL (STRIPE_API_URL, optional) is Stripe's API address: empty for
	// Stripe's own, stripe-mock's under sam local invoke.
	APIURL string
	Log    *slog.Logger
}

// Provider is the Stripe payment provider s describes.
func (s Stripe) Provider() *stripepay.Provider {
	return stripepay.New(stripepay.Config{SecretKey: s.Keys.SecretKey, SiteURL: s.SiteURL, APIURL: s.APIURL, Log: s.Log})
}

// StripeFrom reads the Stripe configuration: STRIPE_SECRET_ARN, the ARN of
// the secret holding StripeKeys, STRIPE_API_URL (optional), and
// SECRETS_MANAGER_ENDPOINT (optional; a local Secrets Manager for tests and
// sam local invoke). ok is false when STRIPE_SECRET_ARN is not set. The
// secret is read with the function's role (secretsmanager:GetSecretValue on
// that ARN only), from the ARN's region.
func StripeFrom(ctx context.Context, getenv func(string) string, siteURL string) (s Stripe, ok bool, err error) {
	arn := strings.TrimSpace(getenv("STRIPE_SECRET_ARN"))
	if arn == "" {
		return Stripe{}, false, nil
	}
	s = Stripe{SiteURL: siteURL, APIURL: strings.TrimSpace(getenv("STRIPE_API_URL")), Log: lambdaenv.Logger()}
	if s.APIURL != "" {
		if u, err := url.Parse(s.APIURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return Stripe{}, false, fmt.Errorf("STRIPE_API_URL must be an absolute http(s) URL, got %q", s.APIURL)
		}
	}
	secret, err := secretenv.Read(ctx, getenv, arn)
	if err != nil {
		return Stripe{}, false, fmt.Errorf("STRIPE_SECRET_ARN: %w", err)
	}
	if err := json.Unmarshal([]byte(secret), &s.Keys); err != nil {
		return Stripe{}, false, errors.New(`STRIPE_SECRET_ARN: the secret must be JSON: {"secret_key": "sk_...", "webhook_secret": "whsec_..."}`)
	}
	if !strings.HasPrefix(s.Keys.SecretKey, "sk_") && !strings.HasPrefix(s.Keys.SecretKey, "rk_") {
		return Stripe{}, false, errors.New("STRIPE_SECRET_ARN: secret_key must be a Stripe secret (sk_...) or restricted (rk_...) key")
	}
	return s, true, nil
}

// Payments is the payment provider of a function that takes payments:
// Stripe when STRIPE_SECRET_ARN is set; nil when it is empty, which is a
// stack deployed without real deposits (logged once, at start). A set
// STRIPE_SECRET_ARN that cannot be read fails at start: a broken
// configuration is not payments turned off. Only the functions that take
// payments import this package, and with it stripe-go.
func Payments(ctx context.Context, getenv func(string) string, siteURL string) (booking.Payments, error) {
	s, err := stripe(ctx, getenv, siteURL)
	if err != nil || s == nil {
		return nil, err
	}
	return s.Provider(), nil
}

// Webhook is Payments for the payment webhook, with the endpoint's signing
// secret, the secret's webhook_secret, which every event is checked with:
// nil and "" when Stripe is off.
func Webhook(ctx context.Context, getenv func(string) string, siteURL string) (booking.Payments, string, error) {
	s, err := stripe(ctx, getenv, siteURL)
	if err != nil || s == nil {
		return nil, "", err
	}
	if s.Keys.WebhookSecret == "" {
		return nil, "", errors.New("STRIPE_SECRET_ARN must name a secret with a webhook_secret: the webhook checks every event's signature with it")
	}
	return s.Provider(), s.Keys.WebhookSecret, nil
}

// stripe is StripeFrom, with Stripe off (nil) logged.
func stripe(ctx context.Context, getenv func(string) string, siteURL string) (*Stripe, error) {
	s, ok, err := StripeFrom(ctx, getenv, siteURL)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		lambdaenv.Logger().Info("stripe: off", "why", "STRIPE_SECRET_ARN is empty: deposits that are not simulated cannot be paid or refunded online")
		return nil, nil
	}
	return &s, nil
}
