package pages

import (
	"html/template"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
	"github.com/doorstep/doorstep/pkg/htmlpage"
)

// The views hold only what a page may show. They are built from the stored
// request field by field, so the person's name, phone, email, street and
// ZIP cannot reach a template: of the address, only the city is shown.

// statusView is the status page of a request.
type statusView struct {
	Code      string
	State     string // the request's state, booking.Status
	Title     string // the state in plain words
	Hint      string
	Notice    string // what just happened, if anything
	Business  string
	Phone     string
	PhoneLink template.URL
	Service   string
	Window    string
	Moved     bool
	City      string
	Deposit   *depositView
	PayURL    string // while the deposit is due
	CancelURL string // while the person may cancel
	// CalendarURL is the visit as a calendar event (/r/{code}.ics), once
	// the business has accepted it.
	CalendarURL string
	NotAnAppt   bool // while the business has not confirmed
	// Private says who can see the page, and cancel the request while it
	// can be cancelled.
	Private    string
	StatusPath string
	// HearBack says how the business's answer reaches the person, and
	// offers to add a way (hearback.go); nil once nothing more is told.
	HearBack *hearBackView
	// Erased says when the person's details were erased; EraseURL, once
	// the request has ended, erases them (erase.go).
	Erased   string
	EraseURL string
	// BookURL is the business's booking form, to ask for another time
	// once the request was declined, cancelled or expired.
	BookURL string
}

// depositView is a request's deposit: its amount, what became of it and
// the rules that decide.
type depositView struct {
	Amount     string
	State      string // one of booking.DepositStates
	Sentence   string
	Note       string // simulated deposits say so
	RefundNote string
	Rules      []string
	TermsURL   string
}

// payView is the simulated payment page.
type payView struct {
	Code       string
	Business   string
	Amount     string
	PayBy      string
	Deposit    *depositView
	Button     string
	StatusPath string
}

// cancelView is the cancel confirmation page.
type cancelView struct {
	Code        string
	Business    string
	Window      string
	Consequence string
	Outcome     string // the deposit state the cancel leads to, confirmed with the form
	Changed     bool   // the consequence changed since the person last read it
	StatusPath  string
}

// messageView is a page with one message: not found, an error.
type messageView struct {
	Heading string
	Text    string
	Back    string // a link back to the status page, if any
}

// language returns the request's language, en unless it is es.
func language(r booking.Request) string {
	if r.Language == "es" {
		return "es"
	}
	return "en"
}

// buildStatus builds the status page of r (as read, not yet Effective) of b
// at now.
func buildStatus(r booking.Request, b *booking.Business, now time.Time) statusView {
	lang, loc := language(r), b.Location()
	r = r.Effective(now)
	v := statusView{
		Code:       r.Code,
		State:      string(r.Status),
		Title:      tr(lang, "state_"+string(r.Status)),
		Business:   b.Name,
		Service:    r.ServiceName.In(lang),
		Window:     display.Window(lang, r.Window.Start, r.Window.End, loc),
		Moved:      r.ChangedByBusiness,
		City:       r.Address.City,
		StatusPath: "/r/" + r.Code,
		NotAnAppt:  r.Status == booking.StatusNew || r.Status == booking.StatusPendingPayment,
	}
	if r.Unanswered() {
		v.Title = tr(lang, "state_unanswered") // not an unpaid deposit
	}
	v.Phone, v.PhoneLink = htmlpage.Phone(b.Phone)
	switch r.Status {
	case booking.StatusPendingPayment:
		v.Hint = tr(lang, "hint_pending_payment", b.Name, display.Moment(lang, r.HoldExpires, loc))
	case booking.StatusCancelled, booking.StatusExpired:
		v.Hint = tr(lang, "hint_"+string(r.Status))
	case booking.StatusAccepted:
		v.Hint = tr(lang, "hint_accepted", b.Name)
		if r.ChangedByBusiness {
			// An offer of another window answered it, or the business
			// moved the visit: the person may cancel (issue 20).
			v.Hint = tr(lang, "hint_accepted_moved", b.Name)
		}
	default:
		v.Hint = tr(lang, "hint_"+string(r.Status), b.Name)
	}
	v.Deposit = buildDeposit(r, b, lang)
	if v.Deposit != nil && v.Deposit.State == booking.DepositDue {
		v.PayURL = "/pay/" + r.Code
		if !r.Deposit.Simulated {
			v.PayURL = checkoutPath(r.Code)
		}
	}
	v.Private = tr(lang, "private_view")
	if _, err := booking.Allowed(r.Status, booking.ActionCancel, booking.ActorCustomer); err == nil {
		v.CancelURL = "/r/" + r.Code + "/cancel"
		v.Private = tr(lang, "private") // the address also cancels it
	}
	if r.Status == booking.StatusAccepted {
		v.CalendarURL = "/r/" + r.Code + ".ics"
	}
	eraseFields(&v, r, lang, loc)
	switch r.Status {
	case booking.StatusDeclined, booking.StatusCancelled, booking.StatusExpired:
		// The booking form at /book/{slug} (pkg/bookform), in the
		// request's language.
		v.BookURL = "/book/" + b.Slug + "?lang=" + lang
	}
	return v
}

