package dynamo_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

func TestCountSignIn(t *testing.T) {
	ctx := context.Background()
	hash := booking.EmailHash("office@example.com")
	hour := time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	steps := []struct {
		name  string
		hash  string
		at    time.Time
		limit int
		want  bool
	}{
		{"1st", hash, hour, 5, true},
		{"2nd", hash, hour.Add(10 * time.Minute), 5, true},
		{"3rd", hash, hour.Add(20 * time.Minute), 5, true},
		{"4th", hash, hour.Add(30 * time.Minute), 5, true},
		{"5th", hash, hour.Add(40 * time.Minute), 5, true},
		{"6th of the hour", hash, hour.Add(59*time.Minute + 59*time.Second), 5, false},
		{"7th of the hour", hash, hour.Add(59*time.Minute + 59*time.Second), 5, false},
		{"another address", booking.EmailHash("other@example.com"), hour.Add(50 * time.Minute), 5, true},
		{"the next hour", hash, hour.Add(time.Hour), 5, true},
		{"the hour before, in another time zone", hash, hour.Add(-time.Second).In(time.FixedZone("", -7*3600)), 1, true},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				got, err := e.store.CountSignIn(ctx, st.hash, st.limit, st.at)
				if err != nil || got != st.want {
					t.Errorf("CountSignIn(%s) = %v, %v, want %v", st.at.Format(time.RFC3339), got, err, st.want)
				}
			})
		}
		t.Run("the count item as documented", func(t *testing.T) {
			item := e.item(t, itemKey{"SIGNINCOUNT#" + hash, "HOUR#2026-11-20T15:00:00Z"})
			if got := attrN(t, item, "sign_ins"); got != 5 {
				t.Errorf("sign_ins = %d, want 5: a refused sign-in is not counted", got)
			}
			if got, want := attrN(t, item, "expires_at"), hour.Add(2*time.Hour).Unix(); got != want {
				t.Errorf("expires_at = %d, want %d (two hours after the hour starts)", got, want)
			}
		})
	})
}

func TestSignInTokens(t *testing.T) {
	ctx := context.Background()
	token := "a-token-only-the-link-holds"
	rec := booking.SignInRecord{
		TokenHash: booking.WebTokenHash(token),
		Slug:      slug,
		EmailHash: booking.EmailHash("office@example.com"),
		Expires:   now.Add(booking.SignInTTL),
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		put := func(t *testing.T, rec booking.SignInRecord) {
			t.Helper()
			if err := e.store.PutSignInToken(ctx, rec); err != nil {
				t.Fatalf("PutSignInToken() = %v", err)
			}
		}

		t.Run("the item as documented", func(t *testing.T) {
			put(t, rec)
			item := e.item(t, itemKey{"SIGNIN#" + rec.TokenHash, "SIGNIN"})
			if attrS(item, "slug") != slug || attrS(item, "email_hash") != rec.EmailHash || attrN(t, item, "expires_at") != rec.Expires.Unix() {
				t.Errorf("item = %v, want slug, email_hash and expires_at of %+v", item, rec)
			}
			if strings.Contains(jsonString(item), token) {
				t.Errorf("item = %v: it holds the token", item)
			}
			if err := e.store.PutSignInToken(ctx, rec); err == nil {
				t.Errorf("PutSignInToken(the same hash again) = nil, want an error")
			}
		})

		steps := []struct {
			name     string
			hash     string
			at       time.Time
			wantCode booking.Code
		}{
			{"an unknown token", booking.WebTokenHash("unknown"), now, booking.NotFound},
			{"spent in its last second", rec.TokenHash, rec.Expires.Add(-time.Second), ""},
			{"spent again", rec.TokenHash, now, booking.NotFound},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				got, err := e.store.SpendSignInToken(ctx, st.hash, st.at)
				if code(err) != st.wantCode {
					t.Fatalf("SpendSignInToken() = %+v, %v, want code %q", got, err, st.wantCode)
				}
				if st.wantCode == "" && got != rec {
					t.Errorf("SpendSignInToken() = %+v, want %+v", got, rec)
				}
				if item := e.item(t, itemKey{"SIGNIN#" + st.hash, "SIGNIN"}); item != nil {
					t.Errorf("item after the spend = %v, want none", item)
				}
			})
		}

		t.Run("expired, before the TTL deletes it", func(t *testing.T) {
			expired := rec
			expired.TokenHash = booking.WebTokenHash("an-expired-token")
			put(t, expired)
			if got, err := e.store.SpendSignInToken(ctx, expired.TokenHash, expired.Expires); code(err) != booking.NotFound {
				t.Errorf("SpendSignInToken(at its expiry) = %+v, %v, want NOT_FOUND", got, err)
			}
			if item := e.item(t, itemKey{"SIGNIN#" + expired.TokenHash, "SIGNIN"}); item == nil {
				t.Errorf("the expired item is gone: the refused spend deleted it")
			}
		})
	})
}

