package lambdaenv

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Pages is what the person's pages (pkg/pages) are built over.
type Pages struct {
	Desk     *booking.Desk
	Mover    *booking.Mover
	Payments booking.Payments // nil without STRIPE_SECRET_ARN
	Log      *slog.Logger
}

// NewPagesHandler builds the Lambda handler of the person's pages
// (GET /r/{code}, GET and POST /r/{code}/cancel, GET and POST /pay/{code})
// from the environment: TABLE_NAME, SITE_URL, and optionally
// DYNAMODB_ENDPOINT and STRIPE_SECRET_ARN (with STRIPE_API_URL and
// SECRETS_MANAGER_ENDPOINT). With STRIPE_SECRET_ARN, deposits that are not
// simulated are paid at the provider newPayments builds; without it they
// cannot be paid on these pages (the start says so in the log), and
// simulated deposits can, as always. build makes the pages' handler: the
// pages function passes pkg/pages' (this package does not import it, nor
// stripepay, so that the other functions do not carry html/template and
// stripe-go).
func NewPagesHandler(ctx context.Context, getenv func(string) string, newPayments NewPayments, build func(Pages) http.Handler) (HTTPHandler, error) {
	c, err := ConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	s, ok, err := StripeFrom(ctx, getenv, c.SiteURL, nil)
	if err != nil {
		return nil, err
	}
	store, err := Store(ctx, c)
	if err != nil {
		return nil, err
	}
	p := Pages{Desk: booking.NewDesk(store, c.SiteURL, time.Now), Mover: booking.NewMover(store, time.Now), Log: Logger()}
	if ok {
		p.Payments = newPayments(s)
	} else {
		p.Log.Warn("pages: STRIPE_SECRET_ARN is not set: only simulated deposits can be paid")
	}
	return HTTP(build(p)), nil
}
