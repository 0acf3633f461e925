// Command expire-holds is the hold sweeper: a Lambda function that a
// schedule runs every minute. It moves each pending_payment request whose
// payment hold has lapsed at the scheduled event's time to expired, which
// opens its window again and gives its phone back one open request.
//
// Environment: TABLE_NAME, and optionally DYNAMODB_ENDPOINT.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("expire-holds: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.SweepHandler, error) {
	return lambdaenv.NewSweepHandler(ctx, getenv)
}
