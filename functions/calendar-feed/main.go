// Command calendar-feed is the Lambda function behind
// {SITE_URL}/calendar/{token}.ics: a business's calendar feed, iCalendar
// for a calendar app to subscribe to (pkg/httpapi's NewCalendarFeed). The
// token, minted by an operator (infra/ctl mint-feed-token), is the feed's
// only key; one minted or revoked takes effect within the business cache's
// time. It reads and never writes.
//
// API Gateway's route is GET /calendar/{token}: a path variable takes a
// whole segment, ".ics" included, and the handler reads it off.
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
		log.Fatalf("calendar-feed: %v", err)
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
	})
	if err != nil {
		return nil, err
	}
	return lambdaenv.HTTP(httpapi.NewCalendarFeed(bookings, lambdaenv.Logger())), nil
}
