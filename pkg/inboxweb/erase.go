package inboxweb

import (
	"errors"
	"maps"
	"net/http"
	"net/url"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
)

// Erasing one ended request's personal details from the inbox
// (booking.Inbox.Erase): its page offers it apart, below the history; a
// confirm page says what goes and that it cannot be undone. It shares the
// moves' address, /inbox/requests/{code}/erase, as no move is named erase.
//
//	GET  /inbox/requests/{code}/erase   what erasing does, and the button
//	POST /inbox/requests/{code}/erase   erase, then the request's page

// eraseAction is the {action} of the inbox's erase address.
const eraseAction = "erase"

// isErase reports whether the path's {action} is the erasure.
func isErase(r *http.Request) bool { return r.PathValue("action") == eraseAction }

// eraseFields sets the request page's erasure fields: an erased request
// says so where the person's details were (their name, phone, address),
// keeping only the ZIP code; an ended one offers to erase them.
func eraseFields(v *requestView, req booking.InboxRequest, lang string, b *booking.Business) {
	if req.Erased != nil {
		erased := tr(lang, "details_erased")
		v.Name, v.Phone, v.PhoneLink, v.Email, v.Quote, v.SMS = erased, erased, "", "", "", erased
		v.Address = []string{erased, req.Address.ZIP}
		v.MapLink = "https://www.google.com/maps/search/?api=1&query=" + url.QueryEscape(req.Address.ZIP)
		v.Erased = tr(lang, "erased_on", display.Moment(lang, *req.Erased, b.Location()))
		return
	}
	if req.Status.Ended() {
		v.Erase = &actionLink{Path: requestPath(req.Code) + "/" + eraseAction, Label: tr(lang, "action_erase"),
			Action: eraseAction, Hint: tr(lang, "hint_erase"), Danger: true}
	}
}

// confirmErase is the step before erasing.
func (h *handler) confirmErase(w http.ResponseWriter, r *http.Request, s Session) {
	req, err := h.load(r, s)
	if err != nil {
		h.failFor(w, r, s, err)
		return
	}
	lang := language(w, r, s.Inbox.Business())
	if req.Erased != nil || !req.Status.Ended() {
		h.renderRequest(w, r, http.StatusConflict, s, req, lang, tr(lang, "erase_not_now"), true)
		return
	}
	v := confirmView{
		Heading: tr(lang, "confirm_erase"), Action: eraseAction, Code: req.Code, Path: requestPath(req.Code), CSRF: s.CSRF,
		Summary: summary(req, s.Inbox.Business(), lang),
		Explain: tr(lang, "explain_erase"), Button: tr(lang, "button_erase"), Danger: true,
	}
	render(w, r, http.StatusOK, "confirm", lang, &s, tr(lang, "confirm_erase"), v)
}

// erase erases the request's personal details, as its business.
func (h *handler) erase(w http.ResponseWriter, r *http.Request, s Session) {
	lang := language(w, r, s.Inbox.Business())
	req, err := s.Inbox.Erase(r.Context(), r.PathValue("code"))
	var moved *booking.MovedError
	switch {
	case errors.As(err, &moved):
		h.renderRequest(w, r, http.StatusConflict, s, moved.Request, lang, tr(lang, "erase_not_now"), true)
	case err != nil:
		h.failFor(w, r, s, err)
	default:
		http.Redirect(w, r, requestPath(req.Code)+"?done="+eraseAction, http.StatusSeeOther)
	}
}

func init() {
	for lang, words := range eraseTexts {
		maps.Copy(texts[lang], words)
	}
}

var eraseTexts = map[string]map[string]string{
	"en": {
		"details_erased": "Details erased",
		"erased_on":      "The person's details were erased on %s: what stays is the service, the window, the ZIP code, the deposit and the history.",
		"action_erase":   "Erase the person's details",
		"hint_erase":     "Their name, phone, e-mail, address and description, for good. Doorstep erases them by itself a while after a request ends.",
		"confirm_erase":  "Erase the person's details?",
		"explain_erase":  "Their name, phone, e-mail, street address and description are erased from this request, for you and for them. What stays is the service, the window, the ZIP code, what happened and the deposit. This cannot be undone.",
		"button_erase":   "Yes, erase them",
		"done_erase":     "The person's details are erased.",
		"erase_not_now":  "Only an ended request's details can be erased, once.",
	},
	"es": {
		"details_erased": "Datos borrados",
		"erased_on":      "Los datos de la persona se borraron el %s: quedan el servicio, el horario, el código postal, el depósito y el historial.",
		"action_erase":   "Borrar los datos de la persona",
		"hint_erase":     "Su nombre, teléfono, correo, dirección y descripción, para siempre. Doorstep los borra por sí solo un tiempo después de que termina una solicitud.",
		"confirm_erase":  "¿Borrar los datos de la persona?",
		"explain_erase":  "Su nombre, teléfono, correo, dirección y descripción se borran de esta solicitud, para usted y para la persona. Quedan el servicio, el horario, el código postal, lo que pasó y el depósito. Esto no se puede deshacer.",
		"button_erase":   "Sí, borrarlos",
		"done_erase":     "Los datos de la persona están borrados.",
		"erase_not_now":  "Solo se borran los datos de una solicitud terminada, una vez.",
	},
}
