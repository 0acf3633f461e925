package inboxweb

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// Sign-up, {SITE_URL}/start: a business comes on board by itself
// (booking.StartSignup, booking.FinishSignup; docs/business.md, "Coming
// on board").

// startView is the sign-up form: what was typed, and what is wrong with
// it, next to its field.
type startView struct {
	Name, Email string
	Terms       bool
	Trades      []tradeOption
	Invalid     map[string]string // field → message
}

type tradeOption struct {
	Value, Label string
	Selected     bool
}

// startSentView is the answer to the form, the same whatever happened.
type startSentView struct {
	Email string // as typed
}

// startTokenView is the page of a sign-up link: the button that creates
// the business.
type startTokenView struct {
	Action  string
	Limited string // the stack's hourly bound was reached: when to press again
}

// startLang is the language of a sign-up page: the form's lang field,
// else ?lang=, else the browser's.
func startLang(w http.ResponseWriter, r *http.Request) string {
	if l := r.PostFormValue("lang"); l == "en" || l == "es" {
		return l
	}
	return language(w, r, nil)
}

func startForm(lang string, v startView) startView {
	if v.Invalid == nil {
		v.Invalid = map[string]string{}
	}
	trade := v.Trades
	v.Trades = nil
	selected := ""
	if len(trade) == 1 {
		selected = trade[0].Value
	}
	for _, t := range booking.Trades {
		v.Trades = append(v.Trades, tradeOption{Value: t, Label: tr(lang, "trade_"+t), Selected: t == selected})
	}
	return v
}

// start is the sign-up form.
func (h *handler) start(w http.ResponseWriter, r *http.Request) {
	lang := language(w, r, nil)
	render(w, r, http.StatusOK, "start", lang, nil, tr(lang, "start_title"), startForm(lang, startView{}))
}

// startSignup checks the form: each bad field is named next to it, what
// was typed kept, and nothing is stored or sent (400). A good one is
// booking.StartSignup's: a sign-up link, or a sign-in link to an address
// that owns a business, or nothing past the address's daily bound; the
// page says the same each time, and takes at least SignInDelay (a whole
// multiple of it), so that neither its bytes nor its time tell which
// happened.
func (h *handler) startSignup(w http.ResponseWriter, r *http.Request) {
	begin := time.Now()
	if duplicated(r) {
		h.badForm(w, r)
		return
	}
	lang := startLang(w, r)
	in := booking.SignupInput{
		Name:  r.PostFormValue("name"),
		Trade: r.PostFormValue("trade"),
		Email: strings.TrimSpace(r.PostFormValue("email")),
		Terms: r.PostFormValue("terms") == "yes",
	}
	if bad := booking.CheckSignup(in); len(bad) > 0 {
		v := startView{Name: in.Name, Email: in.Email, Terms: in.Terms, Invalid: map[string]string{},
			Trades: []tradeOption{{Value: in.Trade}}}
		for _, f := range bad {
			if f.Field == "name" {
				v.Invalid[f.Field] = tr(lang, "start_invalid_name", booking.MaxBusinessName)
				continue
			}
			v.Invalid[f.Field] = tr(lang, "start_invalid_"+f.Field)
		}
		render(w, r, http.StatusBadRequest, "start", lang, nil, tr(lang, "start_title"), startForm(lang, v))
		return
	}
	h.sendSignup(r.Context(), r.Pattern, in, lang)
	h.pad(r.Context(), begin)
	render(w, r, http.StatusOK, "start-sent", lang, nil, tr(lang, "sent_title"), startSentView{Email: in.Email})
}

// sendSignup starts the sign-up and e-mails its link: a sign-up link in
// the page's language, or the sign-in e-mail of the business the address
// owns. Past the address's daily bound nothing is sent, and that is
// logged (never the address, the token or the link), as are failures.
func (h *handler) sendSignup(ctx context.Context, route string, in booking.SignupInput, lang string) {
	st, err := h.Bookings.StartSignup(ctx, in)
	switch {
	case err != nil:
		h.Log.Error("inboxweb: start a sign-up", "route", route, "error_code", booking.ErrorCode(err))
	case st.Limited:
		h.Log.Warn("inboxweb: sign-up e-mails to one address reached their daily bound; nothing sent",
			"route", route, "limit", booking.MaxSignupEmailsPerDay)
	case st.Business != nil:
		link := h.SiteURL + "/inbox/sign-in/" + url.PathEscape(st.Token)
		if err := h.Mailer.SendSignIn(ctx, st.Business.InboxEmail, st.Business, link); err != nil {
			h.Log.Error("inboxweb: send the sign-in e-mail of a sign-up", "route", route, "business", st.Business.Slug, "error", err)
		}
	default:
		link := h.SiteURL + "/start/" + url.PathEscape(st.Token) + "?lang=" + lang
		if err := h.Mailer.SendSignup(ctx, st.Email, strings.TrimSpace(in.Name), lang, link); err != nil {
			h.Log.Error("inboxweb: send the sign-up e-mail", "route", route, "error", err)
		}
	}
}

// startToken shows the button that creates the business. It reads and
// changes nothing: mail scanners open links, and only a person presses
// the button.
func (h *handler) startToken(w http.ResponseWriter, r *http.Request) {
	lang := language(w, r, nil)
	render(w, r, http.StatusOK, "start-token", lang, nil, tr(lang, "start_token_title"),
		startTokenView{Action: "/start/" + url.PathEscape(r.PathValue("token"))})
}

// finishSignup uses the link: it creates the business and signs its
// owner in (the session cookie, and the page's language for the inbox),
// then 303 to the inbox. A used, expired or unknown link is 410 with the
// way to sign up again; past the stack's hourly bound, 429 with the
// button again (the link still works) and Retry-After.
func (h *handler) finishSignup(w http.ResponseWriter, r *http.Request) {
	if duplicated(r) {
		h.badForm(w, r)
		return
	}
	lang := startLang(w, r)
	s, err := h.Bookings.FinishSignup(r.Context(), r.PathValue("token"))
	switch code := booking.ErrorCode(err); {
	case err == nil:
	case code == booking.Unauthorized:
		render(w, r, http.StatusGone, "message", lang, nil, tr(lang, "start_spent_title"),
			messageView{Heading: tr(lang, "start_spent_title"), Text: tr(lang, "start_spent"), Back: "/start?lang=" + lang, BackText: tr(lang, "start_again")})
		return
	case code == booking.RateLimited:
		retry := max(booking.RetryAfter(err), time.Second)
		h.Log.Warn("inboxweb: sign-ups reached the stack's hourly bound; the link stays good", "route", r.Pattern)
		edge.SetRetryAfter(w, retry)
		minutes := int((retry + time.Minute - 1) / time.Minute)
		render(w, r, http.StatusTooManyRequests, "start-token", lang, nil, tr(lang, "start_token_title"),
			startTokenView{Action: "/start/" + url.PathEscape(r.PathValue("token")), Limited: tr(lang, "start_limited", minutes)})
		return
	default:
		h.fail(w, r, err)
		return
	}
	h.Log.Info("inboxweb: a business signed up", "route", r.Pattern, "business", s.Inbox.Business().Slug)
	h.setSession(w, r, s)
	http.SetCookie(w, &http.Cookie{Name: langCookie, Value: lang, Path: "/inbox", MaxAge: 365 * 24 * 3600, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, "/inbox", http.StatusSeeOther)
}
