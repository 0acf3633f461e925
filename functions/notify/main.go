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
	"github.com/doorstep/doorstep/pkg/lambdaenv/notifyenv"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("notify: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.StreamHandler, error) {
	return lambdaenv.NewNotifyHandler(ctx, getenv, notifyenv.AWSSenders(getenv))
}
