// Command mcp is the Lambda function behind {SITE_URL}/mcp: the MCP tool
// server (Streamable HTTP, plain JSON answers, no session).
//
// Environment: TABLE_NAME, SITE_URL, and optionally DYNAMODB_ENDPOINT.
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
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
	c, err := lambdaenv.ConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	store, err := lambdaenv.Store(ctx, c)
	if err != nil {
		return nil, err
	}
	bookings := booking.NewBookings(store, c.SiteURL, nil, time.Now, booking.WithObserver(lambdaenv.Metrics(getenv)))
	if c.SimulateDeposits {
		bookings.SimulateDeposits() // get_business and request_service
	}
	return lambdaenv.HTTP(mcptools.New(bookings, lambdaenv.Logger())), nil
}
