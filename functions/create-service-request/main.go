// Command create-service-request is the Lambda function behind
// POST /api/v1/businesses/{slug}/requests (createServiceRequest).
//
// Environment: TABLE_NAME, SITE_URL, and optionally DYNAMODB_ENDPOINT and
// STRIPE_SECRET_ARN (deposits that are not simulated then get a Stripe
// Checkout Session as payment_url), STRIPE_API_URL, SECRETS_MANAGER_ENDPOINT.
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/paymentenv"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("create-service-request: %v", err)
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
	payments, err := paymentenv.Payments(ctx, getenv, c.SiteURL)
	if err != nil {
		return nil, err
	}
	bookings, err := booking.New(booking.Config{
		Store: store, SiteURL: c.SiteURL, Payments: payments, Now: time.Now, Observer: lambdaenv.Metrics(getenv),
		// No real payment can be taken: each deposit is simulated.
		SimulateDeposits: payments == nil || c.SimulateDeposits,
	})
	if err != nil {
		return nil, err
	}
	return lambdaenv.HTTP(httpapi.New(bookings, lambdaenv.Logger())), nil
}
