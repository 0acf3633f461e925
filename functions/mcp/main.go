// Command mcp is the Lambda function behind {SITE_URL}/mcp: the MCP tool
// server (Streamable HTTP, plain JSON answers, no session).
//
// Environment: TABLE_NAME, SITE_URL, and optionally DYNAMODB_ENDPOINT and
// SMS_ORIGINATION_IDENTITY (without it texts are off: booking.PersonReach).
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
	bookings, err := booking.New(booking.Config{
		Store: store, SiteURL: c.SiteURL, Now: time.Now, Observer: lambdaenv.Metrics(getenv),
		SimulateDeposits: c.SimulateDeposits, // get_business and request_service
		TextsOff:         c.TextsOff,         // request_service's "nobody will write to them"
	})
	if err != nil {
		return nil, err
	}
	return lambdaenv.HTTP(mcptools.New(bookings, lambdaenv.Logger())), nil
}
