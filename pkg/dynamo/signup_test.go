package dynamo_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

// signupService is the service over e's store at clock, with the stack's
// hourly bound perHour (0: the default).
func signupService(t *testing.T, e engine, clock *bookingtest.Clock, perHour int) *booking.Bookings {
	t.Helper()
	return bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://doorstep.example.com", Now: clock.Now, SignupsPerHour: perHour})
}

func signupInput(name, email string) booking.SignupInput {
	return booking.SignupInput{Name: name, Trade: "plumbing", Email: email, Terms: true}
}

// TestSignupLink follows one sign-up link at fixed clocks: until it is
// used only its pending item exists (no business, no inbox_email); reading
// it changes nothing; it is good until 24 hours after it was sent, not at
// 24 hours; it is used once; and using it creates the business, in
// preview, and a session of it.
func TestSignupLink(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := context.Background()
		const email = "Jose@Fontaneria.example.com"
		tests := []struct {
			name    string
			after   time.Duration // from sending to pressing the button
			created bool
		}{
			{"at once", 0, true},
			{"a second before 24 hours", booking.SignupTTL - time.Second, true},
			{"at 24 hours", booking.SignupTTL, false},
			{"a day later", 48 * time.Hour, false},
		}
		for i, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				clock := bookingtest.NewClock(now)
				s := signupService(t, e, clock, 0)
				address := strconv.Itoa(i) + email
				st, err := s.StartSignup(ctx, signupInput("Fontanería José", address))
				if err != nil || st.Token == "" || st.Business != nil || st.Limited {
					t.Fatalf("StartSignup = %+v, %v; want a sign-up token", st, err)
				}
				if item := e.item(t, itemKey{"SIGNUP#" + booking.WebTokenHash(st.Token), "SIGNUP"}); attrN(t, item, "expires_at") != now.Add(booking.SignupTTL).Unix() {
					t.Errorf("pending item expires_at = %d, want %d", attrN(t, item, "expires_at"), now.Add(booking.SignupTTL).Unix())
				}
				if _, err := e.store.BusinessByInboxEmail(ctx, address); code(err) != booking.NotFound {
					t.Errorf("before the link is used, BusinessByInboxEmail = %v, want NOT_FOUND", err)
				}
				clock.Add(tt.after)
				for range 2 { // reading the pending sign-up (as a page could) changes nothing
					if _, err := e.store.SignupToken(ctx, booking.WebTokenHash(st.Token), clock.Now()); (err == nil) != tt.created {
						t.Fatalf("SignupToken = %v, want found %v", err, tt.created)
					}
				}
				sess, err := s.FinishSignup(ctx, st.Token)
				if !tt.created {
					if code(err) != booking.Unauthorized {
						t.Fatalf("FinishSignup after %v = %v, want UNAUTHORIZED", tt.after, err)
					}
					return
				}
				if err != nil {
					t.Fatalf("FinishSignup = %v", err)
				}
				b := sess.Inbox.Business()
				if !b.Preview || b.AcceptingRequests || b.InboxEmail != address {
					t.Errorf("created preview %v, accepting %v, inbox_email %q; want true, false, %q", b.Preview, b.AcceptingRequests, b.InboxEmail, address)
				}
				if _, err := s.OpenSession(ctx, sess.Token); err != nil {
					t.Errorf("OpenSession = %v", err)
				}
				stored, err := e.store.BusinessByInboxEmail(ctx, address)
				if err != nil || stored.Slug != b.Slug {
					t.Errorf("BusinessByInboxEmail = %v, %v; want %s", stored, err, b.Slug)
				}
				if _, err := s.FinishSignup(ctx, st.Token); code(err) != booking.Unauthorized {
					t.Errorf("FinishSignup again = %v, want UNAUTHORIZED", err)
				}
				// Requests to it are refused cleanly: it is not accepting.
				if _, _, err := s.CreateRequest(ctx, b, booking.CreateInput{}); code(err) == "" || code(err) == booking.ServerError {
					t.Errorf("a request to a business being set up: %v, want a refusal with its code", err)
				}
			})
		}
	})
}

