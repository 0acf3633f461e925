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
	Desk  *booking.Desk
	Mover *booking.Mover
	Log   *slog.Logger
}

// NewPagesHandler builds the Lambda handler of the person's pages
// (GET /r/{code}, GET and POST /r/{code}/cancel, GET and POST /pay/{code})
// from the environment: TABLE_NAME, SITE_URL, and optionally
// DYNAMODB_ENDPOINT. build makes the pages' handler: the pages function
// passes pkg/pages' (this package does not import it, so that the other
// functions do not carry html/template). The pages need no Stripe key: a
// deposit paid at Stripe is paid through the payment function's
// /pay/{code}/checkout and /pay/{code}/return (NewPaymentWebhookHandler).
func NewPagesHandler(ctx context.Context, getenv func(string) string, build func(Pages) http.Handler) (HTTPHandler, error) {
	c, err := ConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	store, err := Store(ctx, c)
	if err != nil {
		return nil, err
	}
	p := Pages{Desk: booking.NewDesk(store, c.SiteURL, time.Now), Mover: booking.NewMover(store, time.Now), Log: Logger()}
	return HTTP(build(p)), nil
}
