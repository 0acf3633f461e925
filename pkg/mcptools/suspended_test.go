package mcptools_test

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestSuspendedBusinessTakesNothing: a business the operator suspended
// (ctl businesses suspend) is refused as a paused one is, BOOKING_PAUSED,
// by the tool server and the JSON API alike, and get_business says it
// takes no requests.
func TestSuspendedBusinessTakesNothing(t *testing.T) {
	const slug = "split-day-plumbing"
	f := newToolsFixtureWith(t, func(b *booking.Business) {
		if b.Slug == slug {
			b.Suspended = true
		}
	})
	args := requestArgs("2026-11-23T16:00:00Z", "3235550142")
	_, text, isErr := f.call(t, "request_service", with(args, "business", slug))
	if !isErr || refusedCode(text) != "BOOKING_PAUSED" {
		t.Errorf("tool: got isError %v %q, want BOOKING_PAUSED", isErr, text)
	}
	if _, body := f.post(t, "/api/v1/businesses/"+slug+"/requests", args); errorCode(body) != "BOOKING_PAUSED" {
		t.Errorf("JSON API: got %s, want BOOKING_PAUSED", errorCode(body))
	}
	got, _, isErr := f.call(t, "get_business", map[string]any{"business": slug})
	if isErr || got["accepting_requests"] != false {
		t.Errorf("get_business: got %v, want accepting_requests false", got["accepting_requests"])
	}
}
