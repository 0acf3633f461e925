package booking

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// signInStore keeps businesses, sign-in counts, tokens and sessions in
// memory, deciding as the DynamoDB store's conditions do: a count refuses
// at its limit, a token is spent once while live, a session is read while
// live.
type signInStore struct {
	Store // the other methods are not called

	mu       sync.Mutex
	bs       map[string]*Business
	counts   map[string]int // by e-mail hash and clock hour
	tokens   map[string]SignInRecord
	sessions map[string]SessionRecord
}

func newSignInStore(bs ...*Business) *signInStore {
	s := &signInStore{bs: map[string]*Business{}, counts: map[string]int{},
		tokens: map[string]SignInRecord{}, sessions: map[string]SessionRecord{}}
	for _, b := range bs {
		s.bs[b.Slug] = b
	}
	return s
}

func (s *signInStore) Business(_ context.Context, slug string) (*Business, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.bs[slug]; ok {
		return b, nil
	}
	return nil, Errorf(NotFound, "no business has the slug %q", slug)
}

// PublicBusiness and OwnBusiness are Business: this store keeps one
// record per business, no cache.
func (s *signInStore) PublicBusiness(ctx context.Context, slug string) (*Business, error) {
	return s.Business(ctx, slug)
}

func (s *signInStore) OwnBusiness(ctx context.Context, slug string) (*Business, error) {
	return s.Business(ctx, slug)
}

func (s *signInStore) UpdateBusiness(_ context.Context, slug string, change func(*Business) (*Business, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var stored *Business
	if b, ok := s.bs[slug]; ok {
		c := *b // a copy, as the table's store decodes one
		stored = &c
	}
	b, err := change(stored)
	if err != nil {
		return err
	}
	s.bs[slug] = b
	return nil
}

func (s *signInStore) BusinessByInboxEmail(_ context.Context, email string) (*Business, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bs {
		if b.InboxEmail != "" && strings.EqualFold(b.InboxEmail, email) {
			return b, nil
		}
	}
	return nil, Errorf(NotFound, "no business has this inbox_email")
}

func (s *signInStore) CountSignIn(_ context.Context, emailHash string, limit int, now time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := emailHash + now.UTC().Truncate(time.Hour).Format(time.RFC3339)
	if s.counts[k] >= limit {
		return false, nil
	}
	s.counts[k]++
	return true, nil
}

func (s *signInStore) PutSignInToken(_ context.Context, rec SignInRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[rec.TokenHash] = rec
	return nil
}

func (s *signInStore) SpendSignInToken(_ context.Context, tokenHash string, now time.Time) (SignInRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.tokens[tokenHash]
	if !ok || !rec.Expires.After(now) {
		return SignInRecord{}, Errorf(NotFound, "no live sign-in token")
	}
	delete(s.tokens, tokenHash)
	return rec, nil
}

func (s *signInStore) PutSession(_ context.Context, rec SessionRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions[rec.TokenHash] = rec
	return nil
}

func (s *signInStore) Session(_ context.Context, tokenHash string, now time.Time) (SessionRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.sessions[tokenHash]
	if !ok || !rec.Expires.After(now) {
		return SessionRecord{}, Errorf(NotFound, "no live session")
	}
	return rec, nil
}

func (s *signInStore) EndSession(_ context.Context, tokenHash string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, tokenHash)
	return nil
}

// counted is how many sign-ins the store counted, over every address and hour.
func (s *signInStore) counted() int {
	n := 0
	for _, c := range s.counts {
		n += c
	}
	return n
}

const inboxEmail = "inbox@split-day-plumbing.example.com"

// signInBusiness returns a test business with inboxEmail as its inbox_email.
func signInBusiness(t *testing.T) *Business {
	t.Helper()
	b := *testBusinesses(t)["split-day-plumbing"]
	b.InboxEmail = inboxEmail
	return &b
}

// signInClock is a clock a test moves by hand.
type signInClock struct{ t time.Time }

func (c *signInClock) now() time.Time { return c.t }

