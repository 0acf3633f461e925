package dynamo_test

import (
	"context"
	"sync"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// TestRaceInboxEmailChange, on both engines: until its link is confirmed
// the old inbox address stays; 20 confirmations of one link at once
// change it once and open one session; the old address then finds no
// business. A link to an address another business has changes nothing
// (INVALID_EMAIL: the lookup item's condition decides); an expired link
// and a link asked before another change are refused; a sign-in link
// changes no address, and a confirmation link signs nobody in.
func TestRaceInboxEmailChange(t *testing.T) {
	const n = 20
	const old, next, other = "office@test-plumbing.example.com", "new-office@test-plumbing.example.com", "inbox@other.example.com"
	ctx := context.Background()
	for _, e := range dynamotest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			client, table := e.Open(t)
			store := dynamo.New(client, table)
			if err := store.PutBusiness(ctx, inboxBusiness(t, slug, old)); err != nil {
				t.Fatal(err)
			}
			if err := store.PutBusiness(ctx, inboxBusiness(t, "other-business", other)); err != nil {
				t.Fatal(err)
			}
			clock := bookingtest.NewClock(now)
			s := bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://doorstep.example.com", Now: clock.Now})
			in := bookingtest.Inbox(t, s, slug)

			token, normal, err := in.StartInboxEmailChange(ctx, " new-office@test-plumbing.example.com ")
			if err != nil || normal != next {
				t.Fatalf("StartInboxEmailChange = %q, %v", normal, err)
			}
			if b, _ := store.Business(ctx, slug); b.InboxEmail != old {
				t.Fatalf("before the link: inbox_email %q, want %s still", b.InboxEmail, old)
			}
			if _, err := s.FinishSignIn(ctx, token); code(err) != booking.Unauthorized {
				t.Errorf("the confirmation link as a sign-in link: got %v, want UNAUTHORIZED", err)
			}
			token, _, err = in.StartInboxEmailChange(ctx, next)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			opened := 0
			errs := race(n, func(int) error {
				_, err := s.ConfirmInboxEmail(ctx, token)
				if err == nil {
					mu.Lock()
					opened++
					mu.Unlock()
				}
				return err
			})
			for i, err := range errs {
				if err != nil && code(err) != booking.Unauthorized {
					t.Errorf("ConfirmInboxEmail(%d) = %v", i, err)
				}
			}
			if b, _ := store.Business(ctx, slug); opened != 1 || b.InboxEmail != next {
				t.Fatalf("%d confirmations at once: %d opened, inbox_email %q, want 1 and %s", n, opened, b.InboxEmail, next)
			}
			if _, err := store.BusinessByInboxEmail(ctx, old); code(err) != booking.NotFound {
				t.Errorf("the old address: got %v, want NOT_FOUND", err)
			}

			in = bookingtest.Inbox(t, s, slug)
			taken, _, err := in.StartInboxEmailChange(ctx, other)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.ConfirmInboxEmail(ctx, taken); code(err) != booking.InvalidEmail {
				t.Errorf("another business's address: got %v, want INVALID_EMAIL", err)
			}
			if b, _ := store.Business(ctx, slug); b.InboxEmail != next {
				t.Errorf("after a refused change: inbox_email %q, want %s", b.InboxEmail, next)
			}

			late, _, err := in.StartInboxEmailChange(ctx, "late@test-plumbing.example.com")
			if err != nil {
				t.Fatal(err)
			}
			stale, _, err := in.StartInboxEmailChange(ctx, "stale@test-plumbing.example.com")
			if err != nil {
				t.Fatal(err)
			}
			clock.Add(booking.InboxEmailChangeTTL)
			if _, err := s.ConfirmInboxEmail(ctx, late); code(err) != booking.Unauthorized {
				t.Errorf("an expired link: got %v, want UNAUTHORIZED", err)
			}
			clock.Add(-booking.InboxEmailChangeTTL)
			fresh, _, err := in.StartInboxEmailChange(ctx, "fresh@test-plumbing.example.com")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.ConfirmInboxEmail(ctx, fresh); err != nil {
				t.Fatal(err)
			}
			if _, err := s.ConfirmInboxEmail(ctx, stale); code(err) != booking.Unauthorized {
				t.Errorf("a link asked before another change: got %v, want UNAUTHORIZED", err)
			}
			if b, _ := store.Business(ctx, slug); b.InboxEmail != "fresh@test-plumbing.example.com" {
				t.Errorf("inbox_email %q, want fresh@test-plumbing.example.com", b.InboxEmail)
			}
		})
	}
}
