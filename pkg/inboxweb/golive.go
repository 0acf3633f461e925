package inboxweb

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
	"github.com/doorstep/doorstep/pkg/htmlpage"
)

// Going live, on the inbox's home: until the business is live, a short
// checklist (booking.Business.Checklist), each item not done a link to
// where it is done, and "Go live" once every item is; once live, "Back to
// preview". Pausing and resuming are one tap there too; Resume is offered
// only to a business that has what a request needs (canResume), so the
// panel says one state of a preview (liveView). A suspended
// business's inbox is read-only: every form but signing out is refused
// (readOnly).

// checkLinks are where each checklist item is done. The services and the
// service area are the settings' "Services" and "Service area" sections.
var checkLinks = map[string]string{
	"mobile":  "/inbox/settings/texts",
	"service": "/inbox/settings/services",
	"zip":     "/inbox/settings/area",
	"hours":   "/inbox/settings/hours",
	"details": "/inbox/settings/details",
}

// liveView is the panel at the top of the inbox.
type liveView struct {
	State  string // booking.LiveState
	Checks []checkView
	Ready  bool
	Since  string // waiting: since when, in the business's time and lang
	On     bool   // accepting requests
	// CanResume: paused, and the business has what a request needs
	// (booking.Business.RequestsMissing): the button that resumes them
	// shows only then.
	CanResume bool
	CSRF      string
	Heading   string
	Note      string
}

type checkView struct {
	Key, Text, Link string
	Done            bool
}

// liveView is b's panel in lang.
func (h *handler) liveView(b *booking.Business, s Session, lang string) liveView {
	v := liveView{State: string(b.LiveState()), On: b.AcceptingRequests, CanResume: canResume(b), CSRF: s.CSRF}
	v.Ready, _ = b.Ready()
	for _, it := range b.Checklist() {
		c := checkView{Key: it.Key, Text: tr(lang, "check_"+it.Key), Done: it.Done}
		if !it.Done {
			c.Link = checkLinks[it.Key]
		}
		v.Checks = append(v.Checks, c)
	}
	switch b.LiveState() {
	case booking.StateSuspended:
		v.Heading, v.Note = tr(lang, "suspended_title"), tr(lang, "suspended_note")
	case booking.StateLive:
		v.Heading, v.Note = tr(lang, "live_title"), tr(lang, "live_note")
		if !v.On {
			v.Note = tr(lang, "live_paused_note")
		}
	case booking.StateWaiting:
		v.Heading = tr(lang, "waiting_title")
		v.Note = tr(lang, "waiting_note", display.Day(lang, *b.ApprovalAsked, b.Location()))
	default:
		// One state of a preview, with what the owner can do now: it
		// takes test requests (to the preview inbox), or it is paused and
		// may take them, or it lacks what a request needs and takes none.
		v.Heading = tr(lang, "preview_title")
		switch {
		case v.On:
			v.Note = tr(lang, "preview_note")
		case v.CanResume:
			v.Note = tr(lang, "preview_paused_note")
		default:
			v.Note = tr(lang, "preview_setup_note")
		}
	}
	return v
}

// canResume reports whether b's online requests are paused and may be
// resumed: b has what a request needs (booking's SetAcceptingRequests
// refuses a business that has not, and its page offers no such button).
func canResume(b *booking.Business) bool {
	return !b.AcceptingRequests && len(b.RequestsMissing()) == 0
}

// liveDone are the notices of ?done= on the inbox, by what just happened.
var liveDone = map[string]string{"live": "done_live", "waiting": "done_waiting", "preview": "done_preview", "off": "paused", "on": "resumed"}