func newSignInService(t *testing.T) (*Bookings, *signInStore, *signInClock) {
	t.Helper()
	store := newSignInStore(signInBusiness(t))
	clock := &signInClock{t: utc("2026-11-20T15:20:00Z")}
	return testBookings(t, Config{Store: store, SiteURL: "https://book.example.com", Now: clock.now}), store, clock
}

// startSignIn asks for a link to inboxEmail and fails the test unless one is minted.
func startSignIn(t *testing.T, s *Bookings) string {
	t.Helper()
	token, b, ok, err := s.StartSignIn(context.Background(), inboxEmail)
	if err != nil || !ok || b == nil || token == "" {
		t.Fatalf("StartSignIn(%q) = %q, %v, %v, %v, want a token for the business", inboxEmail, token, b, ok, err)
	}
	return token
}

// isToken reports whether s is 43 characters of base64url: 32 bytes.
func isToken(s string) bool {
	b, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && len(s) == 43 && len(b) == 32
}

func TestSignInWalk(t *testing.T) {
	ctx := context.Background()
	s, store, clock := newSignInService(t)

	token, b, ok, err := s.StartSignIn(ctx, "  Inbox@Split-Day-Plumbing.EXAMPLE.com ")
	if err != nil || !ok || b == nil || b.Slug != "split-day-plumbing" {
		t.Fatalf("StartSignIn(any case, spaces) = %v, %v, %v, want the business", b, ok, err)
	}
	if !isToken(token) {
		t.Errorf("sign-in token = %q, want 32 bytes in base64url", token)
	}
	rec, stored := store.tokens[WebTokenHash(token)]
	if !stored || len(store.tokens) != 1 {
		t.Fatalf("stored tokens = %v, want one under the token's hash", store.tokens)
	}
	if want := (SignInRecord{TokenHash: WebTokenHash(token), Slug: b.Slug, EmailHash: EmailHash(inboxEmail), Expires: clock.t.Add(SignInTTL)}); rec != want {
		t.Errorf("stored sign-in record = %+v, want %+v", rec, want)
	}

	clock.t = clock.t.Add(SignInTTL - time.Second) // the last second of the link
	sess, err := s.FinishSignIn(ctx, token)
	if err != nil {
		t.Fatalf("FinishSignIn() = %v", err)
	}
	if !isToken(sess.Token) || !isToken(sess.CSRF) || sess.Token == sess.CSRF || sess.Token == token {
		t.Errorf("session token %q and CSRF %q: want two fresh 32-byte tokens", sess.Token, sess.CSRF)
	}
	if sess.Inbox == nil || sess.Inbox.Business().Slug != b.Slug || !sess.Expires.Equal(clock.t.Add(SessionTTL)) {
		t.Errorf("session = %v until %v, want %s until %v", sess.Inbox, sess.Expires, b.Slug, clock.t.Add(SessionTTL))
	}
	if _, ok := store.sessions[WebTokenHash(sess.Token)]; !ok || len(store.sessions) != 1 || len(store.tokens) != 0 {
		t.Errorf("stored sessions = %v, tokens = %v: want one session under the token's hash, the sign-in token spent", store.sessions, store.tokens)
	}

	if _, err := s.FinishSignIn(ctx, token); ErrorCode(err) != Unauthorized {
		t.Errorf("FinishSignIn(the same token again) = %v, want UNAUTHORIZED", err)
	}

	clock.t = clock.t.Add(SessionTTL - time.Second)
	open, err := s.OpenSession(ctx, sess.Token)
	if err != nil {
		t.Fatalf("OpenSession() = %v", err)
	}
	if open.Token != sess.Token || open.CSRF != sess.CSRF || open.Inbox.Business().Slug != b.Slug || !open.Expires.Equal(sess.Expires) {
		t.Errorf("OpenSession() = %+v, want %+v", open, sess)
	}

	if err := s.EndSession(ctx, sess.Token); err != nil {
		t.Fatalf("EndSession() = %v", err)
	}
	if _, err := s.OpenSession(ctx, sess.Token); ErrorCode(err) != Unauthorized {
		t.Errorf("OpenSession(after EndSession) = %v, want UNAUTHORIZED", err)
	}
	if err := s.EndSession(ctx, sess.Token); err != nil {
		t.Errorf("EndSession(again) = %v, want nil", err)
	}
}

