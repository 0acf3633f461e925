package notify_test

import (
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
)

// TestWindowText: windows are written in the business's time zone, with
// each end's zone across a change of daylight saving time.
func TestWindowText(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name       string
		start, end string
		en, es     string
	}{
		{"a weekday morning", "2026-11-23T16:00:00Z", "2026-11-23T18:00:00Z",
			"Mon, Nov 23, 10:00 AM-12:00 PM CST", "lun 23 nov, 10:00-12:00 CST"},
		{"summer time", "2026-07-04T14:00:00Z", "2026-07-04T16:00:00Z",
			"Sat, Jul 4, 9:00 AM-11:00 AM CDT", "sáb 4 jul, 09:00-11:00 CDT"},
		{"the night summer time ends", "2026-11-01T06:00:00Z", "2026-11-01T08:00:00Z",
			"Sun, Nov 1, 1:00 AM CDT-2:00 AM CST", "dom 1 nov, 01:00 CDT-02:00 CST"},
		{"the night summer time starts", "2026-03-08T07:00:00Z", "2026-03-08T09:00:00Z",
			"Sun, Mar 8, 1:00 AM CST-4:00 AM CDT", "dom 8 mar, 01:00 CST-04:00 CDT"},
		{"ending at midnight", "2026-11-23T04:00:00Z", "2026-11-23T06:00:00Z",
			"Sun, Nov 22, 10:00 PM-12:00 AM CST", "dom 22 nov, 22:00-00:00 CST"},
		{"past midnight", "2026-11-23T05:00:00Z", "2026-11-23T07:00:00Z",
			"Sun, Nov 22, 11:00 PM-Mon, Nov 23, 1:00 AM CST", "dom 22 nov, 23:00-lun 23 nov, 01:00 CST"},
	}
	b := business(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for lang, want := range map[string]string{"en": tt.en, "es": tt.es} {
				r := request(booking.StatusNew, lang, contact{email: true})
				r.Window = booking.Window{Start: utc(tt.start), End: utc(tt.end)}
				r.History[0].Window = r.Window
				msgs := messages(composer, nil, r, b)
				if len(msgs) == 0 || !strings.HasSuffix(msgs[0].Subject, ", "+want) {
					t.Errorf("%s: got %q, want the window %q", lang, msgs[0].Subject, want)
				}
			}
		})
	}
}

