package booking

import "time"

// Status is the state of a service request.
type Status string

// The states of a request.
const (
	StatusPendingPayment Status = "pending_payment"
	StatusNew            Status = "new"
	StatusAccepted       Status = "accepted"
	StatusDeclined       Status = "declined"
	StatusCompleted      Status = "completed"
	StatusCancelled      Status = "cancelled"
	StatusNoShow         Status = "no_show"
	StatusExpired        Status = "expired"
)

// Open reports whether a request in this state still waits for a reply: it
// counts against the phone number's limit of open requests.
func (s Status) Open() bool { return s == StatusNew || s == StatusPendingPayment }

// MaxOpenPerPhone is how many requests one phone number, and one e-mail
// address, may have waiting (new or pending_payment) at one business; one
// more is TOO_MANY_OPEN.
const MaxOpenPerPhone = 3

// The TOO_MANY_OPEN refusals, one for each limit, so that a form can say
// which of the person's contacts reached it (errors.Is).
var (
	ErrTooManyOpenPhone = Errorf(TooManyOpen, "this phone number already has %d open requests with this business", MaxOpenPerPhone)
	ErrTooManyOpenEmail = Errorf(TooManyOpen, "this e-mail address already has %d open requests with this business", MaxOpenPerPhone)
)

// Request is a stored service request. It holds the person's contact
// details, so it never leaves the service as it is: see StatusView.
type Request struct {
	Code              string         `json:"code"`
	BusinessSlug      string         `json:"business_slug"`
	Status            Status         `json:"status"`
	ServiceID         string         `json:"service_id,omitempty"`
	ServiceName       LocalText      `json:"service_name"`
	Window            Window         `json:"window"`
	ChangedByBusiness bool           `json:"changed_by_business"`
	Address           Address        `json:"address"`
	Contact           Contact        `json:"contact"`
	Urgency           string         `json:"urgency"`
	Description       string         `json:"description,omitempty"`
	Language          string         `json:"language"`
	AssistantName     string         `json:"assistant_name,omitempty"`
	Deposit           *DepositRecord `json:"deposit,omitempty"`
	HoldExpires       time.Time      `json:"hold_expires,omitzero"` // set while pending_payment
	Created           time.Time      `json:"created"`
	History           []Event        `json:"history,omitempty"` // oldest first; the first is the create
	// Counted is true when the store's create counted the request against
	// its business's unanswered requests and its e-mail's open ones, as
	// every create has since those limits exist: a move out of the open
	// states counts it off them again only then.
	Counted bool `json:"counted,omitempty"`
	// MailboxCounted is true when its e-mail was counted by its mailbox
	// (Mailbox: a "+tag" left out), as every count has been since; a
	// request counted before that was counted by its whole address, and is
	// counted off the same way.
	MailboxCounted bool `json:"mailbox_counted,omitempty"`
	// ReminderDue is when the person of an accepted visit is reminded of
	// its current window (Business.RemindAt), while that reminder is still
	// to be sent; and, while the request is new, when its business is
	// nudged to answer it (Business.NudgeAt), while that nudge is still to
	// be sent. Zero otherwise (sent, already past, or in another state).
	// The sweep index of reminders holds the request while it is set.
	ReminderDue time.Time `json:"reminder_due,omitzero"`
	// IdempotencyKey is the key the request was created under, "" when
	// none: erasing the request deletes that key's record (erase.go).
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	// Erased is when the person's details were erased (Erase), zero
	// while they are kept; ErasedBy is who erased them.
	Erased   time.Time `json:"erased,omitzero"`
	ErasedBy Actor     `json:"erased_by,omitempty"`
}

// SeenByBusiness reports whether the business has this request in its inbox:
// from when it is new (created without a deposit, or its deposit paid) on.
// One cancelled or expired before it was paid never reached the business;
// one that expired unanswered did.
func (r Request) SeenByBusiness() bool {
	switch r.Status {
	case StatusPendingPayment:
		return false
	case StatusExpired:
		// Stored before history was kept: only an unpaid hold could expire.
		return r.reachedNew()
	case StatusCancelled:
		return r.reachedNew() || len(r.History) == 0 // stored before history was kept
	}
	return true
}

