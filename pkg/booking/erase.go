package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Personal data: a request's personal details (the person's name, phone,
// e-mail, street, unit and city, their own description, the idempotency
// key it was sent under) are kept only as long as they are needed. They are
// erased PersonalDataDays after the request ended (ErasePersonalData, the
// sweep), or sooner on request: by the person once the request has ended
// (CustomerErase), by its business for one ended request (Inbox.Erase), by
// the operator for every request of a contact (OperatorErase). Each
// erasure also takes the request from what SES reported about its e-mail
// address, and the address's record goes with the last request that used
// it (MailStore.ForgetMailRequest). What stays
// is what the business counts: the state, the window, the service, the ZIP
// code, the deposit's outcome and the history of moves, with the time of
// the erasure (Request.Erased).

// DefaultPersonalDataDays is how many days after a request ended its
// personal details are kept when nothing else is configured.
const DefaultPersonalDataDays = 365

// MinPersonalDataDays is the fewest days a deployment may keep them: a
// business needs its records for a while after a job (a complaint, a
// second visit, its books).
const MinPersonalDataDays = 30

// personalDataDays checks Config.PersonalDataDays (0: the default).
func personalDataDays(days int) (int, error) {
	switch {
	case days == 0:
		return DefaultPersonalDataDays, nil
	case days < MinPersonalDataDays:
		return 0, fmt.Errorf("booking: personal data must be kept at least %d days, got %d", MinPersonalDataDays, days)
	}
	return days, nil
}

// ErasureStore is the part of the Store that erases personal details.
type ErasureStore interface {
	// EraseRequest stores after, before with its personal details erased
	// (Request.Erase), in one conditional write: only if the stored
	// request is still not erased, in before's state with before's window
	// and deposit state; otherwise it fails with INVALID_TRANSITION. Before
	// that write it deletes what else named before's contact or its key:
	// its phone's and its e-mail's open-request counts when they are at
	// zero, and the idempotency record of before.IdempotencyKey when it is
	// still this request's. A blocked contact stays, as a one-way hash.
	EraseRequest(ctx context.Context, before, after Request) error

	// EndedBy calls fn with the code of each request not yet erased that
	// ended at or before t (Request.PersonalDataFrom), a page of codes at
	// a time, until there are no more or fn fails. It may list a request
	// just erased; EraseRequest's condition turns it away.
	EndedBy(ctx context.Context, t time.Time, fn func(codes []string) error) error

	// RequestsByContact calls fn with every request, at every business,
	// whose phone is phone or whose e-mail is email (any case); an empty
	// one matches nothing. It reads the whole table: the operator's
	// (OperatorErase), never a request path.
	RequestsByContact(ctx context.Context, phone, email string, fn func(Request) error) error
}

// Ended reports whether a request in this state has ended: nothing more
// can happen to it.
func (s Status) Ended() bool {
	switch s {
	case StatusDeclined, StatusCompleted, StatusCancelled, StatusNoShow, StatusExpired:
		return true
	}
	return false
}

// PersonalDataFrom is when the time its personal details are kept starts
// for a request, as stored: the end of its window for one done or a
// no-show, the move that ended it for one declined, cancelled or expired.
// It is zero while the request has not ended, and once it is erased.
func (r Request) PersonalDataFrom() time.Time {
	if !r.Erased.IsZero() {
		return time.Time{}
	}
	switch r.Status {
	case StatusCompleted, StatusNoShow:
		return r.Window.End
	case StatusDeclined, StatusCancelled, StatusExpired:
		if n := len(r.History); n > 0 {
			return r.History[n-1].At
		}
		return r.Created // stored before history was kept
	}
	return time.Time{}
}

// Erase returns r without its personal details, erased by by at now.
func (r Request) Erase(by Actor, now time.Time) Request {
	r.Contact = Contact{}
	r.Address = Address{ZIP: r.Address.ZIP}
	r.Description = ""
	r.IdempotencyKey = ""
	r.Erased = now.UTC().Truncate(time.Second)
	r.ErasedBy = by
	return r
}

