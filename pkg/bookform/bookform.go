// Package bookform serves the visitor's booking form at
// {SITE_URL}/book/{slug}: the business's booking_url for a person with a
// browser and no assistant. It is server-rendered HTML that works with
// JavaScript off, phone first, in English or Spanish as the business
// offers them, and it sends the request through the same
// booking.Bookings.CreateRequest as the JSON API: the same checks, codes,
// limits on strangers and idempotency.
//
// The steps come in the spec's order, over three pages that GET one
// another (each step's answers ride in the address, so Back and reload
// work and no cookie is needed): the service and the ZIP code; a day of
// one week of the horizon; then that day's windows, the address, the
// contact, what the person needs, and review and send, which POSTs.
// Every page starts with what to do in danger.
package bookform

import (
	"context"
	"embed"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/htmlpage"
)

// Config is what the form needs.
type Config struct {
	Bookings *booking.Bookings
	// Key signs the form tokens (at least MinKeyBytes random bytes). Every
	// function that serves the form must have the same key.
	Key []byte
	Now func() time.Time
	Log *slog.Logger
}

// Path is where the form lives: Path + slug.
const Path = "/book/"

// maxFormBytes bounds a POST's body: the form's fields with a description
// of booking.MaxDescription characters, written out as %XX escapes.
const maxFormBytes = 32 << 10

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed style.css
var style string

// site is the form's templates, style sheet and headers.
var site = htmlpage.New(templateFiles, style, "start", "when", "details", "message")

type handler struct {
	Config
}

// New returns the form's handler.
//
//	GET  /book/{slug}                          the service and the ZIP code
//	GET  /book/{slug}?service=&zip=[&week=]    a day of a week of the horizon
//	GET  /book/{slug}?service=&zip=&day=       that day's windows, and the rest of the form
//	POST /book/{slug}                          send the request: 303 to the status or payment page
//
// Each takes lang=en|es. The form may be framed by the business's own
// site only (CSP frame-ancestors: its url's origin); every other page
// refuses framing. A POST from another site is refused
// (http.CrossOriginProtection), and one without a valid form token is
// answered with a page saying to reload, storing nothing.
func New(c Config) (http.Handler, error) {
	if len(c.Key) < MinKeyBytes {
		return nil, errors.New("bookform: the form key must have at least 32 bytes")
	}
	h := newHandler(c)
	mux := edge.Mux(h.routes())
	mux.HandleFunc("/", h.notFound)
	return edge.AccessLog(h.Log, site.Headers(maxFormBytes, http.NewCrossOriginProtection().Handler(mux))), nil
}

// Routes is the form's route table. Serve it through New, which checks
// the form key.
func Routes(c Config) []edge.Route {
	return newHandler(c).routes()
}

func newHandler(c Config) *handler {
	htmlpage.Defaults(&c.Now, &c.Log)
	return &handler{c}
}

func (h *handler) routes() []edge.Route {
	return []edge.Route{
		{Method: http.MethodGet, Path: Path + "{slug}", Handler: http.HandlerFunc(h.get)},
		{Method: http.MethodPost, Path: Path + "{slug}", Handler: http.HandlerFunc(h.post)},
	}
}

// answers are a person's answers so far, as typed: in the address of the
// steps, in the body of the POST.
type answers struct {
	Lang    string
	Service string // a service's id, or other
	ZIP     string
	Week    int
	Day     string // YYYY-MM-DD
	Window  string // a window's start, RFC 3339 as the API gives it
	Street, Unit, City,
	Name, Phone, Email string
	SMS         bool
	Urgency     string
	Description string
	Deposit     bool
	Key         string // the idempotency key
	Token       string
}

// serviceOther is the service value of "something else".
const serviceOther = "other"

func readAnswers(v url.Values) answers {
	a := answers{
		Service: v.Get("service"), ZIP: strings.TrimSpace(v.Get("zip")), Day: v.Get("day"), Window: v.Get("window"),
		Street: v.Get("street"), Unit: v.Get("unit"), City: v.Get("city"),
		Name: v.Get("name"), Phone: v.Get("phone"), Email: v.Get("email"), SMS: v.Get("sms_consent") == "yes",
		Urgency: v.Get("urgency"), Description: v.Get("description"), Deposit: v.Get("deposit_accepted") == "yes",
		Key: v.Get("key"), Token: v.Get("token"),
	}
	a.Week, _ = strconv.Atoi(v.Get("week"))
	return a
}

