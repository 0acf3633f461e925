package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/notify"
)

// logBuffer is the server's log, written by its handlers' goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

var signInLink = regexp.MustCompile(`https?://\S+/inbox/sign-in/[A-Za-z0-9_-]+`)

// TestBrowserInbox drives Chromium, at a phone's size, through the
// business's web inbox on the local server's own wiring (newHandler: the
// JSON API, /inbox, /dev/outbox, the person's pages), once in English and
// once in Spanish (a business whose default_language is es): a visitor
// sends a request through the JSON API (and pays its deposit on the
// person's pages, for the business that asks one); the business opens
// /inbox, asks for a sign-in link, finds it in the outbox, opens it and
// signs in; opens the new request, offers another window, then accepts;
// and the person's status page shows the new window, changed by the
// business. On the settings page the business closes a day and asks for 2
// hours' notice, and the public availability changes accordingly; then it
// sets 2 crews per window. Every page is checked with axe-core (WCAG 2.0-2.2 A and AA)
// and for touch targets of at least 24×24 px, and screenshotted to
// artifacts/screenshots/inbox-{lang}-{n}-{page}.png. The server's log must
// hold neither the sign-in token, the session nor the CSRF token.
func TestBrowserInbox(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)

	// Long enough for both languages on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	var logs logBuffer
	businesses := demoBusinessesFor(t)
	srv := serveLocal(ctx, t, businesses, slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})), nil)

	browser := axetest.Browser(ctx, t)

	// secrets are the values the log must never hold.
	var secrets []string
	tests := []struct {
		lang, slug, service   string
		zip, city             string
		deposit               bool
		signIn, sent, token   string // the sign-in pages' headings
		inbox, answer         string // the inbox's heading and first section
		moveHeading, accepted string
		moved                 string // the person's status page, after the move (pkg/pages text.go)
		notFound, spent       string // an unknown code's page; a spent link's
		dayOffAdded           string // the settings page's notices (pkg/inboxweb text.go)
		noticeSaved           string
		crewsSaved            string
		timeError             string // a time that is none, next to its field
		copied                string // the feed page's Copy, done
		hoursSaved, open24    string // the hours section's notice; a day open 24 hours
		tomorrow              string // the inbox's label of tomorrow's jobs
	}{
		{"en", "mile-high-electric", "outlet-switch-repair", "80202", "Denver", true,
			"Sign in to your inbox", "Check your e-mail", "Sign in", "Requests", "Needs an answer",
			"Offer another window", "Accepted at the new window; the person may cancel if it does not suit them. The person gave no e-mail and did not allow texts: call them at (303) 555-0150. Their page already shows your answer.",
			"The business moved your arrival window to this time.",
			"Page not found", "This sign-in link cannot be used any more: it was used already, or it expired. Ask for a new one.",
			"The day off is added.", "The notice is saved.", "The crews are saved.",
			"Enter a time such as 8:00 AM, 2pm or 14:00.", "The address is copied.",
			"The weekly hours are saved.", "Open 24 hours", "Tomorrow"},
		{"es", "limpieza-la-estrella", "standard-cleaning", "90026", "Los Angeles", false,
			"Inicie sesión en su bandeja", "Revise su correo", "Iniciar sesión", "Solicitudes", "",
			"Ofrecer otro horario", "Aceptada en el nuevo horario; la persona puede cancelar si no le conviene. La persona no dio correo electrónico ni permitió mensajes de texto: llámela al (303) 555-0151. La página de la persona ya muestra su respuesta.",
			"El negocio cambió su horario de llegada a esta hora.",
			"Página no encontrada", "Este enlace ya no sirve: ya se usó o venció. Pida uno nuevo.",
			"El día libre está agregado.", "La antelación está guardada.", "Los equipos están guardados.",
			"Escriba una hora como 08:00, 14:00 o 2pm.", "La dirección está copiada.",
			"El horario semanal está guardado.", "Abierto 24 horas", "Mañana"},
	}
	for i, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			b := businessOf(businesses, tt.slug)
			if b == nil || b.InboxEmail == "" || b.DefaultLanguage != tt.lang {
				t.Fatalf("businesses.json: want %s with an inbox_email and default_language %s, got %+v", tt.slug, tt.lang, b)
			}

			// 1. A visitor sends a request through the JSON API.
			var avail booking.Availability
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug+"/availability?days=14", &avail)
			if len(avail.Windows) < 2 {
				t.Fatalf("availability: got %d windows, want 2 or more", len(avail.Windows))
			}
			// send sends a request from name, at start, with the phone
			// 30355501<n><i>.
			send := func(start time.Time, name string, n int) booking.Created {
				t.Helper()
				body := `{"window_start":"` + start.Format(time.RFC3339) + `",` +
					`"address":{"street":"1 Test St","city":"` + tt.city + `","zip":"` + tt.zip + `"},` +
					`"contact":{"name":"` + name + `","phone":"30355501` + string(rune('0'+n)) + string(rune('0'+i)) + `"},` +
					`"service_id":"` + tt.service + `","description":"Please ring twice.","language":"` + tt.lang + `"` +
					map[bool]string{true: `,"deposit_accepted":true`}[tt.deposit] + `}`
				return createRequest(t, srv.URL, tt.slug, body)
			}
			created := send(avail.Windows[0].Start, "Test Person", 5)

			// Each language in a browser context of its own: no cookie
			// (session, language) carries over.
			// A phone's tab, in the owner's language: the signed-out pages
			// follow the browser's Accept-Language, the signed-in ones the
			// business's default_language.
			p := newPhoneTab(t, browser, shots, "inbox-"+tt.lang, tt.lang, scriptsOn)
			tab := p.ctx

			// The person's status page, and the deposit paid where one is
			// asked (simulated on the local server).
			p.open(created.StatusURL)
			if w, err := chromedp.Run(tab, chromedp.Evaluate[int]("innerWidth")); err != nil || w != 390 {
				t.Fatalf("got a viewport %d px wide (%v), want a phone's 390", w, err)
			}
			p.check("person-status")
			if tt.deposit {
				p.click("a#pay")
				p.check("person-pay")
				p.click("button#pay")
				if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#deposit"), "data-deposit")); got.Value != string(booking.DepositPaid) {
					t.Fatalf("after paying: got deposit %q, want paid", got.Value)
				}
			}

			// The business's booking_url is the local form, which opens.
			var profile struct {
				BookingURL string `json:"booking_url"`
			}
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug, &profile)
			if want := srv.URL + "/book/" + tt.slug; profile.BookingURL != want {
				t.Errorf("getBusiness: got booking_url %q, want the local form %q", profile.BookingURL, want)
			}
			p.open(profile.BookingURL)
			if n, _ := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("main form").length`)); n == 0 {
				t.Errorf("booking_url %s: no form on the page", profile.BookingURL)
			}

			// 2. The business signs in with a link from the outbox.
			p.open(srv.URL + "/inbox")
			if got := p.text("h1"); got != tt.signIn {
				t.Errorf("sign-in form: got %q, want %q", got, tt.signIn)
			}
			p.check("sign-in")
			if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#email"), b.InboxEmail)); err != nil {
				t.Fatal(err)
			}
			p.click("button#send")
			if got := p.text("h1"); got != tt.sent {
				t.Errorf("after asking for a link: got %q, want %q", got, tt.sent)
			}
			p.check("sent")
			// Past the hourly limit of sign-in links for one address, the
			// page says so (the same for any address, a business's or not).
			limited := map[string]string{"en": "Too many sign-in links", "es": "Demasiados enlaces para iniciar sesión"}[tt.lang]
			for i := 0; i <= booking.MaxSignInsPerHour; i++ {
				p.open(srv.URL + "/inbox")
				if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS("#email"), "nobody-"+tt.lang+"@example.com")); err != nil {
					t.Fatal(err)
				}
				p.click("button#send")
			}
			if got := p.text("h1"); got != limited {
				t.Errorf("past the sign-in limit: got %q, want %q", got, limited)
			}
			p.check("sign-in-limited")
			var outbox struct{ Messages []notify.Message }
			getJSON(t, srv.URL+"/dev/outbox", &outbox)
			link := ""
			for _, m := range outbox.Messages { // newest first
				if m.Kind == inboxweb.KindSignIn && m.To == b.InboxEmail {
					link = signInLink.FindString(m.Body)
					break
				}
			}
			if !strings.HasPrefix(link, srv.URL+"/inbox/sign-in/") {
				t.Fatalf("outbox: no sign-in link to %s in %+v", b.InboxEmail, outbox.Messages)
			}
			secrets = append(secrets, strings.TrimPrefix(link, srv.URL+"/inbox/sign-in/"))
			// The outbox in the browser is a page (in English: the local
			// server's own), newest first, whose sign-in link is tapped.
			p.open(srv.URL + "/dev/outbox")
			p.checkIn("outbox", "en")
			if got := p.text("h1"); got != "Outbox" {
				t.Errorf("outbox page: got heading %q, want Outbox", got)
			}
			tos, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("li.message .meta strong")].map(e => e.textContent)`))
			if err != nil || len(tos) != len(outbox.Messages) || tos[0] != outbox.Messages[0].To || tos[len(tos)-1] != outbox.Messages[len(tos)-1].To {
				t.Errorf("outbox page: got the recipients %v (%v), want the JSON's %d, newest first", tos, err, len(outbox.Messages))
			}
			p.click(`li.message a[href="` + link + `"]`)
			if got := p.text("h1"); got != tt.token {
				t.Errorf("sign-in link: got %q, want %q", got, tt.token)
			}
			p.check("token")
			p.click("button#sign-in")
			if got := p.text("main h1"); got != tt.inbox {
				t.Errorf("after signing in: got %q, want %q", got, tt.inbox)
			}
			session := func(ctx context.Context, target *chromedp.Target) (string, error) {
				res, err := cdp.Call(ctx, target, network.GetCookies, network.GetCookiesParams{URLs: []string{srv.URL + "/inbox"}})
				for _, c := range res.Cookies {
					if c.Name == inboxweb.CookieName {
						return c.Value, err
					}
				}
				return "", err
			}
			if s, err := chromedp.Run(tab, session); err != nil || s == "" {
				t.Fatalf("no session cookie after signing in (%v)", err)
			} else {
				secrets = append(secrets, s)
			}
			if csrf, err := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("header input[name=csrf]"), "value")); err != nil || csrf.Value == "" {
				t.Errorf("no CSRF token in the header (%v)", err)
			} else {
				secrets = append(secrets, csrf.Value)
			}
			item := `a.card[data-code="` + created.Code + `"]`
			if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS(item), "data-state")); got.Value != string(booking.StatusNew) {
				t.Errorf("inbox: got the request %q, want it new", got.Value)
			}
			if tt.answer != "" {
				if got := p.text("h2#answer"); got != tt.answer {
					t.Errorf("inbox: got section %q, want %q", got, tt.answer)
				}
			}
			p.check("inbox")

			// 3. The new request: offer another window, then accept.
			p.click(item)
			if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#state"), "data-state")); got.Value != string(booking.StatusNew) {
				t.Errorf("request page: got %q, want new", got.Value)
			}
			if got := p.text("#description"); got != "Please ring twice." {
				t.Errorf("request page: got description %q", got)
			}
			// Who, where, what and when first, then the moves that fit a
			// new request; "not a genuine request" apart, at the end.
			order, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("main [id]")].map(e => e.id)`))
			if err != nil {
				t.Fatal(err)
			}
			wantOrder := []string{"state", "phone", "address", "map", "service", "description", "window", "actions", "accept", "move", "decline", "spam"}
			if got := slices.DeleteFunc(slices.Clone(order), func(id string) bool { return !slices.Contains(wantOrder, id) }); !slices.Equal(got, wantOrder) {
				t.Errorf("request page: got the parts in the order %v, want %v", got, wantOrder)
			}
			if got := p.text("h1"); !strings.HasPrefix(got, "Test Person") {
				t.Errorf("request page: got heading %q, want the person's name first", got)
			}
			if href, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("a#map"), "href")); !strings.HasPrefix(href.Value, "https://www.google.com/maps/search/?api=1&query=1+Test+St") {
				t.Errorf("request page: got map link %q", href.Value)
			}
			for _, gone := range []string{"a#cancel", "a#complete", "a#no_show"} {
				if n, _ := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("`+gone+`").length`)); n != 0 {
					t.Errorf("request page: a new request offers %s", gone)
				}
			}
			p.check("request")
			// The decline's confirmation, left without declining.
			p.click("a#decline")
			p.check("confirm-decline")
			p.click("main a.secondary")
			p.click("a#move")
			if got := p.text("h1"); got != tt.moveHeading {
				t.Errorf("move page: got %q, want %q", got, tt.moveHeading)
			}
			// First the days, then the windows of the one picked.
			if n, _ := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("input[type=radio]").length`)); n != 0 {
				t.Errorf("move page: got %d windows before a day is picked, want none", n)
			}
			p.check("move")
			p.click("a.card.day")
			p.check("move-day")
			// The button is in view without scrolling past the windows.
			inView, err := chromedp.Run(tab, chromedp.Evaluate[bool](`(r => r.top >= 0 && r.bottom <= innerHeight)(document.querySelector("#confirm").getBoundingClientRect())`))
			if err != nil || !inView {
				t.Errorf("move page: the confirm button is out of view (%v)", err)
			}
			// Pick the last window of the day.
			const pick = "fieldset.choices label:last-of-type input"
			start, err := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS(pick), "value"))
			if err != nil {
				t.Fatal(err)
			}
			dayText := p.text("#picked-day")
			label := p.text("fieldset.choices label:last-of-type")
			// Picked as a tap does, whatever the button kept in view covers.
			if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`(i => (i.click(), i.checked))(document.querySelector("`+pick+`"))`)); err != nil {
				t.Fatal(err)
			}
			p.click("button#confirm")
			// The offer answers the request: it is accepted at the new
			// window, with nothing more to press (issue 20).
			if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#state"), "data-state")); got.Value != string(booking.StatusAccepted) {
				t.Errorf("after offering another window: got %q, want accepted", got.Value)
			}
			if got := p.text(".notice"); got != tt.accepted {
				t.Errorf("after offering another window: got notice %q, want %q", got, tt.accepted)
			}
			p.check("accepted")
			// 4. The settings: a short page that links to its sections,
			// each one tap from the page and from every other section, and
			// none taller than two phone screens.
			const twoScreens = 2 * 844
			height := func() int {
				t.Helper()
				h, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.documentElement.scrollHeight`))
				if err != nil {
					t.Fatal(err)
				}
				return h
			}
			path := func() string {
				t.Helper()
				p, err := chromedp.Run(tab, chromedp.Evaluate[string](`location.pathname`))
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			shown := func(sel string) bool {
				t.Helper()
				ok, err := chromedp.Run(tab, chromedp.Evaluate[bool](`(r => r.top >= 0 && r.bottom <= innerHeight)(document.querySelector("`+sel+`").getBoundingClientRect())`))
				return err == nil && ok
			}
			p.click("header a[href='/inbox/settings']")
			if h := height(); h > twoScreens {
				t.Errorf("settings page: %d px tall, want at most %d", h, twoScreens)
			}
			p.check("settings")
			for i, section := range []string{"hours", "days-off", "notice", "calendar", "booking-form", "texts"} {
				if i == 0 {
					p.click("#open-" + section)
				} else {
					p.click("#to-" + section)
				}
				if got := path(); got != "/inbox/settings/"+section {
					t.Errorf("section %s: got %s", section, got)
				}
				if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("nav.sections [aria-current=page]"), "href")); got.Value != "/inbox/settings/"+section {
					t.Errorf("section %s: got the current section %q", section, got.Value)
				}
				h := height()
				if h > twoScreens {
					t.Errorf("section %s: %d px tall, want at most two phone screens (%d)", section, h, twoScreens)
				}
				t.Logf("settings section %s (%s): %d px", section, tt.lang, h)
				p.check("settings-" + section)
			}

			// taps and pages count what the owner does, from the inbox: a tap
			// that opens a page, or one that ticks a box or enters a field.
			taps, pages := 0, 0
			open := func(sel string) { t.Helper(); taps++; pages++; p.click(sel) }
			tick := func(sel string) {
				t.Helper()
				taps++
				if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(sel))); err != nil {
					t.Fatalf("tap %s: %v", sel, err)
				}
			}
			enter := func(sel, value string) {
				t.Helper()
				taps++
				if err := chromedp.Do(tab, chromedp.SetValue(chromedp.CSS(sel), value)); err != nil {
					t.Fatalf("enter %s: %v", sel, err)
				}
			}

			// An owner's day off: from the inbox, Settings, Days off, the
			// date and a note, Add; the days-off section is shown again,
			// its confirmation in view. The public availability follows.
			closed := avail.Windows[len(avail.Windows)-1].Date
			var before booking.Availability
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug+"/availability?days=1&from="+closed, &before)
			if len(before.Windows) == 0 {
				t.Fatalf("availability on %s: no window before closing the day", closed)
			}
			p.open(srv.URL + "/inbox")
			open("header a[href='/inbox/settings']")
			open("#open-days-off")
			enter("#from", closed)
			enter("#note", "Test day off")
			open("#add-day-off button")
			t.Logf("an owner's day off (%s): %d pages, %d taps", tt.lang, pages, taps)
			if got := path(); got != "/inbox/settings/days-off" {
				t.Errorf("after adding a day off: got %s, want the days-off section", got)
			}
			if got := p.text("#days-off-list"); !strings.Contains(got, "Test day off") {
				t.Errorf("settings: the days off are %q, want the one just added", got)
			}
			if got := p.text(".notice"); got != tt.dayOffAdded {
				t.Errorf("after adding a day off: got notice %q, want %q", got, tt.dayOffAdded)
			}
			if !shown(".notice") {
				t.Errorf("after adding a day off: the confirmation is out of view")
			}
			if h := height(); h > twoScreens {
				t.Errorf("the days-off section with a day off: %d px tall, want at most %d", h, twoScreens)
			}
			p.check("settings-day-off")

			// The tallest hours section: two intervals every day, and room
			// for a third (typed in two saves: a closed day has one row).
			p.click("#to-hours")
			for pass := range 2 {
				var fill []chromedp.Action[chromedp.Void]
				for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
					fill = append(fill, chromedp.SetValue(chromedp.CSS("#"+d+"-open-0"), "8:00 AM"), chromedp.SetValue(chromedp.CSS("#"+d+"-close-0"), "12:00 PM"))
					if pass == 1 {
						fill = append(fill, chromedp.SetValue(chromedp.CSS("#"+d+"-open-1"), "1:00 PM"), chromedp.SetValue(chromedp.CSS("#"+d+"-close-1"), "5:00 PM"))
					}
				}
				if err := chromedp.Do(tab, fill...); err != nil {
					t.Fatal(err)
				}
				p.click("#hours button")
				if got := p.text(".notice"); got != tt.hoursSaved {
					t.Fatalf("split hours every day: got notice %q, want %q", got, tt.hoursSaved)
				}
			}
			if n, _ := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll(".interval").length`)); n != 21 {
				t.Errorf("split hours every day: got %d rows, want 21", n)
			}
			h := height()
			if h > twoScreens {
				t.Errorf("the hours section with two intervals every day: %d px tall, want at most %d", h, twoScreens)
			}
			t.Logf("settings section hours, two intervals every day (%s): %d px", tt.lang, h)
			p.check("settings-hours-split")

			// An owner's hours change: from the inbox, Settings, Hours,
			// today and tomorrow open 24 hours, Save.
			loc := b.Location()
			weekday := func(d time.Time) string { return strings.ToLower(d.Format("Mon")) }
			today, tomorrowDay := time.Now().In(loc), time.Now().In(loc).AddDate(0, 0, 1)
			allDay := []string{weekday(today), weekday(tomorrowDay)}
			taps, pages = 0, 0
			p.open(srv.URL + "/inbox")
			open("header a[href='/inbox/settings']")
			open("#open-hours")
			for _, d := range allDay {
				tick("#" + d + "-allday")
				if visible, _ := chromedp.Run(tab, chromedp.Evaluate[bool](`document.querySelector("#`+d+`-open-0").offsetParent !== null`)); visible {
					t.Errorf("hours: %s is open 24 hours, and its times are still shown", d)
				}
			}
			open("#hours button")
			t.Logf("an owner's hours change (%s): %d pages, %d taps", tt.lang, pages, taps)
			if got := path(); got != "/inbox/settings/hours" {
				t.Errorf("after saving the hours: got %s, want the hours section", got)
			}
			if got := p.text(".notice"); got != tt.hoursSaved {
				t.Errorf("after saving the hours: got notice %q, want %q", got, tt.hoursSaved)
			}
			for _, d := range allDay {
				if got := p.text("#day-" + d); !strings.Contains(got, tt.open24) {
					t.Errorf("hours: %s shows %q, want %q", d, got, tt.open24)
				}
				if checked, _ := chromedp.Run(tab, chromedp.Evaluate[bool](`document.querySelector("#`+d+`-allday").checked`)); !checked {
					t.Errorf("hours: %s is not ticked open 24 hours after saving", d)
				}
			}
			if got := p.text("main"); strings.Contains(got, "12:00 AM – 12:00 AM") || strings.Contains(got, "00:00 – 24:00") {
				t.Errorf("hours: a day open 24 hours reads as midnight to midnight: %q", got)
			}
			var stored struct{ Hours map[string][]booking.Interval }
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug, &stored)
			for _, d := range allDay {
				if got := stored.Hours[d]; len(got) != 1 || got[0] != (booking.Interval{Open: "00:00", Close: "24:00"}) {
					t.Errorf("getBusiness: %s hours %v, want 00:00 to 24:00", d, got)
				}
			}
			p.check("settings-hours-24")

			// Two problems at once: each one item of the list at the top
			// (its marker on its first line, not mid-sentence), linked to
			// its field, and next to the field, which keeps what was typed.
			var others []string
			for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
				if !slices.Contains(allDay, d) {
					others = append(others, d)
				}
			}
			late, bad := others[0], others[1]
			if err := chromedp.Do(tab, chromedp.SetValue(chromedp.CSS("#"+late+"-open-0"), "5:00 PM"), chromedp.SetValue(chromedp.CSS("#"+late+"-close-0"), "8:00 AM"),
				chromedp.SetValue(chromedp.CSS("#"+bad+"-open-0"), "8 oclock"), chromedp.SetValue(chromedp.CSS("#"+bad+"-close-0"), "5:00 PM")); err != nil {
				t.Fatal(err)
			}
			p.click("#hours button")
			if got := p.text("#problems a[href='#" + bad + "-open-0']"); !strings.HasSuffix(got, tt.timeError) {
				t.Errorf("a time that is none: got %q at the top, want it to end with %q", got, tt.timeError)
			}
			if got := p.text("#" + bad + "-open-0-error"); got != tt.timeError {
				t.Errorf("a time that is none: got %q next to the field, want %q", got, tt.timeError)
			}
			if got, _ := chromedp.Run(tab, chromedp.Value(chromedp.CSS("#"+bad+"-open-0"))); got != "8 oclock" {
				t.Errorf("a time that is none: the field shows %q, want what was typed", got)
			}
			closeError := p.text("#" + late + "-close-0-error")
			if got := p.text("#problems a[href='#" + late + "-close-0']"); !strings.HasSuffix(got, closeError) {
				t.Errorf("a close before the open: got %q at the top, want it to end with %q", got, closeError)
			}
			type listItem struct {
				Text    string
				Display string
				Lines   int // of the item; its link starts on its first
				Offset  float64
			}
			items, err := chromedp.Run(tab, chromedp.Evaluate[[]listItem](`[...document.querySelectorAll("#problems li")].map(li => {
				const a = li.querySelector("a"), r = li.getBoundingClientRect(), l = a.getBoundingClientRect();
				return {text: li.textContent.trim(), display: getComputedStyle(a).display, lines: Math.round(r.height / parseFloat(getComputedStyle(a).lineHeight)), offset: l.top - r.top};
			})`))
			invalid, _ := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("[aria-invalid=true]").length`))
			if err != nil || len(items) != 2 || invalid != 2 {
				t.Errorf("two problems: got the list %+v (%v) for %d fields marked, want one item each", items, err, invalid)
			}
			for _, it := range items {
				if it.Display != "block" || it.Offset != 0 {
					t.Errorf("problem %q: its link is %s, %v px below the item's top: its marker is not on its first line", it.Text, it.Display, it.Offset)
				}
			}
			if !shown("#problems") {
				t.Errorf("two problems: the list of problems is out of view")
			}
			p.check("settings-error")

			// The notice and the crews, in their section.
			p.click("#to-notice")
			if err := chromedp.Do(tab, chromedp.SetValue(chromedp.CSS("#notice_hours"), "2"), chromedp.SetValue(chromedp.CSS("#notice_minutes"), "0")); err != nil {
				t.Fatal(err)
			}
			p.click("#notice button")
			if got := p.text(".notice"); got != tt.noticeSaved {
				t.Errorf("after setting the notice: got notice %q, want %q", got, tt.noticeSaved)
			}
			if got := path(); got != "/inbox/settings/notice" {
				t.Errorf("after setting the notice: got %s, want the notice section", got)
			}
			p.check("settings-notice")
			var after booking.Availability
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug+"/availability?days=1&from="+closed, &after)
			if len(after.Windows) != 0 {
				t.Errorf("availability on the day off %s: got %d windows, want none", closed, len(after.Windows))
			}
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug+"/availability?days=14", &after)
			earliest := time.Now().Add(2 * time.Hour)
			for _, w := range after.Windows {
				if w.Date == closed || !w.Start.After(earliest) {
					t.Errorf("availability: got window %s on %s, on the day off or within 2 hours' notice", w.Start, w.Date)
				}
			}
			for _, w := range avail.Windows {
				if w.Start.After(time.Now()) && !w.Start.After(earliest) && slices.ContainsFunc(after.Windows, func(x booking.Window) bool { return x.Start.Equal(w.Start) }) {
					t.Errorf("availability: the window at %s, within 2 hours, is still offered", w.Start)
				}
			}
			// 2 crews: a window holds two requests at once.
			if err := chromedp.Do(tab, chromedp.SetValue(chromedp.CSS("#crews_per_window"), "2")); err != nil {
				t.Fatal(err)
			}
			p.click("#crews button")
			if got := p.text(".notice"); got != tt.crewsSaved {
				t.Errorf("after setting the crews: got notice %q, want %q", got, tt.crewsSaved)
			}
			if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#crews_per_window"), "value")); got.Value != "2" {
				t.Errorf("after setting the crews: the form shows %q crews, want 2", got.Value)
			}
			p.check("settings-crews")

			// 5. Today first: tomorrow's accepted job (Maria's), then the
			// request that needs an answer, each card with the name, the
			// service and the window.
			var soon booking.Availability
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug+"/availability?days=1&from="+tomorrowDay.Format(time.DateOnly), &soon)
			if len(soon.Windows) < 2 {
				t.Fatalf("availability tomorrow, open 24 hours: got %d windows, want 2 or more", len(soon.Windows))
			}
			maria := send(soon.Windows[0].Start, "Maria Lopez", 6)
			waiting := send(soon.Windows[1].Start, "Sam Waiting", 7)
			if tt.deposit {
				for _, c := range []booking.Created{maria, waiting} {
					p.open(c.StatusURL)
					p.click("a#pay")
					p.click("button#pay")
				}
			}
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/inbox/requests/"+maria.Code+"/accept", nil)
			req.Header.Set("Authorization", "Bearer "+tt.slug+demoTokenSuffix)
			if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("accept Maria's request: %v %v", res, err)
			} else {
				res.Body.Close()
			}
			p.open(srv.URL + "/inbox")
			// The requests' sections, below the preview's checklist (#live).
			parts, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll("main h2[id]:not(#live-title), main a.card")].map(e => e.id || e.dataset.code)`))
			if err != nil || len(parts) == 0 || parts[0] != "soon" {
				t.Errorf("inbox: got the parts %v (%v), want today's and tomorrow's jobs first", parts, err)
			}
			at := func(x string) int { return slices.Index(parts, x) }
			if !(at("soon") < at(maria.Code) && at(maria.Code) < at("answer") && at("answer") < at(waiting.Code)) || at(waiting.Code) < 0 {
				t.Errorf("inbox: got the parts %v, want soon, Maria's job %s, answer, the new request %s in this order", parts, maria.Code, waiting.Code)
			}
			card := `a.card[data-code="` + maria.Code + `"]`
			if got := p.text(card + " .name"); got != "Maria Lopez" {
				t.Errorf("inbox: Maria's card names %q", got)
			}
			if got := p.text(card + " .service"); got == "" {
				t.Errorf("inbox: Maria's card shows no service")
			}
			if got := p.text(card + " .window"); !strings.Contains(got, display.Clock(tt.lang, soon.Windows[0].Start, loc)) {
				t.Errorf("inbox: Maria's card shows the window %q, want it to start at %s", got, display.Clock(tt.lang, soon.Windows[0].Start, loc))
			}
			if got, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector('`+card+`').closest("ul").previousElementSibling.textContent`)); !strings.HasPrefix(got, tt.tomorrow+" · ") {
				t.Errorf("inbox: Maria's job is under %q, want %q", got, tt.tomorrow+" · …")
			}
			p.check("inbox-today-first")
			// The settings page shows the hours at a glance: today and
			// tomorrow open 24 hours.
			p.click("header a[href='/inbox/settings']")
			if got := p.text("#open-hours"); !strings.Contains(got, ": "+tt.open24) {
				t.Errorf("settings page: the hours read %q, want a day %q", got, tt.open24)
			}
			p.check("settings-summary")
			p.click("#open-calendar")

			// The calendar feed: a new address, shown whole, which a
			// calendar app subscribes to; it lists the accepted job.
			p.click("#new-feed button")
			feed := p.text("#feed-address-value")
			if !strings.HasPrefix(feed, srv.URL+"/calendar/"+tt.slug+".") || !strings.HasSuffix(feed, ".ics") {
				t.Fatalf("feed page: got address %q, want %s/calendar/%s.<secret>.ics", feed, srv.URL, tt.slug)
			}
			if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
				t.Fatal(err)
			}
			if got := p.text("#feed-address-value"); got != feed {
				t.Errorf("feed page, reloaded: got address %q, want the same %q", got, feed)
			}
			if href, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("a#subscribe"), "href")); href.Value != "webcal://"+strings.TrimPrefix(feed, "http://") {
				t.Errorf("feed page: got Subscribe %q, want the webcal: address", href.Value)
			}
			if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS("button#copy"))); err != nil { // no page loads
				t.Fatal(err)
			}
			if got, err := chromedp.Run(tab, chromedp.Poll[string](`document.querySelector("#copy-status").textContent || null`, chromedp.WithPollingTimeout(5*time.Second))); err != nil || got != tt.copied {
				t.Errorf("feed page: after Copy got %q, want %q", got, tt.copied)
			}
			p.check("settings-feed")
			if status, event := feedEvent(t, feed, created.Code); status != "CONFIRMED" {
				t.Errorf("the feed's event of the accepted request %s: status %q, want CONFIRMED (%v)", created.Code, status, event)
			}
			p.open(srv.URL + "/inbox/requests/XXXX-XXXX-XXXX")
			if got := p.text("main h1"); got != tt.notFound {
				t.Errorf("unknown code: got %q, want %q", got, tt.notFound)
			}
			p.check("not-found")

			// 4. The person's status page: the new window, changed by the
			// business.
			p.open(created.StatusURL)
			if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#state"), "data-state")); got.Value != string(booking.StatusAccepted) {
				t.Errorf("status page: got %q, want accepted", got.Value)
			}
			if got := p.text("strong.moved"); got != tt.moved {
				t.Errorf("status page: got %q, want %q", got, tt.moved)
			}
			window := p.text("dl dd")
			clockStart, _, _ := strings.Cut(label, " – ")
			if !strings.Contains(window, dayText) || !strings.Contains(window, clockStart) {
				t.Errorf("status page: got window %q, want %s at %s", window, dayText, clockStart)
			}
			var status booking.RequestStatus
			getJSON(t, created.APIURL, &status)
			if got := status.ArrivalWindow.Start.UTC().Format(time.RFC3339); got != start.Value || !status.ArrivalWindow.ChangedByBusiness {
				t.Errorf("getServiceRequest: got window %s changed_by_business %v, want %s true", got, status.ArrivalWindow.ChangedByBusiness, start.Value)
			}
			p.check("person-moved")
			p.click("a#cancel")
			p.check("person-cancel")

			// Signed out, the used link offers a new one.
			p.open(srv.URL + "/inbox")
			p.click("button#sign-out")
			if got := p.text("h1"); got != tt.signIn {
				t.Errorf("after signing out: got %q, want the sign-in form %q", got, tt.signIn)
			}
			p.open(link)
			p.click("button#sign-in")
			if got := p.text(".notice"); got != tt.spent {
				t.Errorf("a used link: got %q, want %q", got, tt.spent)
			}
			p.check("spent")
		})
	}

	log := logs.String()
	if !strings.Contains(log, "inboxweb") && !strings.Contains(log, "/inbox") {
		t.Errorf("the server logged nothing of the inbox: is the log captured?\n%s", log)
	}
	for _, s := range secrets {
		if strings.Contains(log, s) {
			t.Errorf("the server's log holds a secret (a sign-in token, session or CSRF token %.6s…)", s)
		}
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// createRequest sends body to createServiceRequest of the business slug
// on the JSON API at siteURL and returns what its 201 carries; any other
// answer fails the test.
func createRequest(t *testing.T, siteURL, slug, body string) booking.Created {
	t.Helper()
	res, err := http.Post(siteURL+"/api/v1/businesses/"+slug+"/requests", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var c booking.Created
	if err := json.Unmarshal(data, &c); err != nil || res.StatusCode != http.StatusCreated || c.Code == "" {
		t.Fatalf("create at %s: got %d %s (%v), want 201", slug, res.StatusCode, data, err)
	}
	return c
}

// textedCode returns the 6-digit code the local outbox at siteURL holds
// for the owner's mobile (10 digits), the first texted; without one the
// test fails.
func textedCode(t *testing.T, siteURL, mobile string) string {
	t.Helper()
	for _, m := range outboxTo(t, siteURL, "+1"+mobile, "phone_code") {
		if code := regexp.MustCompile(`[0-9]{6}`).FindString(m.Body); code != "" {
			return code
		}
	}
	t.Fatal("no code texted in the outbox")
	return ""
}

// itoa writes n (0 to 99) in two digits, so that the screenshots sort in
// the order they were taken.
func itoa(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }

// feedEvent reads the calendar feed at url as a calendar app does, parsed
// with a well-kept iCalendar parser, and returns the STATUS of the event
// of the request code (its UID is code@host), and the event.
func feedEvent(t *testing.T, url, code string) (string, *ics.VEvent) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/calendar") {
		t.Fatalf("GET %s: got %d %s, want 200 text/calendar", url, res.StatusCode, res.Header.Get("Content-Type"))
	}
	cal, err := ics.ParseCalendar(res.Body)
	if err != nil {
		t.Fatalf("the feed does not parse: %v", err)
	}
	for _, e := range cal.Events() {
		if strings.HasPrefix(e.Id(), code+"@") {
			return e.GetProperty(ics.ComponentPropertyStatus).Value, e
		}
	}
	return "", nil
}