// erase erases the personal details of r, as read, by by: a request
// already erased is left as it is (erasing twice is erasing once), one
// that has not ended is refused. A pending_payment or new request that
// has lapsed is expired first, as the sweep would.
func (s *Bookings) erase(ctx context.Context, r Request, by Actor, now time.Time) (Request, error) {
	if !r.Erased.IsZero() {
		return r, nil
	}
	if r.Status.Open() && r.Effective(now).Status == StatusExpired {
		expired, err := s.move(ctx, r, change{action: ActionExpire, actor: ActorSystem}, now)
		if err != nil {
			var moved *MovedError
			if !errors.As(err, &moved) {
				return Request{}, err
			}
			if expired, err = s.request(ctx, r.Code); err != nil {
				return Request{}, err
			}
		}
		r = expired
	}
	if !r.Status.Ended() {
		return Request{}, &MovedError{Errorf(InvalidTransition,
			"a request that is %s has not ended: its details can be erased once it has", r.Status), inboxView(r, now)}
	}
	after := r.Erase(by, now)
	// What SES reported about the address goes with the last request
	// that used it (MailStore.ForgetMailRequest). First, as the store's
	// own deletes: once the request is erased its address is unknown, and
	// erasing again finishes what an erasure stopped halfway began.
	if r.Contact.Email != "" {
		if err := s.store.ForgetMailRequest(ctx, EmailHash(r.Contact.Email), r.Code); err != nil {
			return Request{}, err
		}
	}
	if err := s.store.EraseRequest(ctx, r, after); err != nil {
		if ErrorCode(err) != InvalidTransition {
			return Request{}, err
		}
		fresh, ferr := s.request(ctx, r.Code)
		if ferr != nil {
			return Request{}, err
		}
		if !fresh.Erased.IsZero() {
			return fresh, nil // another erasure came first: the same result
		}
		if fresh.Status == r.Status {
			return s.erase(ctx, fresh, by, now) // only its deposit's record changed
		}
		return Request{}, &MovedError{err, inboxView(fresh, now)}
	}
	return after, nil
}

// CustomerErase erases the personal details of the request with the given
// code, as the person who sent it (the code is the capability, as for
// cancelling): once it has ended. It cannot be undone.
func (s *Bookings) CustomerErase(ctx context.Context, code string) (Request, error) {
	r, err := s.request(ctx, code)
	if err != nil {
		return Request{}, err
	}
	return s.erase(ctx, r, ActorCustomer, s.now())
}

// Erase erases the personal details of one of the business's ended
// requests. It cannot be undone.
func (in *Inbox) Erase(ctx context.Context, code string) (InboxRequest, error) {
	r, err := in.request(ctx, code)
	if err != nil {
		return InboxRequest{}, err
	}
	now := in.s.now()
	after, err := in.s.erase(ctx, r, ActorBusiness, now)
	if err != nil {
		return InboxRequest{}, in.reachedMoved(ctx, err)
	}
	return in.view(ctx, after, now)
}

// ErasedRequest is one request OperatorErase erased.
type ErasedRequest struct {
	Code         string
	BusinessSlug string
	// Status is the state it was left in; Cancelled is true when the
	// erasure cancelled it first.
	Status    Status
	Cancelled bool
}

