package booking

import (
	"context"
	"errors"
	"time"
)

// Store keeps businesses, requests, window holds, idempotency keys, the
// per-phone open-request counters and the web inbox's sign-ins and
// sessions. Every decision that two callers could race for is made by the
// store in one atomic write, never by a read before it.
type Store interface {
	// ErasureStore erases personal details (erase.go).
	ErasureStore
	// MailStore keeps what the mail service reported (undeliverable.go).
	MailStore

	// Business returns the business with the given slug, validated, or an
	// *Error with code NOT_FOUND.
	Business(ctx context.Context, slug string) (*Business, error)

	// PublicBusiness is Business for the public side's reads (getBusiness,
	// the listing, a create, a status): the record may be the store's
	// cached one, shared with every other caller, so the caller never
	// changes it (a change is made on a copy, as withPayments does).
	PublicBusiness(ctx context.Context, slug string) (*Business, error)

	// OwnBusiness is Business for the owner's own pages (a session, an
	// inbox token, the operator acting as the business): read strongly
	// consistent and never from a cache, so that a change stored a moment
	// ago by anyone (the operator approving it) shows on the next page.
	OwnBusiness(ctx context.Context, slug string) (*Business, error)

	// UpdateBusiness stores the record change makes from the stored record
	// of slug (nil when there is none; change may then fail), on the
	// condition that the stored record is still the one change was given:
	// a change never undoes another made in between; it fails instead,
	// with an error that is ErrBusinessChanged. The record stored keeps
	// the stored CrewsEver when it had more (KeepCrewsEver).
	UpdateBusiness(ctx context.Context, slug string, change func(stored *Business) (*Business, error)) error

	// UpdateBusinessAt is UpdateBusiness, with one more condition when
	// the change sets another arrival_window_minutes: that no request
	// holds a window at now or later. Else it stores nothing and its error
	// is ErrLiveRequestsAhead. The store decides it with conditions, never
	// a read alone: a hold taken at once with the change either makes the
	// change fail or fails itself (pkg/dynamo's README, "Window length").
	UpdateBusinessAt(ctx context.Context, slug string, now time.Time, change func(stored *Business) (*Business, error)) error

	// BusinessByInboxEmail returns the business, validated, whose
	// inbox_email is email (any case), or an *Error with code NOT_FOUND. No
	// two businesses have one inbox_email: the store refuses the second.
	BusinessByInboxEmail(ctx context.Context, email string) (*Business, error)

	// BusinessesAtHost returns the businesses, validated, that have a site
	// (url or booking_url, as ParseSiteLink reads it) on host: a SiteLink's
	// Host, such as "acme.example.com". It is empty when there are none.
	BusinessesAtHost(ctx context.Context, host string) ([]*Business, error)

	// HeldWindows returns the start instants of the windows of a business, in
	// [from, to), that a request holds at now: one for each request that
	// holds one, so a window appears as many times as it has live holds.
	// Lapsed holds are not returned.
	HeldWindows(ctx context.Context, slug string, from, to, now time.Time) ([]time.Time, error)

	// CreateRequest stores a new request atomically with the window hold,
	// counters, hourly slot and (when key is not nil) idempotency record it
	// takes, each on its condition; the first condition that fails decides.
	// Which items and in which order is written once, in the store
	// (pkg/dynamo's createSteps). The refusals: a live record under key,
	// *KeyUsedError; a blocked contact (BlockContacts), REQUEST_REFUSED;
	// limits.PerHour or limits.Unanswered reached, RATE_LIMITED with
	// RetryAfter; MaxOpenPerPhone reached by the phone or the e-mail
	// address, TOO_MANY_OPEN;
	// limits.Crews.PerWindow live holds on the window, WINDOW_TAKEN. Holds,
	// slots and records whose expiry is before now count as absent.
	CreateRequest(ctx context.Context, r Request, key *IdempotencyRecord, limits Limits, now time.Time) error

	// RecordLimitHit records that a limit of the business refused a
	// request in the clock hour of now. first is true for the first such
	// record of that hour: the business is told once (notify).
	RecordLimitHit(ctx context.Context, slug string, now time.Time) (first bool, err error)

	// CountSignIn counts a sign-in link asked for the address with the
	// given EmailHash in the clock hour (UTC) of now: allowed is false,
	// and nothing is counted, when limit were counted that hour already.
	// The count's own condition decides, never a read before it.
	CountSignIn(ctx context.Context, emailHash string, limit int, now time.Time) (allowed bool, err error)

	// CountPhoneCode adds one to the confirmation texts sent for business
	// slug's owner's number on now's UTC day, unless limit were: one
	// conditional write, whose condition decides; false past the limit.
	CountPhoneCode(ctx context.Context, slug string, limit int, now time.Time) (bool, error)
	// PutPhoneCode stores the business's confirmation code, until its
	// Expires, in place of any code before.
	PutPhoneCode(ctx context.Context, rec PhoneCodeRecord) error
	// SpendPhoneCode counts a try on the business's code, on the
	// condition that it is live (expires_at > now) and was tried fewer
	// than maxTries times, and then deletes it and returns it if its hash
	// is codeHash, each in one conditional write: however many answers
	// come at once, at most maxTries are compared with the code. A try
	// refused, or a wrong code, fails with NOT_FOUND.
	SpendPhoneCode(ctx context.Context, slug, codeHash string, maxTries int, now time.Time) (PhoneCodeRecord, error)

	// CountSignInCode, PutSignInCode and SpendSignInCode are
	// CountPhoneCode, PutPhoneCode and SpendPhoneCode for the codes that
	// sign the owner in by text (StartTextSignIn): their own count, code
	// and tries, under the same conditions.
	CountSignInCode(ctx context.Context, slug string, limit int, now time.Time) (bool, error)
	PutSignInCode(ctx context.Context, rec PhoneCodeRecord) error
	SpendSignInCode(ctx context.Context, slug, codeHash string, maxTries int, now time.Time) (PhoneCodeRecord, error)

	// ClaimOwnerNotice records that the owner of business slug was told
	// of the event named key (ClaimOwnerBounceText), in one conditional
	// write: true for the one call that records it, false once it is.
	ClaimOwnerNotice(ctx context.Context, slug, key string) (bool, error)

	// CountSignupEmail counts a sign-up e-mail to the address with the
	// given EmailHash on now's UTC day: allowed is false, and nothing is
	// counted, when limit were counted that day already; the count's own
	// condition decides.
	CountSignupEmail(ctx context.Context, emailHash string, limit int, now time.Time) (allowed bool, err error)
	// PutSignupToken stores a pending sign-up, until its Expires.
	PutSignupToken(ctx context.Context, rec SignupRecord) error
	// SignupToken returns the pending sign-up of the token with the given
	// hash, live at now (Expires after now), or an *Error with code
	// NOT_FOUND. It decides nothing: CreateSignup's condition does.
	SignupToken(ctx context.Context, tokenHash string, now time.Time) (SignupRecord, error)
	// SpendSignupToken deletes the pending sign-up of the token, only if
	// it is there and live at now; otherwise NOT_FOUND.
	SpendSignupToken(ctx context.Context, tokenHash string, now time.Time) error
	// CreateSignup stores the new business b and spends the sign-up token
	// with the given hash, in one atomic write with b's site and
	// inbox_email items and one more to the count of businesses signed up
	// in now's clock hour (UTC). The first condition that fails decides:
	// a business or site item has b's slug or site, ErrSlugTaken; another
	// business has its inbox_email, ErrInboxEmailTaken; the token is
	// spent or lapsed at now, NOT_FOUND; perHour were counted this hour,
	// RATE_LIMITED. Nothing is stored then.
	CreateSignup(ctx context.Context, b *Business, tokenHash string, perHour int, now time.Time) error

	// PutSignInToken stores a sign-in token's record, until its Expires.
	PutSignInToken(ctx context.Context, rec SignInRecord) error

	// SpendSignInToken deletes the record of the sign-in token with the
	// given hash and returns it, in one conditional write: only if it is
	// there and its Expires is after now. Otherwise (spent, expired,
	// unknown, or a token of another kind: a new inbox address's, a
	// sign-up's) it fails with NOT_FOUND and changes nothing, so a token
	// is spent once, and only by its own kind's route.
	SpendSignInToken(ctx context.Context, tokenHash string, now time.Time) (SignInRecord, error)

	// CountInboxEmailChange counts a link to a new inbox address of
	// business slug on now's UTC day: allowed is false, and nothing is
	// counted, when limit were counted that day already; the count's own
	// condition decides.
	CountInboxEmailChange(ctx context.Context, slug string, limit int, now time.Time) (allowed bool, err error)
	// PutInboxEmailToken stores the token of a link that confirms a new
	// inbox address, until its Expires.
	PutInboxEmailToken(ctx context.Context, rec InboxEmailChangeRecord) error
	// SpendInboxEmailToken is SpendSignInToken for the tokens that
	// confirm a new inbox address: a token of another kind is NOT_FOUND,
	// and stays.
	SpendInboxEmailToken(ctx context.Context, tokenHash string, now time.Time) (InboxEmailChangeRecord, error)

	// PutSession stores a session's record, until its Expires.
	PutSession(ctx context.Context, rec SessionRecord) error

	// Session returns the record of the session with the given token
	// hash, live at now (Expires after now), or an *Error with code
	// NOT_FOUND.
	Session(ctx context.Context, tokenHash string, now time.Time) (SessionRecord, error)

	// EndSession deletes the record of the session with the given token
	// hash; ending a session that is not there is no error.
	EndSession(ctx context.Context, tokenHash string) error

	// IdempotencyRecord returns the live record under key at the business, or
	// nil when there is none at now.
	IdempotencyRecord(ctx context.Context, slug, key string, now time.Time) (*IdempotencyRecord, error)

	// Request returns the stored request with the given code, or an *Error
	// with code NOT_FOUND.
	Request(ctx context.Context, code string) (*Request, error)

	// MoveRequest stores the move of a request from before (as read) to
	// after by transition t, in one atomic write with t.Effects() and the
	// last event of after.History appended to the stored history. The write
	// happens only if the stored request is still in state t.From with
	// before's window, and, from pending_payment, only if the payment hold
	// has lapsed at now for ActionExpire and has not for any other action;
	// otherwise it fails with INVALID_TRANSITION. (From new, whether the
	// window has started is a matter of before's window, which the
	// condition pins, and now: the domain checks it.) A window move fails with
	// WINDOW_TAKEN when after's window holds crews.PerWindow live holds
	// already; crews matters only to a window move.
	MoveRequest(ctx context.Context, before, after Request, t Transition, crews Crews, now time.Time) error

	// RecordLatePayment stores after: before with a payment it could no
	// longer take (its hold lapsed, or the person cancelled before paying)
	// recorded on its deposit as refunded. It writes only if the stored
	// request still has before's state and deposit state; otherwise it
	// fails with INVALID_TRANSITION.
	RecordLatePayment(ctx context.Context, before, after Request) error

	// BusinessRequests returns a page of the requests a business sees
	// (SeenByBusiness), newest first.
	BusinessRequests(ctx context.Context, q RequestQuery) (RequestPage, error)

	// Lapsed calls fn with the code of each request that has lapsed at now
	// (Request.LapsesAt: a pending_payment request whose payment hold has
	// ended, a new one whose window has started), a page of codes at a
	// time, until there are no more or fn fails. It may list a request that
	// was just moved on; the move's own check turns it away.
	Lapsed(ctx context.Context, now time.Time, fn func(codes []string) error) error

	// DueReminders calls fn with the code of each accepted request whose
	// reminder is due at now (Request.ReminderDue at or before now), a
	// page of codes at a time, until there are no more or fn fails. It may
	// list a request just moved or reminded; RecordReminder's condition
	// turns it away.
	DueReminders(ctx context.Context, now time.Time, fn func(codes []string) error) error

	// RecordReminder stores after: before with its reminder recorded (a
	// remind event appended, ReminderDue zero), in one write, only if the
	// stored request is still accepted with before's window and before's
	// ReminderDue; otherwise it fails with INVALID_TRANSITION. So a
	// reminder is recorded once however many sweeps race for it.
	RecordReminder(ctx context.Context, before, after Request) error

	// ChangeContact stores after: before with a way to hear back added
	// (Bookings.AddEmail, AllowTexts) and its ActionContact event appended,
	// in one atomic write, only if the stored request is still in before's
	// state with before's window and history (no other write in between;
	// from pending_payment, its payment hold not lapsed at now): otherwise
	// INVALID_TRANSITION. An e-mail address new to an open request that its
	// create counted is counted against that address's open requests at the
	// business, as a create counts it (MaxOpenPerPhone: TOO_MANY_OPEN), and
	// the address it replaces, if any, counted off; an address blocked at
	// the business is REQUEST_REFUSED. Nothing is stored on a refusal.
	ChangeContact(ctx context.Context, before, after Request, now time.Time) error
}

// RequestQuery selects a business's requests.
type RequestQuery struct {
	Slug     string
	Statuses []Status // none: every state
	// Created bounds when the requests were sent: [From, To).
	From, To time.Time
	Limit    int    // 1 to MaxPageSize
	Cursor   string // from RequestPage.Next; "" for the first page
}

// RequestPage is one page of requests; Next is "" on the last.
type RequestPage struct {
	Requests []Request
	Next     string
}

// MaxPageSize is the most requests one page lists.
const MaxPageSize = 100

// ErrBusinessChanged is what UpdateBusiness's error is when another change
// was stored between its read and its write.
var ErrBusinessChanged = errors.New("the business record changed meanwhile")

// ErrTakenByAnother is what UpdateBusiness's error is when the record
// would take a site or an inbox_email another business has: the store's
// condition on the lookup item decides.
var ErrTakenByAnother = errors.New("another business has it")

// KeyUsedError reports that an idempotency key already has a record: the
// caller replays it, or refuses a different body under the same key.
type KeyUsedError struct {
	Record IdempotencyRecord
}

func (e *KeyUsedError) Error() string { return "idempotency key already used" }
