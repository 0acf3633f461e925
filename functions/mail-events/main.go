// Command mail-events is the Lambda function that hears what SES reports
// about the mail Doorstep sent: an EventBridge rule hands it the events
// the stack's SES configuration set publishes (bounces, complaints,
// rejects, delivery delays) and SES's "Sending Status Disabled/Enabled"
// events. It records an address undeliverable after a permanent bounce, a
// complaint, or transient bounces on 3 days within 14 (pkg/mailevents,
// booking.Bookings.RecordMailEvent), and counts a pause of sending for the
// operator's alarm.
//
// Environment: TABLE_NAME, and optionally DYNAMODB_ENDPOINT. It builds no
// URLs, so it needs no SITE_URL.
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
	"github.com/doorstep/doorstep/pkg/mailevents"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("mail-events: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (func(context.Context, events.EventBridgeEvent) (mailevents.Report, error), error) {
	c, err := lambdaenv.TableConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	client, err := dynamo.NewClient(ctx, c.DynamoDBEndpoint)
	if err != nil {
		return nil, err
	}
	// No business cache: a mail event reads no business.
	bookings, err := booking.New(booking.Config{
		Store: dynamo.New(client, c.TableName), SiteURL: booking.NoSiteURL, Now: time.Now,
	})
	if err != nil {
		return nil, err
	}
	return lambdaenv.Invocation(mailevents.Handler(bookings, lambdaenv.Metrics(getenv), lambdaenv.Logger())), nil
}
