// Command get-openapi is the Lambda function behind GET /api/v1/openapi.json
// and GET /api/v1/openapi.yaml: the JSON API's OpenAPI document. It reads
// nothing from the table, so its role grants no DynamoDB action.
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
		log.Fatalf("get-openapi: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	return lambdaenv.NewAPIHandler(ctx, getenv)
}
