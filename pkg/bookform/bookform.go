// Package bookform serves the visitor's booking form at
// {SITE_URL}/book/{slug}: the business's booking_url for a person with a
// browser and no assistant. It is server-rendered HTML that works with
// JavaScript off, phone first, in English or Spanish as the business
// offers them, and it sends the request through the same
// booking.Bookings.CreateRequest as the JSON API: the same checks, codes,
// limits on strangers and idempotency.
//
// The steps come in the spec's order, over two pages (each step's answers
// ride in the address, so Back and reload work and no cookie is needed):
// the service, the ZIP code, the deposit the business takes, and a day of
// one week of the horizon (each with its first free time; the soonest
// window itself for a business with urgent services); then that day's
// windows, the address, the contact, what the person needs, and review and
// send, which POSTs to the top window (an embedding frame is left: the
// status and payment pages are never framed). A refusal lists every
// problem the form can find at once (booking.Bookings.Problems), each
// next to its field; what needs the store comes after. Every page starts
// with what to do in danger.
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
	"unicode/utf8"

	"github.com/doorstep/doorstep/pkg/booking"
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
var site = htmlpage.New(templateFiles, style, "start", "details", "message")

type handler struct {
	Config
}

// New returns the form's handler.
//
//	GET  /book/{slug}                            the service, the ZIP code and a day
//	GET  /book/{slug}?service=&zip=[&week=]      the same, with the answers, at a week of the horizon
//	GET  /book/{slug}?service=&zip=&day=[&next=] that day's windows, and the rest of the form
//	POST /book/{slug}                            send the request: 303 to the status or payment page
//
// Each takes lang=en|es. The form may be framed by the business's own
// site only (CSP frame-ancestors: its url's origin); every other page
// refuses framing. A POST from another site is refused
// (http.CrossOriginProtection) with the form's own page, and one without a
// valid form token is answered with a page saying to reload, storing
// nothing. Every other address under /book is the 404 page (a trailing
// slash after a slug redirects to the form), and another method on the
// form is 405 with Allow.
func New(c Config) (http.Handler, error) {
	if len(c.Key) < MinKeyBytes {
		return nil, errors.New("bookform: the form key must have at least 32 bytes")
	}
	h := newHandler(c)
	mux := edge.Mux(h.routes())
	mux.HandleFunc("/", h.notFound)
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(h.crossSite))
	return edge.AccessLog(h.Log, site.Headers(maxFormBytes, cop.Handler(mux))), nil
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
		{Path: Path + "{slug}", Handler: http.HandlerFunc(h.methodNotAllowed)},
		{Path: Path, Handler: http.HandlerFunc(h.elsewhere)},
		{Path: strings.TrimSuffix(Path, "/"), Handler: http.HandlerFunc(h.notFound)},
	}
}

// methodNotAllowed answers another method on the form: 405 with Allow.
func (h *handler) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Allow", edge.Allow(h.routes(), r))
	lang := htmlpage.AcceptLanguage(r)
	render(w, http.StatusMethodNotAllowed, "message", lang, tr(lang, "method_title"), "", messageView{Heading: tr(lang, "method_title"), Text: tr(lang, "method")})
}

// elsewhere answers an address under /book/ that is no form: /book/{slug}/
// redirects to the form (a GET), anything else is the 404 page.
func (h *handler) elsewhere(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, Path)
	if slug, ok := strings.CutSuffix(rest, "/"); ok && booking.IsSlug(slug) && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		to := Path + slug
		if r.URL.RawQuery != "" {
			to += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, to, http.StatusMovedPermanently)
		return
	}
	h.notFound(w, r)
}

