package dynamo_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
)

// TestGoLiveRacesARemovedPhone: an owner's Go live and the removal of the
// confirmed mobile (another tab) at once, many times, on both engines.
// The checklist is read inside the conditional write, so going live never
// lands on a record whose mobile was already gone: in the history, a
// change to preview is never after the removal in the same round. Each
// either lands or fails as a lost race (ErrBusinessChanged) or, after the
// removal, as not ready (INVALID_REQUEST); nothing else.
func TestGoLiveRacesARemovedPhone(t *testing.T) {
	ctx := context.Background()
	forEachEngine(t, func(t *testing.T, e engine) {
		b := inboxBusiness(t, slug, "owner@test-plumbing.example.com")
		b.Preview, b.OwnerPhone = true, "3235550199"
		b.BookingDeposit = nil
		if err := e.store.PutBusiness(ctx, b); err != nil {
			t.Fatal(err)
		}
		s := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://book.example.com", Now: bookingtest.NewClock(now).Now,
			NewBusinessApproval: booking.ApprovalAuto})
		for round := range 10 {
			// Back in preview with a mobile, for the round.
			reset := booking.OperatorUpdate(ctx, e.store, slug, now, func(stored *booking.Business) (*booking.Business, error) {
				c := *stored
				c.Preview, c.OwnerPhone = true, "3235550199"
				return &c, nil
			})
			if reset != nil {
				t.Fatal(reset)
			}
			in := bookingtest.Inbox(t, s, slug)
			errs := race(2, func(i int) error {
				if i == 0 {
					_, err := in.GoLive(ctx)
					return err
				}
				_, err := in.RemoveOwnerPhone(ctx)
				return err
			})
			for i, err := range errs {
				if err != nil && !errors.Is(err, booking.ErrBusinessChanged) && !(i == 0 && booking.ErrorCode(err) == booking.InvalidRequest) {
					t.Errorf("round %d, call %d: %v", round, i, err)
				}
			}
			stored, err := e.store.Business(ctx, slug)
			if err != nil {
				t.Fatal(err)
			}
			// This round's changes, after the operator's reset: "phone"
			// (the removal) and "live" (going live), in the order stored.
			var got []string
			for _, c := range slices.Backward(stored.Changes) {
				if c.By == booking.ByOperator {
					break
				}
				what := "live"
				if slices.Contains(c.Fields, "owner_phone") {
					what = "phone"
				}
				got = append([]string{what}, got...)
			}
			if slices.Equal(got, []string{"phone", "live"}) {
				t.Errorf("round %d: went live after the mobile was removed: %v", round, got)
			}
			if live := !stored.Preview; live != (errs[0] == nil) || live != slices.Contains(got, "live") {
				t.Errorf("round %d: live %v, Go live = %v, changes %v", round, live, errs[0], got)
			}
		}
	})
}
