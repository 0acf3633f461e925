// Package inboxweb serves the business's own inbox in a browser, under
// {SITE_URL}/inbox: server-rendered HTML in the business's language (en or
// es, with a switch to the other), usable on a phone with one thumb and
// without JavaScript. The business signs in with a single-use link sent to
// its inbox_email, then lists its requests, reads one and moves it along
// the same booking lifecycle as the JSON inbox (pkg/httpapi), and may pause
// its online requests.
package inboxweb

import (
	"context"
	"embed"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/htmlpage"
)

// Mailer sends the sign-in e-mail: a link to sign in to b's inbox, to the
// address to (b's inbox_email); and the sign-up e-mail: a link that
// creates the business named name (as typed) to the address to, in lang
// (en or es). EmailMailer sends them through a notify.EmailSender
// (pkg/sesmail, the local outbox).
type Mailer interface {
	SendSignIn(ctx context.Context, to string, b *booking.Business, link string) error
	// SendInboxEmailChange sends the link that confirms to as b's new
	// inbox address, to that address (inboxemail.go).
	SendInboxEmailChange(ctx context.Context, to string, b *booking.Business, link string) error
	// SendSignup sends the link that creates the business named name (as
	// typed) to the address to, in lang (signup.go).
	SendSignup(ctx context.Context, to, name, lang, link string) error
}

// DefaultSignInDelay is the least time an answer to a sign-in form takes.
const DefaultSignInDelay = 400 * time.Millisecond

// Config is what the inbox needs.
type Config struct {
	Bookings *booking.Bookings
	Mailer   Mailer
	// Texter texts the code that confirms the owner's mobile number; nil:
	// texts are off, and the settings page says so.
	Texter Texter
	// OptOuts reads whether a number replied STOP (notify's ledger), so
	// that one request's page, and the confirmation after a move, never
	// say a text goes to a number that stopped them (booking.PersonReach);
	// nil: not read. The list reads it only for the live requests whose
	// person is reached by text alone, whose mark depends on it.
	OptOuts OptOutReader
	// SiteURL is the public address (https://book.example.com): the
	// sign-in links start with it, and the session cookie is Secure when
	// it is https.
	SiteURL string
	// SignInDelay is the least time an answer to the sign-in form takes,
	// known address or not, so that its timing does not tell which
	// addresses are a business's; an answer that takes longer is held to
	// the next whole multiple of it. 0: DefaultSignInDelay.
	SignInDelay time.Duration
	Now         func() time.Time
	Log         *slog.Logger
}

// CookieName is the session cookie's name. Its value is the session's
// token, which is never logged or shown.
const CookieName = "doorstep_inbox"

// langCookie remembers the language the person switched to.
const langCookie = "doorstep_inbox_lang"

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed style.css
var style string

// site is the inbox's templates, style sheet and headers.
var site = htmlpage.New(templateFiles, style, append([]string{"signin", "sent", "code", "token", "email", "inbox", "request", "confirm", "move", "settings", "feed", "message", "export", "start", "start-sent", "start-token"}, sectionPages()...)...)

// navView is the header of a signed-in page.
type navView struct {
	Business string
	CSRF     string
}

type handler struct {
	Config
}

