package notify

import (
	"fmt"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
)

// lexicon is every phrase the messages use, in one language. Messages are
// plain and short, carry the status_url, and never a price: the deposit is
// named but never its amount, and nothing is a quote.
type lexicon struct {
	hello                        string // %s: the person's name
	labelCode, labelService      string
	labelWindow, labelWas        string
	labelStatus, labelUrgency    string
	labelZIP                     string // the ZIP code of the job, in the business's e-mails
	labelInbox                   string // the business's own link: its inbox, never the person's page
	labelOneTap                  string // the one-tap link: opens the request in the inbox, signed in
	ownerText                    string // the owner's text of a new request: %s code, service, window, ZIP
	ownerUrgent                  string // starts it for an urgent one
	nudgeSubject, nudgeIntro     string // the nudge: %s code, service, window for the subject
	ownerNudge                   string // the owner's text of a nudge: %s code, service, window, ZIP
	labelAssistant, labelDeposit string
	labelWords                   string // heads the description, the person's quoted words
	depositPaid                  string
	questions                    string // %s business, %s phone
	changeOrCancel               string // %s business, %s phone
	notSuits                     string // %s business, %s phone
	notSuitsSMS                  string // ends the text of a move
	notConfirmed                 string // %s business
	stop                         string // ends every text message
	textMessage                  string // heads the text in a preview

	receivedSubject, received, receivedSMS string // %s business (and window for the subject and text)
	depositDue, receivedDepositSMS         string
	confirmedSubject, confirmed            string
	confirmedSMS                           string
	changedSubject, changed, changedSMS    string
	// offered*: the business answered a new request by offering another
	// window, which accepts it there (%s business, and window for the
	// subject and text).
	offeredSubject, offered, offeredSMS    string
	depositMoved                           string // the rule business_moves_the_window, after a move
	cancelledSubject, again                string
	declined, cancelledByBusiness          string // %s business, %s window
	cancelledByPerson, cancelledOther      string // %s business, %s window
	expired                                string // %s business
	unanswered                             string // %s business, %s window
	newSubject, newIntro, openInbox        string // %s code, service, window for the subject
	calledOffSubject, calledOff            string // %s code, service, window for the subject
	limitSubject, limitHit                 string // %s business
	limitRefused                           string // %d per hour, %d unanswered
	limitTodo                              string
	reminderSubject, reminder, reminderSMS string // %s business, %s window (and %s phone for the text)
	wayAddedSubject, wayAdded, wayAddedSMS string // %s business (and window for the subject and text)

	preview                                 string // %s business, %s whom it would have gone to
	toPersonEmail, toPersonSMS, toPersonAll string
	toBusiness                              string

	urgency map[string]string
	days    [7]string
	months  [12]string
	// window formats an arrival window in a time zone.
	window func(l *lexicon, start, end time.Time) string
	clock  string // time.Format layout of a time of day
}

