// Command payment-webhook is the Lambda function of the deposits paid at
// Stripe (pkg/stripepay):
//
//   - POST /webhooks/stripe: it checks each Stripe event's signature and,
//     when a deposit's Checkout Session is paid, moves its request
//     pending_payment → new, refunding a payment the request can no longer
//     take (stripepay.Webhook);
//   - GET /pay/{code}/checkout: opens a Checkout Session for a due deposit
//     and sends the person there;
//   - GET /pay/{code}/return: Stripe's success_url; applies and refunds as
//     the webhook does, then sends the person to the status page.
//
// The GET routes are here, not in the pages function, so that the pages
// do not link stripe-go (see docs/performance.md, "Binary sizes").
//
// Environment: TABLE_NAME, SITE_URL, STRIPE_SECRET_ARN (the Secrets Manager
// secret with the Stripe keys, webhook_secret included; empty: Stripe is
// off, see stripepay.NewHandler), and optionally STRIPE_API_URL,
// SECRETS_MANAGER_ENDPOINT and DYNAMODB_ENDPOINT.
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/paymentenv"
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
	c, err := lambdaenv.ConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	store, err := lambdaenv.Store(ctx, c)
	if err != nil {
		return nil, err
	}
	payments, webhookSecret, err := paymentenv.Webhook(ctx, getenv, c.SiteURL)
	if err != nil {
		return nil, err
	}
	bookings, err := booking.New(booking.Config{
		Store: store, SiteURL: c.SiteURL, Payments: payments, Now: time.Now, Observer: lambdaenv.Metrics(getenv),
	})
	if err != nil {
		return nil, err
	}
	h := stripepay.NewHandler(stripepay.CheckoutConfig{Bookings: bookings, Payments: payments, Log: lambdaenv.Logger()}, webhookSecret)
	return lambdaenv.HTTP(h), nil
}
