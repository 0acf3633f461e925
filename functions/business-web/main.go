// Command business-web is the Lambda function behind {SITE_URL}/inbox: the
// business's own inbox in a browser (pkg/inboxweb), signed in from a link
// e-mailed to its inbox_email (Amazon SES).
//
// Environment: TABLE_NAME, SITE_URL, SENDER_EMAIL, and optionally
// DYNAMODB_ENDPOINT and AWS_ENDPOINT_URL_SESV2.
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/sesmail"
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
	store, err := lambdaenv.Store(ctx, c.Config)
	if err != nil {
		return nil, err
	}
	ses, err := sesmail.NewClient(ctx, getenv)
	if err != nil {
		return nil, err
	}
	bookings, err := booking.New(booking.Config{
		Store: store, SiteURL: c.SiteURL, Now: time.Now, Observer: lambdaenv.Metrics(getenv),
	})
	if err != nil {
		return nil, err
	}
	return lambdaenv.HTTP(inboxweb.New(inboxweb.Config{
		Bookings: bookings,
		Mailer:   inboxweb.EmailMailer{Sender: sesmail.New(ses, c.SenderEmail)},
		SiteURL:  c.SiteURL,
		Log:      lambdaenv.Logger(),
	})), nil
}