func TestStartSignInAnswers(t *testing.T) {
	tests := []struct {
		name        string
		email       string
		wantOK      bool
		wantCounted int
	}{
		{"the business's address", inboxEmail, true, 1},
		{"in capitals", strings.ToUpper(inboxEmail), true, 1},
		{"an unknown address is counted too", "someone@example.com", false, 1},
		{"another business's domain", "inbox@example.com", false, 1},
		{"not an address", "inbox at split-day-plumbing", false, 0},
		{"nothing", "  ", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, store, _ := newSignInService(t)
			token, b, ok, err := s.StartSignIn(context.Background(), tt.email)
			if err != nil {
				t.Fatalf("StartSignIn(%q) = %v", tt.email, err)
			}
			if ok != tt.wantOK || (token != "") != tt.wantOK || (b != nil) != tt.wantOK {
				t.Errorf("StartSignIn(%q) = %q, %v, %v, want ok %v with a token and the business only then", tt.email, token, b, ok, tt.wantOK)
			}
			if got := store.counted(); got != tt.wantCounted {
				t.Errorf("sign-ins counted = %d, want %d", got, tt.wantCounted)
			}
			if got, want := len(store.tokens), store.counted()*btoi(tt.wantOK); got != want {
				t.Errorf("stored tokens = %d, want %d", got, want)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestStartSignInHourlyLimit(t *testing.T) {
	ctx := context.Background()
	s, store, clock := newSignInService(t)
	const unknown = "someone@example.com"
	steps := []struct {
		name        string
		at          string
		email       string
		wantOK      bool
		wantCounted bool
		wantRetry   time.Duration // RATE_LIMITED, to try again after this; 0: no error
	}{
		{"1st", "2026-11-20T15:00:00Z", inboxEmail, true, true, 0},
		{"2nd", "2026-11-20T15:10:00Z", inboxEmail, true, true, 0},
		{"3rd", "2026-11-20T15:20:00Z", inboxEmail, true, true, 0},
		{"4th, another case", "2026-11-20T15:30:00Z", strings.ToUpper(inboxEmail), true, true, 0},
		{"5th", "2026-11-20T15:40:00Z", inboxEmail, true, true, 0},
		{"6th of the hour", "2026-11-20T15:45:00Z", inboxEmail, false, false, 15 * time.Minute},
		{"7th, in its last second", "2026-11-20T15:59:59Z", inboxEmail, false, false, time.Second},
		{"an unknown address has its own count: 1st", "2026-11-20T15:50:00Z", unknown, false, true, 0},
		{"unknown 2nd", "2026-11-20T15:50:00Z", unknown, false, true, 0},
		{"unknown 3rd", "2026-11-20T15:50:00Z", unknown, false, true, 0},
		{"unknown 4th", "2026-11-20T15:50:00Z", unknown, false, true, 0},
		{"unknown 5th", "2026-11-20T15:50:00Z", unknown, false, true, 0},
		{"unknown 6th: limited as a known one is", "2026-11-20T15:50:00Z", unknown, false, false, 10 * time.Minute},
		{"the next clock hour", "2026-11-20T16:00:00Z", inboxEmail, true, true, 0},
		{"the next clock hour, unknown", "2026-11-20T16:00:00Z", unknown, false, true, 0},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			clock.t = utc(st.at)
			before := store.counted()
			_, _, ok, err := s.StartSignIn(ctx, st.email)
			if ok != st.wantOK {
				t.Errorf("StartSignIn(%q) at %s: ok %v, want %v", st.email, st.at, ok, st.wantOK)
			}
			var e *Error
			switch {
			case st.wantRetry == 0 && err != nil:
				t.Errorf("StartSignIn(%q) at %s = %v, want no error", st.email, st.at, err)
			case st.wantRetry != 0 && (!errors.As(err, &e) || e.Code != RateLimited || e.RetryAfter != st.wantRetry):
				t.Errorf("StartSignIn(%q) at %s = %v, want RATE_LIMITED to retry after %s", st.email, st.at, err, st.wantRetry)
			}
			if got := store.counted() - before; got != btoi(st.wantCounted) {
				t.Errorf("counted %d, want %d", got, btoi(st.wantCounted))
			}
		})
	}
}

// TestStartSignInLimitRace asks for links at once, for a known address and
// an unknown one: each gets exactly MaxSignInsPerHour through the count and
// RATE_LIMITED past it, alike.
func TestStartSignInLimitRace(t *testing.T) {
	const n = 20
	s, _, clock := newSignInService(t)
	clock.t = utc("2026-11-20T15:30:00Z")
	for _, email := range []string{inboxEmail, "someone@example.com"} {
		t.Run(email, func(t *testing.T) {
			var wg sync.WaitGroup
			var mu sync.Mutex
			passed, limited := 0, 0
			for range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, _, _, err := s.StartSignIn(context.Background(), email)
					mu.Lock()
					defer mu.Unlock()
					switch ErrorCode(err) {
					case RateLimited:
						limited++
					default:
						if err != nil {
							t.Errorf("StartSignIn() = %v", err)
						}
						passed++
					}
				}()
			}
			wg.Wait()
			if passed != MaxSignInsPerHour || limited != n-MaxSignInsPerHour {
				t.Errorf("%d at once: %d passed the count, %d limited; want %d and %d", n, passed, limited, MaxSignInsPerHour, n-MaxSignInsPerHour)
			}
		})
	}
}