// crossSite answers a POST from another site: the reload page, storing
// nothing.
func (h *handler) crossSite(w http.ResponseWriter, r *http.Request) {
	lang := htmlpage.AcceptLanguage(r)
	v := messageView{Heading: tr(lang, "reload_title"), Text: tr(lang, "reload")}
	if slug, ok := strings.CutPrefix(r.URL.Path, Path); ok && booking.IsSlug(slug) {
		v.Link, v.LinkText = Path+slug, tr(lang, "reload_link")
	}
	render(w, http.StatusForbidden, "message", lang, v.Heading, "", v)
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

// pickSoonest reads a day that is the soonest window's start (the days'
// first choice for a business with urgent services) as that window, on
// its day in loc.
func (a *answers) pickSoonest(loc *time.Location) {
	if at, ok := edge.ParseWindowStart(a.Day); ok {
		a.Window, a.Day = a.Day, at.In(loc).Format("2006-01-02")
	}
}

// get serves the step the answers in the address lead to: the first page
// until a day is picked (or its Next pressed), then the rest of the form.
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
	a.pickSoonest(b.Location())
	if q.Has("show_week") {
		// The pager of the first page: another week, with its answers.
		a.Week, _ = strconv.Atoi(q.Get("show_week"))
		a.Day = ""
	}
	if q.Get("change") == "1" || a.Day == "" && !q.Has("next") {
		// The first page, with the answers so far and nothing said of
		// them: a new form, a Change link, or another week.
		f.checkStart(&a)
		f.clearErrors()
		h.renderStart(ctx, w, r, f, a, http.StatusOK)
		return
	}
	bad := f.checkStart(&a)
	if _, ok := f.dayOf(a.Day, h.Now()); !ok {
		key := "refused_day" // none picked
		if a.Day != "" {
			key = "refused_day_gone"
		}
		f.addError("day", tr(lang, key))
		a.Day, bad = "", true
	}
	if bad {
		h.renderStart(ctx, w, r, f, a, http.StatusBadRequest)
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
// typed and every problem the form finds, each next to its field; what
// needs the store (the window just taken, the limits) comes after.
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
	unreadable := notUTF8(r.PostForm)
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
		h.renderStart(ctx, w, r, f, a, http.StatusBadRequest)
		return
	}
	f.clearErrors()
	if r.PostForm.Has("show_day") {
		// Another day picked after the form's day had gone: its windows,
		// with everything typed kept. Nothing is sent.
		a.Window = ""
		a.pickSoonest(b.Location())
		h.renderDetails(ctx, w, r, f, a, http.StatusOK)
		return
	}
	if len(unreadable) > 0 {
		// Text that is not UTF-8 is never stored, nor shown back as it
		// came. The form still names every other problem at once (the
		// window, an e-mail address...), found on what is readable; a
		// field that could not be read keeps that message.
		for _, field := range unreadable {
			f.addError(field, tr(lang, "refused_unreadable"))
		}
		for _, p := range h.Bookings.Problems(b, a.input()) {
			f.refuse(p)
		}
		if f.Errors["window"] != "" {
			a.Window = "" // the windows are listed again, as they stand now
		}
		h.renderDetails(ctx, w, r, f, a, http.StatusBadRequest)
		return
	}
	if b.Example {
		// Made up to show the product: nothing is sent, for anyone.
		f.Top = tr(lang, "example_refused")
		h.renderDetails(ctx, w, r, f, a, http.StatusForbidden)
		return
	}
	in := a.input()
	c, _, err := h.Bookings.CreateRequest(ctx, b, in)
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
	// CreateRequest answers one code (and replays a form sent before,
	// whatever the clock says now). The form shows every problem it can
	// find without the store at once; what needs the store (the window
	// just taken, the limits) comes only once there is none.
	if problems := h.Bookings.Problems(b, in); len(problems) > 0 {
		for _, p := range problems {
			f.refuse(p)
		}
		if f.Errors["window"] != "" {
			a.Window = "" // the windows are listed again, as they stand now
		}
		h.renderDetails(ctx, w, r, f, a, edge.Status(booking.ErrorCode(problems[0])))
		return
	}
	if code == booking.BookingPaused {
		h.paused(w, f, http.StatusServiceUnavailable)
		return
	}
	if code == booking.IdempotencyKeyReused {
		a.Key = newIdempotencyKey() // this form was sent before with other details
	}
	if f.refuse(err) == "window" {
		a.Window = "" // the windows are listed again, as they stand now
	}
	edge.SetRetryAfter(w, booking.RetryAfter(err)) // as the JSON API says it
	h.renderDetails(ctx, w, r, f, a, edge.Status(code))
}

// refuse adds one of CreateRequest's refusals to the form, next to its
// field, and returns the field.
func (f *form) refuse(err error) string {
	code := booking.ErrorCode(err)
	ref := refusals[code]
	if ref.text == "" || (code == booking.InvalidRequest && !strings.HasPrefix(booking.ErrorMessage(err), "description")) {
		// A code the form has no words for, or an INVALID_REQUEST about a
		// field no person types (an urgency or a key changed by hand).
		ref = refusal{field: "top", text: "refused_other"}
	}
	msg := tr(f.Lang, ref.text)
	switch {
	case code == booking.OutOfArea:
		msg = tr(f.Lang, "out_of_area", f.Business)
	case errors.Is(err, booking.ErrTooManyOpenEmail):
		msg = tr(f.Lang, "refused_too_many_email")
	}
	if ref.call {
		f.Call = true
	}
	f.addError(ref.field, msg)
	return ref.field
}

// notUTF8 are the fields of v whose values are not UTF-8, each made
// readable in v (the bytes that are not are dropped), in the page's order.
func notUTF8(v url.Values) []string {
	var bad []string
	for k, vs := range v {
		for i, s := range vs {
			if !utf8.ValidString(s) {
				vs[i] = strings.ToValidUTF8(s, "")
				if !slices.Contains(bad, k) {
					bad = append(bad, k)
				}
			}
		}
	}
	slices.SortFunc(bad, func(x, y string) int { return fieldOrder(x) - fieldOrder(y) })
	for i, k := range bad {
		if fieldOrder(k) == len(fieldsInOrder) {
			bad[i] = "top" // a field no person types
		}
	}
	return slices.Compact(bad)
}

