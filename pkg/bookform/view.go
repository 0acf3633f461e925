package bookform

import (
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
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
	Switch    string // this step in the other language, when the business offers it

	Heading string
	Title   string // the page's title when it differs from Heading

	A       answers
	Errors  map[string]string // by field name; "top" for the form as a whole
	Top     string            // a notice above the form
	Call    bool              // the refusal asks the person to call the business
	Service *booking.Service  // the chosen service; nil for other

	// The first step.
	Services []serviceView
	// The second.
	Days               []dayView
	NoDays             bool
	PrevWeek, NextWeek string
	// The third.
	DayText      string
	WindowLegend string
	Windows      []windowView
	Urgencies    []choiceView
	Deposit      *depositView
	ServiceName  string
	ChangeDay    string
	ChangeStart  string
	Token        string
}

type serviceView struct {
	ID, Name, Description string
	Urgent, Checked       bool
}

type dayView struct {
	Text      string
	Count     int
	CountText string
	Link      string
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
	Note       string // a simulated deposit says so
	Rules      []string
	TermsURL   string
}

// newForm is the part of every step that depends on the business and the
// page's language.
func (h *handler) newForm(r *http.Request, b *booking.Business, lang string) form {
	f := form{
		b: b, Lang: lang, Action: Path + b.Slug, Business: b.Name,
		Example: b.Example, Preview: b.Preview,
	}
	f.Phone, f.PhoneLink = htmlpage.Phone(b.Phone)
	f.CallText = tr(lang, "call", f.Phone)
	if other := htmlpage.Other(lang); slices.Contains(b.Languages, other) {
		var q url.Values
		if r.Method == http.MethodGet {
			q = r.URL.Query()
		} else {
			q = url.Values{}
			for _, k := range []string{"service", "zip", "day"} {
				if v := r.PostForm.Get(k); v != "" {
					q.Set(k, v)
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
		if d.Simulated {
			f.Deposit.Note = tr(f.Lang, "deposit_simulated")
		}
	}
	if len(errs) == 0 {
		return false
	}
	f.Errors = errs
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
	q.Set("service", a.Service)
	q.Set("zip", a.ZIP)
	for i := 0; i+1 < len(pairs); i += 2 {
		q.Set(pairs[i], pairs[i+1])
	}
	return f.Action + "?" + q.Encode()
}

// startLink goes back to the first step with its answers.
func (f *form) startLink(a answers) string {
	q := url.Values{"lang": {f.Lang}, "service": {a.Service}, "zip": {a.ZIP}, "change": {"1"}}
	return f.Action + "?" + q.Encode()
}

// days are the 7 days from first, each with its number of open windows
// (of ws) and the link to them.
func (f *form) days(first time.Time, ws []booking.Window, a answers) []dayView {
	count := map[string]int{}
	for _, w := range ws {
		count[w.Date]++
	}
	days := make([]dayView, 0, 7)
	for i := range 7 {
		d := first.AddDate(0, 0, i)
		date := d.Format("2006-01-02")
		v := dayView{Text: display.Day(f.Lang, d.Add(12*time.Hour), time.UTC), Count: count[date]}
		switch v.Count {
		case 0:
		case 1:
			v.CountText, v.Link = tr(f.Lang, "windows_one"), f.url(a, "day", date)
		default:
			v.CountText, v.Link = tr(f.Lang, "windows_many", v.Count), f.url(a, "day", date)
		}
		days = append(days, v)
	}
	return days
}

// windows are the open windows ws, each with its start as the form's
// value (RFC 3339, as the API gives it) and its times as its label.
func (f *form) windows(ws []booking.Window, chosen string) []windowView {
	loc := f.b.Location()
	chosenAt, _ := edge.ParseWindowStart(chosen)
	out := make([]windowView, 0, len(ws))
	for i, w := range ws {
		out = append(out, windowView{
			ID:      "window-" + strconv.Itoa(i),
			Value:   w.Start.UTC().Format(time.RFC3339),
			Text:    display.Clock(f.Lang, w.Start, loc) + " – " + display.Clock(f.Lang, w.End, loc) + " " + w.Start.In(loc).Format("MST"),
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
