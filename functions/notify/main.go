// Command notify is the Lambda function on the table's DynamoDB stream: it
// turns each change of a request into the e-mails (Amazon SES) and texts
// (AWS End User Messaging SMS) it implies, and sends each once (pkg/notify,
// through streams.Notify).
//
// Environment: TABLE_NAME, SITE_URL, SENDER_EMAIL, and optionally
// SMS_ORIGINATION_IDENTITY (without it texts are off), PREVIEW_INBOX_EMAIL,
// OPERATOR_TOPIC_ARN (the operator's messages: without it they are logged)
// and DYNAMODB_ENDPOINT.
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/notifyenv"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/streams"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("notify: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (func(context.Context, events.DynamoDBEvent) (events.DynamoDBEventResponse, error), error) {
	c, err := lambdaenv.NotifyConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	client, err := dynamo.NewClient(ctx, c.DynamoDBEndpoint)
	if err != nil {
		return nil, err
	}
	email, err := notifyenv.Email(ctx, getenv, c)
	if err != nil {
		return nil, err
	}
	sms, err := notifyenv.SMS(ctx, getenv, c)
	if err != nil {
		return nil, err
	}
	operator, err := notifyenv.Operator(ctx, getenv) // OPERATOR_TOPIC_ARN
	if err != nil {
		return nil, err
	}
	log := lambdaenv.Logger()
	if sms == nil {
		log.Warn("notify: SMS_ORIGINATION_IDENTITY is not set: texts are off")
	}
	store := dynamo.New(client, c.TableName, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, time.Now))
	n := &notify.Notifier{
		Composer:   notify.Composer{SiteURL: c.SiteURL, PreviewInbox: c.PreviewInboxEmail},
		Businesses: store,
		Links:      store, // the one-tap links of the new requests' messages
		Email:      email,
		SMS:        sms,
		Operator:   operator, // a business asking to go live (dynamo.Outgoing)
		Ledger:     dynamo.NewLedger(client, c.TableName),
		Log:        log,
		Now:        time.Now,
		Metrics:    lambdaenv.Metrics(getenv),
	}
	return lambdaenv.Invocation(streams.Notify(n, log)), nil
}