// input is the request the answers make: the same CreateInput the JSON
// API decodes, so that the same rules apply; a window that is not RFC 3339
// is left zero, which is INVALID_WINDOW, as the API answers it.
func (a answers) input() booking.CreateInput {
	start, _ := edge.ParseWindowStart(a.Window)
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
	return in
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
	booking.TooManyOpen:          {"top", "refused_too_many", true}, // or refused_too_many_email
	booking.RateLimited:          {"top", "refused_rate", true},
	booking.RequestRefused:       {"top", "refused_contact", true},
	booking.IdempotencyKeyReused: {"top", "refused_reused", false},
	booking.ServerBusy:           {"top", "refused_busy", false},
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
	render(w, edge.PageFailure(w, err), "message", lang, tr(lang, "error_title"), "", messageView{Heading: tr(lang, "error_title"), Text: tr(lang, "error")})
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

// renderStart shows the first page: the services, the ZIP code, the
// deposit, and the days of the week a.Week of the horizon, each with its
// first free time (and the soonest window, for a business with urgent
// services).
func (h *handler) renderStart(ctx context.Context, w http.ResponseWriter, r *http.Request, f form, a answers, status int) {
	if err := h.listDays(ctx, &f, a); err != nil {
		h.fail(w, r, err)
		return
	}
	f.A = a
	f.Heading = tr(f.Lang, "start_title", f.Business)
	if len(f.Errors) > 0 {
		f.Title = tr(f.Lang, "fix_title") + " · " + f.Heading
	}
	render(w, status, "start", f.Lang, f.titleOr(f.Heading), f.Switch, f.withChoices())
}

// listDays lists on f the days of the week a.Week of the horizon, a.Day's
// checked, with the pager's weeks and, in the first week of a business
// with urgent services, the soonest window.
func (h *handler) listDays(ctx context.Context, f *form, a answers) error {
	now := h.Now()
	weeks := f.weeks(now)
	if a.Week < 0 || a.Week >= weeks {
		a.Week = 0
	}
	today := f.today(now)
	first := today.AddDate(0, 0, 7*a.Week)
	av, err := h.Bookings.ArrivalWindows(ctx, f.b, booking.WindowQuery{From: first, Days: 7})
	if err != nil {
		return err
	}
	f.Week = a.Week
	f.Days = f.days(first, today, av.Windows, a)
	f.NoDays = len(av.Windows) == 0
	if a.Week > 0 {
		f.PrevWeek = strconv.Itoa(a.Week - 1)
	}
	if a.Week+1 < weeks {
		f.NextWeek = strconv.Itoa(a.Week + 1)
	}
	if a.Week == 0 && len(av.Windows) > 0 && slices.ContainsFunc(f.b.Services, func(s booking.Service) bool { return s.Urgent }) {
		ws := av.Windows[0]
		value := ws.Start.UTC().Format(time.RFC3339)
		date, _ := time.Parse("2006-01-02", ws.Date)
		f.Soonest = &dayView{
			ID: "soonest", Value: value, Open: true, Checked: a.Window == value,
			Text: f.dayName(today, date), First: f.windowText(ws),
		}
	}
	return nil
}

// renderDetails shows a.Day's open windows, as they stand now, and the
// rest of the form, with what the person typed and f.Errors. A day no
// longer offered (a form opened before midnight, sent after) is said so,
// with the days to pick another, and what was typed kept.
func (h *handler) renderDetails(ctx context.Context, w http.ResponseWriter, r *http.Request, f form, a answers, status int) {
	now := h.Now()
	today := f.today(now)
	day, ok := f.dayOf(a.Day, now)
	var windows []booking.Window
	if ok {
		a.Week = int(day.Sub(today).Hours()) / (24 * 7)
		av, err := h.Bookings.ArrivalWindows(ctx, f.b, booking.WindowQuery{From: day, Days: 1})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		windows = av.Windows
		f.DayText = f.dayName(today, day)
		f.WindowLegend = tr(f.Lang, "step_window", f.DayText)
	} else {
		a.Day, a.Week, a.Window = "", 0, ""
		f.dropError("window") // its window has gone with it: the day says so
		f.addError("day", tr(f.Lang, "refused_day_gone"))
		f.WindowLegend = tr(f.Lang, "step_window_none")
		if status < http.StatusBadRequest {
			status = http.StatusBadRequest
		}
	}
	if len(windows) == 0 {
		// No window that day any more: pick another day here.
		if err := h.listDays(ctx, &f, a); err != nil {
			h.fail(w, r, err)
			return
		}
		f.PickDay = true
	}
	f.A = a
	f.Urgencies = f.urgencies(a)
	f.Token = token(h.Key, f.b.Slug, a.Key, now)
	f.Windows = f.windows(windows, a.Window)
	f.ChangeDay = f.url(a, "week", strconv.Itoa(a.Week), "change", "1")
	f.ChangeStart = f.startLink(a)
	f.UrgentCall = f.Service != nil && f.Service.Urgent && f.PhoneLink != ""
	f.Heading = tr(f.Lang, "details_title")
	if len(f.Errors) > 0 || f.Top != "" {
		f.Title = tr(f.Lang, "fix_title") + " · " + f.Heading
	}
	render(w, status, "details", f.Lang, f.titleOr(f.Heading)+" · "+f.Business, f.Switch, f.withChoices())
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