// New returns the inbox's handler.
//
//	GET  /inbox                               signed out: the sign-in form; signed in: the requests
//	POST /inbox/sign-in                       e-mail a sign-in link; the same answer for any address
//	POST /inbox/sign-in-text                  text a sign-in code to the business's confirmed number; the same answer for any address
//	POST /inbox/sign-in-code                  spend the code, set the session cookie, 303 to the inbox
//	GET  /inbox/sign-in/{token}               the "Sign in" button (the token is not spent)
//	POST /inbox/sign-in/{token}               spend the token, set the session cookie, 303 to the inbox
//	POST /inbox/sign-out                      end the session
//	GET  /inbox/requests/{code}               one request, its history and the moves it allows now
//	GET  /inbox/requests/{code}/{action}      confirm a move (with what it does to the deposit), or pick a window
//	POST /inbox/requests/{code}/{action}      make the move
//	GET  /inbox/settings                      pause or resume online requests; the links to the sections
//	POST /inbox/settings                      do it, once confirmed
//	GET  /inbox/settings/{section}            a section of the settings (settingsSections): hours, days-off, notice, calendar, booking-form, texts,
//	                                          details, services (?edit={id}), area, windows
//	POST /inbox/settings/{form}               change the schedule: days-off (add one), remove-day-off, notice, crews, hours, reminder;
//	                                          or the offer: details, add-service, edit-service, move-service, remove-service, area, windows
//	POST /inbox/settings/feed                 make a new calendar feed address (the old one stops), 303 to its page
//	GET  /inbox/settings/feed                 the new address, whole, to copy or subscribe to (until back to settings)
//	POST /inbox/settings/feed-stop            stop the calendar feed
//	GET  /inbox/export                        the days whose requests to download
//	GET  /inbox/export.csv                    the download, CSV (export.go)
//	POST /inbox/settings/owner-phone          text a code to the owner's mobile, to confirm it
//	POST /inbox/settings/owner-phone-code     confirm it with the code
//	POST /inbox/settings/text-me              texts of every new request, urgent ones or none; or forget the number
//	GET  /start                               the sign-up form: the business's name, trade, the owner's e-mail, the terms
//	POST /start                               e-mail a sign-up link (or a sign-in link, to an owner); the same answer each time
//	GET  /start/{token}                       the "Create my business" button (the token is not spent)
//	POST /start/{token}                       create the business in preview, sign its owner in, 303 to the inbox
//	POST /inbox/go-live                       go live when the checklist holds, or ask the operator to approve it
//	POST /inbox/back-to-preview               back to preview
//	POST /inbox/accepting                     pause (off) or resume (on) online requests, in one tap from the inbox
//	POST /inbox/settings/inbox-email          e-mail a link to a new inbox address, to confirm it (3 a day per business)
//	GET  /inbox/email/{token}                 the button that confirms the new address (the token is not spent)
//	POST /inbox/email/{token}                 spend it: the new address is the inbox's, signed in with it
//
// Each {token} route spends only its own kind of token (a sign-in link's,
// a one-tap link's too, at /inbox/sign-in; a sign-up's at /start; a new
// inbox address's at /inbox/email): another kind's is refused as unknown
// and stays good at its own route.
//
// Every form that changes something is a POST carrying the session's CSRF
// token, from this site only (sameSite), each of its fields once. Another
// business's request is the 404 page, as an unknown code is; another
// method on a page's path is 405 with Allow. The access
// log records the route pattern, never the path (which may hold a token).
func New(c Config) http.Handler {
	h := newHandler(c)
	mux := edge.Mux(h.routes())
	// A form posted from another site is refused (Sec-Fetch-Site, Origin,
	// Referer: samesite.go).
	return edge.AccessLog(h.Log, site.Headers(maxFormBytes, sameSite(origin(h.SiteURL), mux)))
}

// Routes is the web inbox's route table. It holds the whole of /inbox,
// /inbox/, /start and /start/: any other path there is the inbox's 404
// page.
func Routes(c Config) []edge.Route {
	return newHandler(c).routes()
}

func newHandler(c Config) *handler {
	htmlpage.Defaults(&c.Now, &c.Log)
	if c.SignInDelay <= 0 {
		c.SignInDelay = DefaultSignInDelay
	}
	c.SiteURL = strings.TrimSuffix(c.SiteURL, "/")
	return &handler{c}
}

