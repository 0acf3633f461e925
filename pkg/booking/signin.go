package booking

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// Limits and lifetimes of the web inbox's sign-in.
const (
	SignInTTL         = 15 * time.Minute    // a sign-in link lives this long, and is spent once
	SessionTTL        = 30 * 24 * time.Hour // a session lives this long (its cookie too)
	MaxSignInsPerHour = 5                   // links sent per address per clock hour
	// RequestLinkTTL is how long the one-tap link of a new request's
	// message to its business lives (NewRequestLink): a working stretch,
	// for an owner on a job; spent once, like a sign-in link.
	RequestLinkTTL = 8 * time.Hour
)

// Session is a signed-in business: its inbox (the business acting), the
// session's own token (the cookie's value; only its hash is stored), the
// CSRF token of its forms, and when it ends.
type Session struct {
	Token   string
	CSRF    string
	Inbox   *Inbox
	Expires time.Time
	// Opens is the code of the request a one-tap link was for
	// (NewRequestLink), when the session was opened with one: the page
	// to go to. "" for a sign-in link.
	Opens string
}

// SignInRecord is a sign-in link's token as the store keeps it: its hash,
// never the token.
type SignInRecord struct {
	TokenHash string // WebTokenHash of the token
	Slug      string // the business it signs in to
	// EmailHash is the EmailHash of the address the link was sent to: a
	// link is good only while the business still has that inbox_email.
	EmailHash string
	Expires   time.Time
	// Code is the request a one-tap link opens (NewRequestLink), of the
	// business Slug; "" for a sign-in link.
	Code string
}

// SessionRecord is a session as the store keeps it: its hash, never its
// token.
type SessionRecord struct {
	TokenHash string // WebTokenHash of the session token
	Slug      string
	// EmailHash is the address it was opened from: a session ends when
	// the business's inbox_email changes.
	EmailHash string
	CSRF      string
	Expires   time.Time
}

// webTokenBytes is the size of sign-in, session and CSRF tokens: 32 bytes
// from a cryptographic source, 43 characters of base64url.
const webTokenBytes = 32

var webTokenLen = base64.RawURLEncoding.EncodedLen(webTokenBytes)

