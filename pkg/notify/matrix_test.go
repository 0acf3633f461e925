package notify_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
)

var both = contact{email: true, sms: true}

// messages runs the matrix on a change: every change from before (nil for a
// create) to after, each composed for b.
func messages(c notify.Composer, before *booking.Request, after booking.Request, b *booking.Business) []notify.Message {
	var msgs []notify.Message
	for _, ch := range notify.Changes(before, after) {
		msgs = append(msgs, c.Messages(ch, after, b)...)
	}
	return msgs
}

// summary writes each message as "id -> to (language)".
func summary(msgs []notify.Message) []string {
	s := make([]string, len(msgs))
	for i, m := range msgs {
		s[i] = fmt.Sprintf("%s -> %s (%s)", m.ID, m.To, m.Language)
	}
	return s
}

// change is a transition of the matrix: the request before (nil for a
// create) and after.
type change struct {
	name   string
	before *booking.Request
	after  booking.Request
}

// transitions returns every kind of change the lifecycle makes, for a
// person who can be reached by c and writes in lang.
func transitions(lang string, c contact) []change {
	fresh := request(booking.StatusNew, lang, c)
	pending := request(booking.StatusPendingPayment, lang, c)
	_, accepted := move(fresh, booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted)
	ch := func(name string, before, after booking.Request) change { return change{name, &before, after} }
	var cs []change
	cs = append(cs, change{"create new", nil, fresh}, change{"create pending_payment", nil, pending})
	for _, m := range []struct {
		name   string
		from   booking.Request
		action booking.Action
		by     booking.Actor
		to     booking.Status
	}{
		{"pay", pending, booking.ActionPay, booking.ActorSystem, booking.StatusNew},
		{"expire", pending, booking.ActionExpire, booking.ActorSystem, booking.StatusExpired},
		{"expire unanswered", fresh, booking.ActionExpire, booking.ActorSystem, booking.StatusExpired},
		{"person cancels pending_payment", pending, booking.ActionCancel, booking.ActorCustomer, booking.StatusCancelled},
		{"accept", fresh, booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted},
		{"decline", fresh, booking.ActionDecline, booking.ActorBusiness, booking.StatusDeclined},
		{"move new", fresh, booking.ActionMove, booking.ActorBusiness, booking.StatusNew},
		{"business cancels new", fresh, booking.ActionCancel, booking.ActorBusiness, booking.StatusCancelled},
		{"person cancels new", fresh, booking.ActionCancel, booking.ActorCustomer, booking.StatusCancelled},
		{"operator cancels new", fresh, booking.ActionCancel, booking.ActorOperator, booking.StatusCancelled},
		{"move accepted", accepted, booking.ActionMove, booking.ActorBusiness, booking.StatusAccepted},
		{"business cancels accepted", accepted, booking.ActionCancel, booking.ActorBusiness, booking.StatusCancelled},
		{"person cancels accepted", accepted, booking.ActionCancel, booking.ActorCustomer, booking.StatusCancelled},
		{"operator cancels accepted", accepted, booking.ActionCancel, booking.ActorOperator, booking.StatusCancelled},
		{"complete", accepted, booking.ActionComplete, booking.ActorBusiness, booking.StatusCompleted},
		{"no_show", accepted, booking.ActionNoShow, booking.ActorBusiness, booking.StatusNoShow},
		// Not a move: the sweeper records the day-before reminder.
		{"remind", accepted, booking.ActionRemind, booking.ActorSystem, booking.StatusAccepted},
	} {
		before, after := move(m.from, m.action, m.by, m.to)
		cs = append(cs, ch(m.name, before, after))
	}
	return cs
}