func (h *handler) routes() []edge.Route {
	get, post := http.MethodGet, http.MethodPost
	return []edge.Route{
		{Method: get, Path: "/inbox", Handler: http.HandlerFunc(h.home)},
		{Method: post, Path: "/inbox/sign-in", Handler: http.HandlerFunc(h.startSignIn)},
		{Method: post, Path: "/inbox/sign-in-text", Handler: http.HandlerFunc(h.startTextSignIn)},
		{Method: post, Path: "/inbox/sign-in-code", Handler: http.HandlerFunc(h.finishTextSignIn)},
		{Method: get, Path: "/inbox/sign-in/{token}", Handler: http.HandlerFunc(h.tokenPage)},
		{Method: post, Path: "/inbox/sign-in/{token}", Handler: http.HandlerFunc(h.finishSignIn)},
		{Method: post, Path: "/inbox/sign-out", Handler: h.form(h.signOut)},
		{Method: get, Path: "/inbox/requests/{code}", Handler: h.signedIn(h.request)},
		{Method: get, Path: "/inbox/requests/{code}/{action}", Handler: h.signedIn(h.confirm)},
		{Method: post, Path: "/inbox/requests/{code}/{action}", Handler: h.form(h.move)},
		{Method: get, Path: "/inbox/settings", Handler: h.signedIn(h.settings)},
		{Method: post, Path: "/inbox/settings", Handler: h.form(h.setAccepting)},
		{Method: get, Path: "/inbox/settings/{form}", Handler: h.signedIn(h.section)},
		{Method: post, Path: "/inbox/settings/{form}", Handler: h.form(h.setSchedule)},
		{Method: post, Path: "/inbox/settings/feed", Handler: h.form(h.newFeed)},
		{Method: get, Path: "/inbox/settings/feed", Handler: h.signedIn(h.feed)},
		{Method: post, Path: "/inbox/settings/feed-stop", Handler: h.form(h.stopFeed)},
		// export.go: the business's records, as CSV.
		{Method: get, Path: "/inbox/export", Handler: h.signedIn(h.exportPage)},
		{Method: get, Path: "/inbox/export.csv", Handler: h.signedIn(h.exportCSV)},
		{Method: post, Path: "/inbox/settings/owner-phone", Handler: h.form(h.startOwnerPhone)},
		{Method: post, Path: "/inbox/settings/owner-phone-code", Handler: h.form(h.confirmOwnerPhone)},
		{Method: post, Path: "/inbox/settings/text-me", Handler: h.form(h.setTextMe)},
		// signup.go: a business comes on board by itself.
		{Method: get, Path: "/start", Handler: http.HandlerFunc(h.start)},
		{Method: post, Path: "/start", Handler: http.HandlerFunc(h.startSignup)},
		{Method: get, Path: "/start/{token}", Handler: http.HandlerFunc(h.startToken)},
		{Method: post, Path: "/start/{token}", Handler: http.HandlerFunc(h.finishSignup)},
		{Path: "/start", Handler: http.HandlerFunc(h.elsewhere)},
		{Path: "/start/", Handler: http.HandlerFunc(h.elsewhere)},
		// golive.go: going live, back to preview, pausing in one tap.
		{Method: post, Path: "/inbox/go-live", Handler: h.form(h.goLive)},
		{Method: post, Path: "/inbox/back-to-preview", Handler: h.form(h.backToPreview)},
		{Method: post, Path: "/inbox/accepting", Handler: h.form(h.pauseHere)},
		// inboxemail.go: a new inbox address, confirmed by a link to it.
		{Method: post, Path: "/inbox/settings/inbox-email", Handler: h.form(h.startInboxEmail)},
		{Method: get, Path: "/inbox/email/{token}", Handler: http.HandlerFunc(h.inboxEmailPage)},
		{Method: post, Path: "/inbox/email/{token}", Handler: http.HandlerFunc(h.confirmInboxEmail)},
		{Path: "/inbox", Handler: http.HandlerFunc(h.elsewhere)},
		{Path: "/inbox/", Handler: http.HandlerFunc(h.elsewhere)},
	}
}

// maxFormBytes bounds a form's body.
const maxFormBytes = 16 << 10

