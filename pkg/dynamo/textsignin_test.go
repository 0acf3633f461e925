package dynamo_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// TestRaceTextSignIn asks for 20 sign-in codes by text for one address at
// once, on both engines: the address's hourly count lets exactly
// MaxSignInsPerHour through; the next hour, the business's day of
// MaxSignInCodesPerDay texts is spent, so the hour's asks send nothing (and are
// not refused: the answer never tells that the address has a business).
// 20 answers with the code stored at once open exactly one session;
// MaxSignInCodeTries wrong answers leave no code; an expired code, and a
// code texted to a number the business no longer has, open none.
func TestRaceTextSignIn(t *testing.T) {
	const n = 20
	const email = "office@test-plumbing.example.com"
	ctx := context.Background()
	for _, e := range dynamotest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			client, table := e.Open(t)
			store := dynamo.New(client, table)
			b := inboxBusiness(t, slug, email)
			b.OwnerPhone = "5125550142"
			if err := store.PutBusiness(ctx, b); err != nil {
				t.Fatal(err)
			}
			clock := bookingtest.NewClock(now)
			s := bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://doorstep.example.com", Now: clock.Now})

			codes := make([]string, n)
			errs := race(n, func(i int) error {
				var err error
				codes[i], _, _, _, err = s.StartTextSignIn(ctx, email)
				return err
			})
			sent, limited := 0, 0
			for i, err := range errs {
				switch {
				case code(err) == booking.RateLimited && codes[i] == "":
					limited++
				case err != nil || codes[i] == "":
					t.Errorf("StartTextSignIn(%d) = %q, %v", i, codes[i], err)
				default:
					sent++
				}
			}
			if sent != booking.MaxSignInsPerHour || limited != n-booking.MaxSignInsPerHour {
				t.Fatalf("%d at once: %d sent, %d limited, want %d and %d", n, sent, limited, booking.MaxSignInsPerHour, n-booking.MaxSignInsPerHour)
			}

			clock.Add(time.Hour)
			errs = race(booking.MaxSignInsPerHour, func(i int) error {
				var ok bool
				var err error
				codes[i], _, _, ok, err = s.StartTextSignIn(ctx, email)
				if ok {
					t.Errorf("StartTextSignIn(%d) the next hour sent a code past the day's %d", i, booking.MaxSignInCodesPerDay)
				}
				return err
			})
			for i, err := range errs {
				if err != nil {
					t.Errorf("StartTextSignIn(%d) the next hour = %v, want no error and nothing sent", i, err)
				}
			}

			// The next day: one code, answered 20 times at once.
			clock.Add(24 * time.Hour)
			right, phone, _, ok, err := s.StartTextSignIn(ctx, email)
			if err != nil || !ok || phone != b.OwnerPhone {
				t.Fatalf("StartTextSignIn the next day = %q, %v, %v", phone, ok, err)
			}
			opened := 0
			errs = race(n, func(int) error {
				_, err := s.FinishTextSignIn(ctx, email, right)
				return err
			})
			for i, err := range errs {
				switch {
				case err == nil:
					opened++
				case code(err) != booking.Unauthorized:
					t.Errorf("FinishTextSignIn(%d) = %v", i, err)
				}
			}
			if opened != 1 {
				t.Errorf("%d answers at once with the right code opened %d sessions, want 1", n, opened)
			}

			// MaxSignInCodeTries wrong answers, then the right one: refused.
			right, _, _, _, err = s.StartTextSignIn(ctx, email)
			if err != nil || right == "" {
				t.Fatal(err)
			}
			wrong := "000000"
			if wrong == right {
				wrong = "111111"
			}
			for range booking.MaxSignInCodeTries {
				if _, err := s.FinishTextSignIn(ctx, email, wrong); code(err) != booking.Unauthorized {
					t.Fatalf("a wrong code: got %v, want UNAUTHORIZED", err)
				}
			}
			if _, err := s.FinishTextSignIn(ctx, email, right); code(err) != booking.Unauthorized {
				t.Errorf("the right code after %d wrong ones: got %v, want UNAUTHORIZED", booking.MaxSignInCodeTries, err)
			}

			// An expired code, not yet deleted by the TTL, opens nothing.
			right, _, _, _, err = s.StartTextSignIn(ctx, email)
			if err != nil || right == "" {
				t.Fatal(err)
			}
			clock.Add(booking.SignInCodeTTL)
			if _, err := s.FinishTextSignIn(ctx, email, right); code(err) != booking.Unauthorized {
				t.Errorf("an expired code: got %v, want UNAUTHORIZED", err)
			}

			// A code texted to the number before the business changed it.
			clock.Add(2 * time.Hour)
			right, _, _, _, err = s.StartTextSignIn(ctx, email)
			if err != nil || right == "" {
				t.Fatal(err)
			}
			err = store.UpdateBusiness(ctx, slug, func(stored *booking.Business) (*booking.Business, error) {
				changed := *stored
				changed.OwnerPhone = "5125550199"
				return &changed, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.FinishTextSignIn(ctx, email, right); code(err) != booking.Unauthorized {
				t.Errorf("a code texted to the old number: got %v, want UNAUTHORIZED", err)
			}
		})
	}
}

