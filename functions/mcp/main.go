// Command mcp is the Lambda function behind {SITE_URL}/mcp: the MCP tool
// server (Streamable HTTP, plain JSON answers, no session).
//
// Environment: TABLE_NAME, SITE_URL, and optionally DYNAMODB_ENDPOINT.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/mcptools"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("mcp: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	return lambdaenv.NewHTTPHandler(ctx, getenv, mcptools.New)
}
