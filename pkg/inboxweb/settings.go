package inboxweb

import (
	"net/http"
)

// settings shows whether online requests are on, and the button that
// pauses or resumes them; ?set=on or ?set=off is the step that confirms
// it, ?done= what just happened (shown when the business agrees).
func (h *handler) settings(w http.ResponseWriter, r *http.Request, s Session) {
	b := s.Business
	lang := language(w, r, b)
	q := r.URL.Query()
	v := settingsView{On: b.AcceptingRequests, CSRF: s.CSRF}
	switch set := q.Get("set"); {
	case set == "on" && !b.AcceptingRequests, set == "off" && b.AcceptingRequests:
		v.Confirm = set
	}
	switch done := q.Get("done"); {
	case done == "on" && b.AcceptingRequests:
		v.Notice = tr(lang, "resumed")
	case done == "off" && !b.AcceptingRequests:
		v.Notice = tr(lang, "paused")
	}
	render(w, r, http.StatusOK, "settings", lang, &s, tr(lang, "settings_title"), v)
}

// setAccepting pauses (accepting_requests=off) or resumes (on) the
// business's online requests, as confirmed on the settings page.
func (h *handler) setAccepting(w http.ResponseWriter, r *http.Request, s Session) {
	set := r.PostFormValue("accepting_requests")
	if set != "on" && set != "off" {
		lang := language(w, r, s.Business)
		h.message(w, r, http.StatusBadRequest, lang, &s, tr(lang, "settings_title"), tr(lang, "bad_setting"))
		return
	}
	if _, err := h.Bookings.SetAcceptingRequests(r.Context(), s.Business, set == "on"); err != nil {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/inbox/settings?done="+set, http.StatusSeeOther)
}