// OperatorErase erases the personal details of every request, at every
// business, of the contact with the given phone or e-mail (one of them;
// the phone read as a create reads it), ended or not: a live request is
// cancelled first, as the operator, with the messages and the refund of
// any cancel. It returns what it erased, including the requests erased
// before; a request it could not erase stops it with an error, after those
// it did.
func (s *Bookings) OperatorErase(ctx context.Context, phone, email string) ([]ErasedRequest, error) {
	phone, email = strings.TrimSpace(phone), strings.TrimSpace(email)
	switch {
	case phone == "" && email == "":
		return nil, Errorf(InvalidRequest, "name the contact to erase: a phone or an e-mail address")
	case phone != "" && email != "":
		return nil, Errorf(InvalidRequest, "name one contact at a time: a phone or an e-mail address")
	case phone != "":
		p, ok := NormalizePhone(phone)
		if !ok {
			return nil, Errorf(InvalidPhone, "%s is not a US phone number", excerpt(phone))
		}
		phone = p
	}
	var found []Request
	if err := s.store.RequestsByContact(ctx, phone, email, func(r Request) error {
		found = append(found, r)
		return nil
	}); err != nil {
		return nil, err
	}
	erased := make([]ErasedRequest, 0, len(found))
	for _, r := range found {
		now := s.now()
		e := ErasedRequest{Code: r.Code, BusinessSlug: r.BusinessSlug}
		if st := r.Effective(now).Status; !st.Ended() && r.Erased.IsZero() {
			cancelled, err := s.move(ctx, r, change{action: ActionCancel, actor: ActorOperator}, now)
			if err != nil {
				// Moved meanwhile: erase it as it now stands.
				if ErrorCode(err) != InvalidTransition {
					return erased, err
				}
				if cancelled, err = s.request(ctx, r.Code); err != nil {
					return erased, err
				}
			} else {
				e.Cancelled = true
			}
			r = cancelled
		}
		after, err := s.erase(ctx, r, ActorOperator, now)
		if err != nil {
			return erased, fmt.Errorf("erase %s: %w", LogRef(r.Code), err)
		}
		e.Status = after.Status
		erased = append(erased, e)
	}
	return erased, nil
}

// MaxErasuresPerSweep bounds the requests one sweep erases, so that a
// sweep stays short; the next one goes on where it stopped.
const MaxErasuresPerSweep = 500

// EraseResult says what ErasePersonalData did.
type EraseResult struct {
	Erased  int // requests whose details this sweep erased
	Skipped int // requests erased or changed by someone else first
}

// errSweepFull stops a sweep's list at MaxErasuresPerSweep.
var errSweepFull = errors.New("this sweep erased as many requests as one sweep erases")

// ErasePersonalData erases, as the sweeper, the personal details of every
// request that ended PersonalDataDays or more before now: a done or
// no-show request that many days after its window, a declined, cancelled
// or expired one that many days after the move that ended it. It erases
// at most MaxErasuresPerSweep, a page at a time, and is safe to run twice
// or concurrently: a request erased already is skipped.
func (s *Bookings) ErasePersonalData(ctx context.Context, now time.Time) (EraseResult, error) {
	cutoff := s.PersonalDataCutoff(now)
	var listed int
	list := func(ctx context.Context, _ time.Time, fn func(codes []string) error) error {
		err := s.store.EndedBy(ctx, cutoff, func(codes []string) error {
			if listed >= MaxErasuresPerSweep {
				return errSweepFull
			}
			codes = codes[:min(len(codes), MaxErasuresPerSweep-listed)]
			listed += len(codes)
			return fn(codes)
		})
		if errors.Is(err, errSweepFull) {
			return nil
		}
		return err
	}
	erase := func(code string) error {
		r, err := s.request(ctx, code)
		if err != nil {
			return err
		}
		// The index is eventually consistent: check the request as read.
		if from := r.PersonalDataFrom(); from.IsZero() || from.After(cutoff) {
			return Errorf(InvalidTransition, "request %s is not due for erasure", LogRef(code))
		}
		_, err = s.erase(ctx, r, ActorSystem, now)
		return err
	}
	erased, skipped, err := eachListed(ctx, now, list, sweepWorkers, erase)
	return EraseResult{Erased: erased, Skipped: skipped}, err
}

// PersonalDataCutoff is the latest end (Request.PersonalDataFrom) of a
// request whose personal details are due for erasure at now.
func (s *Bookings) PersonalDataCutoff(now time.Time) time.Time {
	return now.AddDate(0, 0, -s.personalDataDays)
}

// PersonalDataDays is how many days after a request ended its personal
// details are kept.
func (s *Bookings) PersonalDataDays() int { return s.personalDataDays }
