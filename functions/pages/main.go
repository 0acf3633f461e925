// Command pages is the Lambda function behind the person's own pages:
// GET /r/{code} (the request's status), GET and POST /r/{code}/cancel, and
// GET and POST /pay/{code} (the deposit's payment), HTML in the request's
// language (pkg/pages).
//
// It does not link stripe-go (nor pkg/stripepay): with html/template, the
// linker keeps every exported method of every type the binary reaches
// (golang/go#72895), and stripe-go's types would make it half as big again.
// A deposit paid at Stripe goes through the payment-webhook function's
// /pay/{code}/checkout and /pay/{code}/return.
//
// Environment: TABLE_NAME, SITE_URL, and optionally DYNAMODB_ENDPOINT.
package main

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/pages"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("pages: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	return lambdaenv.NewPagesHandler(ctx, getenv, func(p lambdaenv.Pages) http.Handler {
		return pages.New(pages.Config{Desk: p.Desk, Mover: p.Mover, Log: p.Log})
	})
}
