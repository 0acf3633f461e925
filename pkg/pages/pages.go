// Package pages serves the person's own pages, server-rendered HTML in the
// request's language: the status of a request at {SITE_URL}/r/{code}, its
// cancel step, and the simulated payment of its deposit at /pay/{code}.
package pages

import (
	"context"
	"embed"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/htmlpage"
	"github.com/doorstep/doorstep/pkg/ical"
)

// Config is what the pages need.
type Config struct {
	Bookings *booking.Bookings // the requests, their businesses, and the moves the person makes
	// OptOuts reads whether a number replied STOP (notify's ledger), so
	// that the status page never says "by text" of a number that stopped
	// texts (booking.PersonReach); read once, only when the page would
	// say it. nil: not read.
	OptOuts OptOutReader
	Now     func() time.Time
	Log     *slog.Logger
}

// OptOutReader reads whether a number replied STOP to Doorstep's texts:
// notify.Ledger does (dynamo.Ledger).
type OptOutReader interface {
	OptedOut(ctx context.Context, phone string) (bool, error)
}

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed style.css
var style string

// site is the pages' templates, style sheet and headers.
var site = htmlpage.New(templateFiles, style, "status", "pay", "cancel", "message", "lookup", "erase")

type handler struct {
	Config
}

// New returns the pages' handler. The code in the address is the only key:
// the pages show nothing of the person but the city of the address and,
// masked, how they hear back (see the views in view.go), and an unknown
// code is a plain 404 page; another method on a page's path is 405 with
// Allow. No JavaScript, nothing loaded from another site.
//
//	GET  /r                 the form to type a request's code (and /r/); ?code= leads to its status
//	GET  /r/{code}          the status; ?done= says what just happened
//	POST /r/{code}/contact  add a way to hear back (an e-mail, texts), as the person
//	GET  /r/{code}/cancel   what cancelling does to the deposit, and the confirm button
//	POST /r/{code}/cancel   cancel, as the person (booking.ActorCustomer)
//	GET  /r/{code}/erase    once it has ended: what erasing the person's details does, and the confirm button
//	POST /r/{code}/erase    erase them, as the person (erase.go)
//	GET  /pay/{code}        the simulated payment page, or a redirect to /pay/{code}/checkout
//	POST /pay/{code}        pay a simulated deposit
//
// A deposit paid at Stripe is paid through the payment function
// (pkg/stripepay's /pay/{code}/checkout and /pay/{code}/return), which
// sends the person back here with ?done= paid, refunded or unavailable;
// this package does not link stripe-go (docs/performance.md: the bootstrap
// sizes).
func New(c Config) http.Handler {
	h := newHandler(c)
	mux := edge.Mux(h.routes())
	// API Gateway sends /r/ to the route GET /r, with its slash.
	mux.HandleFunc("GET /r/{$}", h.lookup)
	mux.HandleFunc("/", h.elsewhere)
	// A form posted from another site is refused (Sec-Fetch-Site, Origin).
	return edge.AccessLog(h.Log, site.Headers(maxFormBytes, http.NewCrossOriginProtection().Handler(mux)))
}

// Routes is the pages' route table.
func Routes(c Config) []edge.Route {
	return newHandler(c).routes()
}

func newHandler(c Config) *handler {
	htmlpage.Defaults(&c.Now, &c.Log)
	return &handler{c}
}

func (h *handler) routes() []edge.Route {
	return []edge.Route{
		{Method: http.MethodGet, Path: "/r", Handler: http.HandlerFunc(h.lookup)},
		{Method: http.MethodGet, Path: "/r/{code}", Handler: http.HandlerFunc(h.status)},
		{Method: http.MethodPost, Path: "/r/{code}/contact", Handler: http.HandlerFunc(h.addContact)},
		{Method: http.MethodGet, Path: "/r/{code}/cancel", Handler: http.HandlerFunc(h.confirmCancel)},
		{Method: http.MethodPost, Path: "/r/{code}/cancel", Handler: http.HandlerFunc(h.cancel)},
		{Method: http.MethodGet, Path: "/pay/{code}", Handler: http.HandlerFunc(h.payPage)},
		{Method: http.MethodPost, Path: "/pay/{code}", Handler: http.HandlerFunc(h.pay)},
		// erase.go: "Erase my details".
		{Method: http.MethodGet, Path: "/r/{code}/erase", Handler: http.HandlerFunc(h.confirmErase)},
		{Method: http.MethodPost, Path: "/r/{code}/erase", Handler: http.HandlerFunc(h.erase)},
	}
}

