// Command pages is the Lambda function behind the person's own pages:
// GET /r/{code} (the request's status), GET and POST /r/{code}/cancel, and
// GET and POST /pay/{code} (the deposit's payment), HTML in the request's
// language (pkg/pages).
//
// It does not link stripe-go (see docs/performance.md, "Binary sizes"): a deposit
// paid at Stripe goes through the payment-webhook function's
// /pay/{code}/checkout and /pay/{code}/return.
//
// Environment: TABLE_NAME, SITE_URL, and optionally DYNAMODB_ENDPOINT and
// SMS_ORIGINATION_IDENTITY (without it texts are off: booking.PersonReach).
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/pages"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("pages: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	c, err := lambdaenv.ConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	client, err := dynamo.NewClient(ctx, c.DynamoDBEndpoint)
	if err != nil {
		return nil, err
	}
	store := dynamo.New(client, c.TableName, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, time.Now))
	bookings, err := booking.New(booking.Config{
		Store: store, SiteURL: c.SiteURL, Now: time.Now, Observer: lambdaenv.Metrics(getenv),
		TextsOff: c.TextsOff, // what person_channels and the status page say of texts
	})
	if err != nil {
		return nil, err
	}
	return lambdaenv.HTTP(pages.New(pages.Config{
		Bookings: bookings,
		// The numbers that replied STOP (the notify ledger's list): one
		// GetItem, only when the status page would say "by text".
		OptOuts: dynamo.NewLedger(client, c.TableName).ForPages(),
		Log:     lambdaenv.Logger(),
	})), nil
}