func TestSessions(t *testing.T) {
	ctx := context.Background()
	token := "a-session-token-only-the-cookie-holds"
	rec := booking.SessionRecord{
		TokenHash: booking.WebTokenHash(token),
		Slug:      slug,
		EmailHash: booking.EmailHash("office@example.com"),
		CSRF:      "the-session-csrf-token",
		Expires:   now.Add(booking.SessionTTL),
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		if err := e.store.PutSession(ctx, rec); err != nil {
			t.Fatalf("PutSession() = %v", err)
		}
		t.Run("the item as documented", func(t *testing.T) {
			item := e.item(t, itemKey{"SESSION#" + rec.TokenHash, "SESSION"})
			if attrS(item, "slug") != slug || attrS(item, "csrf") != rec.CSRF || attrS(item, "email_hash") != rec.EmailHash ||
				attrN(t, item, "expires_at") != rec.Expires.Unix() {
				t.Errorf("item = %v, want slug, csrf, email_hash and expires_at of %+v", item, rec)
			}
			if strings.Contains(jsonString(item), token) {
				t.Errorf("item = %v: it holds the token", item)
			}
		})

		steps := []struct {
			name     string
			end      bool // end the session first
			hash     string
			at       time.Time
			wantCode booking.Code
		}{
			{"open", false, rec.TokenHash, now, ""},
			{"its last second", false, rec.TokenHash, rec.Expires.Add(-time.Second), ""},
			{"expired, before the TTL deletes it", false, rec.TokenHash, rec.Expires, booking.NotFound},
			{"unknown", false, booking.WebTokenHash("unknown"), now, booking.NotFound},
			{"ended", true, rec.TokenHash, now, booking.NotFound},
			{"ended twice", true, rec.TokenHash, now, booking.NotFound},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				if st.end {
					if err := e.store.EndSession(ctx, st.hash); err != nil {
						t.Fatalf("EndSession() = %v", err)
					}
				}
				got, err := e.store.Session(ctx, st.hash, st.at)
				if code(err) != st.wantCode {
					t.Fatalf("Session() = %+v, %v, want code %q", got, err, st.wantCode)
				}
				if st.wantCode == "" && got != rec {
					t.Errorf("Session() = %+v, want %+v", got, rec)
				}
			})
		}
	})
}

