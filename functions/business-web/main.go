// Command business-web is the Lambda function behind {SITE_URL}/inbox: the
// business's own inbox in a browser (pkg/inboxweb), signed in from a link
// e-mailed to its inbox_email; its settings text a code to the owner's
// mobile to confirm it for texts of new requests. Both messages are
// written to the table (dynamo.Outgoing) and sent by the notify function
// from the stream, through SES and End User Messaging SMS.
// It serves {SITE_URL}/start too: a business signs up by itself, from a
// link e-mailed to its owner.
//
// Going live asks the operator's approval where the stack wants it: a
// message the notify function publishes on the operator's topic.
//
// Environment: TABLE_NAME, SITE_URL, SENDER_EMAIL, and optionally
// SIGNUPS_PER_HOUR (the stack's SignupsPerHour; unset: 30),
// SMS_ORIGINATION_IDENTITY (without it texts are off),
// NEW_BUSINESS_APPROVAL (operator, the default, or auto) and
// DYNAMODB_ENDPOINT.
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("business-web: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	c, err := lambdaenv.NotifyConfigFrom(getenv) // TABLE_NAME, SITE_URL, SENDER_EMAIL
	if err != nil {
		return nil, err
	}
	signups, err := lambdaenv.SignupsPerHour(getenv) // SIGNUPS_PER_HOUR
	if err != nil {
		return nil, err
	}
	approval, err := lambdaenv.ApprovalConfigFrom(getenv) // NEW_BUSINESS_APPROVAL, OPERATOR_TOPIC_ARN
	if err != nil {
		return nil, err
	}
	client, err := dynamo.NewClient(ctx, c.DynamoDBEndpoint)
	if err != nil {
		return nil, err
	}
	store := dynamo.New(client, c.TableName, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, time.Now))
	// The numbers that replied STOP (the notify ledger's list).
	optOuts := dynamo.NewLedger(client, c.TableName)
	// The sign-in e-mail and the code that confirms the owner's mobile
	// leave as every other message does: written to the table as outgoing
	// messages, which the notify function on the stream sends, once. So
	// this function links no SES or SMS client (docs/design.md, "One way
	// out"). The code goes only when texts are on, and never to a number
	// that replied STOP.
	outgoing := dynamo.NewOutgoing(client, c.TableName, time.Now)
	var texter inboxweb.Texter
	if c.SMSOriginationIdentity != "" {
		texter = inboxweb.SMSTexter{Sender: outgoing, OptOuts: optOuts}
	}
	// A business asking to go live, told to the operator's topic by the
	// same way out: notify publishes it (without a topic, it logs it, and
	// ctl businesses list --pending still lists the business).
	var operator booking.OperatorNotices = outgoing
	bookings, err := booking.New(booking.Config{
		Store: store, SiteURL: c.SiteURL, Now: time.Now, Observer: lambdaenv.Metrics(getenv),
		TextsOff:            c.TextsOff, // the confirmation after a move, and the marks
		SignupsPerHour:      signups,    // businesses created by sign-up in an hour
		NewBusinessApproval: approval.NewBusinessApproval, Operator: operator,
	})
	if err != nil {
		return nil, err
	}
	return lambdaenv.HTTP(inboxweb.New(inboxweb.Config{
		Bookings: bookings,
		Mailer:   inboxweb.EmailMailer{Sender: outgoing},
		Texter:   texter,
		OptOuts:  optOuts.ForPages(), // one eventually consistent GetItem on a request's page, when a text would go
		SiteURL:  c.SiteURL,
		Log:      lambdaenv.Logger(),
	})), nil
}
