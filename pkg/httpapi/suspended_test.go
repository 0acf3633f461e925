package httpapi_test

import (
	"context"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestSuspendedInboxIsReadOnly: the JSON inbox of a business the operator
// suspended still lists and shows its requests, and refuses every move,
// 503 BOOKING_PAUSED with words that say why; nothing moves.
func TestSuspendedInboxIsReadOnly(t *testing.T) {
	fx := newInboxFixture(t)
	code := fx.create(t, "split-day-plumbing", mon08, "3235550109")
	err := booking.OperatorUpdate(context.Background(), fx.store, "split-day-plumbing", start, func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		c.Suspended = true
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if res := fx.inbox(t, fx.tokenA, "GET", "/requests/"+code, ""); res.status != 200 {
		t.Errorf("read: got %d %s, want 200", res.status, res.raw)
	}
	if got := listCodes(t, fx, fx.tokenA, ""); len(got) != 1 {
		t.Errorf("list: got %v, want the request", got)
	}
	res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+code+"/accept", "")
	if res.status != 503 || res.errorCode(t) != "BOOKING_PAUSED" || !strings.Contains(res.raw, "read-only") {
		t.Errorf("accept: got %d %s, want 503 BOOKING_PAUSED saying the inbox is read-only", res.status, res.raw)
	}
	if got := call(t, fx.h, "GET", "/api/v1/requests/"+code, "").str("status"); got != "new" {
		t.Errorf("the request: got status %q, want new", got)
	}
}
