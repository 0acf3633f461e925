// Command get-business is the Lambda function behind
// GET /api/v1/businesses/{slug} (getBusiness).
//
// Environment: TABLE_NAME, SITE_URL, and optionally DYNAMODB_ENDPOINT.
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
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("get-business: %v", err)
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
	bookings, err := booking.New(booking.Config{
		Store: store, SiteURL: c.SiteURL, Now: time.Now,
		SimulateDeposits: c.SimulateDeposits, // booking_deposit.simulated: true
	})
	if err != nil {
		return nil, err
	}
	return lambdaenv.HTTP(httpapi.New(bookings, lambdaenv.Logger())), nil
}