// Address is where the work is.
type Address struct {
	Street string `json:"street"`
	Unit   string `json:"unit,omitempty"`
	City   string `json:"city,omitempty"`
	ZIP    string `json:"zip"`
}

// Contact is the person asking; Phone holds 10 digits.
type Contact struct {
	Name       string `json:"name"`
	Phone      string `json:"phone"`
	Email      string `json:"email,omitempty"`
	SMSConsent bool   `json:"sms_consent"`
}

// DepositRecord is the deposit asked for one request, copied from the
// business's terms when the request was made (the terms the person agreed
// to), and what became of it: each move sets State by DepositOutcome, in
// the same write as the request's state.
type DepositRecord struct {
	AmountCents           int    `json:"amount_cents"`
	Currency              string `json:"currency"`
	Simulated             bool   `json:"simulated"`
	FreeCancellationHours int    `json:"free_cancellation_hours"`
	State                 string `json:"state"` // one of DepositStates
	// Since is when the deposit reached State (zero in records stored
	// before it was kept: the request's creation then).
	Since time.Time `json:"since,omitzero"`
	// PaymentRef is the payment provider's reference of the payment, set
	// by the pay move: a Stripe PaymentIntent ID, or PaymentRefSimulated.
	// A refund names the payment by it.
	PaymentRef string `json:"payment_ref,omitempty"`
}

// PaymentRefSimulated is the PaymentRef of a simulated payment.
const PaymentRefSimulated = "simulated"

// HoldUntil is when the request's hold on its window lapses by itself: the end
// of the payment window while a deposit is due, otherwise the window's end,
// after which nobody can ask for the window anyway.
func (r *Request) HoldUntil() time.Time {
	if r.Status == StatusPendingPayment {
		return r.HoldExpires
	}
	return r.Window.End
}

// LapsesAt is when a request still waiting for a reply expires by itself:
// a pending_payment request when its payment hold lapses, a new one (the
// business never answered) when its window starts. It is zero in any other
// state.
func (r Request) LapsesAt() time.Time {
	switch r.Status {
	case StatusPendingPayment:
		return r.HoldExpires
	case StatusNew:
		return r.Window.Start
	}
	return time.Time{}
}

// Effective returns the request as it stands at now: a pending_payment request
// whose hold has lapsed, or a new one whose window has started unanswered, is
// expired, even before the sweeper has stored that.
func (r Request) Effective(now time.Time) Request {
	if r.Status.Open() && !now.Before(r.LapsesAt()) {
		r.Status = StatusExpired
	}
	return r
}

// Unanswered reports whether r expired because its business never answered
// it (it had reached new), rather than because its deposit was not paid.
func (r Request) Unanswered() bool {
	return r.Status == StatusExpired && r.reachedNew()
}

// reachedNew reports whether r's history shows it in state new at some
// point: the business had it in its inbox.
func (r Request) reachedNew() bool {
	for _, e := range r.History {
		if e.To == StatusNew || e.From == StatusNew {
			return true
		}
	}
	return false
}

// Created is the response to a successful createServiceRequest. It is stored
// with the idempotency key, so that a retry gets exactly the same answer.
type Created struct {
	Code       string  `json:"code"`
	Status     Status  `json:"status"`
	StatusURL  string  `json:"status_url"`
	APIURL     string  `json:"api_url"`
	PaymentURL *string `json:"payment_url"`
}

// IdempotencyRecord remembers the answer given under an idempotency key.
type IdempotencyRecord struct {
	Key      string    `json:"key"`
	BodyHash string    `json:"body_hash"`
	Response Created   `json:"response"`
	Expires  time.Time `json:"expires"`
}

// IdempotencyKeyTTL is how long an idempotency key is kept.
const IdempotencyKeyTTL = 24 * time.Hour
