// Command refund-deposits is the Lambda function on the table's DynamoDB
// stream that gives deposits back: each stored move that made a deposit
// paid through Stripe refunded (a decline, a cancel by the business, an
// early cancel by the person...) is refunded through Stripe, once
// (paymentenv.RefundStream).
//
// Environment: STRIPE_SECRET_ARN (the Secrets Manager secret with the
// Stripe keys), and optionally STRIPE_API_URL and SECRETS_MANAGER_ENDPOINT.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/paymentenv"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("refund-deposits: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.StreamHandler, error) {
	return paymentenv.NewRefundHandler(ctx, getenv)
}
