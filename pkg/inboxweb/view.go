package inboxweb

import (
	"html/template"
	"net/url"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
	"github.com/doorstep/doorstep/pkg/htmlpage"
)

// The views hold only what a page shows, built from the request as the
// business sees it (booking.InboxRequest) field by field. What the person
// wrote is shown as text, never as markup or a link (but the phone, as a
// tel: link of its digits).

// signInView is the sign-in form: a first visit, a wrong address, or a
// link that cannot be used any more.
type signInView struct {
	Next    string // the inbox page to go back to once signed in, if not the inbox
	Email   string // as typed, when it was no e-mail address
	Invalid bool
	Spent   bool // the link was spent, expired or unknown
	// ByText: this server sends texts, so the form offers a code texted
	// to the business's confirmed number instead of a link. It is the
	// server's, not the address's: the page is the same for any address.
	ByText bool
}

// sentView is the answer to the sign-in form: the link is on its way (if
// the address is a business's), or the hourly limit is reached.
type sentView struct {
	Limited string // the limit reached, and when to try again
}

// tokenView is the page of a sign-in link: the button that spends it.
type tokenView struct {
	Action  string
	Next    string
	Request bool // a one-tap link: the button opens a request
}

// messageView is a page with one message: not found, refused, an error.
type messageView struct {
	// Back and BackText are the way on, when not back to the inbox.
	Back, BackText string
	Heading        string
	Text           string
}

// inboxView is the list of the business's requests, in sections.
type inboxView struct {
	Paused  bool
	Live    liveView // going live (golive.go)
	Notice  string
	Bounced *bouncedView // mail to the inbox address cannot be delivered
	Soon    []dayView    // accepted, today and tomorrow
	Answer  []itemView   // new: the ones without a deposit, then the paid ones
	DayOff  []itemView   // new or accepted, on one of the business's days off
	Days    []dayView    // accepted, after tomorrow
	Rest    []itemView   // past jobs, then everything settled, newest first
	More    string       // the next page of the rest
	Empty   bool
}

type dayView struct {
	Day   string
	Items []itemView
}

// itemView is one request in the list: whose (the name the person gave),
// what and when, so the owner finds "Maria's job" at a glance.
type itemView struct {
	Path      string
	Code      string
	Name      string
	State     string
	StateText string
	Window    string
	Service   string
	Emergency bool
	Urgency   string
	Place     string // city and ZIP
	Ago       string
	Assistant string
	Deposit   string
	// Unreachable marks a live request whose person nobody writes to
	// (booking.PersonReach): the business calls them.
	Unreachable *unreachableView
}

// unreachableView is the mark of a request nobody writes to the person
// of, in a list: the words, and the phone to call.
type unreachableView struct {
	Text      string
	Call      string
	Phone     string
	PhoneLink template.URL
}

// toldView says, after a move, how the person hears of it: Text alone,
// or, when nobody writes to them, Text, the phone to call and After.
type toldView struct {
	Text      string
	Call      bool
	Phone     string
	PhoneLink template.URL
	After     string
}

// requestView is the page of one request.
type requestView struct {
	Code       string
	State      string
	StateText  string
	Notice     string
	Warn       bool
	Service    string
	Window     string
	Moved      bool
	Emergency  bool
	Urgency    string
	Received   string
	Name       string
	Phone      string
	PhoneLink  template.URL
	Email      string
	Address    []string
	MapLink    string // the address in a map app
	Quote      string // the description, the person's own words
	SMS        string
	Language   string
	Assistant  string
	Deposit    string
	History    []eventView
	Accept     bool         // accept is allowed now: a one-tap form
	Actions    []actionLink // the other moves that fit now, each to confirm
	Spam       *actionLink  // "not a genuine request", apart
	CSRF       string
	AcceptPath string
	// Erased says when the person's details were erased; Erase offers to
	// erase them, once the request has ended (erase.go).
	Erased string
	Erase  *actionLink
	// Told says, after a move the person hears of, how they do.
	Told *toldView
	// Unreachable says that nobody writes to the person
	// (booking.PersonReach), and why; shown next to the phone while the
	// request is live. "" when someone does.
	Unreachable string
}

type eventView struct {
	At   string
	Text string
}

type actionLink struct {
	Path   string
	Label  string
	Action string
	Danger bool
	Hint   string // what it does, next to it: a decline and a cancel say how they differ
}

