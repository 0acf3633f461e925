// Command notify is the Lambda function on the table's DynamoDB stream: it
// turns each change of a request into the e-mails (Amazon SES) and texts
// (AWS End User Messaging SMS) it implies, and sends each once (pkg/notify).
//
// Environment: TABLE_NAME, SITE_URL, SENDER_EMAIL, and optionally
// SMS_ORIGINATION_IDENTITY (without it texts are off), PREVIEW_INBOX_EMAIL
// and DYNAMODB_ENDPOINT.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/sesmail"
	"github.com/doorstep/doorstep/pkg/smstext"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("notify: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.StreamHandler, error) {
	return lambdaenv.NewNotifyHandler(ctx, getenv, func(c lambdaenv.NotifyConfig) (notify.EmailSender, notify.SMSSender, error) {
		ses, err := sesmail.NewClient(getenv)
		if err != nil {
			return nil, nil, err
		}
		if c.SMSOriginationIdentity == "" {
			return sesmail.New(ses, c.SenderEmail), nil, nil
		}
		sms, err := smstext.NewClient(getenv)
		if err != nil {
			return nil, nil, err
		}
		return sesmail.New(ses, c.SenderEmail), smstext.New(sms, c.SMSOriginationIdentity), nil
	})
}
