package inboxweb

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// home is the inbox when signed in, and the sign-in form when not. Signed
// in with ?next=, it goes on to that page of the inbox.
func (h *handler) home(w http.ResponseWriter, r *http.Request) {
	s, ok, err := h.session(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	next := safeNext(r.URL.Query().Get("next"))
	switch {
	case !ok:
		lang := language(w, r, nil)
		h.renderSignIn(w, r, http.StatusOK, lang, signInView{Next: next})
	case next != "/inbox":
		http.Redirect(w, r, next, http.StatusSeeOther)
	default:
		h.inbox(w, r, s)
	}
}

func (h *handler) renderSignIn(w http.ResponseWriter, r *http.Request, status int, lang string, v signInView) {
	if v.Next == "/inbox" {
		v.Next = ""
	}
	v.ByText = h.Texter != nil
	render(w, r, status, "signin", lang, nil, tr(lang, "signin_title"), v)
}

// startSignIn e-mails a sign-in link when the address is a business's
// inbox_email. The answer is the same page whatever the address, known or
// not, rate-limited or failed (askToSignIn).
func (h *handler) startSignIn(w http.ResponseWriter, r *http.Request) {
	valid := func(email string) bool { _, ok := booking.NormalizeEmail(email); return ok }
	h.askToSignIn(w, r, valid, h.sendSignIn, func(lang, _, _ string) {
		render(w, r, http.StatusOK, "sent", lang, nil, tr(lang, "sent_title"), sentView{})
	})
}

// askToSignIn answers a form that asks to sign in, by a link (startSignIn)
// or by a texted code (startTextSignIn), alike: an address that is not
// valid is the sign-in form again, with it (400); any other is send's to
// act on, and its answer takes at least SignInDelay (a whole multiple of
// it), so that neither its bytes nor its time tell which addresses belong
// to a business. Past the hourly limit, which counts every address alike,
// a business's or not, the page says so (429, Retry-After); otherwise
// sent answers.
func (h *handler) askToSignIn(w http.ResponseWriter, r *http.Request, valid func(email string) bool,
	send func(ctx context.Context, route, email, next string) (retry time.Duration), sent func(lang, email, next string)) {
	start := time.Now()
	if duplicated(r) {
		h.badForm(w, r)
		return
	}
	lang := language(w, r, nil)
	next := safeNext(r.PostFormValue("next"))
	email := strings.TrimSpace(r.PostFormValue("email"))
	if !valid(email) {
		h.renderSignIn(w, r, http.StatusBadRequest, lang, signInView{Next: next, Email: email, Invalid: true})
		return
	}
	retry := send(r.Context(), r.Pattern, email, next)
	h.pad(r.Context(), start)
	if retry > 0 {
		minutes := int((retry + time.Minute - 1) / time.Minute)
		edge.SetRetryAfter(w, retry)
		render(w, r, http.StatusTooManyRequests, "sent", lang, nil, tr(lang, "limited_title"),
			sentView{Limited: tr(lang, "limited", booking.MaxSignInsPerHour, minutes)})
		return
	}
	sent(lang, email, next)
}

// sendSignIn asks for a sign-in token for email and, when there is one,
// e-mails its link to the business's inbox_email. Past the hourly limit
// (known address or not), it returns how long until the next link may be
// asked for. Failures are logged (never the address, the token or the
// link) and otherwise unseen.
func (h *handler) sendSignIn(ctx context.Context, route, email, next string) (retry time.Duration) {
	token, b, ok, err := h.Bookings.StartSignIn(ctx, email)
	if err != nil || !ok {
		return h.notSent(route, "inboxweb: start sign-in", err)
	}
	link := h.SiteURL + "/inbox/sign-in/" + url.PathEscape(token)
	if next != "/inbox" {
		link += "?next=" + url.QueryEscape(next)
	}
	if err := h.Mailer.SendSignIn(ctx, b.InboxEmail, b, link); err != nil {
		h.Log.Error("inboxweb: send the sign-in e-mail", "route", route, "business", b.Slug, "error", err)
	}
	return 0
}

// notSent is what a sign-in's ask answers when it sends nothing: past the
// hourly limit (err RATE_LIMITED), how long until the next may be asked
// for; otherwise 0, and err, if any, is logged as msg, by its code only
// (never the address).
func (h *handler) notSent(route, msg string, err error) (retry time.Duration) {
	switch code := booking.ErrorCode(err); {
	case err == nil:
	case code == booking.RateLimited:
		return max(booking.RetryAfter(err), time.Second)
	default:
		h.Log.Error(msg, "route", route, "error_code", code)
	}
	return 0
}

// pad waits until the time since start is a whole, non-zero multiple of
// SignInDelay.
func (h *handler) pad(ctx context.Context, start time.Time) {
	elapsed := time.Since(start)
	until := (elapsed/h.SignInDelay + 1) * h.SignInDelay
	t := time.NewTimer(until - elapsed)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// tokenPage shows the button that signs in with the link's token. It does
// not spend the token: mail scanners open links, and only a person presses
// the button.
//
// A one-tap link (booking.NewRequestLink, in the new request's message) is
// such a link whose ?next= is its request's page: the page says that the
// button opens the request. The request it opens is the one its token was
// made for, whatever ?next= says; ?next= only brings a signed-out person
// there through the sign-in form, when the link is spent or expired.
func (h *handler) tokenPage(w http.ResponseWriter, r *http.Request) {
	lang := language(w, r, nil)
	v := tokenView{Action: "/inbox/sign-in/" + url.PathEscape(r.PathValue("token")), Next: safeNext(r.URL.Query().Get("next"))}
	if v.Next == "/inbox" {
		v.Next = ""
	}
	title := tr(lang, "token_title")
	if strings.HasPrefix(v.Next, "/inbox/requests/") {
		v.Request, title = true, tr(lang, "open_title")
	}
	render(w, r, http.StatusOK, "token", lang, nil, title, v)
}

// finishSignIn spends the token and opens a session (signInWith). A
// spent, expired or unknown token (or one of another kind: a new inbox
// address's, a sign-up's, left unspent) gets the sign-in form, to ask for
// a new link (410).
func (h *handler) finishSignIn(w http.ResponseWriter, r *http.Request) {
	h.signInWith(w, r, func(ctx context.Context) (Session, error) {
		return h.Bookings.FinishSignIn(ctx, r.PathValue("token"))
	}, func(lang, next string) {
		h.renderSignIn(w, r, http.StatusGone, lang, signInView{Next: next, Spent: true})
	})
}

// signInWith opens the session that finish opens, from a link's button or
// a texted code alike: the cookie, then 303 to the inbox or the page the
// person came for (a one-tap link's own request, whatever the form says).
// An UNAUTHORIZED finish is refused's to answer, with the page to go back
// to.
func (h *handler) signInWith(w http.ResponseWriter, r *http.Request, finish func(ctx context.Context) (Session, error), refused func(lang, next string)) {
	if duplicated(r) {
		h.badForm(w, r)
		return
	}
	next := safeNext(r.PostFormValue("next"))
	s, err := finish(r.Context())
	switch {
	case booking.ErrorCode(err) == booking.Unauthorized:
		refused(language(w, r, nil), next)
	case err != nil:
		h.fail(w, r, err)
	default:
		if s.Opens != "" {
			next = requestPath(s.Opens) // a one-tap link opens its own request
		}
		h.openSession(w, r, s, next)
	}
}

// openSession sets the cookie of session s, ends the session this browser
// had before, and goes to next.
func (h *handler) openSession(w http.ResponseWriter, r *http.Request, s Session, next string) {
	h.setSession(w, r, s)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// setSession sets the cookie of the session s just opened, and ends the
// session this browser had before (if any).
func (h *handler) setSession(w http.ResponseWriter, r *http.Request, s Session) {
	if old, err := r.Cookie(CookieName); err == nil && old.Value != "" && old.Value != s.Token {
		// The session this browser had is replaced: end it too.
		if err := h.Bookings.EndSession(r.Context(), old.Value); err != nil && booking.ErrorCode(err) != booking.Unauthorized {
			h.Log.Warn("inboxweb: end the replaced session", "route", r.Pattern, "error_code", booking.ErrorCode(err))
		}
	}
	maxAge := int(s.Expires.Sub(h.Now()) / time.Second)
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: s.Token, Path: "/inbox", MaxAge: max(maxAge, 1), Expires: s.Expires.UTC(),
		HttpOnly: true, Secure: h.secure(), SameSite: http.SameSiteLaxMode,
	})
}

// secure reports whether the site is served over https: the session
// cookie is then sent over https only.
func (h *handler) secure() bool {
	u, err := url.Parse(h.SiteURL)
	return err == nil && u.Scheme == "https"
}

// signOut ends the session, server-side, and clears the cookie.
func (h *handler) signOut(w http.ResponseWriter, r *http.Request, s Session) {
	if err := h.Bookings.EndSession(r.Context(), s.Token); err != nil && booking.ErrorCode(err) != booking.Unauthorized {
		h.fail(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/inbox", MaxAge: -1, HttpOnly: true, Secure: h.secure(), SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, "/inbox", http.StatusSeeOther)
}

// nextPath is every page of the inbox a person may be sent back to after
// signing in: the inbox, settings and their sections, a request and its
// move pages. Nothing else, and never another site.
var nextPath = regexp.MustCompile(`^/inbox(/settings(/(` + strings.Join(sectionKeys(), "|") + `))?|/requests/[A-Za-z0-9-]{1,40}(/[a-z_]{1,20})?)?$`)

// sectionKeys are the keys of the settings' sections, each a page.
func sectionKeys() []string {
	var keys []string
	for _, s := range settingsSections {
		keys = append(keys, regexp.QuoteMeta(s.Key))
	}
	return keys
}

// safeNext returns p when it is a page of the inbox to go back to after
// signing in, else /inbox: the way back never leads off the inbox.
func safeNext(p string) string {
	if nextPath.MatchString(p) {
		return p
	}
	return "/inbox"
}