// confirmView is the step before a move.
type confirmView struct {
	Heading     string
	Action      string
	Code        string
	Path        string
	CSRF        string
	Summary     string
	Explain     string
	Consequence string
	Outcome     string // the deposit's state after the move, confirmed with the form
	Changed     bool   // the consequence changed since it was shown
	Button      string
	Danger      bool
	// Told, for a move the person would hear of when nobody writes to
	// them: that the business should call them, and the number.
	Told *toldView
}

// moveView is the open windows to offer instead: the days that have
// any, and the windows of the day picked.
type moveView struct {
	Code    string
	Path    string
	CSRF    string
	Summary string
	Explain string // what the move does, and how the person hears of it
	Problem string
	Days    []windowDay
	Picked  *windowDay // the day whose windows are shown, if one is picked
}

type windowDay struct {
	Date    string // YYYY-MM-DD in the business's time zone, the ?day= of Path
	Day     string
	Path    string // the picker with this day picked
	Count   string // how many windows, in words
	Current bool
	Windows []windowChoice
}

type windowChoice struct {
	Start string // RFC 3339, as the move takes it
	Label string
}

// settingsView is the settings page (online requests on or off, and the
// sections), or one of its sections, with its forms.
type settingsView struct {
	Section  string        // the section shown (its key), "" for the settings page
	Title    string        // the section's title
	Sections []sectionLink // every section, each a tap away
	On       bool
	// CanResume: paused, and the business has what a request needs; a
	// business that has not is told to finish its checklist instead.
	CanResume bool
	Preview   bool   // in preview: its requests reach the preview inbox
	Confirm   string // "on" or "off": the step that confirms the change
	Notice    string
	CSRF      string
	// Version is the schedule's version the forms change (a form of an
	// older one is refused, as changed meanwhile).
	Version  string
	Problems []fieldProblem    // what is wrong with the form refused, listed at the top
	Invalid  map[string]string // and next to each field, by its id
	DaysOff  []dayOffView
	Add      dayOffForm // the refused day off, to fix
	// NoticeHours and NoticeMinutes are min_notice_minutes.
	NoticeHours, NoticeMinutes string
	Crews                      string // crews_per_window
	Days                       []hoursDay
	ReminderHour               int
	Hours                      []hourChoice
	FeedOn                     bool // the business has a calendar feed
	Embed                      embedView
	// Texts is the section "Ways to be told" (ownertexts.go).
	Texts textsView
	// History is the section "History": the last changes, newest first (golive.go).
	History []historyView
	// Offer is the sections of what the business offers (offer.go).
	Offer offerView
}

// feedView is the page that shows a new calendar feed's address.
type feedView struct {
	Address string
	Webcal  template.URL // the address as a webcal: link, which calendar apps subscribe to
	Script  template.JS  // copyScript, allowed by its hash
}

type dayOffView struct {
	Index int
	Label string
	Note  string
}

type dayOffForm struct{ From, To, Note string }

// hoursDay is one day of the weekly hours: its intervals, and an empty
// row for one more.
type hoursDay struct {
	Key, Name string
	AllDay    bool // open 24 hours: its rows are hidden, and do not count
	Rows      []hoursRow
}

// sectionLink is the link to a section of the settings.
type sectionLink struct {
	Key, Path, Title string
	Tab              string   // its short name, in the row of sections
	Current          bool     // the section shown
	Summary          []string // what it holds now, on the settings page
}

type hoursRow struct {
	N                 int
	Open, Close       string // as the site shows a time, or as typed in a refused form
	OpenErr, CloseErr string // what is wrong with each
}

// fieldProblem is a line of the list of what is wrong with a refused
// form: a link to the field it is about, if any.
type fieldProblem struct {
	Field string // the field's id; "" for the form as a whole
	Text  string
}

type hourChoice struct {
	Hour  int
	Label string
}

// stateText is the request's state in lang, an unanswered expiry apart.
func stateText(st booking.Status, lang string) string {
	return tr(lang, "state_"+string(st))
}

