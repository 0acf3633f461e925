package bookform

import (
	"html/template"
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

// form is what every step shows: the business, its state, the danger
// notice's phone, the person's answers so far, and the step's own part.
type form struct {
	b         *booking.Business
	Lang      string
	Action    string // the form's address, Path + slug
	Business  string
	Phone     string
	PhoneLink template.URL
	CallText  string
	Example   bool
	Preview   bool
	TextsOff  bool   // the deployment sends no texts: the form does not offer them
	Switch    string // this step in the other language, when the business offers it

	Heading string
	Title   string // the page's title when it differs from Heading

	A        answers
	Errors   map[string]string // by field name; "top" for the form as a whole
	Problems []problemView     // Errors in the page's order, for the list at the top
	Top      string            // a notice above the form
	Call     bool              // the refusal asks the person to call the business
	Service  *booking.Service  // the chosen service; nil for other

	// The first page.
	Services []serviceView
	Deposit  *depositView
	Days     []dayView
	Soonest  *dayView // the soonest window, for a business with urgent services
	// DayChoices and ServiceChoices are Days (with Soonest) and Services
	// as HTML, made by withChoices just before the page is rendered.
	DayChoices, ServiceChoices template.HTML
	// PageTop is the page's top as HTML (the business, the heading, the
	// danger box, the notices, the problems), made by withChoices too.
	PageTop            template.HTML
	NoDays             bool
	Week               int
	PrevWeek, NextWeek string // the pager's weeks
	// The second.
	PickDay      bool // the day has no window any more: the days again, to pick another
	DayText      string
	WindowLegend string
	Windows      []windowView
	Urgencies    []choiceView
	ServiceName  string
	UrgentCall   bool // an urgent service: "Call now" beside it
	ChangeDay    string
	ChangeStart  string
	Token        string
}

// problemView is one problem in the list at the top of a refused form:
// its words, and the field it links to ("top": the form as a whole, no
// link).
type problemView struct {
	Field, Text string
}

// fieldsInOrder are the fields a problem may be next to, in the pages'
// order; "top" is the form as a whole.
var fieldsInOrder = []string{"service", "zip", "day", "window", "street", "unit", "city", "name", "phone", "email",
	"description", "deposit_accepted", "top"}

// fieldOrder is field's place in fieldsInOrder; len(fieldsInOrder) for
// any other.
func fieldOrder(field string) int {
	if i := slices.Index(fieldsInOrder, field); i >= 0 {
		return i
	}
	return len(fieldsInOrder)
}

// clearErrors takes back every problem said so far.
func (f *form) clearErrors() {
	f.Errors, f.Problems, f.Call = nil, nil, false
}

// dropError takes back the problem said of field.
func (f *form) dropError(field string) {
	delete(f.Errors, field)
	f.Problems = slices.DeleteFunc(f.Problems, func(p problemView) bool { return p.Field == field })
}

// addError says text next to field, and in the list at the top. A field
// keeps its first problem.
func (f *form) addError(field, text string) {
	if f.Errors == nil {
		f.Errors = map[string]string{}
	}
	if _, ok := f.Errors[field]; ok {
		return
	}
	f.Errors[field] = text
	i, _ := slices.BinarySearchFunc(f.Problems, field, func(p problemView, field string) int {
		return fieldOrder(p.Field) - fieldOrder(field)
	})
	f.Problems = slices.Insert(f.Problems, i, problemView{Field: field, Text: text})
}

type serviceView struct {
	ID, Name, Description string
	Urgent, Checked       bool
}

// dayView is a day to pick (or the soonest window): its value, its name
// (Today and Tomorrow named so), its first free time and its number of
// open windows.
type dayView struct {
	ID, Value string
	Text      string
	First     string
	CountText string
	Open      bool
	Checked   bool
}

type windowView struct {
	ID, Value, Text string
	Checked         bool
}

type choiceView struct {
	Value, Text string
	Checked     bool
}

// depositView is the deposit the business takes, as the person reads it
// before sending: its amount, when to pay it, and every rule.
type depositView struct {
	Amount     string
	AmountText string
	PayWithin  string
	Note       string // a simulated deposit says so, and why
	Rules      []string
	TermsURL   string
}

// maxLinkValue is the most characters of a value the language link
// repeats of the query or the form: more than any step's answer in the
// address (a service's id, a ZIP code, a day, a window's start) takes.
const maxLinkValue = 100

// zipMaxLength is the ZIP code field's maxlength: the most of a ZIP code
// typed wrong that a step's links repeat, as the field does.
const zipMaxLength = 10

// newForm is the part of every step that depends on the business and the
// page's language.
func (h *handler) newForm(r *http.Request, b *booking.Business, lang string) form {
	f := form{
		b: b, Lang: lang, Action: Path + b.Slug, Business: b.Name,
		Example: b.Example, Preview: b.Preview, TextsOff: h.Bookings.Delivery().TextsOff,
	}
	f.Phone, f.PhoneLink = htmlpage.Phone(b.Phone)
	f.CallText = tr(lang, "call", f.Phone)
	if other := htmlpage.Other(lang); slices.Contains(b.Languages, other) {
		var q url.Values
		if r.Method == http.MethodGet {
			q = htmlpage.TypedQuery(r.URL.Query(), maxLinkValue)
		} else {
			q = url.Values{}
			for _, k := range []struct {
				name string
				max  int
			}{{"service", maxLinkValue}, {"zip", zipMaxLength}, {"day", maxLinkValue}} {
				if v := r.PostForm.Get(k.name); v != "" {
					q.Set(k.name, htmlpage.Typed(v, k.max))
				}
			}
		}
		q.Set("lang", other)
		f.Switch = f.Action + "?" + q.Encode()
	}
	for _, s := range b.Services {
		f.Services = append(f.Services, serviceView{ID: s.ID, Name: s.Name.In(lang), Description: s.Description.In(lang), Urgent: s.Urgent})
	}
	return f
}

// checkStart checks the first step's answers, a service and a ZIP code in
// the business's area, and says what is wrong next to each; it reports
// whether anything is.
func (f *form) checkStart(a *answers) bool {
	errs := map[string]string{}
	f.Service = nil
	switch i := slices.IndexFunc(f.b.Services, func(s booking.Service) bool { return s.ID == a.Service }); {
	case i >= 0:
		f.Service = &f.b.Services[i]
		f.ServiceName = f.Service.Name.In(f.Lang)
	case a.Service == serviceOther:
		f.ServiceName = tr(f.Lang, "service_other")
	default:
		errs["service"] = tr(f.Lang, "refused_service")
	}
	for i := range f.Services {
		f.Services[i].Checked = f.Services[i].ID == a.Service
	}
	switch {
	case !booking.IsZIP(a.ZIP):
		errs["zip"] = tr(f.Lang, "refused_zip")
	case !slices.Contains(f.b.ServiceArea.ZIPCodes, a.ZIP):
		errs["zip"] = tr(f.Lang, "out_of_area", f.b.Name)
		f.Call = true
	}
	if d := f.b.BookingDeposit; d != nil {
		f.Deposit = &depositView{
			Amount:     display.Money(d.AmountCents, d.Currency),
			AmountText: tr(f.Lang, "deposit_amount", display.Money(d.AmountCents, d.Currency)),
			PayWithin:  tr(f.Lang, "deposit_pay_within", d.PayWithinMinutes),
			Rules:      htmlpage.DepositRules(f.Lang, d.FreeCancellationHours),
			TermsURL:   d.TermsURL,
		}
		switch {
		case d.Simulated && f.b.Preview:
			f.Deposit.Note = tr(f.Lang, "deposit_simulated_preview")
		case d.Simulated:
			// A server that takes no real payments (SimulateDeposits).
			f.Deposit.Note = tr(f.Lang, "deposit_simulated_server")
		}
	}
	if len(errs) == 0 {
		return false
	}
	for _, field := range []string{"service", "zip"} {
		if text, ok := errs[field]; ok {
			f.addError(field, text)
		}
	}
	return true
}

// urgencies are the choices of how soon, a's checked.
func (f *form) urgencies(a answers) []choiceView {
	var out []choiceView
	for _, u := range []string{"emergency", "soon", "flexible"} {
		out = append(out, choiceView{Value: u, Text: tr(f.Lang, "urgency_"+u), Checked: a.Urgency == u})
	}
	return out
}

// today is today's date in the business's time zone, as a date value
// (midnight UTC of that day, as edge.ParseDate returns).
func (f *form) today(now time.Time) time.Time {
	t := now.In(f.b.Location())
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// weeks is how many weeks the form pages through: the business's horizon
// (today and books_up_to_days_ahead days after), at most booking.MaxDays
// days, the most listArrivalWindows lists.
func (f *form) weeks(time.Time) int {
	days := min(f.b.BooksUpToDaysAhead+1, booking.MaxDays)
	return (days + 6) / 7
}

// url is the address of a step: the form's, with the language, the first
// step's answers and pairs (name, value, ...).
func (f *form) url(a answers, pairs ...string) string {
	q := url.Values{}
	q.Set("lang", f.Lang)
	q.Set("service", htmlpage.Typed(a.Service, maxLinkValue))
	q.Set("zip", htmlpage.Typed(a.ZIP, zipMaxLength))
	for i := 0; i+1 < len(pairs); i += 2 {
		q.Set(pairs[i], pairs[i+1])
	}
	return f.Action + "?" + q.Encode()
}

// startLink goes back to the first page with its answers, the day
// checked.
func (f *form) startLink(a answers) string {
	return f.url(a, "day", a.Day, "week", strconv.Itoa(a.Week), "change", "1")
}

// dayOf is the date value of day (YYYY-MM-DD), when the form offers it at
// now: today or a later day of the horizon.
func (f *form) dayOf(day string, now time.Time) (time.Time, bool) {
	d, err := time.Parse("2006-01-02", day)
	today := f.today(now)
	if err != nil || d.Before(today) || !d.Before(today.AddDate(0, 0, 7*f.weeks(now))) {
		return time.Time{}, false
	}
	return d, true
}

// dayName is a date value's day as a person reads it, from today (a date
// value too), short enough for a phone's line: "Today, Monday, November
// 23", the year only when it is not this year's.
func (f *form) dayName(today, date time.Time) string {
	text := display.Day(f.Lang, date.Add(12*time.Hour), time.UTC)
	if date.Year() == today.Year() {
		year := strconv.Itoa(date.Year())
		text = strings.TrimSuffix(strings.TrimSuffix(text, ", "+year), " de "+year)
	}
	switch date {
	case today:
		return tr(f.Lang, "today", text)
	case today.AddDate(0, 0, 1):
		return tr(f.Lang, "tomorrow", text)
	}
	return text
}

// windowText is a window's times: "8:00 AM – 10:00 AM MST".
func (f *form) windowText(w booking.Window) string {
	loc := f.b.Location()
	return display.Clock(f.Lang, w.Start, loc) + " – " + display.Clock(f.Lang, w.End, loc) + " " + w.Start.In(loc).Format("MST")
}

// days are the 7 days from first, each with its first free time and its
// number of open windows (of ws), a's day checked.
func (f *form) days(first, today time.Time, ws []booking.Window, a answers) []dayView {
	// By the day's place in the week, not in maps: this runs on every
	// view of the week's page.
	var dates [7]string
	for i := range dates {
		dates[i] = first.AddDate(0, 0, i).Format("2006-01-02")
	}
	var count [7]int
	var firstFree [7]time.Time
	for _, w := range ws {
		if i := slices.Index(dates[:], w.Date); i >= 0 {
			if count[i] == 0 {
				firstFree[i] = w.Start
			}
			count[i]++
		}
	}
	days := make([]dayView, 0, 7)
	for i, date := range dates {
		d := first.AddDate(0, 0, i)
		v := dayView{ID: "day-" + date, Value: date, Text: f.dayName(today, d), Open: count[i] > 0, Checked: a.Day == date}
		switch n := count[i]; n {
		case 0:
		case 1:
			v.CountText = tr(f.Lang, "windows_one")
		default:
			v.CountText = tr(f.Lang, "windows_many", n)
		}
		if v.Open {
			v.First = tr(f.Lang, "first_free", display.Clock(f.Lang, firstFree[i], f.b.Location()))
		}
		days = append(days, v)
	}
	return days
}

// withChoices makes f's DayChoices and ServiceChoices, as they stand, and
// returns f: its last step before it is rendered (as a pointer: the form
// is large, and the template reads it in place). Fields, not methods the
// template calls: a method called by html/template costs a reflect.FuncOf.
func (f *form) withChoices() *form {
	f.DayChoices, f.ServiceChoices, f.PageTop = f.dayChoices(), f.serviceChoices(), f.pageTop()
	return f
}

// pageTop is the top of the form's pages: the business and the heading, the
// box that sends an emergency to the phone, the example's and the
// preview's notices, and the page's problems, each a link to its field
// (or the form's own, unlinked), with the number to call when the refusal
// asks for it. Written here as dayChoices is, for the same reason.
func (f *form) pageTop() template.HTML {
	var b strings.Builder
	b.Grow(1024)
	text := func(s string) { b.WriteString(htmlpage.Escape(s)) }
	l := func(key string) { text(tr(f.Lang, key)) }
	b.WriteString(`<p class="business">`)
	text(f.Business)
	b.WriteString("</p>\n<h1>")
	text(f.Heading)
	b.WriteString("</h1>\n" + `<section class="danger-first" aria-labelledby="danger-title">` + "\n" + `<h2 id="danger-title">`)
	l("danger_title")
	b.WriteString("</h2>\n<p>")
	l("danger")
	b.WriteString("</p>\n")
	f.writeCall(&b)
	b.WriteString("\n" + `<p id="danger-else">`)
	l("danger_else")
	b.WriteString("</p>\n</section>\n")
	if f.Example {
		b.WriteString(`<p class="note" id="example">`)
		l("example_notice")
		b.WriteString("</p>\n")
	}
	if f.Preview {
		b.WriteString(`<p class="note" id="preview">`)
		l("preview_notice")
		b.WriteString("</p>\n")
	}
	if len(f.Problems) > 0 {
		b.WriteString(`<div class="error-box" id="fix" role="alert"><h2>`)
		l("fix_intro")
		b.WriteString("</h2>\n" + `<ul id="problems">`)
		for _, p := range f.Problems {
			b.WriteString("\n<li>")
			if p.Field == "top" {
				b.WriteString(`<span class="error" id="top-error">`)
				text(p.Text)
				b.WriteString(`</span>`)
			} else {
				// A field's name (fieldsInOrder: letters and _), which
				// html/template's escaping of a URL's fragment leaves
				// as it is.
				b.WriteString(`<a href="#`)
				text(p.Field)
				b.WriteString(`">`)
				text(p.Text)
				b.WriteString(`</a>`)
			}
			b.WriteString("</li>")
		}
		b.WriteString("\n</ul>\n")
		if f.Call {
			f.writeCall(&b)
			b.WriteString("\n")
		}
		b.WriteString("</div>\n")
	}
	return template.HTML(b.String()) // every value above escaped
}

// writeCall writes the "call" template of f: the business's number as a
// link to call it, or its text when it has no number to link.
func (f *form) writeCall(b *strings.Builder) {
	b.WriteString("<p>")
	if f.PhoneLink != "" {
		b.WriteString(`<a class="call" href="`)
		b.WriteString(htmlpage.Escape(string(f.PhoneLink))) // a tel: link, as in serviceChoices
		b.WriteString(`">`)
		b.WriteString(htmlpage.Escape(f.CallText))
		b.WriteString(`</a>`)
	} else {
		b.WriteString(htmlpage.Escape(f.CallText))
	}
	b.WriteString("</p>")
}

// dayChoices is the days fieldset's choices: the soonest window (when
// there is one), then each day of the week, a choice when it has open
// windows and a card when not; what the "days" template wrote with some 60
// actions, each an escaper html/template calls through reflect, written
// here with the same escaping (htmlpage.Escape), byte for byte: it made
// the week's page 1.3x listArrivalWindows (docs/performance.md).
func (f *form) dayChoices() template.HTML {
	var b strings.Builder
	b.Grow(len(f.Days) * 200)
	attrs := func(d *dayView) {
		b.WriteString(`<input type="radio" name="day" id="`)
		b.WriteString(htmlpage.Escape(d.ID))
		b.WriteString(`" value="`)
		b.WriteString(htmlpage.Escape(d.Value))
		b.WriteString(`"`)
		if d.Checked {
			b.WriteString(" checked")
		}
	}
	if d := f.Soonest; d != nil {
		b.WriteString(`<label class="soonest">`)
		attrs(d)
		b.WriteString(`><span><strong>`)
		b.WriteString(htmlpage.Escape(tr(f.Lang, "soonest")))
		b.WriteString(`</strong> `)
		b.WriteString(htmlpage.Escape(d.Text))
		b.WriteString(`, `)
		b.WriteString(htmlpage.Escape(d.First))
		b.WriteString("</span></label>\n")
	}
	dayError := f.Errors["day"] != ""
	for i := range f.Days {
		d := &f.Days[i]
		if !d.Open {
			b.WriteString(`<p class="card off"><strong>`)
			b.WriteString(htmlpage.Escape(d.Text))
			b.WriteString(`</strong> `)
			b.WriteString(htmlpage.Escape(tr(f.Lang, "no_windows")))
			b.WriteString("</p>\n")
			continue
		}
		b.WriteString(`<label>`)
		attrs(d)
		if dayError {
			b.WriteString(` aria-invalid="true"`)
		}
		b.WriteString(`><span><strong>`)
		b.WriteString(htmlpage.Escape(d.Text))
		b.WriteString(`</strong> `)
		b.WriteString(htmlpage.Escape(d.First))
		b.WriteString(` · `)
		b.WriteString(htmlpage.Escape(d.CountText))
		b.WriteString("</span></label>\n")
	}
	return template.HTML(b.String()) // every value above escaped
}

// serviceChoices is the first page's services, each a choice, an urgent
// one with its badge and the business's number to call now: written here
// as dayChoices is, for the same reason.
func (f *form) serviceChoices() template.HTML {
	var b strings.Builder
	b.Grow(len(f.Services) * 200)
	serviceError := f.Errors["service"] != ""
	for _, s := range f.Services {
		b.WriteString(`<div class="service"><label><input type="radio" name="service" value="`)
		b.WriteString(htmlpage.Escape(s.ID))
		b.WriteString(`"`)
		if s.Checked {
			b.WriteString(" checked")
		}
		if serviceError {
			b.WriteString(` aria-invalid="true"`)
		}
		b.WriteString(`><span>`)
		b.WriteString(htmlpage.Escape(s.Name))
		if s.Urgent {
			b.WriteString(` <strong class="badge">`)
			b.WriteString(htmlpage.Escape(tr(f.Lang, "urgent")))
			b.WriteString(`</strong>`)
		}
		b.WriteString(`</span></label>`)
		if s.Urgent && f.PhoneLink != "" {
			// A tel: link of digits and + (htmlpage.TelURL), which
			// html/template's URL normalizing leaves as it is.
			b.WriteString(`<a class="call-now" href="`)
			b.WriteString(htmlpage.Escape(string(f.PhoneLink)))
			b.WriteString(`">`)
			b.WriteString(htmlpage.Escape(tr(f.Lang, "call_now")))
			b.WriteString(`</a>`)
		}
		b.WriteString("</div>\n")
	}
	return template.HTML(b.String()) // every value above escaped
}

// windows are the open windows ws, each with its start as the form's
// value (RFC 3339, as the API gives it) and its times as its label.
func (f *form) windows(ws []booking.Window, chosen string) []windowView {
	chosenAt, _ := edge.ParseWindowStart(chosen)
	out := make([]windowView, 0, len(ws))
	for i, w := range ws {
		out = append(out, windowView{
			ID:      "window-" + strconv.Itoa(i),
			Value:   w.Start.UTC().Format(time.RFC3339),
			Text:    f.windowText(w),
			Checked: chosen != "" && w.Start.Equal(chosenAt),
		})
	}
	return out
}

func (f *form) titleOr(heading string) string {
	if f.Title != "" {
		return f.Title
	}
	return heading
}

// messageView is a page with one message: not found, paused, reload, an
// error.
type messageView struct {
	Heading   string
	Text      string
	Link      string
	LinkText  string
	Phone     string
	PhoneLink template.URL
	CallText  string
}
