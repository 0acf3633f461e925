package lambdaenv

import (
	"context"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/httpapi"
)

// NewInboxHandler builds the business inbox's Lambda handler from the
// environment (TABLE_NAME, SITE_URL, DYNAMODB_ENDPOINT). A token minted or
// revoked by an operator takes effect within the business cache's time.
func NewInboxHandler(ctx context.Context, getenv func(string) string) (HTTPHandler, error) {
	c, err := ConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	store, err := Store(ctx, c)
	if err != nil {
		return nil, err
	}
	return HTTP(httpapi.NewInbox(booking.NewInbox(store, time.Now), Logger())), nil
}
