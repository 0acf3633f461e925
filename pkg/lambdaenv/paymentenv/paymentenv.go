package paymentenv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/doorstep/doorstep/pkg/awsenv"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
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
func StripeFrom(ctx context.Context, getenv func(string) string, siteURL string, client *http.Client) (s Stripe, ok bool, err error) {
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
	region, ok := secretRegion(arn)
	if !ok {
		return Stripe{}, false, fmt.Errorf("STRIPE_SECRET_ARN must be a Secrets Manager secret's ARN (arn:aws:secretsmanager:<region>:<account>:secret:<name>), got %q", arn)
	}
	endpoint := strings.TrimSpace(getenv("SECRETS_MANAGER_ENDPOINT"))
	cfg, err := awsenv.Config(getenv, "secretsmanager", false)
	if err != nil {
		return Stripe{}, false, fmt.Errorf("STRIPE_SECRET_ARN: %w", err)
	}
	cfg.Region = region // the secret's own region
	if client != nil {
		cfg.HTTPClient = client
	}
	secret, err := getSecretValue(ctx, cfg, endpoint, arn)
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

// secretRegion returns the region of a Secrets Manager secret's ARN.
func secretRegion(arn string) (string, bool) {
	parts := strings.SplitN(arn, ":", 7)
	if len(parts) != 7 || parts[0] != "arn" || parts[2] != "secretsmanager" || parts[3] == "" || parts[5] != "secret" || parts[6] == "" {
		return "", false
	}
	return parts[3], true
}

// getSecretValue reads the secret's string with the SDK's Secrets Manager
// client: one call at start. A non-empty endpoint stands in for the
// service (tests).
func getSecretValue(ctx context.Context, cfg aws.Config, endpoint, arn string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	sm := secretsmanager.NewFromConfig(cfg, func(o *secretsmanager.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	})
	out, err := sm.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(arn)})
	if err != nil {
		return "", fmt.Errorf("get secret value: %w", err)
	}
	if aws.ToString(out.SecretString) == "" {
		return "", errors.New("get secret value: no SecretString in the answer")
	}
	return aws.ToString(out.SecretString), nil
}

// DeskOptions is the desk options hook (lambdaenv.NewHTTPHandler) of a
// function that creates requests: with STRIPE_SECRET_ARN set, deposits that
// are not simulated get a Stripe Checkout Session as payment_url. Without it
// their payment_url is {SITE_URL}/pay/{code}, which opens one. Only the
// functions that take payments import this package, and with it stripe-go.
func DeskOptions(ctx context.Context, getenv func(string) string, c lambdaenv.Config) ([]booking.DeskOption, error) {
	s, ok, err := StripeFrom(ctx, getenv, c.SiteURL, nil)
	if err != nil || !ok {
		return nil, err
	}
	return []booking.DeskOption{booking.WithPayments(s.Provider())}, nil
}

var _ lambdaenv.DeskOptionsFunc = DeskOptions

// NewPaymentWebhookHandler builds the Lambda handler of the payment
// function, from the environment: TABLE_NAME, SITE_URL, STRIPE_SECRET_ARN
// (required here) and the optional DYNAMODB_ENDPOINT, STRIPE_API_URL and
// SECRETS_MANAGER_ENDPOINT. It serves Stripe's webhook, POST
// /webhooks/stripe, and the person's way to Stripe and back, GET
// /pay/{code}/checkout and GET /pay/{code}/return (stripepay.NewHandler).
func NewPaymentWebhookHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	c, err := lambdaenv.ConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	s, ok, err := StripeFrom(ctx, getenv, c.SiteURL, nil)
	if err != nil {
		return nil, err
	}
	if !ok || s.Keys.WebhookSecret == "" {
		return nil, errors.New("STRIPE_SECRET_ARN must name a secret with a webhook_secret: the webhook checks every event's signature with it")
	}
	store, err := lambdaenv.Store(ctx, c)
	if err != nil {
		return nil, err
	}
	h := stripepay.NewHandler(stripepay.CheckoutConfig{
		Desk: booking.NewDesk(store, c.SiteURL, time.Now), Mover: booking.NewMover(store, time.Now),
		Payments: s.Provider(), Log: s.Log,
	}, s.Keys.WebhookSecret)
	return lambdaenv.HTTP(h), nil
}

// NewRefundHandler builds the Lambda handler of the table's stream that
// refunds deposits (RefundStream), from the environment: STRIPE_SECRET_ARN
// (required) and the optional STRIPE_API_URL and SECRETS_MANAGER_ENDPOINT.
// It reads no table: the stream's images say everything.
func NewRefundHandler(ctx context.Context, getenv func(string) string) (lambdaenv.StreamHandler, error) {
	s, ok, err := StripeFrom(ctx, getenv, strings.TrimSpace(getenv("SITE_URL")), nil)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("STRIPE_SECRET_ARN is not set: refunds go through Stripe")
	}
	return RefundStream(s.Provider(), lambdaenv.Logger()), nil
}

// RefundStream is the handler of the table's stream (NEW_AND_OLD_IMAGES)
// that gives deposits back: for each stored move whose deposit became
// refunded (booking.RefundOwed), it calls payments.Refund with the
// payment's reference.
//
// Why the stream: the move stores the refunded state atomically with the
// request's new state; the stream carries that write here at least once,
// retrying until it succeeds. A crash between the move and the refund
// loses nothing, and the functions that move requests (the inbox, the
// person's pages, the operator's CLI) need no Stripe key. Refund is
// idempotent on the payment, so a record delivered again refunds once.
//
// Records are handled in order. The first that fails is reported in
// BatchItemFailures and the rest of the batch is left for the retry, which
// starts from it: a refund is never skipped.
func RefundStream(payments booking.Payments, log *slog.Logger) lambdaenv.StreamHandler {
	return func(ctx context.Context, e events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		res := events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}
		refunds := 0
		for _, rec := range e.Records {
			w, ok, err := dynamo.DecodeRequestWrite(rec)
			if err == nil && ok {
				var before *booking.DepositRecord
				if w.Before != nil {
					before = w.Before.Deposit
				}
				if booking.RefundOwed(before, w.After.Deposit) {
					if err = payments.Refund(ctx, w.After.Code, w.After.Deposit.PaymentRef); err == nil {
						refunds++
					}
				}
			}
			if err != nil {
				log.Error("refunds: record failed; the stream retries it", "sequence_number", rec.Change.SequenceNumber, "error", err)
				res.BatchItemFailures = append(res.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: rec.Change.SequenceNumber})
				break
			}
		}
		log.Info("refunds: batch", "records", len(e.Records), "refunds", refunds, "failed", len(res.BatchItemFailures))
		return res, nil
	}
}