// buildDeposit describes r's deposit (r as it stands: Effective); nil when
// none was asked for.
func buildDeposit(r booking.Request, b *booking.Business, lang string) *depositView {
	d, ds := r.Deposit, r.DepositView()
	if ds == nil {
		return nil
	}
	loc := b.Location()
	state, since := ds.State, ds.Since
	amount := display.Money(d.AmountCents, d.Currency)
	v := &depositView{Amount: amount, State: state}
	switch state {
	case booking.DepositDue:
		v.Sentence = tr(lang, "deposit_due", amount, display.Moment(lang, r.HoldExpires, loc))
	case booking.DepositExpired, booking.DepositCancelled:
		v.Sentence = tr(lang, "deposit_"+state)
	default:
		v.Sentence = tr(lang, "deposit_"+state, amount, display.Day(lang, since, loc))
	}
	switch {
	case d.Simulated && b.Preview:
		v.Note = tr(lang, "simulated_note")
	case d.Simulated:
		// Simulated because this server takes no real payment.
		v.Note = tr(lang, "local_note")
	case state == booking.DepositRefunded:
		v.RefundNote = tr(lang, "refund_card")
	}
	v.Rules = htmlpage.DepositRules(lang, d.FreeCancellationHours)
	if b.BookingDeposit != nil {
		v.TermsURL = b.BookingDeposit.TermsURL
	}
	return v
}

// cancelOutcome returns what cancelling r at now does to its deposit, and
// the sentence that says so; ok is false when the person may not cancel.
func cancelOutcome(r booking.Request, b *booking.Business, now time.Time) (outcome, sentence string, ok bool) {
	lang, loc := language(r), b.Location()
	r = r.Effective(now)
	t, err := booking.Allowed(r.Status, booking.ActionCancel, booking.ActorCustomer)
	if err != nil {
		return "", "", false
	}
	outcome = booking.DepositOutcome(r, t, booking.ActorCustomer, now)
	d := r.Deposit
	switch {
	case d == nil:
		return outcome, tr(lang, "cancel_no_deposit"), true
	case outcome == booking.DepositCancelled:
		return outcome, tr(lang, "cancel_unpaid"), true
	case outcome == booking.DepositRefunded && r.ChangedByBusiness:
		return outcome, tr(lang, "cancel_moved", display.Money(d.AmountCents, d.Currency)), true
	case outcome == booking.DepositRefunded:
		return outcome, tr(lang, "cancel_early", d.FreeCancellationHours, display.Money(d.AmountCents, d.Currency),
			display.Moment(lang, r.FreeCancellationUntil(), loc)), true
	default:
		return outcome, tr(lang, "cancel_late", d.FreeCancellationHours, display.Money(d.AmountCents, d.Currency)), true
	}
}
