// Command business-inbox is the Lambda function behind
// {SITE_URL}/api/v1/inbox/...: the business side, where a business, proven
// by its inbox token, lists its requests and accepts, declines, moves,
// completes, cancels or marks them no-show. A token minted or revoked by an
// operator takes effect within the business cache's time.
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
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("business-inbox: %v", err)
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
		Store: store, SiteURL: c.SiteURL, Now: time.Now, Observer: lambdaenv.Metrics(getenv),
		TextsOff: c.TextsOff, // what person_channels and the status page say of texts
	})
	if err != nil {
		return nil, err
	}
	return lambdaenv.HTTP(httpapi.NewInbox(bookings, lambdaenv.Logger())), nil
}
