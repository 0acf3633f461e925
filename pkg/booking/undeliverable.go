package booking

import (
	"context"
	"fmt"
	"net/mail"
	"sort"
	"strings"
	"time"
)

// Undeliverable addresses: what the mail service (SES) reports back about
// the e-mail Doorstep sent. SES's account-level suppression list is what
// stops mail to a bounced or complaining address; this record exists so
// that the person and the business can be told the truth (issue 34). An
// address is recorded by a one-way hash of it in lower case (EmailHash),
// with the reason and when, after:
//
//   - a permanent bounce (UndeliverableBounce);
//   - a complaint (UndeliverableComplaint);
//   - transient bounces on TransientBounceDays different UTC days within
//     TransientBounceWindowDays days (UndeliverableTransient).
//
// A report that a message was not sent because the address is already on
// the account's suppression list (MailSuppressed) is no new bounce: it
// changes no record, it notes the request the message was about, and it
// records the address (as a bounce) only where no record is left, so that
// an address SES will not deliver to is never shown as a good one.

// UndeliverableReason says why mail cannot reach an address.
type UndeliverableReason string

// The reasons an address is recorded undeliverable.
const (
	UndeliverableBounce    UndeliverableReason = "bounce"    // a permanent bounce
	UndeliverableComplaint UndeliverableReason = "complaint" // the recipient marked a message as spam
	UndeliverableTransient UndeliverableReason = "transient" // transient bounces on TransientBounceDays days
)

// Valid reports whether r is one of the reasons.
func (r UndeliverableReason) Valid() bool {
	switch r {
	case UndeliverableBounce, UndeliverableComplaint, UndeliverableTransient:
		return true
	}
	return false
}

// Undeliverable is the record that mail cannot reach an address: why, and
// when the report that decided it happened. The first record stands: a
// complaint after a bounce changes nothing.
type Undeliverable struct {
	Reason UndeliverableReason
	At     time.Time // UTC, whole seconds
}

// TransientBounceDays transient bounces, each on a different UTC day,
// within TransientBounceWindowDays consecutive UTC days make an address
// undeliverable (listmonk's soft-bounce rule, spread over days so that
// one bad afternoon at the receiving server is not enough).
const (
	TransientBounceDays       = 3
	TransientBounceWindowDays = 14
)

// MailEventKind is what the mail service reported about one message to
// one address.
type MailEventKind string

// The kinds of mail event the domain acts on.
const (
	MailBounced          MailEventKind = "bounced"           // a permanent bounce
	MailBouncedTransient MailEventKind = "bounced_transient" // a transient bounce (mailbox full, too large, ...)
	MailComplained       MailEventKind = "complained"        // the recipient reported the message as spam
	// MailSuppressed: not sent, the address is already suppressed
	// (SES's OnAccountSuppressionList): no new bounce.
	MailSuppressed MailEventKind = "suppressed"
)

// MailEvent is one report about a message to one address.
type MailEvent struct {
	Kind  MailEventKind
	Email string    // the recipient address
	At    time.Time // when it happened, as the mail service says
	// RequestCode is the request the message was about, "" when it was
	// about none (a sign-in link, a business's own messages): the record
	// goes with the last such request's erasure (ForgetMailRequest).
	RequestCode string
}

// MailStore is the part of the Store that keeps what the mail service
// reported about addresses, each named by its EmailHash.
type MailStore interface {
	// RecordUndeliverable records the address as u says, unless it is
	// recorded already (the first record stands), and notes requestCode
	// ("" none) among the requests whose mail to it was reported. One
	// write, whose condition decides: recorded is true for the one call
	// that made the record, so a redelivered event records nothing new.
	RecordUndeliverable(ctx context.Context, emailHash string, u Undeliverable, requestCode string) (recorded bool, err error)

	// RecordTransientBounce records a transient bounce to the address on
	// at's UTC day (once per day, however often it is told), notes
	// requestCode ("" none), and returns the UTC days (midnights, in
	// order) with a transient bounce recorded from span before at's day
	// to span after it, this one included.
	RecordTransientBounce(ctx context.Context, emailHash string, at time.Time, span time.Duration, requestCode string) ([]time.Time, error)

	// NoteMailRequest notes requestCode among the requests whose mail to
	// the address was reported, and records nothing else.
	NoteMailRequest(ctx context.Context, emailHash, requestCode string) error

	// UndeliverableEmail returns the record of the address email (any
	// case), or nil when mail to it is not known to fail, for a page: it
	// may miss a record written in the last second.
	UndeliverableEmail(ctx context.Context, email string) (*Undeliverable, error)

	// UndeliverableEmailNow is UndeliverableEmail for a decision: it finds
	// a record written just before it.
	UndeliverableEmailNow(ctx context.Context, email string) (*Undeliverable, error)

	// ForgetMailRequest takes requestCode from the requests noted for the
	// address and, when it was the last one, deletes everything kept about
	// the address (its record and its transient bounces). An address no
	// request was noted for (a business's inbox address) is kept.
	ForgetMailRequest(ctx context.Context, emailHash, requestCode string) error
}

