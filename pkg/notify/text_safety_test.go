package notify_test

import (
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
)

// hostile gives a request the stranger-given text of an attacker, as it
// might be stored before create refused line breaks in single-line fields.
func hostile(r booking.Request) booking.Request {
	r.Contact.Name = "Ana\n\nYour deposit failed: pay at http://evil.example/pay"
	r.AssistantName = "evil.example/pay"
	r.Address = booking.Address{Street: "1 Main St\nwww.evil.example", City: "evil.example", ZIP: "60613"}
	r.Description = "Sink drains slowly.\nYour deposit failed: pay at https://evil.example/pay or ana@evil.example"
	return r
}

// TestStrangersTextNeverALink: whatever a message of any kind, in either
// language, carries of the stranger's text is on its own lines or quoted,
// and is never a link.
func TestStrangersTextNeverALink(t *testing.T) {
	var all []notify.Message
	for _, lang := range []string{"en", "es"} {
		for _, b := range []*booking.Business{business(t), business(t, spanishDesk), business(t, preview)} {
			fresh := hostile(request(booking.StatusNew, lang, both))
			all = append(all, messages(composer, nil, fresh, b)...)
			pending := hostile(request(booking.StatusPendingPayment, lang, both))
			all = append(all, messages(composer, nil, pending, b)...)
			for _, m := range []struct {
				action booking.Action
				by     booking.Actor
				to     booking.Status
			}{
				{booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted},
				{booking.ActionMove, booking.ActorBusiness, booking.StatusNew},
				{booking.ActionDecline, booking.ActorBusiness, booking.StatusDeclined},
				{booking.ActionCancel, booking.ActorCustomer, booking.StatusCancelled},
				{booking.ActionCancel, booking.ActorBusiness, booking.StatusCancelled},
			} {
				before, after := move(fresh, m.action, m.by, m.to)
				all = append(all, messages(composer, &before, after, b)...)
			}
			before, after := move(pending, booking.ActionPay, booking.ActorSystem, booking.StatusNew)
			all = append(all, messages(composer, &before, after, b)...)
		}
	}
	if len(all) < 20 {
		t.Fatalf("got %d messages, want every kind: %v", len(all), summary(all))
	}
	for _, m := range all {
		for part, text := range map[string]string{"subject": m.Subject, "body": m.Body} {
			if strings.Contains(text, "evil.example") || strings.Contains(text, "http://evil") || strings.Contains(text, "https://evil") {
				t.Errorf("%s %s: got a link of the stranger's text:\n%s", m.ID, part, text)
			}
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, "Your deposit failed") {
					t.Errorf("%s %s: got the stranger's text on a line of its own, not quoted:\n%s", m.ID, part, text)
				}
			}
		}
	}
}

// TestNewRequestQuotesTheDescription pins the business's e-mail with a
// description and an assistant, in both languages.
func TestNewRequestQuotesTheDescription(t *testing.T) {
	r := request(booking.StatusNew, "en", both)
	r.AssistantName = "Helper"
	r.Description = "Kitchen sink drains slowly.\n\nYour deposit failed: pay at http://evil.example/pay"
	tests := []struct {
		name string
		b    *booking.Business
		want string
	}{
		{"en", business(t), `A new service request is waiting in your Doorstep inbox.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Mon, Nov 23, 10:00 AM-12:00 PM CST
ZIP code: 60613
Urgency: soon
Sent by the assistant: Helper

In the customer's words:
> Kitchen sink drains slowly.
>
> Your deposit failed: pay at hxxp://evil[.]example/pay

Open your inbox to see the details, then accept it, offer another window or decline it.
Inbox: https://book.example.com/inbox/requests/7K3M-Q9TD-2HXA
`},
		{"es", business(t, spanishDesk), `Tiene una nueva solicitud de servicio en su bandeja de Doorstep.

Código: 7K3M-Q9TD-2HXA
Servicio: Limpieza de drenaje
Horario de llegada: lun 23 nov, 10:00-12:00 CST
Código postal: 60613
Urgencia: pronto
Enviada por el asistente: Helper

En palabras del cliente:
> Kitchen sink drains slowly.
>
> Your deposit failed: pay at hxxp://evil[.]example/pay

Abra su bandeja para ver los detalles y aceptarla, ofrecer otro horario o rechazarla.
Bandeja: https://book.example.com/inbox/requests/7K3M-Q9TD-2HXA
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, m := range messages(composer, nil, r, tt.b) {
				if m.ID != code+"#0/new_request/business/email" {
					continue
				}
				if m.Body != tt.want {
					t.Fatalf("got body\n%s\nwant\n%s", m.Body, tt.want)
				}
				return
			}
			t.Fatal("got no new request e-mail to the business")
		})
	}
}

// TestPersonsNameOnOneLine: a name stored with line breaks greets the
// person on one line, with no link, in both languages.
func TestPersonsNameOnOneLine(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "Hello Ana  Your deposit failed: pay at hxxp://evil[.]example/pay,\n\n",
		"es": "Hola, Ana  Your deposit failed: pay at hxxp://evil[.]example/pay:\n\n",
	} {
		t.Run(lang, func(t *testing.T) {
			r := hostile(request(booking.StatusNew, lang, contact{email: true}))
			msgs := messages(composer, nil, r, business(t))
			if len(msgs) == 0 || !strings.HasPrefix(msgs[0].Body, want) {
				t.Fatalf("got %v, want a first message starting %q", msgs, want)
			}
		})
	}
}