// TestSignupOwner: an address that owns a business gets a sign-in link
// to it, not a second business; and a sign-up link whose address came to
// own a business meanwhile signs in to that business, once.
func TestSignupOwner(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := context.Background()
		const email = "office@test-plumbing.example.com"
		clock := bookingtest.NewClock(now)
		s := signupService(t, e, clock, 0)
		early, err := s.StartSignup(ctx, signupInput("Test Plumbing", email))
		if err != nil || early.Token == "" || early.Business != nil {
			t.Fatalf("StartSignup = %+v, %v", early, err)
		}
		if err := e.store.PutBusiness(ctx, inboxBusiness(t, slug, email)); err != nil {
			t.Fatal(err)
		}
		st, err := s.StartSignup(ctx, signupInput("Another Name", "OFFICE@test-plumbing.example.com"))
		if err != nil || st.Business == nil || st.Business.Slug != slug || st.Token == "" {
			t.Fatalf("StartSignup of an owner = %+v, %v; want a sign-in token of %s", st, err, slug)
		}
		if sess, err := s.FinishSignIn(ctx, st.Token); err != nil || sess.Inbox.Business().Slug != slug {
			t.Errorf("FinishSignIn of its token = %v", err)
		}
		sess, err := s.FinishSignup(ctx, early.Token)
		if err != nil || sess.Inbox.Business().Slug != slug {
			t.Fatalf("FinishSignup of an address that owns %s now = %v, want its session", slug, err)
		}
		if _, err := s.FinishSignup(ctx, early.Token); code(err) != booking.Unauthorized {
			t.Errorf("FinishSignup again = %v, want UNAUTHORIZED", err)
		}
		if _, err := e.store.Business(ctx, "test-plumbing-2"); code(err) != booking.NotFound {
			t.Errorf("a second business was created: %v", err)
		}
	})
}

// TestSignupReservedSlug: a reserved slug is passed over, and so is one
// that a business has.
func TestSignupReservedSlug(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := context.Background()
		s := signupService(t, e, bookingtest.NewClock(now), 0)
		for i, tt := range []struct{ name, want string }{
			{"Start", "start-2"},
			{"START!", "start-3"},
			{"Inbox", "inbox-2"},
			{"Test Plumbing", "test-plumbing"},
			{"Test Plumbing", "test-plumbing-2"},
		} {
			st, err := s.StartSignup(ctx, signupInput(tt.name, fmt.Sprintf("owner%d@example.com", i)))
			if err != nil {
				t.Fatal(err)
			}
			sess, err := s.FinishSignup(ctx, st.Token)
			if err != nil {
				t.Fatal(err)
			}
			if got := sess.Inbox.Business().Slug; got != tt.want {
				t.Errorf("%q: slug %q, want %q", tt.name, got, tt.want)
			}
		}
	})
}

// TestRaceSignupSlug uses 20 sign-up links of one name at once: each
// creates a business, with the slugs name, name-2 … name-20, each decided
// by the conditional put of its business item.
func TestRaceSignupSlug(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		const n = 20
		ctx := context.Background()
		s := signupService(t, e, bookingtest.NewClock(now), 0)
		tokens := make([]string, n)
		for i := range n {
			st, err := s.StartSignup(ctx, signupInput("Fontanería José", fmt.Sprintf("jose%d@example.com", i)))
			if err != nil {
				t.Fatal(err)
			}
			tokens[i] = st.Token
		}
		slugs := make([]string, n)
		errs := race(n, func(i int) error {
			sess, err := s.FinishSignup(ctx, tokens[i])
			if err == nil {
				slugs[i] = sess.Inbox.Business().Slug
			}
			return err
		})
		for i, err := range errs {
			if err != nil {
				t.Errorf("FinishSignup(%d) = %v", i, err)
			}
		}
		want := []string{"fontaneria-jose"}
		for i := 2; i <= n; i++ {
			want = append(want, "fontaneria-jose-"+strconv.Itoa(i))
		}
		slices.Sort(slugs)
		slices.Sort(want)
		if !slices.Equal(slugs, want) {
			t.Errorf("slugs = %v, want %v", slugs, want)
		}
		for i, slug := range slugs {
			b, err := e.store.Business(ctx, slug)
			if err != nil {
				t.Errorf("business %s: %v", slug, err)
				continue
			}
			if other, err := e.store.BusinessByInboxEmail(ctx, b.InboxEmail); err != nil || other.Slug != slug {
				t.Errorf("%d: the inbox_email of %s names %v, %v", i, slug, other, err)
			}
		}
	})
}

