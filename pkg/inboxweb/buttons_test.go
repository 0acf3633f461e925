package inboxweb_test

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/inboxweb"
)

// The every-button test: a business in each of its states is signed in to,
// every page of its inbox and settings is found by following the links
// from /inbox, and every form and button on them is pressed as a browser
// sends it (its fields' values as shown, the button's name and value),
// each from the state afresh. No answer, nor the page a redirect leads to,
// may be a 5xx, and nothing may log an error. A page or a form added
// later is pressed without changing this test.

// buttonState is a business in one of its states, built afresh for each
// press, so that a press that signs out, erases or moves a request does
// not change what the next one starts from.
type buttonState struct {
	name  string
	build func(t *testing.T) builtState
	// minPresses is the least number of forms and buttons the state's
	// pages must hold: a crawl that finds fewer found nothing to test.
	minPresses int
}

// builtState is a state as built: its fixture, the browser signed in to
// the business, the CSRF token of its forms, and the codes of the
// requests made, in the order made (another build makes the same
// requests, under other codes).
type builtState struct {
	f     *fixture
	slug  string
	a     agent
	csrf  string
	codes []string
}

// translate is s, of the pages of build from, for this build: its
// requests' codes.
func (b builtState) translate(from builtState, s string) string {
	for i, code := range from.codes {
		s = strings.ReplaceAll(s, code, b.codes[i])
	}
	return s
}

// buttonPress is one form sent with one of its buttons.
type buttonPress struct {
	page   string // where it was found
	method string
	action string
	values url.Values
	button string // its name=value, or its text
}

// key names a press: the same form on two pages (signing out, in every
// header) is pressed once, whatever CSRF token each page shows (masked
// afresh on each).
func (p buttonPress) key() string {
	v := url.Values{}
	for k, vs := range p.values {
		if k != "csrf" {
			v[k] = vs
		}
	}
	return p.method + " " + p.action + "?" + v.Encode() + " " + p.button
}

// signedUpState is a business fresh from sign-up, signed in.
func signedUpState(t *testing.T, f *fixture) (builtState, string) {
	t.Helper()
	a, csrf, slug := f.signUp(t, "Fontanería José", "jose@fontaneria.example.com", "en")
	return builtState{f: f, slug: slug, a: a, csrf: csrf}, slug
}

// signedInState is the business slug of f, signed in, with the requests
// codes made.
func signedInState(t *testing.T, f *fixture, slug string, codes ...string) builtState {
	t.Helper()
	a, csrf := f.signIn(t, slug)
	return builtState{f: f, slug: slug, a: a, csrf: csrf, codes: codes}
}

var buttonStates = []buttonState{
	{"fresh from sign-up", func(t *testing.T) builtState {
		b, _ := signedUpState(t, buttonFixture(t, nil))
		return b
	}, 12},
	{"checklist done", func(t *testing.T) builtState {
		f := buttonFixture(t, nil)
		b, slug := signedUpState(t, f)
		f.setSchedule(t, slug, func(b *booking.Business) {
			b.Phone, b.City, b.State, b.OwnerPhone = "+13055550100", "Miami", "FL", "3055550199"
			b.ServiceArea = booking.ServiceArea{Label: "Miami", ZIPCodes: []string{"33101", "33125"}}
			b.Services = []booking.Service{
				{ID: "leaks", Name: booking.LocalText{EN: "Leaks", ES: "Fugas"}, Description: booking.LocalText{EN: "We fix leaks.", ES: "Arreglamos fugas."}},
				{ID: "drains", Name: booking.LocalText{EN: "Drains", ES: "Desagües"}, Description: booking.LocalText{EN: "We clear drains.", ES: "Destapamos desagües."}},
			}
		})
		return b
	}, 20},
	{"waiting for approval", func(t *testing.T) builtState {
		f := buttonFixture(t, func(c *booking.Config) { c.NewBusinessApproval = booking.ApprovalOperator })
		f.confirmMobile(t, previewSlug)
		if _, err := f.inbox(t, previewSlug).GoLive(context.Background()); err != nil {
			t.Fatal(err)
		}
		return signedInState(t, f, previewSlug)
	}, 25},
	{"preview taking requests", func(t *testing.T) builtState {
		return signedInState(t, buttonFixture(t, nil), previewSlug)
	}, 25},
	{"live", func(t *testing.T) builtState {
		f := buttonFixture(t, nil)
		f.confirmMobile(t, "desert-cool-hvac")
		f.setSchedule(t, "desert-cool-hvac", func(b *booking.Business) {
			b.TextMe = booking.TextsUrgent
			b.DaysOff = []booking.DayOff{{From: "2026-12-24", To: "2026-12-26", Note: "Christmas"}}
		})
		return signedInState(t, f, "desert-cool-hvac")
	}, 30},
	{"live, its last service and ZIP code", func(t *testing.T) builtState {
		f := buttonFixture(t, nil)
		f.setSchedule(t, "desert-cool-hvac", func(b *booking.Business) {
			b.Services, b.ServiceArea.ZIPCodes = b.Services[:1], b.ServiceArea.ZIPCodes[:1]
		})
		return signedInState(t, f, "desert-cool-hvac")
	}, 20},
	{"paused", func(t *testing.T) builtState {
		return signedInState(t, buttonFixture(t, nil), "hudson-heights-electric")
	}, 25},
	{"suspended", func(t *testing.T) builtState {
		f := buttonFixture(t, nil)
		code := f.create(t, "desert-cool-hvac", "", "", 1)
		f.operatorChange(t, "desert-cool-hvac", func(b *booking.Business) { b.Suspended = true })
		return signedInState(t, f, "desert-cool-hvac", code)
	}, 25},
	{"requests in each status", requestsState, 35},
}

