// Command pages is the Lambda function behind the person's own pages:
// GET /r/{code} (the request's status), GET and POST /r/{code}/cancel, and
// GET and POST /pay/{code} (the deposit's payment), HTML in the request's
// language (pkg/pages).
//
// Environment: TABLE_NAME, SITE_URL, and optionally STRIPE_SECRET_ARN (the
// Secrets Manager secret with the Stripe keys; without it only simulated
// deposits can be paid), STRIPE_API_URL, SECRETS_MANAGER_ENDPOINT and
// DYNAMODB_ENDPOINT.
package main

import (
	"context"
	"log"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/pages"
	"github.com/doorstep/doorstep/pkg/stripepay"
)

func main() {
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatalf("pages: %v", err)
	}
	lambda.Start(h)
}

func newHandler(ctx context.Context, getenv func(string) string) (lambdaenv.HTTPHandler, error) {
	return lambdaenv.NewPagesHandler(ctx, getenv, newStripe, func(p lambdaenv.Pages) http.Handler {
		return pages.New(pages.Config{Desk: p.Desk, Mover: p.Mover, Payments: p.Payments, Log: p.Log})
	})
}

func newStripe(s lambdaenv.Stripe) booking.Payments {
	return stripepay.New(stripepay.Config{SecretKey: s.Keys.SecretKey, SiteURL: s.SiteURL, APIURL: s.APIURL, Log: s.Log})
}