// TestRaceSignupEmails asks for 20 sign-ups of one address at once (in
// any case): 3 are sent, the rest are told Limited, and the day's count
// is 3; the next UTC day sends again.
func TestRaceSignupEmails(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		const n = 20
		ctx := context.Background()
		clock := bookingtest.NewClock(now.Add(23 * time.Hour))
		s := signupService(t, e, clock, 0)
		results := make([]booking.SignupStart, n)
		errs := race(n, func(i int) error {
			// One mailbox, however it is written: any case, spaces, and a
			// +tag, which most providers deliver to the untagged mailbox
			// (booking.Mailbox).
			email := "jose@example.com"
			switch i % 3 {
			case 1:
				email = " JOSE@example.COM"
			case 2:
				email = fmt.Sprintf("jose+%d@example.com", i)
			}
			var err error
			results[i], err = s.StartSignup(ctx, signupInput("Fontanería José", email))
			return err
		})
		sent, limited := 0, 0
		for i, err := range errs {
			switch {
			case err != nil:
				t.Errorf("StartSignup(%d) = %v", i, err)
			case results[i].Limited && results[i].Token == "":
				limited++
			case results[i].Token != "":
				sent++
			}
		}
		if sent != booking.MaxSignupEmailsPerDay || limited != n-sent {
			t.Errorf("%d sign-ups of one address at once: %d sent, %d limited; want %d and %d", n, sent, limited, booking.MaxSignupEmailsPerDay, n-booking.MaxSignupEmailsPerDay)
		}
		day := now.Format(time.DateOnly)
		count := e.item(t, itemKey{"SIGNUPEMAILS#" + booking.EmailHash("jose@example.com"), "DAY#" + day})
		if got := attrN(t, count, "signup_emails"); got != booking.MaxSignupEmailsPerDay {
			t.Errorf("signup_emails = %d, want %d", got, booking.MaxSignupEmailsPerDay)
		}
		clock.Add(time.Hour) // the next UTC day
		if st, err := s.StartSignup(ctx, signupInput("Fontanería José", "jose@example.com")); err != nil || st.Limited || st.Token == "" {
			t.Errorf("StartSignup the next day = %+v, %v; want a link", st, err)
		}
	})
}

// TestRaceSignupsPerHour uses 12 sign-up links of different names at once
// on a stack that creates 5 businesses an hour: 5 are created, 7 are
// RATE_LIMITED and stay good, and are created in the next hour.
func TestRaceSignupsPerHour(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		const n, perHour = 12, 5
		ctx := context.Background()
		clock := bookingtest.NewClock(now.Add(30 * time.Minute))
		s := signupService(t, e, clock, perHour)
		tokens := make([]string, n)
		for i := range n {
			st, err := s.StartSignup(ctx, signupInput(fmt.Sprintf("Business %c", 'a'+i), fmt.Sprintf("owner%d@example.com", i)))
			if err != nil {
				t.Fatal(err)
			}
			tokens[i] = st.Token
		}
		errs := race(n, func(i int) error {
			_, err := s.FinishSignup(ctx, tokens[i])
			return err
		})
		var created int
		var later []string
		for i, err := range errs {
			switch code(err) {
			case "":
				created++
			case booking.RateLimited:
				if d := booking.RetryAfter(err); d != 30*time.Minute {
					t.Errorf("RetryAfter = %v, want 30m", d)
				}
				later = append(later, tokens[i])
			default:
				t.Errorf("FinishSignup(%d) = %v", i, err)
			}
		}
		if created != perHour || len(later) != n-perHour {
			t.Fatalf("%d sign-ups at once, %d an hour: %d created, %d limited", n, perHour, created, len(later))
		}
		hour := now.Format(time.RFC3339)
		if got := attrN(t, e.item(t, itemKey{"SIGNUPS", "HOUR#" + hour}), "signups"); got != perHour {
			t.Errorf("signups = %d, want %d", got, perHour)
		}
		clock.Add(time.Hour)
		for _, token := range later[:perHour] {
			if _, err := s.FinishSignup(ctx, token); err != nil {
				t.Errorf("FinishSignup the next hour = %v", err)
			}
		}
	})
}

var _ booking.Store = (*dynamo.Store)(nil)