func buildItem(req booking.InboxRequest, b *booking.Business, lang string, now time.Time) itemView {
	loc := b.Location()
	v := itemView{
		Path: requestPath(req.Code), Code: req.Code, Name: req.Contact.Name, State: string(req.Status), StateText: stateText(req.Status, lang),
		Window:    display.Window(lang, req.ArrivalWindow.Start, req.ArrivalWindow.End, loc),
		Service:   req.Service.In(lang),
		Emergency: req.Urgency == "emergency",
		Urgency:   tr(lang, "urgency_"+req.Urgency),
		Place:     strings.TrimSpace(req.Address.City + " " + req.Address.ZIP),
		Ago:       ago(lang, now.Sub(req.Created)),
		Deposit:   depositText(req.Deposit, lang),
	}
	if req.AssistantName != nil {
		v.Assistant = tr(lang, "via_assistant", *req.AssistantName)
	}
	if req.Erased != nil {
		// The card's name line says why it has no name.
		v.Name, v.Place = tr(lang, "details_erased"), req.Address.ZIP
	}
	if unreachable(req) {
		u := &unreachableView{Text: unreachableText(req, lang), Call: tr(lang, "unreachable_call")}
		u.Phone, u.PhoneLink = phone(req.Contact.Phone)
		v.Unreachable = u
	}
	return v
}

// unreachable reports whether req is live (new or accepted: an answer or
// a change may still come) and nobody writes to its person
// (booking.PersonReach).
func unreachable(req booking.InboxRequest) bool {
	live := req.Status == booking.StatusNew || req.Status == booking.StatusAccepted
	return live && req.Reach.None()
}

// unreachedSuffix is "_unreached" for a move the person would hear of
// (tellsPerson) when nobody writes to them (booking.PersonReach): the
// hints and explanations then say so, as the confirmation does, instead
// of "the person is told".
func unreachedSuffix(req booking.InboxRequest, action booking.Action) string {
	if tellsPerson[action] && req.Reach.None() {
		return "_unreached"
	}
	return ""
}

// unreachableText is the mark of a request nobody writes to the person
// of: why, when a way they chose does not reach them.
func unreachableText(req booking.InboxRequest, lang string) string {
	switch req.Reach.Held {
	case "":
		return tr(lang, "unreachable")
	case booking.HeldUndeliverable:
		return tr(lang, "unreachable_held_undeliverable", booking.MaskEmail(req.Contact.Email))
	}
	return tr(lang, "unreachable_held_"+string(req.Reach.Held))
}

func buildRequest(req booking.InboxRequest, b *booking.Business, lang string, now time.Time) requestView {
	loc := b.Location()
	c, a := req.Contact, req.Address
	v := requestView{
		Code: req.Code, State: string(req.Status), StateText: stateText(req.Status, lang),
		Service:   req.Service.In(lang),
		Window:    display.Window(lang, req.ArrivalWindow.Start, req.ArrivalWindow.End, loc),
		Moved:     req.ChangedByBusiness,
		Emergency: req.Urgency == "emergency",
		Urgency:   tr(lang, "urgency_"+req.Urgency),
		Received:  display.Moment(lang, req.Created, loc) + " (" + ago(lang, now.Sub(req.Created)) + ")",
		Name:      c.Name,
		Email:     c.Email,
		Quote:     req.Description,
		SMS:       tr(lang, "sms_no"),
		Language:  tr(lang, "lang_"+req.Language),
		Deposit:   depositText(req.Deposit, lang),
	}
	v.Phone, v.PhoneLink = phone(c.Phone)
	if unreachable(req) {
		v.Unreachable = unreachableText(req, lang)
	}
	if c.SMSConsent {
		v.SMS = tr(lang, "sms_yes")
	}
	street := a.Street
	if a.Unit != "" {
		street += ", " + a.Unit
	}
	place := strings.TrimSpace(a.City + " " + a.ZIP)
	v.Address = []string{street, place} // as sent
	v.MapLink = "https://www.google.com/maps/search/?api=1&query=" + url.QueryEscape(a.Street+", "+place)
	if req.AssistantName != nil {
		v.Assistant = *req.AssistantName
	}
	for _, e := range req.History {
		text := eventText(e, lang)
		if e.Action == booking.ActionMove {
			text += " · " + display.Window(lang, e.Window.Start, e.Window.End, loc)
		}
		v.History = append(v.History, eventView{At: display.Moment(lang, e.At, loc), Text: text})
	}
	for _, action := range pageActions[req.Status] {
		if _, err := booking.Allowed(req.Status, action, booking.ActorBusiness); err != nil || tooEarly(req, action, now) {
			continue
		}
		link := actionLink{
			Path: requestPath(req.Code) + "/" + string(action), Label: tr(lang, "action_"+string(action)), Action: string(action),
			Danger: action == booking.ActionDecline || action == booking.ActionCancel || action == booking.ActionSpam,
		}
		switch action {
		case booking.ActionAccept:
			v.Accept, v.AcceptPath = true, link.Path
		case booking.ActionSpam:
			link.Hint = tr(lang, "explain_spam")
			v.Spam = &link
		default:
			if link.Danger {
				link.Hint = tr(lang, "hint_"+string(action)+unreachedSuffix(req, action))
			}
			v.Actions = append(v.Actions, link)
		}
	}
	eraseFields(&v, req, lang, b) // erase.go
	return v
}

