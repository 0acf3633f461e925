// Command expire-holds is the sweeper: a Lambda function that a schedule
// runs every minute. It moves to expired each pending_payment request whose
// payment hold has lapsed at the scheduled event's time, and each new
// request whose window has started unanswered, which opens its window
// again and gives its phone back one open request; and it records the
// day-before reminder of each accepted visit whose reminder is due, which
// the table's stream carries to the notify function (pkg/sweep).
//
// It also erases the personal details of every request that ended
// PERSONAL_DATA_DAYS (default 365, at least 30) days ago, a bounded batch
// per run.
//
// Environment: TABLE_NAME, and optionally DYNAMODB_ENDPOINT and
// PERSONAL_DATA_DAYS. It builds no URLs, so it needs no SITE_URL.
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/sweep"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("expire-holds: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (func(context.Context, events.EventBridgeEvent) (sweep.Report, error), error) {
	c, err := lambdaenv.TableConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	days, err := lambdaenv.PersonalDataDays(getenv)
	if err != nil {
		return nil, err
	}
	client, err := dynamo.NewClient(ctx, c.DynamoDBEndpoint)
	if err != nil {
		return nil, err
	}
	// No business cache: expiring a request, or recording its reminder,
	// reads no business.
	bookings, err := booking.New(booking.Config{
		Store: dynamo.New(client, c.TableName), SiteURL: booking.NoSiteURL, Now: time.Now, Observer: lambdaenv.Metrics(getenv),
		PersonalDataDays: days,
	})
	if err != nil {
		return nil, err
	}
	return lambdaenv.Invocation(sweep.Handler(bookings, time.Now, lambdaenv.Logger())), nil
}