// newWebToken returns a fresh random token.
func newWebToken() string {
	b := make([]byte, webTokenBytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}

// isWebToken reports whether token can be a token newWebToken made, so
// that anything else is refused without a lookup.
func isWebToken(token string) bool {
	if len(token) != webTokenLen {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(token)
	return err == nil
}

// WebTokenHash is how the store names a sign-in or session token: its hex
// SHA-256.
func WebTokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// StartSignIn begins a sign-in from an e-mail address: when the address
// (normalised, any case) is a business's inbox_email, and fewer than
// MaxSignInsPerHour links went to it this clock hour, it mints a
// single-use token, stores only its hash with its expiry (SignInTTL), and
// returns the token and the business (ok true). Otherwise ok is false and
// nothing is sent: the caller answers the same either way. The hourly
// count is a conditional write, and is counted for unknown addresses too:
// past the limit, known or not, the address gets RATE_LIMITED, whose
// RetryAfter is the time to the next clock hour.
func (s *Bookings) StartSignIn(ctx context.Context, email string) (token string, b *Business, ok bool, err error) {
	email = strings.TrimSpace(email)
	if normal, valid := NormalizeEmail(email); !valid || normal == "" {
		return "", nil, false, nil // no business has it, and it is not worth a write
	}
	now := s.now()
	hash := EmailHash(email)
	// Counted before the lookup, so that known and unknown addresses cost
	// the same calls up to the token's write; by mailbox (Mailbox), so
	// that tags on one address share its count.
	allowed, err := s.store.CountSignIn(ctx, EmailHash(Mailbox(email)), MaxSignInsPerHour, now)
	if err != nil {
		return "", nil, false, err
	}
	if !allowed {
		s.observer.LimitHit(ctx, LimitSignIns)
		next := now.Truncate(time.Hour).Add(time.Hour)
		return "", nil, false, &Error{Code: RateLimited, RetryAfter: next.Sub(now),
			Message: fmt.Sprintf("%d sign-in links were asked for this address this hour; try again after %s", MaxSignInsPerHour, next.UTC().Format(time.Kitchen+" UTC"))}
	}
	b, err = s.store.BusinessByInboxEmail(ctx, email)
	switch {
	case ErrorCode(err) == NotFound:
		return "", nil, false, nil
	case err != nil:
		return "", nil, false, err
	}
	token = newWebToken()
	rec := SignInRecord{TokenHash: WebTokenHash(token), Slug: b.Slug, EmailHash: hash, Expires: now.Add(SignInTTL)}
	if err := s.store.PutSignInToken(ctx, rec); err != nil {
		return "", nil, false, err
	}
	return token, b, true, nil
}

// NewRequestLink mints the token of a one-tap link to request code of
// business b, for the message that tells b of it: a sign-in token bound
// to that business and that request, spent once (FinishSignIn), living
// RequestLinkTTL from now, and good only while b keeps the inbox_email it
// was sent to. It returns the record to store (Store.PutSignInToken); ok
// is false when b has no inbox_email, the only address a link may go to.
// It writes nothing: only a message to b's own address carries one, and
// each new request makes at most a few (its e-mail, its text, its nudge),
// bounded as requests are.
func NewRequestLink(b *Business, code string, now time.Time) (token string, rec SignInRecord, ok bool) {
	if b.InboxEmail == "" || code == "" {
		return "", SignInRecord{}, false
	}
	token = newWebToken()
	return token, SignInRecord{
		TokenHash: WebTokenHash(token), Slug: b.Slug, EmailHash: EmailHash(b.InboxEmail),
		Expires: now.Add(RequestLinkTTL), Code: code,
	}, true
}

// FinishSignIn spends a sign-in token, once and before it expires, and
// opens a session (stored as its hash, with SessionTTL); a one-tap link's
// session Opens its request. A spent, expired or unknown token is
// UNAUTHORIZED.
func (s *Bookings) FinishSignIn(ctx context.Context, token string) (Session, error) {
	unauthorized := Errorf(Unauthorized, "this sign-in link was used already, has expired or is not one; ask for a new one")
	if !isWebToken(token) {
		return Session{}, unauthorized
	}
	now := s.now()
	// A new address's confirmation or a sign-up's token is not found
	// here, and stays good at its own route.
	rec, err := s.store.SpendSignInToken(ctx, WebTokenHash(token), now)
	b, err := s.signedInBusiness(ctx, rec.Slug, rec.EmailHash, err, unauthorized)
	if err != nil {
		return Session{}, err
	}
	sess, err := s.openSession(ctx, b, rec.EmailHash, now)
	if err != nil {
		return Session{}, err
	}
	sess.Opens = rec.Code
	return sess, nil
}

// OpenSession returns the live session of a session token; UNAUTHORIZED
// when there is none (unknown, ended or expired).
func (s *Bookings) OpenSession(ctx context.Context, token string) (Session, error) {
	unauthorized := Errorf(Unauthorized, "not signed in, or the session has ended; sign in again")
	if !isWebToken(token) {
		return Session{}, unauthorized
	}
	rec, err := s.store.Session(ctx, WebTokenHash(token), s.now())
	b, err := s.signedInBusiness(ctx, rec.Slug, rec.EmailHash, err, unauthorized)
	if err != nil {
		return Session{}, err
	}
	return Session{Token: token, CSRF: rec.CSRF, Inbox: &Inbox{s: s, b: b}, Expires: rec.Expires}, nil
}

// signedInBusiness returns the business that a sign-in token's or
// session's record names, given the record's read and its error. It
// answers unauthorized when the record was not found, the business is
// gone, or the business no longer has the inbox_email the record was
// opened from: a changed address locks out whoever had the old one.
func (s *Bookings) signedInBusiness(ctx context.Context, slug, emailHash string, readErr, unauthorized error) (*Business, error) {
	switch {
	case ErrorCode(readErr) == NotFound:
		return nil, unauthorized
	case readErr != nil:
		return nil, readErr
	}
	b, err := s.store.OwnBusiness(ctx, slug)
	switch {
	case ErrorCode(err) == NotFound:
		return nil, unauthorized
	case err != nil:
		return nil, err
	}
	if b.InboxEmail == "" || subtle.ConstantTimeCompare([]byte(EmailHash(b.InboxEmail)), []byte(emailHash)) != 1 {
		return nil, unauthorized
	}
	return b, nil
}

// EndSession ends a session, server-side (signing out).
func (s *Bookings) EndSession(ctx context.Context, token string) error {
	if !isWebToken(token) {
		return nil // no such session: nothing to end
	}
	return s.store.EndSession(ctx, WebTokenHash(token))
}

// SetAcceptingRequests pauses (false) or resumes (true) the business's
// online requests, with the store's conditional UpdateBusiness, and
// returns the business as stored after. A business takes requests, live
// or in preview, only once it has what a request needs
// (Business.RequestsMissing, checked on the record as stored): resuming
// one that lacks it is ErrRequestsNotReady, naming what is missing, and
// nothing is stored.
func (in *Inbox) SetAcceptingRequests(ctx context.Context, on bool) (*Business, error) {
	return in.s.changeBusiness(ctx, in.b.Slug, func(changed *Business) error {
		if missing := changed.RequestsMissing(); on && len(missing) > 0 {
			return &Error{Code: ErrRequestsNotReady.Code, Message: ErrRequestsNotReady.Message + ": missing " + strings.Join(missing, ", ")}
		}
		changed.AcceptingRequests = on
		return nil
	})
}

// ErrRequestsNotReady is the refusal to resume the online requests of a
// business that lacks what a request needs (Business.RequestsMissing);
// SetAcceptingRequests's error has its code and message, and names what
// is missing.
var ErrRequestsNotReady = Errorf(InvalidRequest, "not ready to take requests")

// changeBusiness makes change to the record of the business slug as stored
// now, not to a business read earlier, which may be older (anything else
// changed since stays changed), and stores it with the store's conditional
// UpdateBusiness. A change that returns an error stores nothing; so does
// one whose record Validate refuses, which is INVALID_REQUEST naming the
// field (an owner's change is the owner's to correct, never a server
// error). It returns the business as stored after.
func (s *Bookings) changeBusiness(ctx context.Context, slug string, change func(changed *Business) error) (*Business, error) {
	var after *Business
	err := s.store.UpdateBusiness(ctx, slug, func(stored *Business) (*Business, error) {
		if stored == nil {
			return nil, Errorf(NotFound, "no business has the slug %s", excerpt(slug))
		}
		changed := *stored
		if err := change(&changed); err != nil {
			return nil, err
		}
		if err := changed.validate(); err != nil {
			return nil, Errorf(InvalidRequest, "%v", err)
		}
		after = &changed
		return after, nil
	})
	if err != nil {
		return nil, err
	}
	return after, nil
}
