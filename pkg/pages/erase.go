package pages

import (
	"maps"
	"net/http"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
)

// "Erase my details": once a request has ended, its status page offers to
// erase the person's details (booking.Bookings.CustomerErase). The code is
// the capability, as for cancelling; a second page asks for confirmation
// and says it cannot be undone.
//
//	GET  /r/{code}/erase   what erasing does, and the confirm button
//	POST /r/{code}/erase   erase, as the person (confirm=yes)

// eraseView is the erase confirmation page.
type eraseView struct {
	Code       string
	Business   string
	Window     string
	StatusPath string
}

// eraseFields sets the status page's erasure fields of r (as it stands):
// when its details were erased, or the link to erase them once it has
// ended.
func eraseFields(v *statusView, r booking.Request, lang string, loc *time.Location) {
	switch {
	case !r.Erased.IsZero():
		v.Erased = tr(lang, "erased_notice", display.Day(lang, r.Erased, loc))
	case r.Status.Ended():
		v.EraseURL = "/r/" + r.Code + "/erase"
	}
}

func (h *handler) confirmErase(w http.ResponseWriter, r *http.Request) {
	req, b, err := h.load(r.Context(), r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	lang := language(req)
	if !req.Erased.IsZero() || !req.Effective(h.Now()).Status.Ended() {
		h.renderStatus(r.Context(), w, http.StatusConflict, req, b, tr(lang, "erase_refused"))
		return
	}
	v := eraseView{Code: req.Code, Business: b.Name, StatusPath: "/r/" + req.Code,
		Window: display.Window(lang, req.Window.Start, req.Window.End, b.Location())}
	render(w, http.StatusOK, "erase", lang, tr(lang, "erase_title")+" · "+b.Name, v)
}

func (h *handler) erase(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	req, b, err := h.load(ctx, r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if r.PostFormValue("confirm") != "yes" {
		http.Redirect(w, r, "/r/"+req.Code+"/erase", http.StatusSeeOther)
		return
	}
	after, err := h.Bookings.CustomerErase(ctx, req.Code)
	if booking.ErrorCode(err) == booking.InvalidTransition {
		h.renderStatus(r.Context(), w, http.StatusConflict, req, b, tr(language(req), "erase_refused"))
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/r/"+after.Code+"?done=erased", http.StatusSeeOther)
}

// erasedNotice is the status page's notice for ?done=erased, when the
// stored request agrees.
func erasedNotice(req booking.Request) string {
	if req.Erased.IsZero() {
		return ""
	}
	return tr(language(req), "notice_erased")
}

func init() {
	for lang, words := range eraseTexts {
		maps.Copy(texts[lang], words)
	}
}

var eraseTexts = map[string]map[string]string{
	"en": {
		"erase_link":    "Erase my details",
		"erase_title":   "Erase your details",
		"erase_what":    "Your name, phone, e-mail, street address and description are erased from this request, for you and for the business. What stays is the service, the arrival window, the ZIP code, what happened to the request and to any deposit.",
		"erase_final":   "This cannot be undone.",
		"erase_button":  "Erase my details",
		"erase_keep":    "Keep my details",
		"erase_refused": "This request's details cannot be erased now: only a request that has ended can have them erased, once.",
		"erased_notice": "Details erased on %s.",
		"notice_erased": "Your details are erased.",
	},
	"es": {
		"erase_link":    "Borrar mis datos",
		"erase_title":   "Borrar sus datos",
		"erase_what":    "Su nombre, teléfono, correo, dirección y descripción se borran de esta solicitud, para usted y para el negocio. Quedan el servicio, el horario de llegada, el código postal, lo que pasó con la solicitud y con cualquier depósito.",
		"erase_final":   "Esto no se puede deshacer.",
		"erase_button":  "Borrar mis datos",
		"erase_keep":    "Conservar mis datos",
		"erase_refused": "Los datos de esta solicitud no se pueden borrar ahora: solo se borran los de una solicitud terminada, una vez.",
		"erased_notice": "Datos borrados el %s.",
		"notice_erased": "Sus datos están borrados.",
	},
}