// TestSignInService walks the service's sign-in on the table: a link, a
// session from it, and what ends either.
func TestSignInService(t *testing.T) {
	ctx := context.Background()
	const email = "office@test-plumbing.example.com"
	forEachEngine(t, func(t *testing.T, e engine) {
		clock := bookingtest.NewClock(now)
		s := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://doorstep.example.com", Now: clock.Now})
		if err := e.store.PutBusiness(ctx, inboxBusiness(t, slug, email)); err != nil {
			t.Fatal(err)
		}
		start := func(t *testing.T) string {
			t.Helper()
			token, b, ok, err := s.StartSignIn(ctx, email)
			if err != nil || !ok || b.Slug != slug {
				t.Fatalf("StartSignIn() = %v, %v, %v, want a link to %s", b, ok, err, slug)
			}
			return token
		}

		t.Run("a link, spent once", func(t *testing.T) {
			token := start(t)
			sess, err := s.FinishSignIn(ctx, token)
			if err != nil || sess.Inbox.Business().Slug != slug {
				t.Fatalf("FinishSignIn() = %+v, %v", sess, err)
			}
			if _, err := s.FinishSignIn(ctx, token); code(err) != booking.Unauthorized {
				t.Errorf("FinishSignIn(again) = %v, want UNAUTHORIZED", err)
			}
			open, err := s.OpenSession(ctx, sess.Token)
			if err != nil || open.Inbox.Business().Slug != slug || open.CSRF != sess.CSRF {
				t.Errorf("OpenSession() = %+v, %v, want the session", open, err)
			}
			if err := s.EndSession(ctx, sess.Token); err != nil {
				t.Fatalf("EndSession() = %v", err)
			}
			if _, err := s.OpenSession(ctx, sess.Token); code(err) != booking.Unauthorized {
				t.Errorf("OpenSession(ended) = %v, want UNAUTHORIZED", err)
			}
		})

		t.Run("an expired link", func(t *testing.T) {
			token := start(t)
			clock.Add(booking.SignInTTL)
			if _, err := s.FinishSignIn(ctx, token); code(err) != booking.Unauthorized {
				t.Errorf("FinishSignIn(expired) = %v, want UNAUTHORIZED", err)
			}
		})

		t.Run("an expired session", func(t *testing.T) {
			sess, err := s.FinishSignIn(ctx, start(t))
			if err != nil {
				t.Fatal(err)
			}
			clock.Add(booking.SessionTTL - time.Second)
			if _, err := s.OpenSession(ctx, sess.Token); err != nil {
				t.Errorf("OpenSession(in its last second) = %v, want the session", err)
			}
			clock.Add(time.Second)
			if _, err := s.OpenSession(ctx, sess.Token); code(err) != booking.Unauthorized {
				t.Errorf("OpenSession(expired) = %v, want UNAUTHORIZED", err)
			}
		})

		t.Run("the business's address changes", func(t *testing.T) {
			token := start(t)
			sess, err := s.FinishSignIn(ctx, start(t))
			if err != nil {
				t.Fatal(err)
			}
			if err := e.store.PutBusiness(ctx, inboxBusiness(t, slug, "new-owner@example.com")); err != nil {
				t.Fatal(err)
			}
			if _, err := s.FinishSignIn(ctx, token); code(err) != booking.Unauthorized {
				t.Errorf("FinishSignIn(a link to the old address) = %v, want UNAUTHORIZED", err)
			}
			if _, err := s.OpenSession(ctx, sess.Token); code(err) != booking.Unauthorized {
				t.Errorf("OpenSession(opened from the old address) = %v, want UNAUTHORIZED", err)
			}
			if _, _, ok, err := s.StartSignIn(ctx, email); ok || err != nil {
				t.Errorf("StartSignIn(the old address) = %v, %v, want no link", ok, err)
			}
			if err := e.store.PutBusiness(ctx, inboxBusiness(t, slug, email)); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("five links an hour", func(t *testing.T) {
			clock.Set(now.Add(48 * time.Hour)) // a fresh hour
			for i := range booking.MaxSignInsPerHour {
				if _, _, ok, err := s.StartSignIn(ctx, email); !ok || err != nil {
					t.Fatalf("StartSignIn(#%d) = %v, %v, want a link", i+1, ok, err)
				}
			}
			if token, _, ok, err := s.StartSignIn(ctx, email); ok || token != "" || code(err) != booking.RateLimited {
				t.Errorf("StartSignIn(#6) = %q, %v, %v, want no link, RATE_LIMITED", token, ok, err)
			}
			clock.Set(now.Add(49 * time.Hour))
			if _, _, ok, err := s.StartSignIn(ctx, email); !ok || err != nil {
				t.Errorf("StartSignIn(the next hour) = %v, %v, want a link", ok, err)
			}
		})

		// Tags on one mailbox share its count (booking.Mailbox): five
		// asked for office+1@ to office+5@ leave none for office@.
		t.Run("five links an hour per mailbox", func(t *testing.T) {
			clock.Set(now.Add(72 * time.Hour)) // a fresh hour
			local, domain, _ := strings.Cut(email, "@")
			for i := range booking.MaxSignInsPerHour {
				if _, _, _, err := s.StartSignIn(ctx, fmt.Sprintf("%s+%d@%s", local, i+1, domain)); err != nil {
					t.Fatalf("StartSignIn(tag %d) = %v, want counted", i+1, err)
				}
			}
			if token, _, ok, err := s.StartSignIn(ctx, email); ok || token != "" || code(err) != booking.RateLimited {
				t.Errorf("StartSignIn(the untagged address) = %q, %v, %v, want no link, RATE_LIMITED", token, ok, err)
			}
		})
	})
}

// racingUpdates is a store whose UpdateBusiness lets meanwhile change the
// record between its read and its write.
type racingUpdates struct {
	*dynamo.Store
	meanwhile func(stored *booking.Business)
}

func (s racingUpdates) UpdateBusiness(ctx context.Context, slug string, change func(*booking.Business) (*booking.Business, error)) error {
	return s.Store.UpdateBusiness(ctx, slug, func(stored *booking.Business) (*booking.Business, error) {
		s.meanwhile(stored)
		return change(stored)
	})
}

func TestSetAcceptingRequests(t *testing.T) {
	ctx := context.Background()
	forEachEngine(t, func(t *testing.T, e engine) {
		b := loadBusiness(t)
		if err := e.store.PutBusiness(ctx, b); err != nil {
			t.Fatal(err)
		}
		s := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://doorstep.example.com", Now: bookingtest.NewClock(now).Now})
		inbox := bookingtest.Inbox(t, s, b.Slug) // opened once: its business goes stale below

		t.Run("pause, then resume", func(t *testing.T) {
			for _, on := range []bool{false, true} {
				after, err := inbox.SetAcceptingRequests(ctx, on)
				if err != nil || after.AcceptingRequests != on {
					t.Fatalf("SetAcceptingRequests(%v) = %v, %v", on, after, err)
				}
				stored, err := e.store.Business(ctx, b.Slug)
				if err != nil || stored.AcceptingRequests != on || jsonString(stored) != jsonString(after) {
					t.Errorf("stored = %s, %v, want what SetAcceptingRequests returned: %s", jsonString(stored), err, jsonString(after))
				}
			}
		})

		t.Run("a change made in between is never undone", func(t *testing.T) {
			racing := racingUpdates{Store: e.store, meanwhile: func(stored *booking.Business) {
				renamed := *stored
				renamed.Name = "Renamed Meanwhile"
				if err := e.store.PutBusiness(ctx, &renamed); err != nil {
					t.Fatal(err)
				}
			}}
			_, err := bookingtest.Inbox(t, bookingtest.New(t, booking.Config{Store: racing, Now: bookingtest.NewClock(now).Now, SiteURL: "https://book.example.com"}), b.Slug).SetAcceptingRequests(ctx, false)
			if err == nil {
				t.Fatal("SetAcceptingRequests() = nil, want an error: the record changed after it was read")
			}
			stored, err := e.store.Business(ctx, b.Slug)
			if err != nil || stored.Name != "Renamed Meanwhile" || !stored.AcceptingRequests {
				t.Errorf("stored = %q accepting %v, %v; want the rename kept and requests still accepted", stored.Name, stored.AcceptingRequests, err)
			}
		})

		t.Run("a stale record of the caller", func(t *testing.T) {
			after, err := inbox.SetAcceptingRequests(ctx, false) // its business still has the old name
			if err != nil || after.Name != "Renamed Meanwhile" || after.AcceptingRequests {
				t.Errorf("SetAcceptingRequests() = %v, %v, want the stored name kept and requests paused", after, err)
			}
		})
	})
}

// TestRaceSignIns asks for 20 links to one address at once: the count's
// condition lets exactly MaxSignInsPerHour through and the rest are
// RATE_LIMITED, as for an unknown address; then 20 spends of one link at
// once open exactly one session.
func TestRaceSignIns(t *testing.T) {
	const n = 20
	const email = "office@test-plumbing.example.com"
	ctx := context.Background()
	client, table := dynamotest.Local(t)
	store := dynamo.New(client, table)
	if err := store.PutBusiness(ctx, inboxBusiness(t, slug, email)); err != nil {
		t.Fatal(err)
	}
	s := bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://doorstep.example.com", Now: bookingtest.NewClock(now).Now})

	tokens := make([]string, n)
	errs := race(n, func(i int) error {
		token, _, _, err := s.StartSignIn(ctx, email)
		tokens[i] = token
		return err
	})
	var minted []string
	limited := 0
	for i, err := range errs {
		switch {
		case code(err) == booking.RateLimited && tokens[i] == "":
			limited++
		case err != nil:
			t.Errorf("StartSignIn(%d) = %v", i, err)
		case tokens[i] != "":
			minted = append(minted, tokens[i])
		}
	}
	if len(minted) != booking.MaxSignInsPerHour || limited != n-booking.MaxSignInsPerHour {
		t.Fatalf("%d concurrent StartSignIn for one address: %d links, %d limited, want %d and %d", n, len(minted), limited, booking.MaxSignInsPerHour, n-booking.MaxSignInsPerHour)
	}
	const unknown = "nobody@test-plumbing.example.com"
	errs = race(n, func(int) error {
		_, _, ok, err := s.StartSignIn(ctx, unknown)
		if ok {
			return errors.New("a link to an unknown address")
		}
		return err
	})
	limited = 0
	for i, err := range errs {
		switch {
		case code(err) == booking.RateLimited:
			limited++
		case err != nil:
			t.Errorf("StartSignIn(unknown, %d) = %v", i, err)
		}
	}
	if limited != n-booking.MaxSignInsPerHour {
		t.Errorf("%d concurrent StartSignIn for an unknown address: %d limited, want %d as for a known one", n, limited, n-booking.MaxSignInsPerHour)
	}
	count := engine{store, client, table}.item(t, itemKey{"SIGNINCOUNT#" + booking.EmailHash(email), "HOUR#" + now.Format(time.RFC3339)})
	if got := attrN(t, count, "sign_ins"); got != booking.MaxSignInsPerHour {
		t.Errorf("sign_ins = %d, want %d", got, booking.MaxSignInsPerHour)
	}

	sessions := make([]booking.Session, n)
	errs = race(n, func(i int) error {
		var err error
		sessions[i], err = s.FinishSignIn(ctx, minted[0])
		return err
	})
	opened := 0
	for i, err := range errs {
		switch code(err) {
		case "":
			opened++
			if _, err := s.OpenSession(ctx, sessions[i].Token); err != nil {
				t.Errorf("OpenSession(the winner's) = %v", err)
			}
		case booking.Unauthorized:
		default:
			t.Errorf("FinishSignIn(%d) = %v, want nil or UNAUTHORIZED", i, err)
		}
	}
	if opened != 1 {
		t.Errorf("%d concurrent FinishSignIn of one link: %d sessions, want 1", n, opened)
	}
}

// TestRaceOneTapLink spends one one-tap link of a new request's message
// (booking.NewRequestLink) 20 times at once: the token's conditional delete
// opens exactly one session, which opens the request; a link past
// RequestLinkTTL, its item not yet deleted by the TTL, opens none.
func TestRaceOneTapLink(t *testing.T) {
	const n = 20
	const email = "office@test-plumbing.example.com"
	ctx := context.Background()
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) {
			client, table := eng.Open(t)
			store := dynamo.New(client, table)
			b := inboxBusiness(t, slug, email)
			if err := store.PutBusiness(ctx, b); err != nil {
				t.Fatal(err)
			}
			clock := bookingtest.NewClock(now)
			s := bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://doorstep.example.com", Now: clock.Now})
			const request = "ABCD2345"
			mint := func() string {
				token, rec, ok := booking.NewRequestLink(b, request, clock.Now())
				if !ok {
					t.Fatal("NewRequestLink: no link for a business with an inbox_email")
				}
				if err := store.PutSignInToken(ctx, rec); err != nil {
					t.Fatal(err)
				}
				return token
			}
			token := mint()
			sessions := make([]booking.Session, n)
			errs := race(n, func(i int) error {
				var err error
				sessions[i], err = s.FinishSignIn(ctx, token)
				return err
			})
			opened := 0
			for i, err := range errs {
				switch code(err) {
				case "":
					opened++
					if sessions[i].Opens != request {
						t.Errorf("the one-tap session opens %q, want %s", sessions[i].Opens, request)
					}
				case booking.Unauthorized:
				default:
					t.Errorf("FinishSignIn(%d) = %v, want nil or UNAUTHORIZED", i, err)
				}
			}
			if opened != 1 {
				t.Errorf("%d concurrent FinishSignIn of one one-tap link: %d sessions, want 1", n, opened)
			}

			late := mint()
			clock.Add(booking.RequestLinkTTL)
			if _, err := s.FinishSignIn(ctx, late); code(err) != booking.Unauthorized {
				t.Errorf("a one-tap link at its RequestLinkTTL = %v, want UNAUTHORIZED", err)
			}
		})
	}
}

// UpdateBusinessAt races as UpdateBusiness does.
func (s racingUpdates) UpdateBusinessAt(ctx context.Context, slug string, now time.Time, change func(*booking.Business) (*booking.Business, error)) error {
	return s.Store.UpdateBusinessAt(ctx, slug, now, func(stored *booking.Business) (*booking.Business, error) {
		s.meanwhile(stored)
		return change(stored)
	})
}
