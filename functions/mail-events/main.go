// Command mail-events is the Lambda function that hears what SES reports
// about the mail Doorstep sent: an EventBridge rule hands it the events
// the stack's SES configuration set publishes (bounces, complaints,
// rejects, delivery delays) and SES's "Sending Status Disabled/Enabled"
// events. It records an address undeliverable after a permanent bounce, a
// complaint, or transient bounces on 3 days within 14 (pkg/mailevents,
// booking.Bookings.RecordMailEvent), and counts a pause of sending for the
// operator's alarm. When the address is a business's inbox address and
// the business has a confirmed mobile, the owner is texted once
// (inboxweb.TellingOwner): the text is written to the table as an outgoing
// message (dynamo.Outgoing), which the notify function sends, as it sends
// every other message.
//
// Environment: TABLE_NAME, and optionally SMS_ORIGINATION_IDENTITY (without
// it texts are off and no owner is texted) and DYNAMODB_ENDPOINT. It builds
// no URLs, so it needs no SITE_URL.
package main

import (
	"context"
	"log"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/inboxweb"
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
	// No business cache: a mail event reads a business only when it is
	// about that business's inbox address, once.
	bookings, err := booking.New(booking.Config{
		Store: dynamo.New(client, c.TableName), SiteURL: booking.NoSiteURL, Now: time.Now,
	})
	if err != nil {
		return nil, err
	}
	// The owner's text, through the table to notify, never to a number
	// that replied STOP; none when the stack sends no texts.
	var texter inboxweb.Texter
	if strings.TrimSpace(getenv("SMS_ORIGINATION_IDENTITY")) != "" {
		texter = inboxweb.SMSTexter{Sender: dynamo.NewOutgoing(client, c.TableName, time.Now), OptOuts: dynamo.NewLedger(client, c.TableName)}
	}
	log := lambdaenv.Logger()
	recorder := inboxweb.TellingOwner{Bookings: bookings, Texter: texter, Log: log}
	return lambdaenv.Invocation(mailevents.Handler(recorder, lambdaenv.Metrics(getenv), log)), nil
}
