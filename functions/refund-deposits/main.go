// Command refund-deposits is the Lambda function on the table's DynamoDB
// stream that gives deposits back: each stored move that made a deposit
// paid through Stripe refunded (a decline, a cancel by the business, an
// early cancel by the person...) is refunded through Stripe, once
// (streams.Refunds). It reads no table: the stream's images say
// everything.
//
// Environment: STRIPE_SECRET_ARN (the Secrets Manager secret with the
// Stripe keys; empty: Stripe is off, and a refund owed fails its record,
// which the stream retries and then leaves in the dead-letter queue), and
// optionally STRIPE_API_URL and SECRETS_MANAGER_ENDPOINT.
package main

import (
	"context"
	"log"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/paymentenv"
	"github.com/doorstep/doorstep/pkg/streams"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("refund-deposits: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (func(context.Context, events.DynamoDBEvent) (events.DynamoDBEventResponse, error), error) {
	payments, err := paymentenv.Payments(ctx, getenv, strings.TrimSpace(getenv("SITE_URL")))
	if err != nil {
		return nil, err
	}
	return lambdaenv.Invocation(streams.Refunds(payments, lambdaenv.Logger())), nil
}