// MailOutcome is what one mail event did.
type MailOutcome struct {
	// Recorded is the record this event made, nil when it made none
	// (already recorded, a transient bounce short of the rule, a send to
	// an address already suppressed).
	Recorded *Undeliverable
	// TransientDays is, for a transient bounce, how many UTC days in the
	// densest TransientBounceWindowDays around it had one.
	TransientDays int
}

// RecordMailEvent applies what the mail service reported about a message
// to an address: the rules above. Delivering the same event again changes
// nothing (each write is conditional or idempotent in the store).
func (s *Bookings) RecordMailEvent(ctx context.Context, ev MailEvent) (MailOutcome, error) {
	addr, err := mail.ParseAddress(ev.Email)
	if err != nil || addr.Name != "" || !strings.Contains(addr.Address, "@") {
		return MailOutcome{}, Errorf(InvalidEmail, "mail event: not an e-mail address: %q", ev.Email)
	}
	if ev.At.IsZero() {
		return MailOutcome{}, Errorf(InvalidRequest, "mail event: no time")
	}
	hash := EmailHash(addr.Address)
	record := func(reason UndeliverableReason) (MailOutcome, error) {
		u := Undeliverable{Reason: reason, At: ev.At.UTC().Truncate(time.Second)} // the store keeps whole seconds
		recorded, err := s.store.RecordUndeliverable(ctx, hash, u, ev.RequestCode)
		if err != nil || !recorded {
			return MailOutcome{}, err
		}
		return MailOutcome{Recorded: &u}, nil
	}
	switch ev.Kind {
	case MailBounced:
		return record(UndeliverableBounce)
	case MailComplained:
		return record(UndeliverableComplaint)
	case MailSuppressed:
		// No new bounce: an address already recorded stays as it is
		// (the first record stands, RecordUndeliverable's condition).
		// One not recorded (its record went with its requests' erasure,
		// or it was suppressed before Doorstep kept records) is still
		// one SES will not deliver to, so the truth is recorded, as the
		// bounce that put it on the list.
		return record(UndeliverableBounce)
	case MailBouncedTransient:
		span := TransientBounceWindowDays * 24 * time.Hour
		days, err := s.store.RecordTransientBounce(ctx, hash, ev.At, span, ev.RequestCode)
		if err != nil {
			return MailOutcome{}, err
		}
		n := densestDays(days, TransientBounceWindowDays)
		if n < TransientBounceDays {
			return MailOutcome{TransientDays: n}, nil
		}
		out, err := record(UndeliverableTransient)
		out.TransientDays = n
		return out, err
	}
	return MailOutcome{}, Errorf(InvalidRequest, "mail event: unknown kind %q", ev.Kind)
}

// densestDays returns the most of days (UTC midnights) that fall within
// any window of window consecutive UTC days.
func densestDays(days []time.Time, window int) int {
	sorted := make([]time.Time, 0, len(days))
	seen := map[time.Time]bool{}
	for _, d := range days {
		d = d.UTC().Truncate(24 * time.Hour)
		if !seen[d] {
			seen[d] = true
			sorted = append(sorted, d)
		}
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Before(sorted[j]) })
	best, lo := 0, 0
	for hi := range sorted {
		for sorted[hi].Sub(sorted[lo]) >= time.Duration(window)*24*time.Hour {
			lo++
		}
		best = max(best, hi-lo+1)
	}
	return best
}

// UndeliverableEmail returns the record of email, nil when mail to it is
// not known to fail, as a page shows it (Store.UndeliverableEmail).
func (s *Bookings) UndeliverableEmail(ctx context.Context, email string) (*Undeliverable, error) {
	if strings.TrimSpace(email) == "" {
		return nil, nil
	}
	u, err := s.store.UndeliverableEmail(ctx, email)
	if err != nil {
		return nil, fmt.Errorf("undeliverable e-mail: %w", err)
	}
	return u, nil
}
