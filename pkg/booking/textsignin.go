package booking

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// Signing in by text: an owner whose inbox address cannot be reached (it
// bounced, or the mailbox is out of reach) signs in with a 6-digit code
// texted to the business's confirmed mobile number (OwnerPhone, "Ways to
// be told"). The page that asks for it answers the same whatever the
// address, as the e-mailed link's does.

// Limits and lifetimes of sign-in codes.
const (
	// MaxSignInCodesPerDay is how many sign-in codes a business's number
	// is texted per UTC day: a stranger who knows the address cannot text
	// the owner more than this.
	MaxSignInCodesPerDay = 5
	SignInCodeTTL        = 10 * time.Minute // a code works this long
	MaxSignInCodeTries   = 5                // wrong codes before it stops working
)

// SignInCodeHash names a sign-in code of business slug: the hex SHA-256
// of a label, the slug and the code, so that it is never a confirmation
// code's hash (PhoneCodeHash).
func SignInCodeHash(slug, code string) string {
	sum := sha256.Sum256([]byte("sign-in\x00" + slug + "\x00" + code))
	return hex.EncodeToString(sum[:])
}

// StartTextSignIn begins a sign-in by text from an e-mail address. It
// counts the ask against the address's hourly sign-ins (CountSignIn, as a
// link does, known address or not); then, when the address is a
// business's inbox_email and the business has a confirmed OwnerPhone, it
// counts a text against MaxSignInCodesPerDay (a conditional write), stores
// the hash of a new code for SignInCodeTTL (replacing any before) and
// returns the code, the number to text it to and the business (ok true).
// Otherwise ok is false and nothing is sent: the caller answers the same
// either way. Past the hourly count, RATE_LIMITED as StartSignIn; past the
// day's texts, ok is false, so that the answer does not tell that the
// address has a business.
func (s *Bookings) StartTextSignIn(ctx context.Context, email string) (code, phone string, b *Business, ok bool, err error) {
	email = strings.TrimSpace(email)
	if normal, valid := NormalizeEmail(email); !valid || normal == "" {
		return "", "", nil, false, nil
	}
	now := s.now()
	allowed, err := s.store.CountSignIn(ctx, EmailHash(Mailbox(email)), MaxSignInsPerHour, now)
	if err != nil {
		return "", "", nil, false, err
	}
	if !allowed {
		s.observer.LimitHit(ctx, LimitSignIns)
		next := now.Truncate(time.Hour).Add(time.Hour)
		return "", "", nil, false, &Error{Code: RateLimited, RetryAfter: next.Sub(now),
			Message: fmt.Sprintf("%d sign-ins were asked for this address this hour; try again after %s", MaxSignInsPerHour, next.UTC().Format(time.Kitchen+" UTC"))}
	}
	b, err = s.store.BusinessByInboxEmail(ctx, email)
	switch {
	case ErrorCode(err) == NotFound:
		return "", "", nil, false, nil
	case err != nil:
		return "", "", nil, false, err
	}
	if b.OwnerPhone == "" {
		return "", "", nil, false, nil
	}
	allowed, err = s.store.CountSignInCode(ctx, b.Slug, MaxSignInCodesPerDay, now)
	if err != nil {
		return "", "", nil, false, err
	}
	if !allowed {
		s.observer.LimitHit(ctx, LimitSignIns)
		return "", "", nil, false, nil
	}
	code = newPhoneCode()
	rec := PhoneCodeRecord{Slug: b.Slug, Phone: b.OwnerPhone, CodeHash: SignInCodeHash(b.Slug, code), Expires: now.Add(SignInCodeTTL)}
	if err := s.store.PutSignInCode(ctx, rec); err != nil {
		return "", "", nil, false, err
	}
	return code, b.OwnerPhone, b, true, nil
}

// FinishTextSignIn spends the sign-in code texted for the business whose
// inbox_email is email, once, before it expires and within
// MaxSignInCodeTries (the store's conditional writes), and opens a session
// as FinishSignIn does. The code must have been texted to the number the
// business still has. An unknown address, a business without a number,
// and a wrong, spent or expired code are all UNAUTHORIZED, alike.
func (s *Bookings) FinishTextSignIn(ctx context.Context, email, code string) (Session, error) {
	unauthorized := Errorf(Unauthorized, "the code is wrong, or it expired; ask for a new one")
	email, code = strings.TrimSpace(email), strings.TrimSpace(code)
	if normal, valid := NormalizeEmail(email); !valid || normal == "" {
		return Session{}, unauthorized
	}
	if len(code) != phoneCodeDigits || strings.Trim(code, "0123456789") != "" {
		return Session{}, unauthorized
	}
	now := s.now()
	b, err := s.store.BusinessByInboxEmail(ctx, email)
	switch {
	case ErrorCode(err) == NotFound:
		return Session{}, unauthorized
	case err != nil:
		return Session{}, err
	}
	if b.OwnerPhone == "" {
		return Session{}, unauthorized
	}
	rec, err := s.store.SpendSignInCode(ctx, b.Slug, SignInCodeHash(b.Slug, code), MaxSignInCodeTries, now)
	switch {
	case ErrorCode(err) == NotFound:
		return Session{}, unauthorized
	case err != nil:
		return Session{}, err
	}
	if subtle.ConstantTimeCompare([]byte(rec.Phone), []byte(b.OwnerPhone)) != 1 {
		return Session{}, unauthorized // texted to a number the business no longer has
	}
	return s.openSession(ctx, b, EmailHash(b.InboxEmail), now)
}