// session returns the live session of the request's cookie; ok is false
// without one (no cookie, or a session ended or expired).
func (h *handler) session(r *http.Request) (s Session, ok bool, err error) {
	c, err := r.Cookie(CookieName)
	if err != nil || c.Value == "" {
		return Session{}, false, nil
	}
	s, err = h.Bookings.OpenSession(r.Context(), c.Value)
	if booking.ErrorCode(err) == booking.Unauthorized {
		return Session{}, false, nil
	}
	if err != nil {
		return Session{}, false, err
	}
	s.CSRF = maskCSRF(s.CSRF) // afresh for each response (csrf.go)
	return s, true, nil
}

// signedIn serves a page of a signed-in business; signed out, the person
// is led through sign-in and back to this page.
func (h *handler) signedIn(next func(http.ResponseWriter, *http.Request, Session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { h.inSession(w, r, next) }
}

// inSession serves next with the request's live session; without one, the
// person is led through sign-in to the page asked for.
func (h *handler) inSession(w http.ResponseWriter, r *http.Request, next func(http.ResponseWriter, *http.Request, Session)) {
	s, ok, err := h.session(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if !ok {
		toSignIn(w, r, r.URL.Path)
		return
	}
	next(w, r, s)
}

// form serves a form of a signed-in business: without the CSRF token it
// is refused (403), and nothing changes; with one but signed out, the
// person is led through sign-in to the form's page; a token that is not
// a masking of the session's (csrf.go) is refused.
func (h *handler) form(next func(http.ResponseWriter, *http.Request, Session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if duplicated(r) {
			h.badForm(w, r)
			return
		}
		sent := r.PostFormValue("csrf")
		if sent == "" {
			h.forbidden(w, r)
			return
		}
		h.inSession(w, r, func(w http.ResponseWriter, r *http.Request, s Session) {
			if !csrfMatches(sent, s.CSRF) {
				h.forbidden(w, r)
				return
			}
			if h.readOnly(w, r, s) { // a suspended business (golive.go)
				return
			}
			next(w, r, s)
		})
	}
}

// toSignIn sends a signed-out person to the sign-in form, which brings
// them back to path (when it is a page of the inbox) once signed in.
func toSignIn(w http.ResponseWriter, r *http.Request, path string) {
	to := "/inbox"
	if next := safeNext(path); next != "/inbox" {
		to += "?next=" + url.QueryEscape(next)
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// language picks the language of a page: the one asked for with ?lang=
// (and remembered in a cookie), else the one remembered, else the
// business's default_language, else (signed out) the browser's.
func language(w http.ResponseWriter, r *http.Request, b *booking.Business) string {
	if l := r.URL.Query().Get("lang"); l == "en" || l == "es" {
		http.SetCookie(w, &http.Cookie{Name: langCookie, Value: l, Path: "/inbox", MaxAge: 365 * 24 * 3600, HttpOnly: true, SameSite: http.SameSiteLaxMode})
		return l
	}
	if c, err := r.Cookie(langCookie); err == nil && (c.Value == "en" || c.Value == "es") {
		return c.Value
	}
	if b != nil {
		if b.DefaultLanguage == "es" {
			return "es"
		}
		return "en"
	}
	return htmlpage.AcceptLanguage(r)
}

// fail answers an error: NOT_FOUND is the 404 page, anything else a 500
// page whose cause is logged, never shown.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	if booking.ErrorCode(err) == booking.NotFound {
		h.notFound(w, r, nil)
		return
	}
	h.Log.Error("inboxweb: server error", "route", r.Pattern, "error", err)
	lang := language(w, r, nil)
	text := tr(lang, "error")
	if booking.ErrorCode(err) == booking.ServerBusy {
		// The store stayed busy through its retries: a write may have been
		// applied though its answer was lost, so the page cannot say that
		// nothing changed.
		text = tr(lang, "error_busy")
	}
	h.message(w, r, edge.PageFailure(w, err), lang, nil, tr(lang, "error_title"), text)
}

// elsewhere answers what no route of a method serves: another method on
// a page's path is 405 with Allow, anything else the 404 page.
func (h *handler) elsewhere(w http.ResponseWriter, r *http.Request) {
	if allow := edge.Allow(h.routes(), r); allow != "" {
		h.methodNotAllowed(w, r, allow)
		return
	}
	h.notFound(w, r, nil)
}

// methodNotAllowed is the page of a method the path does not serve: 405
// with the methods it does (allow).
func (h *handler) methodNotAllowed(w http.ResponseWriter, r *http.Request, allow string) {
	w.Header().Set("Allow", allow)
	lang := language(w, r, nil)
	h.message(w, r, http.StatusMethodNotAllowed, lang, nil, tr(lang, "method_title"), tr(lang, "method"))
}

// notFound is the plain 404 page.
func (h *handler) notFound(w http.ResponseWriter, r *http.Request, s *Session) {
	var b *booking.Business
	if s != nil {
		b = s.Inbox.Business()
	}
	lang := language(w, r, b)
	h.message(w, r, http.StatusNotFound, lang, s, tr(lang, "not_found_title"), tr(lang, "not_found"))
}

// badForm refuses a form that is none of the site's: a field sent twice.
func (h *handler) badForm(w http.ResponseWriter, r *http.Request) {
	lang := language(w, r, nil)
	h.message(w, r, http.StatusBadRequest, lang, nil, tr(lang, "bad_form_title"), tr(lang, "bad_form"))
}

// listFields are the only fields a form may send more than once: the
// weekly hours' rows, one value per row.
var listFields = func() map[string]bool {
	m := map[string]bool{}
	for _, d := range weekDays(&booking.Hours{}) {
		m[d.key+"_open"], m[d.key+"_close"] = true, true
	}
	return m
}()

// duplicated reports whether the form of r sends a field more than once
// (but the lists of listFields): none of the site's forms does, and which
// of two values counts must never be a guess.
func duplicated(r *http.Request) bool {
	if err := r.ParseForm(); err != nil {
		return false // unreadable: the form's own checks refuse it
	}
	for k, v := range r.PostForm {
		if len(v) > 1 && !listFields[k] {
			return true
		}
	}
	return false
}

// forbidden refuses a form without the session's CSRF token.
func (h *handler) forbidden(w http.ResponseWriter, r *http.Request) {
	lang := language(w, r, nil)
	h.message(w, r, http.StatusForbidden, lang, nil, tr(lang, "forbidden_title"), tr(lang, "forbidden"))
}

func (h *handler) message(w http.ResponseWriter, r *http.Request, status int, lang string, s *Session, heading, text string) {
	render(w, r, status, "message", lang, s, heading, messageView{Heading: heading, Text: text})
}

// maxLinkValue is the most characters of a query value a signed-out
// page's language link repeats (htmlpage.TypedQuery).
const maxLinkValue = 100

// render writes the page name with view, in lang; s is the session of a
// signed-in page (its header and sign-out button), nil when signed out.
// The page is rendered whole before anything is written, so a template
// error is a plain 500, never half a page.
func render(w http.ResponseWriter, r *http.Request, status int, name, lang string, s *Session, title string, view any) {
	p := htmlpage.Page{Lang: lang, Title: title, L: texts[lang], Footer: tr(lang, "skip"), SwitchText: tr(lang, "other_lang"), Body: view}
	if s != nil {
		p.Nav = &navView{Business: s.Inbox.Business().Name, CSRF: s.CSRF}
		p.Title += " · " + s.Inbox.Business().Name
	}
	if r.Method == http.MethodGet && name != "message" {
		q := r.URL.Query()
		q.Del("done") // what just happened is not news in the other language
		if s != nil {
			q = switchQuery(q, s.Inbox.Business())
		} else {
			q = htmlpage.TypedQuery(q, maxLinkValue)
		}
		if q.Has("next") {
			if next := safeNext(q.Get("next")); next != "/inbox" {
				q.Set("next", next)
			} else {
				q.Del("next")
			}
		}
		q.Set("lang", htmlpage.Other(lang))
		p.Switch = r.URL.Path + "?" + q.Encode()
	}
	site.Render(w, status, name, p)
}
