package bookform_test

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
)

// TestSuspendedBusinessTakesNothing: the form of a business the operator
// suspended says it is paused, with its phone, and a form sent anyway is
// refused (503, BOOKING_PAUSED's page) with nothing stored.
func TestSuspendedBusinessTakesNothing(t *testing.T) {
	f := newFixture(t, nil)
	day := f.day(t, plain, 1)
	v := f.filled(t, plain, "ac-not-cooling", "85004", day)
	g := newFixture(t, func(b *booking.Business) {
		if b.Slug == plain {
			b.Suspended = true
		}
	})
	res := g.get(t, bookform.Path+plain)
	if res.Status != 200 {
		t.Errorf("get: got %d, want 200", res.Status)
	}
	wantIn(t, res.Body, "Online requests are paused", `href="tel:&#43;16025550163"`)
	wantNotIn(t, res.Body, "<form")
	res = g.post(t, plain, v)
	if res.Status != 503 {
		t.Fatalf("post: got %d, want 503", res.Status)
	}
	wantIn(t, res.Body, "Online requests are paused")
	if n := g.stored(t, plain); n != 0 {
		t.Errorf("got %d requests stored, want none", n)
	}
}