// TestTexts pins a few whole messages.
func TestTexts(t *testing.T) {
	b := business(t)
	pending := request(booking.StatusPendingPayment, "en", both)
	fresh := request(booking.StatusNew, "es", both)
	// The business offers another window: that answers the request, which
	// is accepted there (issue 20).
	before, moved := move(fresh, booking.ActionMove, booking.ActorBusiness, booking.StatusAccepted)
	// The person cancels: an accepted request of an English-speaking
	// business, and a new one of a Spanish-speaking one (the business's
	// language, not the request's, words its messages).
	_, accepted := move(request(booking.StatusNew, "es", both), booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted)
	beforeCancel, calledOff := move(accepted, booking.ActionCancel, booking.ActorCustomer, booking.StatusCancelled)
	freshEN := request(booking.StatusNew, "en", both)
	beforeCancelNew, calledOffNew := move(freshEN, booking.ActionCancel, booking.ActorCustomer, booking.StatusCancelled)
	// Expiries: a new request the business never answered (English and
	// Spanish), and an unpaid deposit, whose words stay as they were.
	beforeUnanswered, unanswered := move(freshEN, booking.ActionExpire, booking.ActorSystem, booking.StatusExpired)
	beforeUnansweredES, unansweredES := move(fresh, booking.ActionExpire, booking.ActorSystem, booking.StatusExpired)
	beforeUnpaid, unpaid := move(pending, booking.ActionExpire, booking.ActorSystem, booking.StatusExpired)
	// The day-before reminder of an accepted visit, in Spanish and English.
	beforeRemindES, remindES := move(accepted, booking.ActionRemind, booking.ActorSystem, booking.StatusAccepted)
	_, acceptedEN := move(freshEN, booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted)
	beforeRemind, remind := move(acceptedEN, booking.ActionRemind, booking.ActorSystem, booking.StatusAccepted)
	// An accepted visit with a paid deposit moved: the deposit rule
	// business_moves_the_window is told. A move stored before an offer
	// answered the request (new to new) still says it is not confirmed.
	paidEN := acceptedEN
	paidEN.Deposit = &booking.DepositRecord{AmountCents: 4900, Currency: "usd", State: booking.DepositPaid}
	beforeMovePaid, movedPaid := move(paidEN, booking.ActionMove, booking.ActorBusiness, booking.StatusAccepted)
	beforeOldMove, oldMove := move(freshEN, booking.ActionMove, booking.ActorBusiness, booking.StatusNew)
	beforeOffer, offer := move(freshEN, booking.ActionMove, booking.ActorBusiness, booking.StatusAccepted)
	tests := []struct {
		name    string
		msgs    []notify.Message
		id      string
		subject string
		body    string
	}{
		{
			"received, deposit due, e-mail", messages(composer, nil, pending, b), code + "#0/received/person/email",
			"Request received: Lakeview Plumbing, Mon, Nov 23, 10:00 AM-12:00 PM CST",
			`Hello Ana Ruiz,

Lakeview Plumbing received your request.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Mon, Nov 23, 10:00 AM-12:00 PM CST

A deposit is due to hold this window: pay it at https://book.example.com/pay/7K3M-Q9TD-2HXA by 9:30 AM CST, or the window is released and the request expires. Lakeview Plumbing sees your request once the deposit is paid.

This is not a confirmed appointment yet: Lakeview Plumbing will accept it, offer another window or decline it, and you will hear from us either way.

Status: https://book.example.com/r/7K3M-Q9TD-2HXA
Questions? Call Lakeview Plumbing at (312) 555-0188.
`,
		},
		{
			"received, deposit due, text", messages(composer, nil, pending, b), code + "#0/received/person/sms", "",
			"Lakeview Plumbing received your request for Mon, Nov 23, 10:00 AM-12:00 PM CST. Pay the deposit at https://book.example.com/pay/7K3M-Q9TD-2HXA by 9:30 AM CST to keep this window. Status: https://book.example.com/r/7K3M-Q9TD-2HXA Reply STOP to opt out",
		},
		{
			"changed, Spanish, e-mail", messages(composer, &before, moved, b), code + "#1/changed/person/email",
			"Confirmada en otro horario: Lakeview Plumbing, mar 24 nov, 14:00-16:00 CST",
			`Hola, Ana Ruiz:

Lakeview Plumbing respondió a su solicitud con otro horario de llegada: su visita está confirmada para el nuevo horario indicado abajo, en lugar del que usted pidió.

Código: 7K3M-Q9TD-2HXA
Servicio: Limpieza de drenaje
Horario de llegada: mar 24 nov, 14:00-16:00 CST
Antes: lun 23 nov, 10:00-12:00 CST

Estado: https://book.example.com/r/7K3M-Q9TD-2HXA
Si el nuevo horario no le conviene, puede cancelar la solicitud en su página de estado, arriba, o llamar a Lakeview Plumbing al (312) 555-0188.
`,
		},
		{
			"changed, Spanish, text", messages(composer, &before, moved, b), code + "#1/changed/person/sms", "",
			"Lakeview Plumbing confirmó su visita en otro horario: mar 24 nov, 14:00-16:00 CST. Si no le conviene, puede cancelarla. Estado: https://book.example.com/r/7K3M-Q9TD-2HXA Responda STOP para no recibir más",
		},
		{
			"offer, e-mail", messages(composer, &beforeOffer, offer, b), code + "#1/changed/person/email",
			"Confirmed at another window: Lakeview Plumbing, Tue, Nov 24, 2:00 PM-4:00 PM CST",
			`Hello Ana Ruiz,

Lakeview Plumbing answered your request with another arrival window: your visit is confirmed for the new window below, instead of the one you asked for.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Tue, Nov 24, 2:00 PM-4:00 PM CST
Was: Mon, Nov 23, 10:00 AM-12:00 PM CST

Status: https://book.example.com/r/7K3M-Q9TD-2HXA
If the new window does not suit you, you may cancel the request on its status page above, or call Lakeview Plumbing at (312) 555-0188.
`,
		},
		{
			"offer, text", messages(composer, &beforeOffer, offer, b), code + "#1/changed/person/sms", "",
			"Lakeview Plumbing confirmed your visit at another window: Tue, Nov 24, 2:00 PM-4:00 PM CST. If it does not suit you, you may cancel. Status: https://book.example.com/r/7K3M-Q9TD-2HXA Reply STOP to opt out",
		},
		{
			"moved with a paid deposit, e-mail", messages(composer, &beforeMovePaid, movedPaid, b), code + "#2/changed/person/email",
			"New arrival window: Lakeview Plumbing, Tue, Nov 24, 2:00 PM-4:00 PM CST",
			`Hello Ana Ruiz,

Lakeview Plumbing moved your request to another arrival window.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Tue, Nov 24, 2:00 PM-4:00 PM CST
Was: Mon, Nov 23, 10:00 AM-12:00 PM CST

As the business moved the window, your deposit is refunded in full if you cancel or are not there.

Status: https://book.example.com/r/7K3M-Q9TD-2HXA
If the new window does not suit you, you may cancel the request on its status page above, or call Lakeview Plumbing at (312) 555-0188.
`,
		},
		{
			"moved with a paid deposit, text", messages(composer, &beforeMovePaid, movedPaid, b), code + "#2/changed/person/sms", "",
			"Lakeview Plumbing moved your arrival window to Tue, Nov 24, 2:00 PM-4:00 PM CST. If it does not suit you, you may cancel. Status: https://book.example.com/r/7K3M-Q9TD-2HXA Reply STOP to opt out",
		},
		{
			"a move stored before offers answered, e-mail", messages(composer, &beforeOldMove, oldMove, b), code + "#1/changed/person/email",
			"New arrival window: Lakeview Plumbing, Tue, Nov 24, 2:00 PM-4:00 PM CST",
			`Hello Ana Ruiz,

Lakeview Plumbing moved your request to another arrival window.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Tue, Nov 24, 2:00 PM-4:00 PM CST
Was: Mon, Nov 23, 10:00 AM-12:00 PM CST

This is not a confirmed appointment yet: Lakeview Plumbing will accept it, offer another window or decline it, and you will hear from us either way.

Status: https://book.example.com/r/7K3M-Q9TD-2HXA
If the new window does not suit you, you may cancel the request on its status page above, or call Lakeview Plumbing at (312) 555-0188.
`,
		},
		{
			"new request, business", messages(composer, nil, fresh, b), code + "#0/new_request/business/email",
			"New request 7K3M-Q9TD-2HXA: Drain cleaning, Mon, Nov 23, 10:00 AM-12:00 PM CST",
			`A new service request is waiting in your Doorstep inbox.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Mon, Nov 23, 10:00 AM-12:00 PM CST
ZIP code: 60613
Urgency: soon

Open your inbox to see the details, then accept it, offer another window or decline it.
Inbox: https://book.example.com/inbox/requests/7K3M-Q9TD-2HXA
`,
		},
		{
			// The preview inbox's copy links the same web inbox page.
			"new request, preview", messages(composer, nil, fresh, business(t, preview)), code + "#0/new_request/preview/email",
			"[preview] New request 7K3M-Q9TD-2HXA: Drain cleaning, Mon, Nov 23, 10:00 AM-12:00 PM CST",
			`[preview] Lakeview Plumbing is a preview site, so this message went only to the preview inbox, instead of to the business's inbox.

A new service request is waiting in your Doorstep inbox.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Mon, Nov 23, 10:00 AM-12:00 PM CST
ZIP code: 60613
Urgency: soon

Open your inbox to see the details, then accept it, offer another window or decline it.
Inbox: https://book.example.com/inbox/requests/7K3M-Q9TD-2HXA
`,
		},
		{
			"cancelled by the customer, business", messages(composer, &beforeCancel, calledOff, b), code + "#2/cancelled_by_customer/business/email",
			"Request 7K3M-Q9TD-2HXA cancelled by the customer: Drain cleaning, Mon, Nov 23, 10:00 AM-12:00 PM CST",
			`The customer cancelled this request: nobody needs to go, and the arrival window is open again.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Mon, Nov 23, 10:00 AM-12:00 PM CST

Inbox: https://book.example.com/inbox/requests/7K3M-Q9TD-2HXA
`,
		},
		{
			"cancelled by the customer, Spanish business", messages(composer, &beforeCancelNew, calledOffNew, business(t, spanishDesk)), code + "#1/cancelled_by_customer/business/email",
			"Solicitud 7K3M-Q9TD-2HXA cancelada por el cliente: Limpieza de drenaje, lun 23 nov, 10:00-12:00 CST",
			`El cliente canceló esta solicitud: no hace falta ir, y el horario de llegada vuelve a estar libre.

Código: 7K3M-Q9TD-2HXA
Servicio: Limpieza de drenaje
Horario de llegada: lun 23 nov, 10:00-12:00 CST

Bandeja: https://book.example.com/inbox/requests/7K3M-Q9TD-2HXA
`,
		},
		{
			"cancelled by the customer, preview", messages(composer, &beforeCancelNew, calledOffNew, business(t, preview)), code + "#1/cancelled_by_customer/preview/email",
			"[preview] Request 7K3M-Q9TD-2HXA cancelled by the customer: Drain cleaning, Mon, Nov 23, 10:00 AM-12:00 PM CST",
			`[preview] Lakeview Plumbing is a preview site, so this message went only to the preview inbox, instead of to the business's inbox.

The customer cancelled this request: nobody needs to go, and the arrival window is open again.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Mon, Nov 23, 10:00 AM-12:00 PM CST

Inbox: https://book.example.com/inbox/requests/7K3M-Q9TD-2HXA
`,
		},
		{
			"expired unanswered, e-mail", messages(composer, &beforeUnanswered, unanswered, b), code + "#1/cancelled/person/email",
			"Cancelled: Lakeview Plumbing, Mon, Nov 23, 10:00 AM-12:00 PM CST",
			`Hello Ana Ruiz,

Lakeview Plumbing did not answer your request for Mon, Nov 23, 10:00 AM-12:00 PM CST in time, so it is cancelled.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Mon, Nov 23, 10:00 AM-12:00 PM CST

You can send a new request at https://lakeview-plumbing.example.com/book.

Status: https://book.example.com/r/7K3M-Q9TD-2HXA
Questions? Call Lakeview Plumbing at (312) 555-0188.
`,
		},
		{
			"expired unanswered, Spanish, text", messages(composer, &beforeUnansweredES, unansweredES, b), code + "#1/cancelled/person/sms", "",
			"Lakeview Plumbing no respondió a tiempo a su solicitud para lun 23 nov, 10:00-12:00 CST, así que quedó cancelada. Estado: https://book.example.com/r/7K3M-Q9TD-2HXA Responda STOP para no recibir más",
		},
		{
			"expired unpaid, text: as before", messages(composer, &beforeUnpaid, unpaid, b), code + "#1/cancelled/person/sms", "",
			"The deposit for your request with Lakeview Plumbing was not paid in time, so the window was released and the request is cancelled. Status: https://book.example.com/r/7K3M-Q9TD-2HXA Reply STOP to opt out",
		},
		{
			"confirmed, preview", func() []notify.Message {
				before, after := move(request(booking.StatusNew, "en", contact{sms: true}), booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted)
				return messages(composer, &before, after, business(t, preview))
			}(), code + "#1/confirmed/preview/email",
			"[preview] Confirmed: Lakeview Plumbing, Mon, Nov 23, 10:00 AM-12:00 PM CST",
			`[preview] Lakeview Plumbing is a preview site, so this message went only to the preview inbox, instead of to the person by text message.

Hello Ana Ruiz,

Lakeview Plumbing accepted your request: they will arrive within the window below.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Mon, Nov 23, 10:00 AM-12:00 PM CST

Status: https://book.example.com/r/7K3M-Q9TD-2HXA
To change or cancel it, call Lakeview Plumbing at (312) 555-0188.
`,
		},
	}
	tests = append(tests, []struct {
		name    string
		msgs    []notify.Message
		id      string
		subject string
		body    string
	}{
		{
			"reminder, e-mail", messages(composer, &beforeRemind, remind, b), code + "#2/reminder/person/email",
			"Reminder: Lakeview Plumbing, Mon, Nov 23, 10:00 AM-12:00 PM CST",
			`Hello Ana Ruiz,

A reminder of your visit: Lakeview Plumbing will arrive within the window below.

Code: 7K3M-Q9TD-2HXA
Service: Drain cleaning
Arrival window: Mon, Nov 23, 10:00 AM-12:00 PM CST

Status: https://book.example.com/r/7K3M-Q9TD-2HXA
To change or cancel it, call Lakeview Plumbing at (312) 555-0188.
`,
		},
		{
			"reminder, text", messages(composer, &beforeRemind, remind, b), code + "#2/reminder/person/sms", "",
			"Reminder: Lakeview Plumbing will arrive Mon, Nov 23, 10:00 AM-12:00 PM CST. To change or cancel, call (312) 555-0188. Status: https://book.example.com/r/7K3M-Q9TD-2HXA Reply STOP to opt out",
		},
		{
			"reminder, Spanish, e-mail", messages(composer, &beforeRemindES, remindES, b), code + "#2/reminder/person/email",
			"Recordatorio: Lakeview Plumbing, lun 23 nov, 10:00-12:00 CST",
			`Hola, Ana Ruiz:

Le recordamos su visita: Lakeview Plumbing llegará dentro del horario indicado abajo.

Código: 7K3M-Q9TD-2HXA
Servicio: Limpieza de drenaje
Horario de llegada: lun 23 nov, 10:00-12:00 CST

Estado: https://book.example.com/r/7K3M-Q9TD-2HXA
Para cambiarla o cancelarla, llame a Lakeview Plumbing al (312) 555-0188.
`,
		},
		{
			"reminder, Spanish, text", messages(composer, &beforeRemindES, remindES, b), code + "#2/reminder/person/sms", "",
			"Recordatorio: Lakeview Plumbing llegará el lun 23 nov, 10:00-12:00 CST. Para cambiarla o cancelarla, llame al (312) 555-0188. Estado: https://book.example.com/r/7K3M-Q9TD-2HXA Responda STOP para no recibir más",
		},
	}...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, m := range tt.msgs {
				if m.ID != tt.id {
					continue
				}
				if m.Subject != tt.subject || m.Body != tt.body {
					t.Fatalf("got subject %q, body\n%s\nwant subject %q, body\n%s", m.Subject, m.Body, tt.subject, tt.body)
				}
				return
			}
			t.Fatalf("got no message %s among %v", tt.id, summary(tt.msgs))
		})
	}
}