func TestFinishSignInRefused(t *testing.T) {
	tests := []struct {
		name  string
		token func(t *testing.T, s *Bookings, store *signInStore, clock *signInClock) string
	}{
		{"unknown", func(*testing.T, *Bookings, *signInStore, *signInClock) string { return newWebToken() }},
		{"empty", func(*testing.T, *Bookings, *signInStore, *signInClock) string { return "" }},
		{"not base64url", func(*testing.T, *Bookings, *signInStore, *signInClock) string { return strings.Repeat("+", 43) }},
		{"too long", func(t *testing.T, s *Bookings, _ *signInStore, _ *signInClock) string { return startSignIn(t, s) + "A" }},
		{"spent", func(t *testing.T, s *Bookings, _ *signInStore, _ *signInClock) string {
			token := startSignIn(t, s)
			if _, err := s.FinishSignIn(context.Background(), token); err != nil {
				t.Fatalf("FinishSignIn(first) = %v", err)
			}
			return token
		}},
		{"expired", func(t *testing.T, s *Bookings, _ *signInStore, clock *signInClock) string {
			token := startSignIn(t, s)
			clock.t = clock.t.Add(SignInTTL)
			return token
		}},
		{"the business is gone", func(t *testing.T, s *Bookings, store *signInStore, _ *signInClock) string {
			token := startSignIn(t, s)
			delete(store.bs, "split-day-plumbing")
			return token
		}},
		{"the business's inbox_email changed", func(t *testing.T, s *Bookings, store *signInStore, _ *signInClock) string {
			token := startSignIn(t, s)
			store.bs["split-day-plumbing"].InboxEmail = "new-inbox@example.com"
			return token
		}},
		{"a session token", func(t *testing.T, s *Bookings, _ *signInStore, _ *signInClock) string {
			sess, err := s.FinishSignIn(context.Background(), startSignIn(t, s))
			if err != nil {
				t.Fatalf("FinishSignIn() = %v", err)
			}
			return sess.Token
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, store, clock := newSignInService(t)
			token := tt.token(t, s, store, clock)
			sessions := len(store.sessions)
			sess, err := s.FinishSignIn(context.Background(), token)
			if ErrorCode(err) != Unauthorized || sess.Token != "" || sess.Inbox != nil {
				t.Errorf("FinishSignIn() = %+v, %v, want UNAUTHORIZED and no session", sess, err)
			}
			if len(store.sessions) != sessions {
				t.Errorf("stored sessions = %d, want %d: none opened", len(store.sessions), sessions)
			}
			if err != nil && strings.Contains(err.Error(), token) && token != "" {
				t.Errorf("FinishSignIn() = %v: the error repeats the token", err)
			}
		})
	}
}

