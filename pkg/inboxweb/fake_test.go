package inboxweb_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/inboxweb"
)

// fakeBookings is *booking.Bookings with its sign-in kept in memory: the
// requests are the real service's (booking.Bookings over minidyn, so the
// lifecycle, the races and the 404 of another business's request are the
// real ones), and the five sign-in methods are a stand-in the tests can
// look into (the last token minted) and make fail (startErr). The real
// sign-in is booking's and dynamo's to test; the local server's browser
// test walks it end to end.
type fakeBookings struct {
	*booking.Bookings
	store *dynamo.Store
	now   func() time.Time

	mu        sync.Mutex
	slugs     []string
	links     map[string]fakeLink    // by the token's hash
	sessions  map[string]fakeSession // by the token's hash
	startErr  error                  // StartSignIn fails with it
	signIns   int                    // StartSignIn calls
	perAddr   map[string]int         // links asked per address, known or not (no clock hour: the tests are short)
	lastToken string                 // the last sign-in token minted
}

type fakeLink struct {
	slug    string
	expires time.Time
	spent   bool
}

type fakeSession struct {
	slug    string
	csrf    string
	expires time.Time
}

var _ inboxweb.Bookings = (*fakeBookings)(nil)

// The real service is what the function and the local server hand the
// inbox.
var _ inboxweb.Bookings = (*booking.Bookings)(nil)

func newFakeBookings(b *booking.Bookings, store *dynamo.Store, now func() time.Time, slugs []string) *fakeBookings {
	return &fakeBookings{Bookings: b, store: store, now: now, slugs: slugs,
		links: map[string]fakeLink{}, sessions: map[string]fakeSession{}, perAddr: map[string]int{}}
}

func hash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func randomToken() string {
	var b [32]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func unauthorized() error { return booking.Errorf(booking.Unauthorized, "sign in again") }

func (f *fakeBookings) StartSignIn(ctx context.Context, email string) (string, *booking.Business, bool, error) {
	f.mu.Lock()
	f.signIns++
	err := f.startErr
	f.mu.Unlock()
	if err != nil {
		return "", nil, false, err
	}
	addr, ok := booking.NormalizeEmail(email)
	if !ok {
		return "", nil, false, nil
	}
	addr = strings.ToLower(addr)
	f.mu.Lock()
	f.perAddr[addr]++
	n := f.perAddr[addr]
	f.mu.Unlock()
	if n > booking.MaxSignInsPerHour { // any address, as booking counts them
		now := f.now()
		return "", nil, false, &booking.Error{Code: booking.RateLimited, Message: "too many", RetryAfter: now.Truncate(time.Hour).Add(time.Hour).Sub(now)}
	}
	for _, slug := range f.slugs {
		b, err := f.Business(ctx, slug)
		if err != nil {
			return "", nil, false, err
		}
		if strings.EqualFold(b.InboxEmail, addr) {
			token := randomToken()
			f.mu.Lock()
			f.links[hash(token)] = fakeLink{slug: slug, expires: f.now().Add(15 * time.Minute)}
			f.lastToken = token
			f.mu.Unlock()
			return token, b, true, nil
		}
	}
	return "", nil, false, nil
}

func (f *fakeBookings) FinishSignIn(ctx context.Context, token string) (inboxweb.Session, error) {
	f.mu.Lock()
	l, ok := f.links[hash(token)]
	if !ok || l.spent || !f.now().Before(l.expires) {
		f.mu.Unlock()
		return inboxweb.Session{}, unauthorized()
	}
	l.spent = true
	f.links[hash(token)] = l
	s := inboxweb.Session{Token: randomToken(), CSRF: randomToken(), Expires: f.now().Add(30 * 24 * time.Hour)}
	f.sessions[hash(s.Token)] = fakeSession{slug: l.slug, csrf: s.CSRF, expires: s.Expires}
	f.mu.Unlock()
	b, err := f.Business(ctx, l.slug)
	if err != nil {
		return inboxweb.Session{}, err
	}
	s.Business = b
	return s, nil
}

func (f *fakeBookings) OpenSession(ctx context.Context, token string) (inboxweb.Session, error) {
	f.mu.Lock()
	s, ok := f.sessions[hash(token)]
	f.mu.Unlock()
	if !ok || !f.now().Before(s.expires) {
		return inboxweb.Session{}, unauthorized()
	}
	b, err := f.Business(ctx, s.slug)
	if err != nil {
		return inboxweb.Session{}, err
	}
	return inboxweb.Session{Token: token, CSRF: s.csrf, Business: b, Expires: s.expires}, nil
}

func (f *fakeBookings) EndSession(ctx context.Context, token string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.sessions, hash(token))
	return nil
}

func (f *fakeBookings) SetAcceptingRequests(ctx context.Context, b *booking.Business, on bool) (*booking.Business, error) {
	err := f.store.UpdateBusiness(ctx, b.Slug, func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		c.AcceptingRequests = on
		return &c, nil
	})
	if err != nil {
		return nil, err
	}
	return f.Business(ctx, b.Slug)
}

// sessionCount is how many sessions are open.
func (f *fakeBookings) sessionCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.sessions)
}