// maxFormBytes bounds a form's body: the pages' forms are a field or two.
const maxFormBytes = 16 << 10

// load reads the request named in the path and its business.
func (h *handler) load(ctx context.Context, r *http.Request) (booking.Request, *booking.Business, error) {
	return h.Bookings.CustomerRequest(ctx, r.PathValue("code"))
}

// status serves the status page, and /r/{code}.ics (a path variable takes
// a whole segment, in API Gateway's routes as in ServeMux's patterns).
func (h *handler) status(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if code, ok := strings.CutSuffix(r.PathValue("code"), ".ics"); ok {
		h.calendarEvent(w, r, code)
		return
	}
	req, b, err := h.load(ctx, r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	d := h.delivery(ctx, req, b)
	h.renderStatusFor(w, http.StatusOK, req, b, d, h.notice(req, b, d, r.URL.Query().Get("done")))
}

// delivery is what decides whether a message to req's person goes out
// (booking.Delivery): the deployment's, whether their address is recorded
// undeliverable (booking.Bookings.DeliveryTo), and, only when the person
// would otherwise be told by text, whether their number replied STOP, in
// one read. When a read fails the page says what the contact and the
// deployment say, and the failure is logged.
func (h *handler) delivery(ctx context.Context, req booking.Request, b *booking.Business) booking.Delivery {
	d, err := h.Bookings.DeliveryTo(ctx, req.Contact) // whether the address is undeliverable
	if err != nil {
		h.Log.Warn("pages: the address's delivery record could not be read", "request", booking.LogRef(req.Code), "error", err)
		d = h.Bookings.Delivery()
	}
	if h.OptOuts == nil || !booking.PersonReach(b, req.Contact, d).SMS {
		return d
	}
	out, err := h.OptOuts.OptedOut(ctx, req.Contact.Phone)
	if err != nil {
		h.Log.Warn("pages: the number's opt-out could not be read", "request", booking.LogRef(req.Code), "error", err)
		return d
	}
	d.OptedOut = out
	return d
}

// notice is the sentence the status page shows for ?done=, what just
// happened: only when the stored request agrees, so that an address
// reloaded later, or made up, shows nothing untrue. paid and cancelled come
// from these pages; paid, refunded and unavailable also from the return
// from Stripe and the way there (pkg/stripepay).
func (h *handler) notice(req booking.Request, b *booking.Business, delivery booking.Delivery, done string) string {
	lang, d := language(req), req.Deposit
	atStripe := d != nil && !h.simulated(req) // only such a payment is refunded, or cannot be opened
	switch done {
	case "paid":
		if d != nil && d.State == booking.DepositPaid {
			return tr(lang, "notice_paid")
		}
	case "refunded": // a payment the request could not take
		if atStripe {
			return tr(lang, "notice_late")
		}
	case "unavailable":
		if atStripe && req.Effective(h.Now()).Status == booking.StatusPendingPayment {
			return tr(lang, "pay_unavailable")
		}
	case "cancelled":
		if req.Status == booking.StatusCancelled {
			return tr(lang, "notice_cancelled")
		}
	case booking.WayEmail, booking.WaySMS:
		return hearNotice(req, booking.PersonReach(b, req.Contact, delivery), done)
	case "erased":
		return erasedNotice(req) // erase.go
	}
	return ""
}

func (h *handler) renderStatus(ctx context.Context, w http.ResponseWriter, status int, req booking.Request, b *booking.Business, notice string) {
	h.renderStatusFor(w, status, req, b, h.delivery(ctx, req, b), notice)
}

// renderStatusFor renders the status page with the delivery d.
func (h *handler) renderStatusFor(w http.ResponseWriter, status int, req booking.Request, b *booking.Business, d booking.Delivery, notice string) {
	v := buildStatus(req, b, h.Now())
	v.Notice = notice
	v.HearBack = buildHearBack(req, b, d, language(req), h.Now())
	render(w, status, "status", language(req), v.Title+" · "+b.Name, v)
}

// calendarEvent serves the accepted visit as an iCalendar object of one
// event: the UID and SEQUENCE the business's feed gives it, so that adding
// it again after a move updates the event. A request not accepted (yet, or
// any more) is the 404 page, as an unknown code is.
func (h *handler) calendarEvent(w http.ResponseWriter, r *http.Request, code string) {
	ev, b, err := h.Bookings.CustomerEvent(r.Context(), code)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	lang := ev.Language
	if lang != "es" {
		lang = "en"
	}
	phone, _ := htmlpage.Phone(b.Phone)
	c := ical.Calendar{Location: b.Location(), Events: []ical.Event{{
		UID: ev.UID, Sequence: ev.Sequence, Status: ical.StatusConfirmed, Stamp: ev.Stamp,
		Start: ev.Window.Start, End: ev.Window.End,
		Summary:     ev.Title(lang, b.Name),
		Description: tr(lang, "ics_description", b.Name, phone, ev.Link),
		Location:    ev.City,
		URL:         ev.Link,
	}}}
	hd := w.Header()
	hd.Set("Content-Type", ical.ContentType)
	hd.Set("Content-Disposition", `attachment; filename="`+ev.Code+`.ics"`)
	w.WriteHeader(http.StatusOK)
	w.Write(c.Encode())
}

// confirmCancel shows what cancelling does to the deposit, before the
// person confirms.
func (h *handler) confirmCancel(w http.ResponseWriter, r *http.Request) {
	req, b, err := h.load(r.Context(), r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.renderCancel(r.Context(), w, http.StatusOK, req, b, false)
}

func (h *handler) renderCancel(ctx context.Context, w http.ResponseWriter, status int, req booking.Request, b *booking.Business, changed bool) {
	lang := language(req)
	outcome, sentence, ok := cancelOutcome(req, b, h.Now())
	if !ok {
		h.renderStatus(ctx, w, http.StatusConflict, req, b, tr(lang, "cancel_refused"))
		return
	}
	v := cancelView{
		Code: req.Code, Business: b.Name, Window: display.Window(lang, req.Window.Start, req.Window.End, b.Location()),
		Consequence: sentence, Outcome: outcome, Changed: changed, StatusPath: "/r/" + req.Code,
	}
	render(w, status, "cancel", lang, tr(lang, "cancel_title")+" · "+b.Name, v)
}

// cancel cancels the request as the person, if what it does to the deposit
// is still what the person read and confirmed; otherwise it shows the new
// consequence to confirm again.
func (h *handler) cancel(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	req, b, err := h.load(ctx, r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	outcome, _, ok := cancelOutcome(req, b, h.Now())
	if ok && r.PostFormValue("deposit") != outcome {
		h.renderCancel(r.Context(), w, http.StatusConflict, req, b, true)
		return
	}
	_, err = h.Bookings.CustomerCancel(ctx, req.Code)
	if booking.ErrorCode(err) == booking.InvalidTransition {
		h.renderStatus(r.Context(), w, http.StatusConflict, req, b, tr(language(req), "cancel_refused"))
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/r/"+req.Code+"?done=cancelled", http.StatusSeeOther)
}

// checkoutPath is where a deposit paid at Stripe is paid: the payment
// function opens a Checkout Session there (pkg/stripepay).
func checkoutPath(code string) string {
	return "/pay/" + code + "/checkout"
}

// simulated reports whether req's deposit is paid on the simulated page.
func (h *handler) simulated(req booking.Request) bool {
	return req.Deposit != nil && req.Deposit.Simulated
}

// payPage shows the simulated payment page of a deposit that is due, or
// sends the person on to /pay/{code}/checkout (the payment function) for a
// real one. A deposit that is not due any more sends them to the status
// page.
func (h *handler) payPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	req, b, err := h.load(ctx, r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	now := h.Now()
	lang := language(req)
	if req.Effective(now).Status != booking.StatusPendingPayment || req.Deposit == nil {
		http.Redirect(w, r, "/r/"+req.Code, http.StatusSeeOther)
		return
	}
	if !h.simulated(req) {
		// The payment_url of a real deposit is Stripe's page; this is the
		// way there when that page could not be opened at the time.
		http.Redirect(w, r, checkoutPath(req.Code), http.StatusSeeOther)
		return
	}
	d := buildDeposit(req.Effective(now), b, lang)
	v := payView{
		Code: req.Code, Business: b.Name, Amount: d.Amount, Deposit: d,
		PayBy:      tr(lang, "pay_by", display.Moment(lang, req.HoldExpires, b.Location())),
		Button:     tr(lang, "pay_button", d.Amount),
		StatusPath: "/r/" + req.Code,
	}
	render(w, http.StatusOK, "pay", lang, tr(lang, "pay_title")+" · "+b.Name, v)
}

// pay pays a simulated deposit: the request moves on as the payment
// provider would move it (booking.ActorSystem), and no money moves.
func (h *handler) pay(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	req, b, err := h.load(ctx, r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	lang := language(req)
	if !h.simulated(req) {
		renderMessage(w, http.StatusForbidden, lang, tr(lang, "pay_title"), tr(lang, "pay_unavailable"), "/r/"+req.Code)
		return
	}
	if req.Deposit.State == booking.DepositPaid { // pressed twice
		http.Redirect(w, r, "/r/"+req.Code+"?done=paid", http.StatusSeeOther)
		return
	}
	_, err = h.Bookings.PaySimulated(ctx, req.Code)
	if booking.ErrorCode(err) == booking.InvalidTransition {
		h.renderStatus(r.Context(), w, http.StatusConflict, req, b, tr(lang, "notice_too_late"))
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/r/"+req.Code+"?done=paid", http.StatusSeeOther)
}

// fail answers an error: NOT_FOUND is the 404 page, anything else a 500
// page whose cause is logged, never shown.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	if booking.ErrorCode(err) == booking.NotFound {
		h.notFound(w, r)
		return
	}
	h.Log.Error("pages: server error", "route", r.Pattern, "error", err)
	lang := htmlpage.AcceptLanguage(r)
	renderMessage(w, edge.PageFailure(w, err), lang, tr(lang, "error_title"), tr(lang, "error"), "")
}

// elsewhere answers what no route serves: another method on a page's
// path is 405 with Allow, anything else the 404 page.
func (h *handler) elsewhere(w http.ResponseWriter, r *http.Request) {
	if allow := edge.Allow(h.routes(), r); allow != "" {
		w.Header().Set("Allow", allow)
		lang := htmlpage.AcceptLanguage(r)
		renderMessage(w, http.StatusMethodNotAllowed, lang, tr(lang, "method_title"), tr(lang, "method"), "")
		return
	}
	h.notFound(w, r)
}

// notFound is the plain 404 page, in the browser's language.
func (h *handler) notFound(w http.ResponseWriter, r *http.Request) {
	lang := htmlpage.AcceptLanguage(r)
	renderMessage(w, http.StatusNotFound, lang, tr(lang, "not_found_title"), tr(lang, "not_found"), "")
}

func renderMessage(w http.ResponseWriter, status int, lang, heading, text, back string) {
	render(w, status, "message", lang, heading, messageView{Heading: heading, Text: text, Back: back})
}

// render writes the page name with view, in lang. The page is rendered
// whole before anything is written, so a template error is a plain 500,
// never half a page.
func render(w http.ResponseWriter, status int, name, lang, title string, view any) {
	site.Render(w, status, name, htmlpage.Page{Lang: lang, Title: title, L: texts[lang], Footer: "Doorstep", Body: view})
}
