package booking

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Changing the inbox address: the owner, signed in, gives a new address;
// a link is e-mailed to it (a GET shows a button, the POST acts), good
// once, for InboxEmailChangeTTL, and only while the business still has the
// address it was asked from. Until it is confirmed the old address stays.
// The store's condition on the address's lookup item decides that no two
// businesses have one address.

// InboxEmailChangeTTL is how long the link that confirms a new inbox
// address works.
const InboxEmailChangeTTL = time.Hour

// MaxInboxEmailChangesPerDay is how many links to new inbox addresses a
// business may have sent on a UTC day: a signed-up business cannot make
// Doorstep e-mail more addresses than this, whichever they are.
const MaxInboxEmailChangesPerDay = 3

// ErrInboxEmailChangesSpent is what StartInboxEmailChange's RATE_LIMITED
// error wraps when the business had its MaxInboxEmailChangesPerDay links
// of the day (rather than the address its links of the hour).
var ErrInboxEmailChangesSpent = errors.New("the business had its links to new inbox addresses of the day")

// InboxEmailChangeRecord is the token of a link that confirms a new
// inbox address, as the store keeps it: its hash, never the token. It is
// a kind of its own: no sign-in or sign-up route finds it, nor does the
// address change find theirs.
type InboxEmailChangeRecord struct {
	TokenHash string // WebTokenHash of the token
	Slug      string // the business whose address it changes
	// EmailHash is the EmailHash of the address the change was asked
	// from: the link is good only while the business still has it.
	EmailHash string
	NewEmail  string // the address it confirms, as it will be stored
	Expires   time.Time
}

// StartInboxEmailChange mints the link's token that confirms email as the
// business's new inbox address, and returns it with the address as it
// will be stored. The ask is counted twice, each a conditional write:
// against the business's links of the UTC day (CountInboxEmailChange:
// RATE_LIMITED wrapping ErrInboxEmailChangesSpent past
// MaxInboxEmailChangesPerDay), so that no business gets more addresses
// e-mailed, and then against the new address's sign-ins of the hour
// (CountSignIn: RATE_LIMITED past MaxSignInsPerHour), so that no address
// gets more than those links an hour. A business past its day's links
// counts nothing on the address. An address that is none is
// INVALID_EMAIL; the one the business has already, INVALID_REQUEST;
// neither is counted.
func (in *Inbox) StartInboxEmailChange(ctx context.Context, email string) (token, normal string, err error) {
	s, b := in.s, in.b
	email = strings.TrimSpace(email)
	normal, ok := NormalizeEmail(email)
	if !ok || normal == "" {
		return "", "", Errorf(InvalidEmail, "inbox_email: want an e-mail address, such as inbox@example.com")
	}
	if strings.EqualFold(normal, b.InboxEmail) {
		return "", "", Errorf(InvalidRequest, "inbox_email: this is the inbox address already")
	}
	now := s.now()
	allowed, err := s.store.CountInboxEmailChange(ctx, b.Slug, MaxInboxEmailChangesPerDay, now)
	if err != nil {
		return "", "", err
	}
	if !allowed {
		s.observer.LimitHit(ctx, LimitInboxEmailChanges)
		next := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
		return "", "", fmt.Errorf("%w: %w", ErrInboxEmailChangesSpent, &Error{Code: RateLimited, RetryAfter: next.Sub(now),
			Message: fmt.Sprintf("%d links to new inbox addresses were sent today; try again after %s", MaxInboxEmailChangesPerDay, next.Format(time.DateTime+" UTC"))})
	}
	allowed, err = s.store.CountSignIn(ctx, EmailHash(Mailbox(normal)), MaxSignInsPerHour, now)
	if err != nil {
		return "", "", err
	}
	if !allowed {
		next := now.Truncate(time.Hour).Add(time.Hour)
		return "", "", &Error{Code: RateLimited, RetryAfter: next.Sub(now),
			Message: fmt.Sprintf("%d links were sent to this address this hour; try again after %s", MaxSignInsPerHour, next.UTC().Format(time.Kitchen+" UTC"))}
	}
	token = newWebToken()
	rec := InboxEmailChangeRecord{TokenHash: WebTokenHash(token), Slug: b.Slug, EmailHash: EmailHash(b.InboxEmail), NewEmail: normal, Expires: now.Add(InboxEmailChangeTTL)}
	if err := s.store.PutInboxEmailToken(ctx, rec); err != nil {
		return "", "", err
	}
	return token, normal, nil
}

// ConfirmInboxEmail spends the token of StartInboxEmailChange's link,
// once and before it expires (a token of another kind is not found, and
// stays unspent), and stores its address as the business's
// inbox_email, on the condition that the business still has the address
// the change was asked from (a conditional UpdateBusiness). The sessions
// of the old address end with it; the one returned is the new address's.
// A spent, expired or unknown token, or a business whose address changed
// meanwhile, is UNAUTHORIZED; an address another business has is
// INVALID_EMAIL, and nothing changes.
func (s *Bookings) ConfirmInboxEmail(ctx context.Context, token string) (Session, error) {
	unauthorized := Errorf(Unauthorized, "this link was used already, has expired, or the address changed since; ask for a new one")
	if !isWebToken(token) {
		return Session{}, unauthorized
	}
	now := s.now()
	rec, err := s.store.SpendInboxEmailToken(ctx, WebTokenHash(token), now)
	switch {
	case ErrorCode(err) == NotFound:
		return Session{}, unauthorized // a sign-in link or a sign-up's too, left unspent
	case err != nil:
		return Session{}, err
	}
	var after *Business
	err = s.store.UpdateBusiness(ctx, rec.Slug, func(stored *Business) (*Business, error) {
		if stored == nil || stored.InboxEmail == "" ||
			subtle.ConstantTimeCompare([]byte(EmailHash(stored.InboxEmail)), []byte(rec.EmailHash)) != 1 {
			return nil, unauthorized
		}
		changed := *stored
		changed.InboxEmail = rec.NewEmail
		after = &changed
		return after, nil
	})
	switch {
	case errors.Is(err, ErrTakenByAnother):
		return Session{}, Errorf(InvalidEmail, "inbox_email: another business has this inbox address")
	case err != nil:
		return Session{}, err
	}
	return s.openSession(ctx, after, EmailHash(after.InboxEmail), now)
}
