// Command book-form is the Lambda function behind the visitor's booking
// form: GET and POST /book/{slug} (pkg/bookform), the booking_url a person
// with a browser uses. It sends requests through the same
// Bookings.CreateRequest as the JSON API.
//
// It does not link stripe-go (see docs/performance.md, "Binary sizes"): a deposit
// due is paid from the payment page, /pay/{code}, which sends a deposit
// taken at Stripe on to the payment function.
//
// Environment: TABLE_NAME, SITE_URL, FORM_SECRET_ARN (the secret whose
// string signs the form tokens; at least 32 characters), and optionally
// DYNAMODB_ENDPOINT and SECRETS_MANAGER_ENDPOINT.
package main

import (
	"context"
	"errors"
	"log"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/secretenv"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("book-form: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	c, err := lambdaenv.ConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	arn := strings.TrimSpace(getenv("FORM_SECRET_ARN"))
	if arn == "" {
		return nil, errors.New("FORM_SECRET_ARN is required: the form tokens are signed with its secret")
	}
	key, err := secretenv.Read(ctx, getenv, arn)
	if err != nil {
		return nil, errors.New("FORM_SECRET_ARN: " + err.Error())
	}
	store, err := lambdaenv.Store(ctx, c)
	if err != nil {
		return nil, err
	}
	// No payment provider: payment_url is the service's own /pay/{code},
	// which opens Stripe's checkout for a deposit taken there, or, in a
	// stack without Stripe (PAYMENTS=simulated), the simulated payment.
	bookings, err := booking.New(booking.Config{
		Store: store, SiteURL: c.SiteURL, Now: time.Now, Observer: lambdaenv.Metrics(getenv),
		SimulateDeposits: c.SimulateDeposits, TextsOff: c.TextsOff,
	})
	if err != nil {
		return nil, err
	}
	h, err := bookform.New(bookform.Config{Bookings: bookings, Key: []byte(key), Log: lambdaenv.Logger()})
	if err != nil {
		return nil, err
	}
	return lambdaenv.HTTP(h), nil
}