// goLive publishes the business, or asks the operator to (booking.Inbox.GoLive).
func (h *handler) goLive(w http.ResponseWriter, r *http.Request, s Session) {
	b, err := s.Inbox.GoLive(r.Context())
	if booking.ErrorCode(err) == booking.InvalidRequest {
		lang := language(w, r, s.Inbox.Business())
		h.message(w, r, http.StatusConflict, lang, &s, tr(lang, "not_ready_title"), tr(lang, "not_ready"))
		return
	}
	if err != nil && b == nil {
		h.failFor(w, r, s, err)
		return
	}
	if err != nil { // waiting, but the operator was not told: asking again tells them
		h.Log.Error("inboxweb: telling the operator", "error", err)
	}
	done := "live"
	if b.Waiting() {
		done = "waiting"
	}
	http.Redirect(w, r, "/inbox?done="+done, http.StatusSeeOther)
}

// backToPreview unpublishes the business (booking.Inbox.BackToPreview).
func (h *handler) backToPreview(w http.ResponseWriter, r *http.Request, s Session) {
	if _, err := s.Inbox.BackToPreview(r.Context()); err != nil {
		h.failFor(w, r, s, err)
		return
	}
	http.Redirect(w, r, "/inbox?done=preview", http.StatusSeeOther)
}

// pauseHere pauses or resumes online requests in one tap from the inbox
// (the settings page asks to confirm first: settings.go's setAccepting).
func (h *handler) pauseHere(w http.ResponseWriter, r *http.Request, s Session) {
	h.switchRequests(w, r, s, "/inbox", "inbox_title")
}

// switchRequests pauses (accepting_requests=off) or resumes (on) the
// business's online requests, then goes back to the page back with what
// happened (?done=); title is that page's title's key. A business that
// lacks what a request needs is told what to do first, next to nothing
// changed (409): never a server error.
func (h *handler) switchRequests(w http.ResponseWriter, r *http.Request, s Session, back, title string) {
	set := r.PostFormValue("accepting_requests")
	lang := language(w, r, s.Inbox.Business())
	if set != "on" && set != "off" {
		h.message(w, r, http.StatusBadRequest, lang, &s, tr(lang, title), tr(lang, "bad_setting"))
		return
	}
	_, err := s.Inbox.SetAcceptingRequests(r.Context(), set == "on")
	switch {
	case set == "on" && booking.ErrorCode(err) == booking.InvalidRequest:
		h.message(w, r, http.StatusConflict, lang, &s, tr(lang, "not_ready_requests_title"), tr(lang, "not_ready_requests"))
	case err != nil:
		h.failFor(w, r, s, err)
	default:
		http.Redirect(w, r, back+"?done="+set, http.StatusSeeOther)
	}
}

// readOnly refuses a form of a suspended business (its inbox is
// read-only), with what to do; it reports whether it did. Signing out and
// erasing a request's personal details (a person's right, which the JSON
// inbox keeps too) still work.
func (h *handler) readOnly(w http.ResponseWriter, r *http.Request, s Session) bool {
	b := s.Inbox.Business()
	if !b.Suspended || r.URL.Path == "/inbox/sign-out" || isErase(r) {
		return false
	}
	lang := language(w, r, b)
	h.message(w, r, http.StatusForbidden, lang, &s, tr(lang, "suspended_title"), tr(lang, "suspended_note"))
	return true
}

// historyView is a change to the business's settings, newest first.
type historyView struct {
	When, Who string
	Fields    []string
}

// history is b's changes, newest first, in lang.
func history(b *booking.Business, lang string) []historyView {
	var out []historyView
	for _, c := range slices.Backward(b.Changes) {
		who := c.By
		switch {
		case c.By == booking.ByOperator:
			who = tr(lang, "by_operator")
		case strings.EqualFold(c.By, b.InboxEmail):
			who = tr(lang, "by_you", c.By)
		}
		v := historyView{When: display.Day(lang, c.At, b.Location()) + " · " + c.At.In(b.Location()).Format("15:04"), Who: who}
		for _, f := range c.Fields {
			v.Fields = append(v.Fields, fieldName(lang, f))
		}
		out = append(out, v)
	}
	return out
}

// fieldName is a record's field as the owner knows it: its name in lang,
// or the field itself for one without.
func fieldName(lang, f string) string {
	if _, ok := goLiveTexts["en"]["field_"+f]; ok {
		return tr(lang, "field_"+f)
	}
	return f
}

