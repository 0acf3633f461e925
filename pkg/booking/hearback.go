package booking

import (
	"context"
	"strings"
	"time"
)

// How the person hears back (decisions.md, "How the person hears back"): a
// request's answer reaches the person by every way they chose, e-mail when
// they gave one and text when SMSConsent is true. While the request is
// live, the person (whoever holds its code) may add a way on the status
// page: an e-mail address, or texts to the phone given.

// ActionContact is only in history, like ActionCreate and ActionRemind:
// the person added a way to hear back (Event.Added says which). It is no
// transition of the Lifecycle: the request stays in its state. notify sends
// the new way, and only it, one message with the status page at once; the
// request's later changes reach every way it has.
const ActionContact Action = "contact"

// The ways a person hears back, as Event.Added names them.
const (
	WayEmail = "email"
	WaySMS   = "sms"
)

// MaxContactChanges is how many ways a request's status page may add or
// change in the request's life: each is a message Doorstep sends, on the
// word of whoever holds the code, so they are few.
const MaxContactChanges = 3

// Ways returns the ways c hears back: WayEmail when it has an e-mail
// address, WaySMS when it allowed texts; none when nobody will write to it.
func (c Contact) Ways() []string {
	var ways []string
	if c.Email != "" {
		ways = append(ways, WayEmail)
	}
	if c.SMSConsent {
		ways = append(ways, WaySMS)
	}
	return ways
}

// Silent reports whether nobody will write to c: no e-mail, no texts.
func (c Contact) Silent() bool { return c.Email == "" && !c.SMSConsent }

// ContactChanges counts the ways r's status page added (ActionContact events).
func (r Request) ContactChanges() int {
	n := 0
	for _, e := range r.History {
		if e.Action == ActionContact {
			n++
		}
	}
	return n
}

// CanAddContact reports whether r, as it stands at now, may still add a way
// to hear back: it is live (new, pending_payment, accepted) and has made
// fewer than MaxContactChanges changes.
func (r Request) CanAddContact(now time.Time) bool {
	return r.Effective(now).Status.Live() && r.ContactChanges() < MaxContactChanges
}

// Live reports whether a request in this state still has an answer or a
// visit ahead (new, pending_payment, accepted): its person is still told
// of its changes, and may add a way to be told.
func (s Status) Live() bool {
	return s == StatusNew || s == StatusPendingPayment || s == StatusAccepted
}

// AddEmail sets the e-mail address the request with the given code is
// answered at: one when it had none, or another (a mistyped address
// corrected). The same address again changes nothing and sends nothing.
func (s *Bookings) AddEmail(ctx context.Context, code, email string) (Request, error) {
	email = strings.TrimSpace(email)
	normal, ok := NormalizeEmail(email)
	switch {
	case email == "":
		return Request{}, Errorf(InvalidEmail, "email is empty: type the address to be told at")
	case !ok:
		return Request{}, Errorf(InvalidEmail, "email does not look like an e-mail address: %s", excerpt(email))
	}
	return s.addContact(ctx, code, WayEmail, func(c *Contact) bool {
		if strings.EqualFold(c.Email, normal) {
			return false
		}
		c.Email = normal
		return true
	})
}

// AllowTexts turns texts on for the request with the given code: its
// answer is also texted to the phone it gave. Already on, it changes
// nothing.
func (s *Bookings) AllowTexts(ctx context.Context, code string) (Request, error) {
	return s.addContact(ctx, code, WaySMS, func(c *Contact) bool {
		if c.SMSConsent {
			return false
		}
		c.SMSConsent = true
		return true
	})
}

// addContact applies set to the contact of the request with the given
// code and stores it with an ActionContact event, in one conditional write
// (Store.ChangeContact), while the request is live and under
// MaxContactChanges. set returns false when nothing changes: the request is
// returned as it is, and nothing is written or sent.
func (s *Bookings) addContact(ctx context.Context, code, way string, set func(*Contact) bool) (Request, error) {
	r, b, err := s.CustomerRequest(ctx, code)
	if err != nil {
		return Request{}, err
	}
	// An example business writes to nobody, ever (PersonReach's
	// HeldExample, whatever the deployment): it takes no way to be told,
	// as its status page offers none, and none is stored. A preview
	// business's ways are stored: its messages, the one a way added
	// sends among them, go to its preview inbox, where its owner sees
	// what the person would get.
	if PersonReach(b, Contact{Email: "added", Phone: r.Contact.Phone, SMSConsent: true}, Delivery{}).Held == HeldExample {
		return Request{}, ErrNoWaysHere
	}
	return s.addContactTo(ctx, r, way, set)
}

// ErrNoWaysHere refuses a way to be told added to a request of an example
// business, which writes to nobody.
var ErrNoWaysHere = Errorf(RequestRefused, "this is an example business, which writes to nobody: no way to be told can be added; its answer shows on the status page")

// addContactTo is addContact on r as read. A reminder or a nudge the
// sweeper recorded since the read fails the store's condition (the
// history's length) without anything the person should hear of: the way
// is then added again to the request as it now stands. Each retry follows
// a reminder that happened, so they end; any other change since the read
// (a move, another way added) is a conflict.
func (s *Bookings) addContactTo(ctx context.Context, r Request, way string, set func(*Contact) bool) (Request, error) {
	now := s.now()
	if st := r.Effective(now).Status; !st.Live() {
		return Request{}, Errorf(InvalidTransition, "a request that is %s no longer changes how the person hears back", st)
	}
	after := r
	if !set(&after.Contact) {
		return r, nil
	}
	if r.ContactChanges() >= MaxContactChanges {
		return Request{}, Errorf(RateLimited, "this request changed how the person hears back %d times already: call the business", MaxContactChanges)
	}
	after.History = append(append([]Event(nil), r.History...), Event{
		At: now.UTC().Truncate(time.Second), By: ActorCustomer, Action: ActionContact,
		From: r.Status, To: r.Status, Window: r.Window, Added: way,
	})
	if err := s.store.ChangeContact(ctx, r, after, now); err != nil {
		if ErrorCode(err) == InvalidTransition {
			if fresh, ferr := s.store.Request(ctx, r.Code); ferr == nil && notedOnly(r, *fresh, ActionRemind, ActionNudge) {
				return s.addContactTo(ctx, *fresh, way, set)
			}
		}
		return Request{}, err
	}
	return after, nil
}