// TestTextSignInNobody: an address no business has, and a business
// without a confirmed number, get no code and no error, alike.
func TestTextSignInNobody(t *testing.T) {
	ctx := context.Background()
	for _, e := range dynamotest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			client, table := e.Open(t)
			store := dynamo.New(client, table)
			if err := store.PutBusiness(ctx, inboxBusiness(t, slug, "office@test-plumbing.example.com")); err != nil {
				t.Fatal(err)
			}
			s := bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://doorstep.example.com", Now: func() time.Time { return now }})
			for _, email := range []string{"office@test-plumbing.example.com", "nobody@example.com"} {
				code, phone, b, ok, err := s.StartTextSignIn(ctx, email)
				if code != "" || phone != "" || b != nil || ok || err != nil {
					t.Errorf("StartTextSignIn(%s) = %q, %q, %v, %v, %v, want nothing", email, code, phone, b, ok, err)
				}
			}
		})
	}
}

// TestRaceOwnerBounceText: the owner of a business whose inbox address
// bounced is texted once: of 20 claims at once, one succeeds, on both
// engines; none for an address that did not bounce, nor for a business
// without a confirmed number.
func TestRaceOwnerBounceText(t *testing.T) {
	const n = 20
	const email = "office@test-plumbing.example.com"
	ctx := context.Background()
	for _, e := range dynamotest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			client, table := e.Open(t)
			store := dynamo.New(client, table)
			b := inboxBusiness(t, slug, email)
			if err := store.PutBusiness(ctx, b); err != nil {
				t.Fatal(err)
			}
			s := bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://doorstep.example.com", Now: func() time.Time { return now }})
			if _, _, ok, err := s.ClaimOwnerBounceText(ctx, email); ok || err != nil {
				t.Fatalf("before a bounce: got %v, %v, want nothing to send", ok, err)
			}
			if _, err := s.RecordMailEvent(ctx, booking.MailEvent{Kind: booking.MailBounced, Email: email, At: now}); err != nil {
				t.Fatal(err)
			}
			if _, _, ok, err := s.ClaimOwnerBounceText(ctx, email); ok || err != nil {
				t.Fatalf("without a number: got %v, %v, want nothing to send", ok, err)
			}
			err := store.UpdateBusiness(ctx, slug, func(stored *booking.Business) (*booking.Business, error) {
				changed := *stored
				changed.OwnerPhone = "5125550142"
				return &changed, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			claimed := 0
			var got *booking.Undeliverable
			errs := race(n, func(int) error {
				_, u, ok, err := s.ClaimOwnerBounceText(ctx, email)
				if ok {
					mu.Lock()
					claimed++
					got = u
					mu.Unlock()
				}
				return err
			})
			for i, err := range errs {
				if err != nil {
					t.Errorf("ClaimOwnerBounceText(%d) = %v", i, err)
				}
			}
			if claimed != 1 || got == nil || got.Reason != booking.UndeliverableBounce {
				t.Errorf("%d claims at once: %d claimed (%+v), want 1 of the bounce", n, claimed, got)
			}
		})
	}
}