// goLiveTexts are this file's words, added to texts.
var goLiveTexts = htmlpage.Texts{
	"en": {
		"check_email":              "Your e-mail address is confirmed",
		"check_mobile":             "A mobile number, confirmed by a code",
		"check_service":            "At least one service",
		"check_zip":                "At least one ZIP code you serve",
		"check_hours":              "Opening hours on at least one day",
		"check_details":            "Your public phone number, city and state",
		"checklist":                "Before you go live",
		"go_live":                  "Go live",
		"back_to_preview":          "Back to preview",
		"pause_now":                "Pause online requests",
		"resume_now":               "Resume online requests",
		"preview_title":            "Your booking page is a preview",
		"preview_note":             "People can try your booking page: their requests reach the preview inbox, not you, and any deposit is simulated. Go live once every item below is done.",
		"preview_paused_note":      "Online requests are paused: your booking page takes none, not even to try it. Resume them to try it (requests reach the preview inbox, not you), or go live once every item below is done.",
		"preview_setup_note":       "Your booking page takes no requests yet. Do each item below: then you can go live, and people can book you.",
		"live_paused_note":         "Online requests are paused: your page is published, but nobody can send you a new request until you resume them.",
		"not_ready_requests_title": "Not ready to take requests",
		"not_ready_requests":       "Your booking page needs a service, a ZIP code you serve, and your public phone number, city and state before it takes requests. Nothing changed: the checklist on your inbox links to each.",
		"waiting_title":            "Waiting for Doorstep's approval",
		"waiting_note":             "You asked to go live on %s. Doorstep's operator approves new businesses; your page stays a preview until then.",
		"live_title":               "Your booking page is live",
		"live_note":                "People can book you. Go back to preview at any time.",
		"suspended_title":          "Your inbox is read-only",
		"suspended_note":           "Doorstep's operator has suspended this business: it takes no requests, and nothing here can be changed. You can still read your requests. Write to Doorstep to lift it.",
		"not_ready_title":          "Not ready to go live",
		"not_ready":                "Something on the checklist is not done yet. Go back to the inbox to see what.",
		"done_live":                "You are live: people can book you now.",
		"done_waiting":             "Asked. Doorstep's operator will approve it; your page stays a preview until then.",
		"done_preview":             "Back to preview: requests go to the preview inbox.",
		"todo":                     "to do",
		"done_mark":                "done",
		"history_title":            "History",
		"tab_history":              "History",
		"history_intro":            "The last changes to your business's settings, by you or by Doorstep's operator.",
		"history_none":             "No change yet.",
		"by_operator":              "Doorstep's operator",
		"by_you":                   "You (%s)",
		"field_preview":            "preview or live",
		"field_accepting_requests": "online requests on or paused",
		"field_hours":              "hours",
		"field_days_off":           "days off",
		"field_min_notice_minutes": "notice",
		"field_crews_per_window":   "crews",
		"field_reminder_hour":      "reminder hour",
		"field_owner_phone":        "mobile number",
		"field_text_me":            "texts",
		"field_services":           "services",
		"field_service_area":       "service area",
		"field_booking_deposit":    "deposit",
		"field_requests_per_hour":  "requests per hour",
		"field_max_unanswered":     "unanswered requests",
		"field_approved":           "approval",
		"field_suspended":          "suspension",
		"field_approval_asked":     "asked to go live",
		"field_feed_token_sha256":  "calendar feed",
		"field_name":               "name",
	},
	"es": {
		"check_email":              "Su correo electrónico está confirmado",
		"check_mobile":             "Un número de celular, confirmado con un código",
		"check_service":            "Al menos un servicio",
		"check_zip":                "Al menos un código postal que atiende",
		"check_hours":              "Horario de atención en al menos un día",
		"check_details":            "Su teléfono público, ciudad y estado",
		"checklist":                "Antes de publicar",
		"go_live":                  "Publicar",
		"back_to_preview":          "Volver a vista previa",
		"pause_now":                "Pausar las solicitudes en línea",
		"resume_now":               "Reanudar las solicitudes en línea",
		"preview_title":            "Su página de reservas es una vista previa",
		"preview_note":             "Las personas pueden probar su página de reservas: sus solicitudes llegan a la bandeja de prueba, no a usted, y el depósito es simulado. Publique cuando todo lo de abajo esté hecho.",
		"preview_paused_note":      "Las solicitudes en línea están en pausa: su página de reservas no recibe ninguna, ni de prueba. Reanúdelas para probarla (las solicitudes llegan a la bandeja de prueba, no a usted), o publique cuando todo lo de abajo esté hecho.",
		"preview_setup_note":       "Su página de reservas aún no recibe solicitudes. Haga cada punto de abajo: luego podrá publicar, y las personas podrán reservar con usted.",
		"live_paused_note":         "Las solicitudes en línea están en pausa: su página está publicada, pero nadie puede enviarle una solicitud nueva hasta que las reanude.",
		"not_ready_requests_title": "Aún no puede recibir solicitudes",
		"not_ready_requests":       "Su página de reservas necesita un servicio, un código postal que atiende, y su teléfono público, ciudad y estado antes de recibir solicitudes. No cambió nada: la lista de su bandeja lleva a cada uno.",
		"waiting_title":            "Esperando la aprobación de Doorstep",
		"waiting_note":             "Usted pidió publicar el %s. El operador de Doorstep aprueba los negocios nuevos; su página sigue en vista previa hasta entonces.",
		"live_title":               "Su página de reservas está publicada",
		"live_note":                "Las personas ya pueden reservar con usted. Puede volver a vista previa cuando quiera.",
		"suspended_title":          "Su bandeja es de solo lectura",
		"suspended_note":           "El operador de Doorstep suspendió este negocio: no recibe solicitudes y aquí no se puede cambiar nada. Aún puede leer sus solicitudes. Escriba a Doorstep para levantar la suspensión.",
		"not_ready_title":          "Aún no puede publicar",
		"not_ready":                "Falta algo de la lista. Vuelva a la bandeja para ver qué.",
		"done_live":                "Publicado: las personas ya pueden reservar con usted.",
		"done_waiting":             "Pedido. El operador de Doorstep lo aprobará; su página sigue en vista previa hasta entonces.",
		"done_preview":             "De vuelta en vista previa: las solicitudes van a la bandeja de prueba.",
		"todo":                     "pendiente",
		"done_mark":                "hecho",
		"history_title":            "Historial",
		"tab_history":              "Historial",
		"history_intro":            "Los últimos cambios a los ajustes de su negocio, hechos por usted o por el operador de Doorstep.",
		"history_none":             "Aún no hay cambios.",
		"by_operator":              "El operador de Doorstep",
		"by_you":                   "Usted (%s)",
		"field_preview":            "vista previa o publicado",
		"field_accepting_requests": "solicitudes en línea activas o en pausa",
		"field_hours":              "horario",
		"field_days_off":           "días libres",
		"field_min_notice_minutes": "aviso previo",
		"field_crews_per_window":   "equipos",
		"field_reminder_hour":      "hora del recordatorio",
		"field_owner_phone":        "número de celular",
		"field_text_me":            "avisos por mensaje",
		"field_services":           "servicios",
		"field_service_area":       "zona de servicio",
		"field_booking_deposit":    "depósito",
		"field_requests_per_hour":  "solicitudes por hora",
		"field_max_unanswered":     "solicitudes sin responder",
		"field_approved":           "aprobación",
		"field_suspended":          "suspensión",
		"field_approval_asked":     "pidió publicar",
		"field_feed_token_sha256":  "calendario",
		"field_name":               "nombre",
	},
}

func init() {
	for lang, words := range goLiveTexts {
		maps.Copy(texts[lang], words)
	}
}
