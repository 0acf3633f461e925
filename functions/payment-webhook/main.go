// Command payment-webhook is the Lambda function behind POST
// /webhooks/stripe: it checks each Stripe event's signature and, when a
// deposit's Checkout Session is paid, moves its request pending_payment →
// new, refunding a payment the request can no longer take
// (stripepay.Webhook).
//
// Environment: TABLE_NAME, SITE_URL, STRIPE_SECRET_ARN (the Secrets Manager
// secret with the Stripe keys, webhook_secret included), and optionally
// STRIPE_API_URL, SECRETS_MANAGER_ENDPOINT and DYNAMODB_ENDPOINT.
package main

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/stripepay"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("payment-webhook: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	return lambdaenv.NewPaymentWebhookHandler(ctx, getenv, func(m *booking.Mover, s lambdaenv.Stripe) http.Handler {
		provider := stripepay.New(stripepay.Config{SecretKey: s.Keys.SecretKey, SiteURL: s.SiteURL, APIURL: s.APIURL, Log: s.Log})
		return &stripepay.Webhook{Mover: m, Payments: provider, Secret: s.Keys.WebhookSecret, Log: s.Log}
	})
}