// get serves the step the answers in the address lead to.
func (h *handler) get(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	b, err := h.Bookings.Business(ctx, r.PathValue("slug"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	lang := language(r, b)
	a := readAnswers(r.URL.Query())
	a.Lang = lang
	f := h.newForm(r, b, lang)
	site.AllowFraming(w, b.URL)
	if !b.AcceptingRequests {
		h.paused(w, f, http.StatusOK)
		return
	}
	q := r.URL.Query()
	if q.Get("change") == "1" || !q.Has("service") && !q.Has("zip") {
		f.checkStart(&a) // marks the answers given, says nothing of them
		f.Errors = nil
		f.Call = false
		h.renderStart(w, f, a, http.StatusOK)
		return
	}
	if f.checkStart(&a) {
		h.renderStart(w, f, a, http.StatusBadRequest)
		return
	}
	if a.Day == "" {
		h.renderWhen(ctx, w, r, f, a)
		return
	}
	a.Key = newIdempotencyKey()
	a.Urgency = "soon"
	if f.Service != nil && f.Service.Urgent {
		a.Urgency = "emergency"
	}
	h.renderDetails(ctx, w, r, f, a, http.StatusOK)
}

// post sends the request, or shows the form again with what the person
// typed and what to change.
func (h *handler) post(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	b, err := h.Bookings.Business(ctx, r.PathValue("slug"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	site.AllowFraming(w, b.URL)
	if err := r.ParseForm(); err != nil {
		// Too large, or not a form: no form of ours sends that.
		h.reload(w, r, b, http.StatusBadRequest)
		return
	}
	a := readAnswers(r.PostForm)
	lang := r.PostForm.Get("lang")
	if !slices.Contains(b.Languages, lang) {
		lang = language(r, b)
	}
	a.Lang = lang
	f := h.newForm(r, b, lang)
	if a.Key == "" || len(a.Key) > booking.MaxIdempotencyKey || !validToken(h.Key, a.Token, b.Slug, a.Key, h.Now()) {
		h.reload(w, r, b, http.StatusForbidden)
		return
	}
	// The service is the first step's: a wrong one goes back there. The
	// ZIP code is the address's, and CreateRequest checks it.
	if f.checkStart(&a) && f.Errors["service"] != "" {
		h.renderStart(w, f, a, http.StatusBadRequest)
		return
	}
	f.Errors, f.Call = nil, false
	if b.Example {
		// Made up to show the product: nothing is sent, for anyone.
		f.Top = tr(lang, "example_refused")
		h.renderDetails(ctx, w, r, f, a, http.StatusForbidden)
		return
	}
	in, err := a.input()
	var c booking.Created
	if err == nil {
		c, _, err = h.Bookings.CreateRequest(ctx, b, in)
	}
	if err == nil {
		to := c.StatusURL
		if c.PaymentURL != nil {
			to = *c.PaymentURL
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	code := booking.ErrorCode(err)
	if code == booking.NotFound || code == booking.ServerError {
		h.fail(w, r, err)
		return
	}
	if code == booking.BookingPaused {
		h.paused(w, f, http.StatusServiceUnavailable)
		return
	}
	ref, status := refusals[code], edge.Status(code)
	if ref.text == "" || (code == booking.InvalidRequest && !strings.HasPrefix(booking.ErrorMessage(err), "description")) {
		// A code the form has no words for, or an INVALID_REQUEST about a
		// field no person types (an urgency or a key changed by hand).
		ref, status = refusal{field: "top", text: "refused_other"}, http.StatusBadRequest
	}
	if code == booking.IdempotencyKeyReused {
		a.Key = newIdempotencyKey() // this form was sent before with other details
	}
	if code == booking.WindowTaken || code == booking.TooLate || code == booking.InvalidWindow {
		a.Window = "" // the windows are listed again, as they stand now
	}
	msg := tr(lang, ref.text)
	if ref.call {
		f.Call = true
	}
	if code == booking.OutOfArea {
		msg = tr(lang, "out_of_area", b.Name)
		f.Call = true
	}
	f.Errors = map[string]string{ref.field: msg}
	edge.SetRetryAfter(w, booking.RetryAfter(err)) // as the JSON API says it
	h.renderDetails(ctx, w, r, f, a, status)
}

// input is the request the answers make: the same CreateInput the JSON
// API decodes, so that the same rules apply; a window that is not RFC 3339
// is INVALID_WINDOW, as the API answers it.
func (a answers) input() (booking.CreateInput, error) {
	start, err := edge.WindowStart(a.Window)
	if err != nil {
		return booking.CreateInput{}, err
	}
	in := booking.CreateInput{
		WindowStart: start,
		Address:     booking.Address{Street: a.Street, Unit: a.Unit, City: a.City, ZIP: a.ZIP},
		Contact:     booking.Contact{Name: a.Name, Phone: a.Phone, Email: a.Email, SMSConsent: a.SMS},
		Description: a.Description, DepositAccepted: a.Deposit,
		IdempotencyKeys: []string{a.Key},
	}
	lang := a.Lang
	in.Language = &lang
	if a.Service != serviceOther {
		service := a.Service
		in.ServiceID = &service
	}
	if a.Urgency != "" {
		urgency := a.Urgency
		in.Urgency = &urgency
	}
	return in, nil
}

// refusal is how the form shows one of CreateRequest's codes: next to
// which field, in which words, and whether to offer the business's phone.
// Its status is the JSON API's (edge.Status).
type refusal struct {
	field string // a field's name, or top
	text  string // a text key
	call  bool
}

// refusals map each code CreateRequest answers to the form: the one place
// that does.
var refusals = map[booking.Code]refusal{
	booking.InvalidWindow:        {"window", "refused_window", false},
	booking.TooLate:              {"window", "refused_too_late", false},
	booking.WindowTaken:          {"window", "refused_taken", false},
	booking.InvalidAddress:       {"street", "refused_street", false},
	booking.InvalidZIP:           {"zip", "refused_zip", false},
	booking.OutOfArea:            {"zip", "out_of_area", true},
	booking.InvalidName:          {"name", "refused_name", false},
	booking.InvalidPhone:         {"phone", "refused_phone", false},
	booking.InvalidEmail:         {"email", "refused_email", false},
	booking.InvalidRequest:       {"description", "refused_description", false},
	booking.ServiceUnavailable:   {"top", "refused_service", false},
	booking.DepositTerms:         {"deposit_accepted", "refused_deposit", false},
	booking.TooManyOpen:          {"top", "refused_too_many", true},
	booking.RateLimited:          {"top", "refused_rate", true},
	booking.RequestRefused:       {"top", "refused_contact", true},
	booking.IdempotencyKeyReused: {"top", "refused_reused", false},
}

// language picks the page's language among the business's: ?lang=, the
// browser's, else the business's default.
func language(r *http.Request, b *booking.Business) string {
	def := b.DefaultLanguage
	if !slices.Contains(htmlpage.Languages, def) {
		def = "en"
	}
	return htmlpage.Choose(r, b.Languages, def)
}

// fail answers an error: NOT_FOUND is the 404 page, anything else a 500
// page whose cause is logged, never shown.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	if booking.ErrorCode(err) == booking.NotFound {
		h.notFound(w, r)
		return
	}
	h.Log.Error("bookform: server error", "route", r.Pattern, "error", err)
	lang := htmlpage.AcceptLanguage(r)
	render(w, http.StatusInternalServerError, "message", lang, tr(lang, "error_title"), "", messageView{Heading: tr(lang, "error_title"), Text: tr(lang, "error")})
}

// notFound is the 404 page, in the browser's language.
func (h *handler) notFound(w http.ResponseWriter, r *http.Request) {
	lang := htmlpage.AcceptLanguage(r)
	render(w, http.StatusNotFound, "message", lang, tr(lang, "not_found_title"), "", messageView{Heading: tr(lang, "not_found_title"), Text: tr(lang, "not_found")})
}

// reload answers a POST that no form of ours sent lately: nothing is
// stored, and the person is sent back to a fresh form.
func (h *handler) reload(w http.ResponseWriter, r *http.Request, b *booking.Business, status int) {
	lang := r.PostForm.Get("lang")
	if !slices.Contains(b.Languages, lang) {
		lang = language(r, b)
	}
	render(w, status, "message", lang, tr(lang, "reload_title")+" · "+b.Name, "", messageView{
		Heading: tr(lang, "reload_title"), Text: tr(lang, "reload"),
		Link: Path + b.Slug + "?lang=" + lang, LinkText: tr(lang, "reload_link"),
	})
}

// paused is the page of a business that paused its online requests.
func (h *handler) paused(w http.ResponseWriter, f form, status int) {
	f.Heading = tr(f.Lang, "paused_title")
	render(w, status, "message", f.Lang, f.Heading+" · "+f.Business, f.Switch, messageView{
		Heading: f.Heading, Text: tr(f.Lang, "paused", f.Business), Phone: f.Phone, PhoneLink: f.PhoneLink,
		CallText: tr(f.Lang, "call", f.Phone),
	})
}

func (h *handler) renderStart(w http.ResponseWriter, f form, a answers, status int) {
	f.Heading = tr(f.Lang, "start_title", f.Business)
	f.A = a
	render(w, status, "start", f.Lang, f.Heading, f.Switch, f)
}

// renderWhen shows the days of the week a.Week of the horizon, each with
// its number of open windows.
func (h *handler) renderWhen(ctx context.Context, w http.ResponseWriter, r *http.Request, f form, a answers) {
	f.A = a
	weeks := f.weeks(h.Now())
	if a.Week < 0 || a.Week >= weeks {
		a.Week, f.A.Week = 0, 0
	}
	first := f.today(h.Now()).AddDate(0, 0, 7*a.Week)
	av, err := h.Bookings.ArrivalWindows(ctx, f.b, booking.WindowQuery{From: first, Days: 7})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	f.ChangeStart = f.startLink(a)
	f.Days = f.days(first, av.Windows, a)
	f.NoDays = len(av.Windows) == 0
	if a.Week > 0 {
		f.PrevWeek = f.url(a, "week", strconv.Itoa(a.Week-1))
	}
	if a.Week+1 < weeks {
		f.NextWeek = f.url(a, "week", strconv.Itoa(a.Week+1))
	}
	f.Heading = tr(f.Lang, "when_title")
	render(w, http.StatusOK, "when", f.Lang, f.Heading+" · "+f.Business, f.Switch, f)
}

// renderDetails shows a.Day's open windows, as they stand now, and the
// rest of the form, with what the person typed and f.Errors.
func (h *handler) renderDetails(ctx context.Context, w http.ResponseWriter, r *http.Request, f form, a answers, status int) {
	now := h.Now()
	day, err := time.Parse("2006-01-02", a.Day)
	today := f.today(now)
	if err != nil || day.Before(today) || !day.Before(today.AddDate(0, 0, 7*f.weeks(now))) {
		// A day outside the horizon: pick another.
		a.Day = ""
		h.renderWhen(ctx, w, r, f, a)
		return
	}
	a.Week = int(day.Sub(today).Hours()) / (24 * 7)
	av, err := h.Bookings.ArrivalWindows(ctx, f.b, booking.WindowQuery{From: day, Days: 1})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	f.A = a
	f.Urgencies = f.urgencies(a)
	f.Token = token(h.Key, f.b.Slug, a.Key, now)
	f.DayText = display.Day(f.Lang, day.Add(12*time.Hour), time.UTC)
	f.Windows = f.windows(av.Windows, a.Window)
	f.WindowLegend = tr(f.Lang, "step_window", f.DayText)
	f.ChangeDay = f.url(a, "week", strconv.Itoa(a.Week))
	f.ChangeStart = f.startLink(a)
	f.Heading = tr(f.Lang, "details_title")
	if len(f.Errors) > 0 || f.Top != "" {
		f.Title = tr(f.Lang, "fix_title") + " · " + f.Heading
	}
	render(w, status, "details", f.Lang, f.titleOr(f.Heading)+" · "+f.Business, f.Switch, f)
}

// render writes the page name with view, in lang, with a switch to the
// other language when the business offers it.
func render(w http.ResponseWriter, status int, name, lang, title, switchTo string, view any) {
	p := htmlpage.Page{Lang: lang, Title: title, L: texts[lang], Footer: "Doorstep", Body: view}
	if switchTo != "" {
		p.Switch, p.SwitchText = switchTo, tr(lang, "other_lang")
	}
	site.Render(w, status, name, p)
}
