package booking

import "context"

// Observer hears of the service's business events as they happen, for
// metrics (pkg/metrics writes them as CloudWatch EMF lines). Each call is
// made after the event is decided (a create stored or refused, a move
// stored, a limit hit) and must neither fail nor block. The events carry
// no code, slug or contact detail.
type Observer interface {
	// RequestCreated: a service request was stored. A replay of a stored
	// answer (the same idempotency key and body) is not a create.
	RequestCreated(ctx context.Context)
	// RequestRefused: a create was refused with code; SERVER_ERROR when it
	// failed for a reason of the service's own.
	RequestRefused(ctx context.Context, code Code)
	// RequestMoved: a move of a request was stored, by whomever.
	RequestMoved(ctx context.Context, action Action)
	// LimitHit: a limit on what strangers can do refused something.
	LimitHit(ctx context.Context, limit Limit)
}

// Limit names a limit on what strangers can do (docs/design.md, "Security and
// abuse"), as Observer.LimitHit reports it.
type Limit string

const (
	// LimitBusinessRequests: the business's requests per hour, or its
	// unanswered requests at once (RATE_LIMITED).
	LimitBusinessRequests Limit = "business_requests"
	// LimitOpenPerContact: a phone's or an e-mail address's open requests
	// at the business (TOO_MANY_OPEN).
	LimitOpenPerContact Limit = "open_per_contact"
	// LimitSignIns: the sign-in links an address may be sent in an hour.
	LimitSignIns Limit = "sign_ins"
	// LimitSignupEmails: the sign-up e-mails an address may be sent in a
	// day (MaxSignupEmailsPerDay).
	LimitSignupEmails Limit = "signup_emails"
	// LimitSignups: the businesses a stack creates by sign-up in an hour
	// (Config.SignupsPerHour).
	LimitSignups Limit = "signups"
	// LimitInboxEmailChanges: the links to new inbox addresses a
	// business may have sent in a day (MaxInboxEmailChangesPerDay).
	LimitInboxEmailChanges Limit = "inbox_email_changes"
)

// nobody is the Observer of a service configured with none.
type nobody struct{}

func (nobody) RequestCreated(context.Context)       {}
func (nobody) RequestRefused(context.Context, Code) {}
func (nobody) RequestMoved(context.Context, Action) {}
func (nobody) LimitHit(context.Context, Limit)      {}

// observeCreate tells the observer how a create ended.
func (s *Bookings) observeCreate(ctx context.Context, replayed bool, err error) {
	switch code := ErrorCode(err); {
	case err == nil && !replayed:
		s.observer.RequestCreated(ctx)
	case err == nil:
	case code == RateLimited:
		s.observer.LimitHit(ctx, LimitBusinessRequests)
		s.observer.RequestRefused(ctx, code)
	case code == TooManyOpen:
		s.observer.LimitHit(ctx, LimitOpenPerContact)
		s.observer.RequestRefused(ctx, code)
	default:
		s.observer.RequestRefused(ctx, code)
	}
}
