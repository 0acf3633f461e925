package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

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
// changes no address, and a confirmation link signs nobody in, each left
// good for its own route (the 20 confirmations use the one refused as a
// sign-in).
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
			signIn, _, ok, err := s.StartSignIn(ctx, old)
			if err != nil || !ok {
				t.Fatalf("StartSignIn = %v, %v", ok, err)
			}
			if _, err := s.ConfirmInboxEmail(ctx, signIn); code(err) != booking.Unauthorized {
				t.Errorf("a sign-in link as the confirmation: got %v, want UNAUTHORIZED", err)
			}
			if _, err := s.FinishSignIn(ctx, signIn); err != nil {
				t.Errorf("the sign-in link at its own route after: got %v", err)
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

			clock.Add(24 * time.Hour) // the day's links were asked for: the next day's
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

// TestRaceInboxEmailChanges, on both engines: one business asks for links
// to 12 different new addresses at once; exactly MaxInboxEmailChangesPerDay
// are minted, the others are RATE_LIMITED as the business's day's links
// (ErrInboxEmailChangesSpent) and count nothing on their address. Another
// business still gets its links, and the next UTC day this one does again.
func TestRaceInboxEmailChanges(t *testing.T) {
	const n = 12
	ctx := context.Background()
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, b := range []*booking.Business{inboxBusiness(t, slug, "office@test-plumbing.example.com"), inboxBusiness(t, "other-business", "inbox@other.example.com")} {
			if err := e.store.PutBusiness(ctx, b); err != nil {
				t.Fatal(err)
			}
		}
		clock := bookingtest.NewClock(now.Add(23 * time.Hour))
		s := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://doorstep.example.com", Now: clock.Now})
		in := bookingtest.Inbox(t, s, slug)
		address := func(i int) string { return fmt.Sprintf("someone-%d@example.com", i) }
		tokens := make([]string, n)
		errs := race(n, func(i int) error {
			var err error
			tokens[i], _, err = in.StartInboxEmailChange(ctx, address(i))
			return err
		})
		minted := 0
		for i, err := range errs {
			switch {
			case err == nil && tokens[i] != "":
				minted++
			case code(err) == booking.RateLimited && errors.Is(err, booking.ErrInboxEmailChangesSpent):
				if r := booking.RetryAfter(err); r != time.Hour {
					t.Errorf("ask %d: Retry-After %s, want 1h (the next UTC day)", i, r)
				}
				if count := e.item(t, itemKey{"SIGNINCOUNT#" + booking.EmailHash(address(i)), "HOUR#" + clock.Now().Truncate(time.Hour).Format(time.RFC3339)}); count != nil {
					t.Errorf("ask %d, refused: its address was counted: %v", i, count)
				}
			default:
				t.Errorf("ask %d: got %v", i, err)
			}
		}
		if minted != booking.MaxInboxEmailChangesPerDay {
			t.Errorf("%d asks at once: %d links minted, want %d", n, minted, booking.MaxInboxEmailChangesPerDay)
		}
		count := e.item(t, itemKey{"BUSINESS#" + slug, "EMAILCHANGES#" + now.Format(time.DateOnly)})
		if got := attrN(t, count, "email_changes"); got != booking.MaxInboxEmailChangesPerDay {
			t.Errorf("email_changes = %d, want %d", got, booking.MaxInboxEmailChangesPerDay)
		}
		if _, _, err := bookingtest.Inbox(t, s, "other-business").StartInboxEmailChange(ctx, address(0)); err != nil {
			t.Errorf("another business: got %v, want its link", err)
		}
		clock.Add(time.Hour) // the next UTC day
		if _, _, err := in.StartInboxEmailChange(ctx, address(n)); err != nil {
			t.Errorf("the next day: got %v, want a link", err)
		}
	})
}
