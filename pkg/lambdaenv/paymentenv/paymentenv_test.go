package paymentenv_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/paymentenv"
	"github.com/doorstep/doorstep/pkg/stripepay/stripetest"
)

func TestStripeFrom(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		edits   map[string]string
		wantOK  bool
		wantErr string
	}{
		{"keys read", stripetest.Keys, nil, true, ""},
		{"a restricted key", `{"secret_key":"rk_test_1","webhook_secret":"whsec_1"}`, nil, true, ""},
		{"not set", stripetest.Keys, map[string]string{"STRIPE_SECRET_ARN": ""}, false, ""},
		{"not an ARN", stripetest.Keys, map[string]string{"STRIPE_SECRET_ARN": "doorstep/stripe"}, false, "must be a Secrets Manager secret's ARN"},
		{"another service's ARN", stripetest.Keys, map[string]string{"STRIPE_SECRET_ARN": "arn:aws:ssm:us-west-2:123456789012:parameter/x"}, false, "must be a Secrets Manager secret's ARN"},
		{"another secret", stripetest.Keys, map[string]string{"STRIPE_SECRET_ARN": stripetest.SecretARN + "x"}, false, "ResourceNotFoundException"},
		{"no credentials", stripetest.Keys, map[string]string{"AWS_ACCESS_KEY_ID": ""}, false, "AWS_ACCESS_KEY_ID"},
		{"not JSON", "sk_test_1", nil, false, "must be JSON"},
		{"not a secret key", `{"secret_key":"pk_test_1"}`, nil, false, "secret_key must be"},
		{"a bad API URL", stripetest.Keys, map[string]string{"STRIPE_API_URL": "localhost:12111"}, false, "STRIPE_API_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok, err := paymentenv.StripeFrom(context.Background(), stripetest.Env(t, tt.value, tt.edits), "https://book.example.com")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error with %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "_test_1") || strings.Contains(err.Error(), stripetest.SecretKey) {
					t.Errorf("the error %q shows the secret", err)
				}
				return
			}
			if err != nil || ok != tt.wantOK {
				t.Fatalf("got ok %v, %v; want %v", ok, err, tt.wantOK)
			}
			if ok && (s.Keys.SecretKey == "" || s.SiteURL != "https://book.example.com") {
				t.Errorf("got %+v, want the keys and the site", s)
			}
		})
	}
}

// TestStripeFunctionsAtStart: what each function that takes payments gets
// from the environment. Every one takes Stripe when it is configured and
// goes on without it when STRIPE_SECRET_ARN is empty (a stack deployed
// without real deposits); a secret that cannot be read, or a webhook
// without a webhook_secret to check events with, fails at start.
func TestStripeFunctionsAtStart(t *testing.T) {
	payments := func(ctx context.Context, getenv func(string) string, siteURL string) (bool, error) {
		p, err := paymentenv.Payments(ctx, getenv, siteURL)
		return p != nil, err
	}
	webhook := func(ctx context.Context, getenv func(string) string, siteURL string) (bool, error) {
		p, secret, err := paymentenv.Webhook(ctx, getenv, siteURL)
		if (p == nil) != (secret == "") {
			return false, fmt.Errorf("got a provider %v with the webhook secret %q", p != nil, secret)
		}
		return p != nil, err
	}
	noSecret := map[string]string{"STRIPE_SECRET_ARN": ""}
	tests := []struct {
		name    string
		call    func(context.Context, func(string) string, string) (bool, error)
		value   string            // the secret's value
		edits   map[string]string // changes to stripetest.Env's environment
		wantOK  bool              // Stripe configured: a provider, or the keys
		wantErr string            // "" when it starts
	}{
		{"payments with Stripe", payments, stripetest.Keys, nil, true, ""},
		{"payments without STRIPE_SECRET_ARN: none, no error", payments, stripetest.Keys, noSecret, false, ""},
		{"payments with a bad secret", payments, "sk_test_1", nil, false, "must be JSON"},
		{"webhook", webhook, stripetest.Keys, nil, true, ""},
		{"webhook without STRIPE_SECRET_ARN: none, no error", webhook, stripetest.Keys, noSecret, false, ""},
		{"webhook without a webhook_secret", webhook, `{"secret_key":"sk_test_1"}`, nil, false, "webhook_secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, err := tt.call(context.Background(), stripetest.Env(t, tt.value, tt.edits), lambdatest.SiteURL)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || ok != tt.wantOK {
				t.Fatalf("got Stripe %v, %v; want %v and no error", ok, err, tt.wantOK)
			}
		})
	}
}