func TestOpenSessionRefused(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, s *Bookings, store *signInStore, clock *signInClock, sess Session) string // the token to open
	}{
		{"unknown", func(*testing.T, *Bookings, *signInStore, *signInClock, Session) string { return newWebToken() }},
		{"empty", func(*testing.T, *Bookings, *signInStore, *signInClock, Session) string { return "" }},
		{"the CSRF token", func(_ *testing.T, _ *Bookings, _ *signInStore, _ *signInClock, sess Session) string { return sess.CSRF }},
		{"ended", func(t *testing.T, s *Bookings, _ *signInStore, _ *signInClock, sess Session) string {
			if err := s.EndSession(context.Background(), sess.Token); err != nil {
				t.Fatalf("EndSession() = %v", err)
			}
			return sess.Token
		}},
		{"expired", func(_ *testing.T, _ *Bookings, _ *signInStore, clock *signInClock, sess Session) string {
			clock.t = sess.Expires
			return sess.Token
		}},
		{"the business is gone", func(_ *testing.T, _ *Bookings, store *signInStore, _ *signInClock, sess Session) string {
			delete(store.bs, "split-day-plumbing")
			return sess.Token
		}},
		{"the business's inbox_email changed", func(_ *testing.T, _ *Bookings, store *signInStore, _ *signInClock, sess Session) string {
			store.bs["split-day-plumbing"].InboxEmail = "new-inbox@example.com"
			return sess.Token
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, store, clock := newSignInService(t)
			sess, err := s.FinishSignIn(context.Background(), startSignIn(t, s))
			if err != nil {
				t.Fatalf("FinishSignIn() = %v", err)
			}
			token := tt.change(t, s, store, clock, sess)
			got, err := s.OpenSession(context.Background(), token)
			if ErrorCode(err) != Unauthorized || got.Inbox != nil {
				t.Errorf("OpenSession() = %+v, %v, want UNAUTHORIZED and no business", got, err)
			}
		})
	}
}

func TestSetAcceptingRequests(t *testing.T) {
	ctx := context.Background()
	for _, on := range []bool{false, true} {
		t.Run(map[bool]string{false: "pause", true: "resume"}[on], func(t *testing.T) {
			s, store, _ := newSignInService(t)
			b := store.bs["split-day-plumbing"]
			b.AcceptingRequests = !on
			// The record as the session read it, then changed by someone else.
			read := *b
			b.Name = "Split Day Plumbing & Drains"

			got, err := inboxOf(s, &read).SetAcceptingRequests(ctx, on)
			if err != nil {
				t.Fatalf("SetAcceptingRequests(%v) = %v", on, err)
			}
			stored := store.bs["split-day-plumbing"]
			if got.AcceptingRequests != on || stored.AcceptingRequests != on {
				t.Errorf("accepting_requests: returned %v, stored %v, want %v", got.AcceptingRequests, stored.AcceptingRequests, on)
			}
			if got.Name != b.Name || stored.Name != b.Name {
				t.Errorf("name: returned %q, stored %q, want the change made in between, %q", got.Name, stored.Name, b.Name)
			}
			if read.AcceptingRequests != !on {
				t.Errorf("the caller's record changed: accepting_requests %v", read.AcceptingRequests)
			}
		})
	}

	t.Run("a business that is gone", func(t *testing.T) {
		s, store, _ := newSignInService(t)
		b := store.bs["split-day-plumbing"]
		delete(store.bs, b.Slug)
		if _, err := inboxOf(s, b).SetAcceptingRequests(ctx, false); ErrorCode(err) != NotFound {
			t.Errorf("SetAcceptingRequests() = %v, want NOT_FOUND", err)
		}
		if _, ok := store.bs[b.Slug]; ok {
			t.Errorf("the business was stored again")
		}
	})
}

// UpdateBusinessAt is UpdateBusiness: the fake holds no windows.
func (s *signInStore) UpdateBusinessAt(ctx context.Context, slug string, _ time.Time, change func(*Business) (*Business, error)) error {
	return s.UpdateBusiness(ctx, slug, change)
}