// requestsState is a business with a request in each status: paid and
// new, accepted (one of them moved, one whose window started), declined,
// completed, cancelled, no-show, expired, and one waiting for its deposit.
func requestsState(t *testing.T) builtState {
	t.Helper()
	f := buttonFixture(t, nil)
	const slug = previewSlug // a deposit, simulated
	ctx := context.Background()
	var codes []string
	made := func(code string) string { codes = append(codes, code); return code }
	move := func(code string, action booking.Action) { f.businessMove(t, slug, code, action, "") }
	b := f.business(t, slug)
	day := func(ahead int) string {
		return f.clock.Now().In(b.Location()).AddDate(0, 0, ahead).Format(time.DateOnly)
	}

	// Tomorrow's jobs, done, not there, and one still to close.
	completed, noShow, started := made(f.createAt(t, slug, "", "", 1, 0)), made(f.createAt(t, slug, "", "", 1, 1)), made(f.createAt(t, slug, "", "", 1, 2))
	for _, code := range []string{completed, noShow, started} {
		move(code, booking.ActionAccept)
	}
	unpaid := made(f.unpaid(t, slug, 2))
	f.clock.Add(2 * 24 * time.Hour)
	if _, err := f.bookings.ExpireLapsed(ctx, f.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if got := f.request(t, unpaid).Status; got != booking.StatusExpired {
		t.Fatalf("the unpaid request is %s, want expired", got)
	}
	move(completed, booking.ActionComplete)
	move(noShow, booking.ActionNoShow)

	made(f.createAt(t, slug, "", "", 2, 0)) // new
	accepted := made(f.createAt(t, slug, "", "", 2, 1))
	move(accepted, booking.ActionAccept)
	moved := made(f.createAt(t, slug, "", "", 3, 0))
	f.businessMove(t, slug, moved, booking.ActionMove, f.windows(t, b, day(5), 1)[1].Start.Format(time.RFC3339)) // a Monday
	declined := made(f.createAt(t, slug, "", "", 3, 1))
	move(declined, booking.ActionDecline)
	cancelled := made(f.createAt(t, slug, "", "", 3, 2))
	move(cancelled, booking.ActionAccept)
	move(cancelled, booking.ActionCancel)
	made(f.unpaid(t, slug, 5)) // pending_payment
	return signedInState(t, f, slug, codes...)
}

// buttonFixture is newFixture with texts on (the local server's set-up:
// the owner's number and its texts have their forms), and the service's
// configuration changed by service (when not nil).
func buttonFixture(t *testing.T, service func(*booking.Config)) *fixture {
	t.Helper()
	return newFixtureWith(t, service, func(c *inboxweb.Config) { c.Texter = &texter{} })
}

// unpaid sends a request to slug for the first open window daysAhead days
// from today, and leaves its deposit unpaid.
func (f *fixture) unpaid(t *testing.T, slug string, daysAhead int) string {
	t.Helper()
	b := f.business(t, slug)
	w := f.windows(t, b, f.clock.Now().In(b.Location()).AddDate(0, 0, daysAhead).Format(time.DateOnly), 1)
	if len(w) == 0 {
		t.Fatalf("no open window of %s %d days ahead", slug, daysAhead)
	}
	lang := "en"
	c, _, err := f.bookings.CreateRequest(context.Background(), b, booking.CreateInput{
		WindowStart: w[0].Start, Address: booking.Address{Street: street, City: city, ZIP: b.ServiceArea.ZIPCodes[0]},
		Contact: booking.Contact{Name: personName, Phone: personPhone + "9"}, Language: &lang, DepositAccepted: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c.Code
}

func TestEveryButton(t *testing.T) {
	total := 0
	for _, st := range buttonStates {
		t.Run(st.name, func(t *testing.T) {
			base := st.build(t)
			pages, presses := crawlInbox(t, base)
			if len(presses) < st.minPresses {
				t.Errorf("found %d forms and buttons on %d pages, want at least %d", len(presses), len(pages), st.minPresses)
			}
			for _, code := range base.codes {
				if !slices.Contains(pages, "/inbox/requests/"+code) {
					t.Errorf("the page of request %d was not crawled", slices.Index(base.codes, code))
				}
			}
			for _, p := range presses {
				b := st.build(t)
				press(t, b, base, p)
			}
			t.Logf("%s: pressed %d forms and buttons found on %d pages", st.name, len(presses), len(pages))
			total += len(presses)
		})
	}
	t.Logf("pressed %d forms and buttons in %d states", total, len(buttonStates))
}

// press sends p, found on base's pages, to b, and follows a redirect of
// this site: neither may answer 5xx, nor log an error.
func press(t *testing.T, b, base builtState, p buttonPress) {
	t.Helper()
	values := url.Values{}
	for k, vs := range p.values {
		for _, v := range vs {
			values.Add(k, b.translate(base, v))
		}
	}
	if values.Has("csrf") { // this build's session's, as its page shows it
		values.Set("csrf", b.csrf)
	}
	action := b.translate(base, p.action)
	var res response
	if p.method == http.MethodGet {
		res = b.f.do(t, b.a, "GET", action+"?"+values.Encode(), nil)
	} else {
		res = b.f.do(t, b.a, "POST", action, values)
	}
	switch {
	case res.status >= 500:
		t.Errorf("%s %s (%s, on %s): got %d", p.method, p.action, p.button, p.page, res.status)
	case res.status == http.StatusForbidden && !b.f.business(t, b.slug).Suspended:
		// Only a suspended business's forms are refused so: any other 403
		// is a form this test sent as no browser does, and pressed nothing.
		t.Errorf("%s %s (%s, on %s): got 403, as a form from elsewhere", p.method, p.action, p.button, p.page)
	}
	if res.status == http.StatusSeeOther && strings.HasPrefix(res.location, "/") {
		if after := b.f.do(t, b.a, "GET", res.location, nil); after.status >= 500 {
			t.Errorf("%s %s (%s, on %s): its redirect to %s got %d", p.method, p.action, p.button, p.page, res.location, after.status)
		}
	}
	if log := b.f.log.String(); strings.Contains(log, `"level":"ERROR"`) {
		t.Errorf("%s %s (%s, on %s) logged an error:\n%s", p.method, p.action, p.button, p.page, log)
	}
}

// maxCrawlPages bounds a crawl.
const maxCrawlPages = 120

// crawlInbox follows every link of this site under /inbox from /inbox
// and from the pages of b's requests, as b's browser, and returns the pages
// found and the presses of their forms. A page's address with the same
// query keys as one found (another day of a move, another service to
// edit) is the same page; the language switch is not followed.
func crawlInbox(t *testing.T, b builtState) (pages []string, presses []buttonPress) {
	t.Helper()
	queue := []string{"/inbox"}
	for _, code := range b.codes { // a message's link leads there too, even to one the list leaves out (unpaid)
		queue = append(queue, "/inbox/requests/"+code)
	}
	seenPage, seenPress := map[string]bool{}, map[string]bool{}
	for len(queue) > 0 && len(pages) < maxCrawlPages {
		path := queue[0]
		queue = queue[1:]
		if seenPage[pageKey(path)] {
			continue
		}
		seenPage[pageKey(path)] = true
		res := b.f.do(t, b.a, "GET", path, nil)
		if res.status >= 500 {
			t.Errorf("GET %s: got %d", path, res.status)
		}
		pages = append(pages, path)
		if !strings.HasPrefix(res.header.Get("Content-Type"), "text/html") {
			continue
		}
		links, forms := readPage(t, path, res.body)
		for _, l := range links {
			if !seenPage[pageKey(l)] {
				queue = append(queue, l)
			}
		}
		for _, p := range forms {
			if !seenPress[p.key()] {
				seenPress[p.key()] = true
				presses = append(presses, p)
			}
		}
	}
	return pages, presses
}

// pageKey is a page's path and its query's keys, but lang.
func pageKey(address string) string {
	u, _ := url.Parse(address)
	var keys []string
	for k := range u.Query() {
		if k != "lang" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return u.Path + "?" + strings.Join(keys, "&")
}

// readPage reads the links of this site under /inbox of a page at path,
// and a press for each submit button of each of its forms (one for a
// form without one), with the values a browser sends.
func readPage(t *testing.T, path, body string) (links []string, presses []buttonPress) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for n := range descendants(doc) {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "a":
			if href, ok := attr(n, "href"); ok && !strings.HasPrefix(href, "#") {
				u, err := url.Parse(href)
				if err == nil && u.Host == "" && u.Scheme == "" && strings.HasPrefix(u.Path, "/inbox") {
					q := u.Query()
					q.Del("lang")
					u.RawQuery, u.Fragment = q.Encode(), ""
					links = append(links, u.String())
				}
			}
		case "form":
			presses = append(presses, formPresses(path, n)...)
		}
	}
	return links, presses
}

// formPresses are the presses of form n: its fields as shown (a text as
// typed in it, a box as ticked, a list's option as selected, the first of
// a group of choices none of which is picked, as a person picks one), and
// each submit button's name and value.
func formPresses(page string, n *html.Node) []buttonPress {
	method := strings.ToUpper(attrOr(n, "method", "GET"))
	action := attrOr(n, "action", page)
	values := url.Values{}
	type submit struct{ name, value, text, action string }
	var buttons []submit
	for c := range descendants(n) {
		if c.Type != html.ElementNode {
			continue
		}
		name, _ := attr(c, "name")
		switch c.Data {
		case "input":
			switch typ := attrOr(c, "type", "text"); typ {
			case "submit":
				buttons = append(buttons, submit{name, attrOr(c, "value", ""), attrOr(c, "value", "Submit"), attrOr(c, "formaction", action)})
			case "checkbox":
				if _, on := attr(c, "checked"); on && name != "" {
					values.Add(name, attrOr(c, "value", "on"))
				}
			case "radio":
				if _, on := attr(c, "checked"); name != "" && (on || !values.Has(name)) {
					values.Set(name, attrOr(c, "value", "on"))
				}
			default:
				if name != "" {
					values.Add(name, attrOr(c, "value", ""))
				}
			}
		case "textarea":
			if name != "" {
				values.Add(name, text(c))
			}
		case "select":
			if name != "" {
				values.Add(name, selected(c))
			}
		case "button":
			if typ := attrOr(c, "type", "submit"); typ == "submit" {
				buttons = append(buttons, submit{name, attrOr(c, "value", ""), strings.TrimSpace(text(c)), attrOr(c, "formaction", action)})
			}
		}
	}
	if len(buttons) == 0 {
		buttons = append(buttons, submit{text: "(no button)", action: action})
	}
	var presses []buttonPress
	for _, s := range buttons {
		v := url.Values{}
		for k, vs := range values {
			v[k] = slices.Clone(vs)
		}
		label := s.text
		if s.name != "" {
			v.Add(s.name, s.value)
			label = s.name + "=" + s.value
		}
		presses = append(presses, buttonPress{page: page, method: method, action: s.action, values: v, button: label})
	}
	return presses
}

// selected is the value of the option of select n that is selected, or
// of its first.
func selected(n *html.Node) string {
	first, found := "", false
	for o := range descendants(n) {
		if o.Type != html.ElementNode || o.Data != "option" {
			continue
		}
		v := attrOr(o, "value", strings.TrimSpace(text(o)))
		if _, on := attr(o, "selected"); on {
			return v
		}
		if !found {
			first, found = v, true
		}
	}
	return first
}

// text is the text inside n.
func text(n *html.Node) string {
	var b strings.Builder
	for c := range descendants(n) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// descendants are the nodes under n, in document order.
func descendants(n *html.Node) iter.Seq[*html.Node] {
	return func(yield func(*html.Node) bool) {
		var walk func(*html.Node) bool
		walk = func(n *html.Node) bool {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if !yield(c) || !walk(c) {
					return false
				}
			}
			return true
		}
		walk(n)
	}
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func attrOr(n *html.Node, key, otherwise string) string {
	if v, ok := attr(n, key); ok {
		return v
	}
	return otherwise
}