// pageActions are the moves a request's page offers in each state, in
// their order, each when the lifecycle allows it (and done or no-show once
// the window started): a new request is accepted, moved or declined (or
// marked not genuine, apart); an accepted job is marked, moved or
// cancelled. Any other move the lifecycle allows (cancelling a new
// request: a decline) stays at its own address, unlisted.
var pageActions = map[booking.Status][]booking.Action{
	booking.StatusNew:      {booking.ActionAccept, booking.ActionMove, booking.ActionDecline, booking.ActionSpam},
	booking.StatusAccepted: {booking.ActionComplete, booking.ActionNoShow, booking.ActionMove, booking.ActionCancel},
}

// summary names a request on a confirm page: service, window, city.
func summary(req booking.InboxRequest, b *booking.Business, lang string) string {
	s := req.Service.In(lang) + " · " + display.Window(lang, req.ArrivalWindow.Start, req.ArrivalWindow.End, b.Location())
	if req.Address.City != "" {
		s += " · " + req.Address.City
	}
	return s
}

// eventText is one event of the history: what, by whom, and the window
// when a move changed it.
func eventText(e booking.Event, lang string) string {
	return tr(lang, "ev_"+string(e.Action)) + " · " + tr(lang, "by_"+string(e.By))
}

// depositText is the deposit's state in a few words, marked when it is
// simulated (no money moves); "" when none was asked for.
func depositText(d *booking.DepositStatus, lang string) string {
	if d == nil {
		return ""
	}
	s := tr(lang, "deposit_"+d.State, display.Money(d.AmountCents, d.Currency))
	if d.Simulated {
		s += " (" + tr(lang, "deposit_simulated") + ")"
	}
	return s
}

// consequence is what action does to req's deposit now, by the booking
// rules (booking.DepositOutcome): the state it leads to, and the sentence
// that says so ("" when the request has no deposit or the move leaves it
// as it is, unpaid).
func consequence(req booking.InboxRequest, action booking.Action, lang string, now time.Time) (outcome, sentence string) {
	t, err := booking.Allowed(req.Status, action, booking.ActorBusiness)
	d := req.Deposit
	if err != nil || d == nil {
		return "", ""
	}
	outcome = depositOutcome(req, t, now)
	amount := display.Money(d.AmountCents, d.Currency)
	switch {
	case outcome == d.State && outcome == booking.DepositPaid:
		return outcome, tr(lang, "then_still_paid", amount)
	case outcome == d.State:
		return outcome, ""
	default:
		return outcome, tr(lang, "then_"+outcome, amount)
	}
}

// depositOutcome is the state t leaves req's deposit in, made now
// (booking.DepositOutcome); "" when req has no deposit.
func depositOutcome(req booking.InboxRequest, t booking.Transition, now time.Time) string {
	d := req.Deposit
	if d == nil {
		return ""
	}
	r := booking.Request{
		Code: req.Code, Status: req.Status, Window: req.ArrivalWindow, ChangedByBusiness: req.ChangedByBusiness,
		Deposit: &booking.DepositRecord{AmountCents: d.AmountCents, Currency: d.Currency, Simulated: d.Simulated, State: d.State, Since: d.Since},
	}
	return booking.DepositOutcome(r, t, booking.ActorBusiness, now)
}

// ago says how long ago something happened, roughly.
func ago(lang string, d time.Duration) string {
	switch {
	case d < time.Minute:
		return tr(lang, "ago_now")
	case d < time.Hour:
		return tr(lang, "ago_min", int(d/time.Minute))
	case d < 48*time.Hour:
		return tr(lang, "ago_h", int(d/time.Hour))
	default:
		return tr(lang, "ago_days", int(d/(24*time.Hour)))
	}
}

// phone writes a person's phone (ten digits) for people, (512) 555-0142,
// and as a tel: link of its digits only.
func phone(p string) (string, template.URL) {
	if len(p) != 10 || strings.Trim(p, "0123456789") != "" {
		return p, ""
	}
	return htmlpage.Phone("+1" + p)
}

func urlQuery(s string) string { return url.QueryEscape(s) }
