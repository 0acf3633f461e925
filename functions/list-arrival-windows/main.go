// Command list-arrival-windows is the Lambda function behind
// GET /api/v1/businesses/{slug}/availability (listArrivalWindows).
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
		log.Fatalf("list-arrival-windows: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	return lambdaenv.NewAPIHandler(ctx, getenv)
}
