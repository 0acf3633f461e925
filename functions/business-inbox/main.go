// Command business-inbox is the Lambda function behind
// {SITE_URL}/api/v1/inbox/...: the business side, where a business, proven
// by its inbox token, lists its requests and accepts, declines, moves,
// completes, cancels or marks them no-show.
//
// Environment: TABLE_NAME, SITE_URL, and optionally DYNAMODB_ENDPOINT.
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
		log.Fatalf("business-inbox: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	return lambdaenv.NewInboxHandler(ctx, getenv)
}