var wording = map[string]*lexicon{
	"en": {
		hello:     "Hello %s,",
		labelCode: "Code", labelService: "Service", labelWindow: "Arrival window", labelWas: "Was",
		labelStatus: "Status", labelUrgency: "Urgency", labelInbox: "Inbox", labelZIP: "ZIP code",
		labelOneTap:    "Open it in one tap (signs you in; works once, for 8 hours)",
		ownerText:      "Doorstep: new request %s: %s, %s, ZIP %s. Open:",
		ownerUrgent:    "URGENT.",
		nudgeSubject:   "Still waiting for your answer: request %s, %s, %s",
		nudgeIntro:     "This request in your Doorstep inbox has no answer yet. Accept it, offer another window or decline it before its window starts: unanswered, it expires then and the person is told.",
		ownerNudge:     "Doorstep: request %s still waits for your answer: %s, %s, ZIP %s. Open:",
		labelAssistant: "Sent by the assistant", labelDeposit: "Deposit", depositPaid: "paid",
		labelWords:     "In the customer's words:",
		questions:      "Questions? Call %s at %s.",
		changeOrCancel: "To change or cancel it, call %s at %s.",
		notSuits:       "If the new window does not suit you, you may cancel the request on its status page above, or call %s at %s.",
		notSuitsSMS:    "If it does not suit you, you may cancel.",
		notConfirmed:   "This is not a confirmed appointment yet: %s will accept it, offer another window or decline it, and you will hear from us either way.",
		stop:           "Reply STOP to opt out",
		textMessage:    "Text message:",

		receivedSubject:     "Request received: %s, %s",
		received:            "%s received your request.",
		receivedSMS:         "%s received your request for %s. It is not confirmed yet: we will let you know when they reply.",
		depositDue:          "A deposit is due to hold this window: pay it at %s by %s, or the window is released and the request expires. %s sees your request once the deposit is paid.",
		receivedDepositSMS:  "%s received your request for %s. Pay the deposit at %s by %s to keep this window.",
		confirmedSubject:    "Confirmed: %s, %s",
		confirmed:           "%s accepted your request: they will arrive within the window below.",
		confirmedSMS:        "%s confirmed your visit: %s.",
		changedSubject:      "New arrival window: %s, %s",
		changed:             "%s moved your request to another arrival window.",
		changedSMS:          "%s moved your arrival window to %s.",
		offeredSubject:      "Confirmed at another window: %s, %s",
		offered:             "%s answered your request with another arrival window: your visit is confirmed for the new window below, instead of the one you asked for.",
		offeredSMS:          "%s confirmed your visit at another window: %s.",
		depositMoved:        "As the business moved the window, your deposit is refunded in full if you cancel or are not there.",
		cancelledSubject:    "Cancelled: %s, %s",
		again:               "You can send a new request at %s.",
		declined:            "%s cannot take your request for %s, so it is cancelled.",
		cancelledByBusiness: "%s cancelled your request for %s.",
		cancelledByPerson:   "Your request with %s for %s is cancelled, as you asked.",
		cancelledOther:      "Your request with %s for %s was cancelled.",
		expired:             "The deposit for your request with %s was not paid in time, so the window was released and the request is cancelled.",
		unanswered:          "%s did not answer your request for %s in time, so it is cancelled.",
		newSubject:          "New request %s: %s, %s",
		newIntro:            "A new service request is waiting in your Doorstep inbox.",
		openInbox:           "Open your inbox to see the details, then accept it, offer another window or decline it.",
		calledOffSubject:    "Request %s cancelled by the customer: %s, %s",
		calledOff:           "The customer cancelled this request: nobody needs to go, and the arrival window is open again.",
		limitSubject:        "Unusual number of requests at %s",
		limitHit:            "%s received an unusual number of online requests within an hour.",
		limitRefused:        "New online requests are being refused for now: you take at most %d in any hour, and at most %d unanswered at once. Customers can still call you.",
		reminderSubject:     "Reminder: %s, %s",
		reminder:            "A reminder of your visit: %s will arrive within the window below.",
		reminderSMS:         "Reminder: %s will arrive %s. To change or cancel, call %s.",
		wayAddedSubject:     "You will hear here: %s, %s",
		wayAdded:            "You asked to hear here about your request with %s: we will write when they accept it, offer another window or decline it, and if it is cancelled.",
		wayAddedSMS:         "You will get texts about your request with %s for %s.",
		limitTodo:           "Open your inbox and answer the requests waiting there: accept them, offer another window or decline them. Mark any request that is not genuine as spam there: that declines it and blocks its phone and e-mail. Online requests are taken again as the hour passes and as you answer them.",

		preview:       "%s is a preview site, so this message went only to the preview inbox, instead of to %s.",
		toPersonEmail: "the person by e-mail", toPersonSMS: "the person by text message",
		toPersonAll: "the person by e-mail and text message", toBusiness: "the business's inbox",

		urgency: map[string]string{"emergency": "emergency", "soon": "soon", "flexible": "flexible"},
		days:    [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"},
		months:  [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"},
		window:  windowEN,
		clock:   "3:04 PM",
	},
	"es": {
		hello:     "Hola, %s:",
		labelCode: "Código", labelService: "Servicio", labelWindow: "Horario de llegada", labelWas: "Antes",
		labelStatus: "Estado", labelUrgency: "Urgencia", labelInbox: "Bandeja", labelZIP: "Código postal",
		labelOneTap:    "Ábrala con un toque (inicia sesión; sirve una vez, durante 8 horas)",
		ownerText:      "Doorstep: nueva solicitud %s: %s, %s, código postal %s. Ábrala:",
		ownerUrgent:    "URGENTE.",
		nudgeSubject:   "Sigue esperando su respuesta: solicitud %s, %s, %s",
		nudgeIntro:     "Esta solicitud de su bandeja de Doorstep aún no tiene respuesta. Acéptela, ofrezca otro horario o recházela antes de que empiece su horario: sin respuesta, vence entonces y se le avisa a la persona.",
		ownerNudge:     "Doorstep: la solicitud %s sigue esperando su respuesta: %s, %s, código postal %s. Ábrala:",
		labelAssistant: "Enviada por el asistente", labelDeposit: "Depósito", depositPaid: "pagado",
		labelWords:     "En palabras del cliente:",
		questions:      "¿Preguntas? Llame a %s al %s.",
		changeOrCancel: "Para cambiarla o cancelarla, llame a %s al %s.",
		notSuits:       "Si el nuevo horario no le conviene, puede cancelar la solicitud en su página de estado, arriba, o llamar a %s al %s.",
		notSuitsSMS:    "Si no le conviene, puede cancelarla.",
		notConfirmed:   "Todavía no es una cita confirmada: %s la aceptará, le ofrecerá otro horario o la rechazará, y le avisaremos en cualquier caso.",
		stop:           "Responda STOP para no recibir más",
		textMessage:    "Mensaje de texto:",

		receivedSubject:     "Solicitud recibida: %s, %s",
		received:            "%s recibió su solicitud.",
		receivedSMS:         "%s recibió su solicitud para %s. Aún no está confirmada: le avisaremos cuando responda.",
		depositDue:          "Para reservar este horario hay que pagar un depósito: páguelo en %s antes de las %s, o el horario se libera y la solicitud vence. %s verá su solicitud cuando el depósito esté pagado.",
		receivedDepositSMS:  "%s recibió su solicitud para %s. Pague el depósito en %s antes de las %s para reservar este horario.",
		confirmedSubject:    "Confirmada: %s, %s",
		confirmed:           "%s aceptó su solicitud: llegará dentro del horario indicado abajo.",
		confirmedSMS:        "%s confirmó su visita: %s.",
		changedSubject:      "Nuevo horario de llegada: %s, %s",
		changed:             "%s cambió su solicitud a otro horario de llegada.",
		changedSMS:          "%s cambió su horario de llegada a %s.",
		offeredSubject:      "Confirmada en otro horario: %s, %s",
		offered:             "%s respondió a su solicitud con otro horario de llegada: su visita está confirmada para el nuevo horario indicado abajo, en lugar del que usted pidió.",
		offeredSMS:          "%s confirmó su visita en otro horario: %s.",
		depositMoved:        "Como el negocio cambió el horario, su depósito se reembolsa por completo si cancela o no está.",
		cancelledSubject:    "Cancelada: %s, %s",
		again:               "Puede enviar una nueva solicitud en %s.",
		declined:            "%s no puede atender su solicitud para %s, así que quedó cancelada.",
		cancelledByBusiness: "%s canceló su solicitud para %s.",
		cancelledByPerson:   "Su solicitud con %s para %s quedó cancelada, como pidió.",
		cancelledOther:      "Su solicitud con %s para %s fue cancelada.",
		expired:             "El depósito de su solicitud con %s no se pagó a tiempo, así que el horario se liberó y la solicitud quedó cancelada.",
		unanswered:          "%s no respondió a tiempo a su solicitud para %s, así que quedó cancelada.",
		newSubject:          "Nueva solicitud %s: %s, %s",
		newIntro:            "Tiene una nueva solicitud de servicio en su bandeja de Doorstep.",
		openInbox:           "Abra su bandeja para ver los detalles y aceptarla, ofrecer otro horario o rechazarla.",
		calledOffSubject:    "Solicitud %s cancelada por el cliente: %s, %s",
		calledOff:           "El cliente canceló esta solicitud: no hace falta ir, y el horario de llegada vuelve a estar libre.",
		limitSubject:        "Número inusual de solicitudes en %s",
		limitHit:            "%s recibió un número inusual de solicitudes en línea en una hora.",
		limitRefused:        "Por ahora se rechazan las nuevas solicitudes en línea: usted recibe como máximo %d en una hora, y como máximo %d sin responder a la vez. Los clientes todavía pueden llamarle.",
		reminderSubject:     "Recordatorio: %s, %s",
		reminder:            "Le recordamos su visita: %s llegará dentro del horario indicado abajo.",
		reminderSMS:         "Recordatorio: %s llegará el %s. Para cambiarla o cancelarla, llame al %s.",
		wayAddedSubject:     "Le avisaremos aquí: %s, %s",
		wayAdded:            "Pidió que le avisemos aquí sobre su solicitud con %s: le escribiremos cuando la acepte, le ofrezca otro horario o la rechace, y si se cancela.",
		wayAddedSMS:         "Recibirá mensajes de texto sobre su solicitud con %s para %s.",
		limitTodo:           "Abra su bandeja y responda las solicitudes que esperan allí: acéptelas, ofrezca otro horario o rechácelas. Marque allí como spam las que no sean genuinas: así se rechazan y se bloquean su teléfono y su correo. Las solicitudes en línea se aceptan de nuevo a medida que pasa la hora y que usted las responde.",

		preview:       "%s es un sitio de prueba, así que este mensaje llegó solo a la bandeja de prueba, en lugar de a %s.",
		toPersonEmail: "la persona por correo electrónico", toPersonSMS: "la persona por mensaje de texto",
		toPersonAll: "la persona por correo electrónico y mensaje de texto", toBusiness: "la bandeja de la empresa",

		urgency: map[string]string{"emergency": "emergencia", "soon": "pronto", "flexible": "flexible"},
		days:    [7]string{"dom", "lun", "mar", "mié", "jue", "vie", "sáb"},
		months:  [12]string{"ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"},
		window:  windowES,
		clock:   "15:04",
	},
}

// language returns the language a message is written in: lang when the
// service speaks it, else English.
func language(lang string) string {
	if _, ok := wording[lang]; ok {
		return lang
	}
	return "en"
}

// personText writes what the person hears of change ch, in the request's
// language.
func (c Composer) personText(kind Kind, ch Change, r booking.Request, b *booking.Business) text {
	lang := language(r.Language)
	l := wording[lang]
	loc := b.Location()
	w := l.window(l, ch.Event.Window.Start.In(loc), ch.Event.Window.End.In(loc))
	name, phone := b.Name, display.Phone(b.Phone)
	statusURL := c.SiteURL + "/r/" + r.Code

	lines := []string{
		l.labelCode + ": " + r.Code,
		l.labelService + ": " + r.ServiceName.In(lang),
		l.labelWindow + ": " + w,
	}
	var subject, lead, sms, extra, last string
	last = fmt.Sprintf(l.questions, name, phone)
	switch kind {
	case KindReceived:
		subject = fmt.Sprintf(l.receivedSubject, name, w)
		lead = fmt.Sprintf(l.received, name)
		sms = fmt.Sprintf(l.receivedSMS, name, w)
		extra = fmt.Sprintf(l.notConfirmed, name)
		if ch.Event.To == booking.StatusPendingPayment {
			payURL := c.SiteURL + "/pay/" + r.Code
			payBy := r.HoldExpires.In(loc).Format(l.clock + " MST")
			sms = fmt.Sprintf(l.receivedDepositSMS, name, w, payURL, payBy)
			extra = fmt.Sprintf(l.depositDue, payURL, payBy, name) + "\n\n" + extra
		}
	case KindConfirmed:
		subject = fmt.Sprintf(l.confirmedSubject, name, w)
		lead = fmt.Sprintf(l.confirmed, name)
		sms = fmt.Sprintf(l.confirmedSMS, name, w)
		last = fmt.Sprintf(l.changeOrCancel, name, phone)
	case KindChanged:
		subject = fmt.Sprintf(l.changedSubject, name, w)
		lead = fmt.Sprintf(l.changed, name)
		sms = fmt.Sprintf(l.changedSMS, name, w)
		if ch.Event.From == booking.StatusNew && ch.Event.To == booking.StatusAccepted {
			// The offer answered the request: it is accepted there.
			subject = fmt.Sprintf(l.offeredSubject, name, w)
			lead = fmt.Sprintf(l.offered, name)
			sms = fmt.Sprintf(l.offeredSMS, name, w)
		}
		sms += " " + l.notSuitsSMS
		lines = append(lines, l.labelWas+": "+l.window(l, ch.Previous.Start.In(loc), ch.Previous.End.In(loc)))
		if ch.Event.To == booking.StatusNew {
			extra = fmt.Sprintf(l.notConfirmed, name) // a move stored before an offer answered the request
		}
		if r.Deposit != nil && r.Deposit.State == booking.DepositPaid {
			extra = strings.TrimPrefix(extra+"\n\n"+l.depositMoved, "\n\n") // business_moves_the_window
		}
		last = fmt.Sprintf(l.notSuits, name, phone)
	case KindReminder:
		subject = fmt.Sprintf(l.reminderSubject, name, w)
		lead = fmt.Sprintf(l.reminder, name)
		sms = fmt.Sprintf(l.reminderSMS, name, w, phone)
		last = fmt.Sprintf(l.changeOrCancel, name, phone)
	case KindWayAdded:
		subject = fmt.Sprintf(l.wayAddedSubject, name, w)
		lead = fmt.Sprintf(l.wayAdded, name)
		sms = fmt.Sprintf(l.wayAddedSMS, name, w)
		if r.Status.Open() {
			extra = fmt.Sprintf(l.notConfirmed, name)
		}
	case KindCancelled:
		subject = fmt.Sprintf(l.cancelledSubject, name, w)
		switch e := ch.Event; {
		case e.Action == booking.ActionDecline:
			lead = fmt.Sprintf(l.declined, name, w)
		case e.Action == booking.ActionExpire && e.From == booking.StatusNew:
			lead = fmt.Sprintf(l.unanswered, name, w)
		case e.Action == booking.ActionExpire:
			lead = fmt.Sprintf(l.expired, name)
		case e.By == booking.ActorBusiness:
			lead = fmt.Sprintf(l.cancelledByBusiness, name, w)
		case e.By == booking.ActorCustomer:
			lead = fmt.Sprintf(l.cancelledByPerson, name, w)
		default:
			lead = fmt.Sprintf(l.cancelledOther, name, w)
		}
		sms = lead
		extra = fmt.Sprintf(l.again, b.BookingURL)
	}

	var body strings.Builder
	// The person's name is a stranger's text: on one line, never a link
	// (theirLine).
	fmt.Fprintf(&body, l.hello+"\n\n%s\n\n%s\n\n", theirLine(r.Contact.Name), lead, strings.Join(lines, "\n"))
	if extra != "" {
		body.WriteString(extra + "\n\n")
	}
	fmt.Fprintf(&body, "%s: %s\n%s\n", l.labelStatus, statusURL, last)
	return text{
		lang:    lang,
		subject: subject,
		body:    body.String(),
		sms:     fmt.Sprintf("%s %s: %s %s", sms, l.labelStatus, statusURL, l.stop),
	}
}

// businessText writes what the business hears of change ch, in its default
// language: a new request, or the person's cancel of one it had. Neither
// carries the person's contact details: the inbox shows them to the
// business, behind its sign-in. A new request carries the description, if
// any, as the person's quoted words (theirWords).
func (c Composer) businessText(kind Kind, ch Change, r booking.Request, b *booking.Business) text {
	lang := language(b.DefaultLanguage)
	l := wording[lang]
	loc := b.Location()
	w := l.window(l, ch.Event.Window.Start.In(loc), ch.Event.Window.End.In(loc))
	service := r.ServiceName.In(lang)
	lines := []string{
		l.labelCode + ": " + r.Code,
		l.labelService + ": " + service,
		l.labelWindow + ": " + w,
	}
	// The business acts in its web inbox, on the request's own page (it
	// leads through sign-in when signed out). The person's status page
	// cancels as the person, which would keep a deposit the business's
	// cancel refunds.
	status := fmt.Sprintf("%s: %s/inbox/requests/%s\n", l.labelInbox, c.SiteURL, r.Code)
	if (kind == KindNewRequest || kind == KindNudge) && ch.Link != "" {
		// One tap opens it, signed in: no sign-in e-mail to wait for.
		status = fmt.Sprintf("%s: %s\n", l.labelOneTap, ch.Link)
	}
	if kind == KindCancelledByCustomer {
		// Short: what was called off and when; the rest is the inbox's.
		body := fmt.Sprintf("%s\n\n%s\n\n%s", l.calledOff, strings.Join(lines, "\n"), status)
		return text{lang: lang, subject: fmt.Sprintf(l.calledOffSubject, r.Code, service, w), body: body}
	}
	// Where the job is, as the owner's text says it: the ZIP code (the
	// street stays behind the inbox's sign-in).
	if r.Address.ZIP != "" {
		lines = append(lines, l.labelZIP+": "+theirLine(r.Address.ZIP))
	}
	lines = append(lines, l.labelUrgency+": "+urgency(l, r.Urgency))
	if kind == KindNudge {
		// Short too: what waits, and the way to it; the inbox has the rest.
		body := fmt.Sprintf("%s\n\n%s\n\n%s", l.nudgeIntro, strings.Join(lines, "\n"), status)
		return text{lang: lang, subject: fmt.Sprintf(l.nudgeSubject, r.Code, service, w), body: body, sms: c.ownerSMS(l, kind, ch, r, b, service, w)}
	}
	if ch.Event.Action == booking.ActionPay {
		lines = append(lines, l.labelDeposit+": "+l.depositPaid)
	}
	if r.AssistantName != "" {
		lines = append(lines, l.labelAssistant+": "+theirLine(r.AssistantName))
	}
	details := strings.Join(lines, "\n")
	// The description is the person's words, quoted and set apart from
	// Doorstep's text (theirWords).
	if words := theirWords(l.labelWords, r.Description); words != "" {
		details += "\n\n" + words
	}
	body := fmt.Sprintf("%s\n\n%s\n\n%s\n%s", l.newIntro, details, l.openInbox, status)
	return text{lang: lang, subject: fmt.Sprintf(l.newSubject, r.Code, service, w), body: body, sms: c.ownerSMS(l, kind, ch, r, b, service, w)}
}

// ownerSMS is the text to the owner's phone of a new request: Doorstep's
// words, the code, the service, the window, the ZIP code and the link
// (the one-tap link when there is one), never the description nor
// anything else the person wrote: nothing a stranger typed reaches the
// owner's phone as a text from Doorstep.
func (c Composer) ownerSMS(l *lexicon, kind Kind, ch Change, r booking.Request, b *booking.Business, service, window string) string {
	link := ch.Link
	if link == "" {
		link = c.SiteURL + "/inbox/requests/" + r.Code
	}
	words := l.ownerText
	if kind == KindNudge {
		words = l.ownerNudge
	}
	sms := fmt.Sprintf(words, r.Code, service, window, r.Address.ZIP) + " " + link + " " + l.stop
	if b.Urgent(r.ServiceID, r.Urgency) {
		sms = l.ownerUrgent + " " + sms
	}
	return sms
}

// limitText writes what the business hears when a limit refused requests
// (KindLimitReached), in its default language: Doorstep's words alone, the
// limits and its inbox. It names no request and quotes nobody: the
// requests are in the inbox, behind its sign-in.
func (c Composer) limitText(b *booking.Business) text {
	lang := language(b.DefaultLanguage)
	l := wording[lang]
	limits := b.Limits()
	// The web inbox itself, as the new request's e-mail links one request
	// in it.
	inbox := fmt.Sprintf("%s: %s/inbox\n", l.labelInbox, c.SiteURL)
	body := fmt.Sprintf("%s\n\n%s\n\n%s\n%s",
		fmt.Sprintf(l.limitHit, b.Name), fmt.Sprintf(l.limitRefused, limits.PerHour, limits.Unanswered), l.limitTodo, inbox)
	return text{lang: lang, subject: fmt.Sprintf(l.limitSubject, b.Name), body: body}
}

// previewNote says, in a preview message, why it came to the preview inbox
// and whom it stands for.
func previewNote(lang, business string, audience Audience, channels []Channel) string {
	l := wording[lang]
	whom := l.toBusiness
	if audience == AudiencePerson {
		switch {
		case len(channels) == 2:
			whom = l.toPersonAll
		case channels[0] == ChannelSMS:
			whom = l.toPersonSMS
		default:
			whom = l.toPersonEmail
		}
	}
	return fmt.Sprintf(l.preview, business, whom)
}

func urgency(l *lexicon, u string) string {
	if s, ok := l.urgency[u]; ok {
		return s
	}
	return u
}

// windowEN writes "Mon, Nov 23, 10:00 AM-12:00 PM CST".
func windowEN(l *lexicon, start, end time.Time) string {
	day := func(t time.Time) string {
		return fmt.Sprintf("%s, %s %d", l.days[t.Weekday()], l.months[t.Month()-1], t.Day())
	}
	return day(start) + ", " + spanTimes(l, start, end, day)
}

// windowES writes "lun 23 nov, 10:00-12:00 CST".
func windowES(l *lexicon, start, end time.Time) string {
	day := func(t time.Time) string {
		return fmt.Sprintf("%s %d %s", l.days[t.Weekday()], t.Day(), l.months[t.Month()-1])
	}
	return day(start) + ", " + spanTimes(l, start, end, day)
}

// spanTimes writes the times of a window, "10:00 AM-12:00 PM CST", with
// the end's day when it is a later one, and the zone of each end when they
// differ (a window across a change of daylight saving time).
func spanTimes(l *lexicon, start, end time.Time, day func(time.Time) string) string {
	s := start.Format(l.clock)
	if zone := start.Format("MST"); zone != end.Format("MST") {
		s += " " + zone
	}
	s += "-"
	if endsLater(start, end) {
		s += day(end) + ", "
	}
	return s + end.Format(l.clock) + " " + end.Format("MST")
}

// endsLater reports whether a window ends on a later local day than it
// starts, other than at the midnight that ends its first day.
func endsLater(start, end time.Time) bool {
	sy, sm, sd := start.Date()
	ey, em, ed := end.Add(-time.Nanosecond).Date()
	return sy != ey || sm != em || sd != ed
}