func findChange(t *testing.T, cs []change, name string) change {
	t.Helper()
	for _, c := range cs {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no change %q", name)
	return change{}
}

// TestMatrix pins who gets what, on which channel, in which language, for
// each transition, contact and kind of business.
func TestMatrix(t *testing.T) {
	const (
		email   = "ana@example.com"
		phone   = "+13125550147"
		inbox   = "inbox@lakeview-plumbing.example.com"
		created = code + "#0"
		moved   = code + "#1"
		onward  = code + "#2" // a move after the accept
	)
	tests := []struct {
		transition string
		lang       string
		contact    contact
		business   []func(*booking.Business)
		composer   notify.Composer
		want       []string // "id -> to (language)"
	}{
		// Created without a deposit: the person hears it was received, the
		// business that it has a new request.
		{"create new", "en", both, nil, composer, []string{
			created + "/received/person/email -> " + email + " (en)",
			created + "/received/person/sms -> " + phone + " (en)",
			created + "/new_request/business/email -> " + inbox + " (en)",
		}},
		{"create new", "es", both, nil, composer, []string{
			created + "/received/person/email -> " + email + " (es)",
			created + "/received/person/sms -> " + phone + " (es)",
			created + "/new_request/business/email -> " + inbox + " (en)",
		}},
		{"create new", "es", both, []func(*booking.Business){spanishDesk}, composer, []string{
			created + "/received/person/email -> " + email + " (es)",
			created + "/received/person/sms -> " + phone + " (es)",
			created + "/new_request/business/email -> " + inbox + " (es)",
		}},
		{"create new", "en", contact{email: true}, nil, composer, []string{
			created + "/received/person/email -> " + email + " (en)",
			created + "/new_request/business/email -> " + inbox + " (en)",
		}},
		{"create new", "en", contact{sms: true}, nil, composer, []string{
			created + "/received/person/sms -> " + phone + " (en)",
			created + "/new_request/business/email -> " + inbox + " (en)",
		}},
		{"create new", "en", contact{}, nil, composer, []string{
			created + "/new_request/business/email -> " + inbox + " (en)",
		}},
		{"create new", "en", both, []func(*booking.Business){noInbox}, composer, []string{
			created + "/received/person/email -> " + email + " (en)",
			created + "/received/person/sms -> " + phone + " (en)",
		}},
		// A deposit is due: the business hears nothing until it is paid,
		// and then the person hears nothing new.
		{"create pending_payment", "es", both, nil, composer, []string{
			created + "/received/person/email -> " + email + " (es)",
			created + "/received/person/sms -> " + phone + " (es)",
		}},
		{"pay", "es", both, nil, composer, []string{
			moved + "/new_request/business/email -> " + inbox + " (en)",
		}},
		{"pay", "en", both, []func(*booking.Business){noInbox}, composer, nil},
		{"accept", "en", both, nil, composer, []string{
			moved + "/confirmed/person/email -> " + email + " (en)",
			moved + "/confirmed/person/sms -> " + phone + " (en)",
		}},
		{"accept", "es", contact{}, nil, composer, nil},
		{"move new", "es", contact{sms: true}, nil, composer, []string{
			moved + "/changed/person/sms -> " + phone + " (es)",
		}},
		{"move accepted", "en", contact{email: true}, nil, composer, []string{
			onward + "/changed/person/email -> " + email + " (en)",
		}},
		{"decline", "en", both, nil, composer, []string{
			moved + "/cancelled/person/email -> " + email + " (en)",
			moved + "/cancelled/person/sms -> " + phone + " (en)",
		}},
		{"business cancels accepted", "es", both, nil, composer, []string{
			onward + "/cancelled/person/email -> " + email + " (es)",
			onward + "/cancelled/person/sms -> " + phone + " (es)",
		}},
		// The person cancels a request the business had (new or accepted):
		// the business hears of it, in its own language. One still waiting
		// for its deposit was never the business's; a cancel by the
		// business, or by an operator, tells it nothing.
		{"person cancels new", "en", contact{email: true}, nil, composer, []string{
			moved + "/cancelled/person/email -> " + email + " (en)",
			moved + "/cancelled_by_customer/business/email -> " + inbox + " (en)",
		}},
		{"person cancels accepted", "es", both, []func(*booking.Business){spanishDesk}, composer, []string{
			onward + "/cancelled/person/email -> " + email + " (es)",
			onward + "/cancelled/person/sms -> " + phone + " (es)",
			onward + "/cancelled_by_customer/business/email -> " + inbox + " (es)",
		}},
		{"person cancels accepted", "es", contact{}, nil, composer, []string{
			onward + "/cancelled_by_customer/business/email -> " + inbox + " (en)",
		}},
		{"person cancels new", "en", contact{}, []func(*booking.Business){noInbox}, composer, nil},
		{"person cancels pending_payment", "en", contact{sms: true}, nil, composer, []string{
			moved + "/cancelled/person/sms -> " + phone + " (en)",
		}},
		{"person cancels pending_payment", "en", contact{}, nil, composer, nil},
		{"business cancels new", "en", contact{}, nil, composer, nil},
		{"business cancels new", "en", contact{email: true}, nil, composer, []string{
			moved + "/cancelled/person/email -> " + email + " (en)",
		}},
		{"operator cancels new", "en", both, nil, composer, []string{
			moved + "/cancelled/person/email -> " + email + " (en)",
			moved + "/cancelled/person/sms -> " + phone + " (en)",
		}},
		{"operator cancels accepted", "es", contact{}, nil, composer, nil},
		{"expire", "es", both, nil, composer, []string{
			moved + "/cancelled/person/email -> " + email + " (es)",
			moved + "/cancelled/person/sms -> " + phone + " (es)",
		}},
		// A new request the business never answered: the person is told,
		// by each channel they allowed, in their language; the business,
		// whose inbox shows it expired, is not.
		{"expire unanswered", "en", both, nil, composer, []string{
			moved + "/cancelled/person/email -> " + email + " (en)",
			moved + "/cancelled/person/sms -> " + phone + " (en)",
		}},
		{"expire unanswered", "es", both, []func(*booking.Business){spanishDesk}, composer, []string{
			moved + "/cancelled/person/email -> " + email + " (es)",
			moved + "/cancelled/person/sms -> " + phone + " (es)",
		}},
		{"expire unanswered", "es", contact{email: true}, nil, composer, []string{
			moved + "/cancelled/person/email -> " + email + " (es)",
		}},
		{"expire unanswered", "en", contact{sms: true}, nil, composer, []string{
			moved + "/cancelled/person/sms -> " + phone + " (en)",
		}},
		{"expire unanswered", "en", contact{}, nil, composer, nil},
		{"expire unanswered", "en", both, []func(*booking.Business){example}, composer, nil},
		{"expire unanswered", "es", both, []func(*booking.Business){preview}, composer, []string{
			moved + "/cancelled/preview/email -> " + previewInbox + " (es)",
		}},
		{"complete", "en", both, nil, composer, nil},
		{"no_show", "en", both, nil, composer, nil},
		// An example business never notifies anyone.
		{"create new", "en", both, []func(*booking.Business){example}, composer, nil},
		{"accept", "en", both, []func(*booking.Business){example}, composer, nil},
		{"expire", "en", both, []func(*booking.Business){example}, composer, nil},
		{"person cancels new", "en", both, []func(*booking.Business){example}, composer, nil},
		{"person cancels accepted", "en", contact{}, []func(*booking.Business){example}, composer, nil},
		// A preview business: one e-mail per kind to the preview inbox only.
		{"create new", "es", both, []func(*booking.Business){preview}, composer, []string{
			created + "/received/preview/email -> " + previewInbox + " (es)",
			created + "/new_request/preview/email -> " + previewInbox + " (en)",
		}},
		{"create new", "en", contact{}, []func(*booking.Business){preview, noInbox}, composer, []string{
			created + "/new_request/preview/email -> " + previewInbox + " (en)",
		}},
		{"create pending_payment", "en", contact{sms: true}, []func(*booking.Business){preview}, composer, []string{
			created + "/received/preview/email -> " + previewInbox + " (en)",
		}},
		{"pay", "en", both, []func(*booking.Business){preview}, composer, []string{
			moved + "/new_request/preview/email -> " + previewInbox + " (en)",
		}},
		{"accept", "en", contact{sms: true}, []func(*booking.Business){preview}, composer, []string{
			moved + "/confirmed/preview/email -> " + previewInbox + " (en)",
		}},
		{"accept", "en", contact{}, []func(*booking.Business){preview}, composer, nil},
		{"person cancels accepted", "es", both, []func(*booking.Business){preview}, composer, []string{
			onward + "/cancelled/preview/email -> " + previewInbox + " (es)",
			onward + "/cancelled_by_customer/preview/email -> " + previewInbox + " (en)",
		}},
		{"person cancels new", "en", contact{}, []func(*booking.Business){preview, noInbox}, composer, []string{
			moved + "/cancelled_by_customer/preview/email -> " + previewInbox + " (en)",
		}},
		{"person cancels pending_payment", "en", contact{}, []func(*booking.Business){preview}, composer, nil},
		{"business cancels new", "en", contact{}, []func(*booking.Business){preview}, composer, nil},
		{"operator cancels accepted", "en", contact{}, []func(*booking.Business){preview}, composer, nil},
		{"person cancels new", "en", contact{}, []func(*booking.Business){preview}, notify.Composer{SiteURL: siteURL}, nil},
		{"create new", "en", both, []func(*booking.Business){preview}, notify.Composer{SiteURL: siteURL}, nil},
		// The day-before reminder: the person only, by e-mail if given and
		// by text with consent, in their language; the business nothing.
		{"remind", "en", both, nil, composer, []string{
			onward + "/reminder/person/email -> " + email + " (en)",
			onward + "/reminder/person/sms -> " + phone + " (en)",
		}},
		{"remind", "es", both, []func(*booking.Business){spanishDesk}, composer, []string{
			onward + "/reminder/person/email -> " + email + " (es)",
			onward + "/reminder/person/sms -> " + phone + " (es)",
		}},
		{"remind", "en", contact{email: true}, nil, composer, []string{
			onward + "/reminder/person/email -> " + email + " (en)",
		}},
		{"remind", "es", contact{sms: true}, nil, composer, []string{
			onward + "/reminder/person/sms -> " + phone + " (es)",
		}},
		{"remind", "en", contact{}, nil, composer, nil},
		{"remind", "en", both, []func(*booking.Business){example}, composer, nil},
		{"remind", "es", both, []func(*booking.Business){preview}, composer, []string{
			onward + "/reminder/preview/email -> " + previewInbox + " (es)",
		}},
		{"remind", "en", contact{}, []func(*booking.Business){preview}, composer, nil},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s/%s/email=%v,sms=%v", tt.transition, tt.lang, tt.contact.email, tt.contact.sms)
		t.Run(name, func(t *testing.T) {
			c := findChange(t, transitions(tt.lang, tt.contact), tt.transition)
			got := summary(messages(tt.composer, c.before, c.after, business(t, tt.business...)))
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
		})
	}
}

// TestMatrixRules checks, for every transition, contact, language and kind
// of business, the rules every message keeps.
func TestMatrixRules(t *testing.T) {
	businesses := map[string][]func(*booking.Business){
		"plain": nil, "no inbox": {noInbox}, "preview": {preview}, "example": {example}, "spanish desk": {spanishDesk},
	}
	for bname, edits := range businesses {
		b := business(t, edits...)
		for _, lang := range []string{"en", "es"} {
			for _, c := range []contact{{}, {email: true}, {sms: true}, both} {
				for _, ch := range transitions(lang, c) {
					name := fmt.Sprintf("%s/%s/%s/email=%v,sms=%v", bname, ch.name, lang, c.email, c.sms)
					t.Run(name, func(t *testing.T) {
						msgs := messages(composer, ch.before, ch.after, b)
						checkRules(t, msgs, ch.after, b)
						if again := messages(composer, ch.before, ch.after, b); !slices.Equal(summary(again), summary(msgs)) {
							t.Errorf("got %v the second time, want %v: a retry must yield the same messages", summary(again), summary(msgs))
						}
					})
				}
			}
		}
	}
}

// businessKinds are the kinds the business hears, in its default language.
var businessKinds = map[notify.Kind]bool{notify.KindNewRequest: true, notify.KindCancelledByCustomer: true}

func checkRules(t *testing.T, msgs []notify.Message, r booking.Request, b *booking.Business) {
	t.Helper()
	if b.Example && len(msgs) > 0 {
		t.Fatalf("got %v, want nothing for an example business", summary(msgs))
	}
	stop := map[string]string{"en": "Reply STOP to opt out", "es": "Responda STOP para no recibir más"}
	seen := map[string]bool{}
	for _, m := range msgs {
		if seen[m.ID] {
			t.Errorf("got message %s twice", m.ID)
		}
		seen[m.ID] = true
		if !strings.HasPrefix(m.ID, m.Change+"/"+string(m.Kind)+"/"+string(m.Audience)+"/"+string(m.Channel)) {
			t.Errorf("got ID %s, want change/kind/audience/channel", m.ID)
		}
		// The person's messages carry the status_url; the business's its
		// inbox, never the person's page, whose cancel acts as the person.
		if m.Kind == notify.KindNewRequest || m.Kind == notify.KindCancelledByCustomer {
			if !strings.Contains(m.Body, siteURL+"/inbox/requests/"+code) || strings.Contains(m.Body, siteURL+"/r/"+code) {
				t.Errorf("%s: got body without the inbox link, or with the person's page:\n%s", m.ID, m.Body)
			}
		} else if !strings.Contains(m.Body, siteURL+"/r/"+code) {
			t.Errorf("%s: got body without the status_url:\n%s", m.ID, m.Body)
		}
		for _, price := range []string{"$", "49", "USD", "usd"} {
			if strings.Contains(m.Subject+m.Body, price) {
				t.Errorf("%s: got %q in the message, want no price:\n%s", m.ID, price, m.Body)
			}
		}
		if strings.Contains(m.Body, r.Contact.Phone) || strings.Contains(m.Body, r.Address.Street) {
			t.Errorf("%s: got the person's phone or address in the message:\n%s", m.ID, m.Body)
		}
		wantLang := r.Language
		if businessKinds[m.Kind] {
			wantLang = b.DefaultLanguage
			// What the business hears never carries the person's contact
			// details: its inbox shows them, behind its token.
			for _, detail := range []string{r.Contact.Name, "ana@example.com"} {
				if strings.Contains(m.Subject+m.Body, detail) {
					t.Errorf("%s: got %q in a message to the business:\n%s", m.ID, detail, m.Body)
				}
			}
		}
		if m.Kind == notify.KindCancelledByCustomer {
			// Only the person's own cancel of a request the business had.
			e := r.History[len(r.History)-1]
			if e.Action != booking.ActionCancel || e.By != booking.ActorCustomer ||
				(e.From != booking.StatusNew && e.From != booking.StatusAccepted) {
				t.Errorf("%s: got %s after %s by %s from %s, want it only when the person cancels a new or accepted request", m.ID, m.Kind, e.Action, e.By, e.From)
			}
		}
		if m.Language != wantLang {
			t.Errorf("%s: got language %s, want %s", m.ID, m.Language, wantLang)
		}
		switch {
		case b.Preview:
			if m.To != previewInbox || m.Channel != notify.ChannelEmail ||
				!strings.HasPrefix(m.Subject, "[preview] ") || !strings.HasPrefix(m.Body, "[preview] ") {
				t.Errorf("%s: got %s to %s, subject %q, want an e-mail marked [preview] to the preview inbox", m.ID, m.Channel, m.To, m.Subject)
			}
		case m.Channel == notify.ChannelSMS:
			if !r.Contact.SMSConsent || m.To != "+1"+r.Contact.Phone || m.Audience != notify.AudiencePerson {
				t.Errorf("%s: got a text to %s (consent %v), want texts only with consent, to +1 and the phone", m.ID, m.To, r.Contact.SMSConsent)
			}
			if !strings.HasSuffix(m.Body, stop[m.Language]) {
				t.Errorf("%s: got text %q, want it to end with %q", m.ID, m.Body, stop[m.Language])
			}
		case m.Audience == notify.AudiencePerson:
			if r.Contact.Email == "" || m.To != r.Contact.Email {
				t.Errorf("%s: got an e-mail to %q, want e-mails only to contact.email (%q)", m.ID, m.To, r.Contact.Email)
			}
		case m.Audience == notify.AudienceBusiness:
			if b.InboxEmail == "" || m.To != b.InboxEmail || !businessKinds[m.Kind] {
				t.Errorf("%s: got %s to %q, want only new requests and the person's cancels to the inbox address (%q)", m.ID, m.Kind, m.To, b.InboxEmail)
			}
		default:
			t.Errorf("%s: got audience %s", m.ID, m.Audience)
		}
		if m.Channel == notify.ChannelEmail && m.Subject == "" {
			t.Errorf("%s: got an e-mail without a subject", m.ID)
		}
	}
}

func TestChanges(t *testing.T) {
	r := request(booking.StatusNew, "en", both)
	before, after := move(r, booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted)
	_, later := move(after, booking.ActionMove, booking.ActorBusiness, booking.StatusAccepted)
	legacy := r
	legacy.History = nil
	noCreate := later
	noCreate.History = later.History[1:]
	tests := []struct {
		name   string
		before *booking.Request
		after  booking.Request
		want   []string // "id action window-start"
	}{
		{"create", nil, r, []string{code + "#0 create 16:00"}},
		{"create stored without history", nil, legacy, []string{code + "#0 create 16:00"}},
		{"a move", &before, after, []string{code + "#1 accept 16:00"}},
		{"two moves in one write", &before, later, []string{code + "#1 accept 16:00", code + "#2 move 20:00"}},
		{"a write that adds no event", &after, after, nil},
		{"an insert whose first event is no create", nil, noCreate, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, ch := range notify.Changes(tt.before, tt.after) {
				got = append(got, fmt.Sprintf("%s %s %s", ch.ID, ch.Event.Action, ch.Event.Window.Start.Format("15:04")))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("a move knows the window it left", func(t *testing.T) {
		ch := notify.Changes(&after, later)
		if len(ch) != 1 || !ch[0].Previous.Start.Equal(monday.Start) || !ch[0].Event.Window.Start.Equal(tuesday.Start) {
			t.Fatalf("got %+v, want one move from %s to %s", ch, monday.Start, tuesday.Start)
		}
	})
}
