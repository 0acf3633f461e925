package main

import (
	"context"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/security"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
)

// phoneWords are the words TestBrowserBookingFormPhone looks for, by
// language (pkg/bookform and pkg/pages text.go).
var phoneWords = map[string]map[string]string{
	"en": {
		"danger": "In danger? Leave, then call", "else": "Anything else, urgent repairs included, you can ask for here.",
		"call now": "Call now", "today": "Today, ", "tomorrow": "Tomorrow, ", "first": "first free at ",
		"deposit": "This business asks a deposit of $49.00.", "simulated": "this server takes no real payments",
		"problems": "The request was not sent. Fix these, then send again:", "day gone": "That day is no longer offered. Pick another day.",
		"comes": "will come to your address in this arrival window.", "book again": "Ask for another time",
		"not found": "Page not found", "reload": "Reload the form",
		"other": "Something else (you describe it on the next page)", "preview": "this business's site is a preview",
	},
	"es": {
		"danger": "¿Hay peligro? Salga y después llame", "else": "Todo lo demás, incluidas las reparaciones urgentes, puede pedirlo aquí.",
		"call now": "Llamar ahora", "today": "Hoy, ", "tomorrow": "Mañana, ", "first": "primer horario libre a las ",
		"deposit": "Este negocio pide un depósito de $49.00.", "simulated": "este servidor no acepta pagos reales",
		"problems": "La solicitud no se envió. Corrija esto y envíela de nuevo:", "day gone": "Ese día ya no se ofrece. Elija otro día.",
		"comes": "irá a su dirección en este horario de llegada.", "book again": "Pedir otro horario",
		"not found": "Página no encontrada", "reload": "Vuelva a abrir el formulario",
		"other": "Otra cosa (la describe en la página siguiente)", "preview": "el sitio de este negocio es una vista previa",
	},
}

// TestBrowserBookingFormPhone books as a person on a phone (390×844,
// touch, JavaScript off), in English and in Spanish, on the local server's
// wiring, and counts the pages and taps: a plain request, a deposit
// request (at most 4 pages), and a request with three mistakes (one
// refusal listing them all, each linked to its field). It checks the
// danger notice (leave and call for real danger, anything else here, "Call
// now" beside an urgent service), the day list (Today and Tomorrow, each
// day's first free time, the soonest window on the first page), the
// deposit and its true reason on the first page, a day gone at midnight
// (what was typed kept, the days again), the status page's words and its
// link back to the form once declined, and the form's 404 and cross-site
// pages. Every page is checked with axe-core at 390 px.
func TestBrowserBookingFormPhone(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// Another site: localhost is not 127.0.0.1's site.
	var other http.Handler
	otherSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { other.ServeHTTP(w, r) }))
	t.Cleanup(otherSrv.Close)
	otherURL := strings.Replace(otherSrv.URL, "127.0.0.1", "localhost", 1)
	businesses := demoBusinessesFor(t)
	for _, b := range businesses {
		switch b.Slug {
		case "austin-rapid-plumbing", "mile-high-electric":
			b.Languages = []string{"en", "es"} // its deposit's rules in both languages
		}
	}
	srv := serveLocal(ctx, t, businesses, slog.New(slog.DiscardHandler), nil)
	browser := axetest.Browser(ctx, t)

	// A page of another site that posts to the form: the form answers
	// with its own page, not Go's plain text.
	other = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		lang := r.URL.Query().Get("lang")
		w.Write([]byte(`<!doctype html><html lang="` + lang + `"><head><meta name="viewport" content="width=device-width"><title>Other site</title></head><body><main><h1>Other site</h1>` +
			`<form method="post" action="` + srv.URL + bookform.Path + `desert-cool-hvac"><input type="hidden" name="name" value="x">` +
			`<button id="post" style="min-height:48px">Post</button></form></main></body></html>`))
	})

	var figures []string
	for i, lang := range []string{"en", "es"} {
		w := phoneWords[lang]
		phone := func(n int) string { return "(512) 555-01" + itoa(10*i+n) }

		t.Run(lang+" plain", func(t *testing.T) {
			p := newPhoneTab(t, browser, shots, "phone-"+lang+"-plain", lang, scriptsOff)
			p.open(srv.URL + bookform.Path + "desert-cool-hvac?lang=" + lang)
			p.pages.Store(1) // the form opened from a link
			p.check("start")
			if n, err := chromedp.Run(p.ctx, chromedp.Nodes(chromedp.CSSAll("#fix, .error, [aria-invalid]"), chromedp.AtLeast(0))); err != nil || len(n) > 0 {
				t.Errorf("a new form shows %d problems (%v), want none", len(n), err)
			}
			if got := p.text("#danger-title"); got != w["danger"] {
				t.Errorf("danger notice: got %q, want %q", got, w["danger"])
			}
			if got := p.text("#danger-else"); got != w["else"] {
				t.Errorf("danger notice: got %q, want %q", got, w["else"])
			}
			if got := p.text(".service a.call-now"); got != w["call now"] || !strings.HasPrefix(p.attr(".service a.call-now", "href"), "tel:+1") {
				t.Errorf("beside the urgent service: got %q, want a tel: link %q", got, w["call now"])
			}
			days, err := chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS("fieldset#day")))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{w["today"], w["tomorrow"], w["first"]} {
				if !strings.Contains(days, want) {
					t.Errorf("the days: got %q, want %q in it", days, want)
				}
			}
			if got := p.text(`label:has(input[name=service][value=other])`); got != w["other"] {
				t.Errorf("something else: got %q, want %q", got, w["other"])
			}
			p.tick(`input[name=service][value="ac-tune-up"]`)
			p.typeIn("#zip", "85004")
			p.tick(`fieldset#day input[name=day]:not(#soonest)`)
			p.click("button#next")
			p.check("details")
			p.tick("#window-0")
			p.typeIn("#street", "4417 Wisteria Lane")
			p.typeIn("#name", "Quentin Zebulon")
			p.typeIn("#phone", phone(1))
			p.click("button#send")
			if loc := p.location(); !strings.HasPrefix(loc, srv.URL+"/r/") {
				t.Fatalf("after sending: got %s, want the status page", loc)
			}
			p.check("status")
			figures = append(figures, lang+" plain request: "+itoa(int(p.pages.Load()))+" pages, "+itoa(p.taps)+" taps")
			if got := p.pages.Load(); got > 3 {
				t.Errorf("a plain request took %d pages, want 3", got)
			}

			// The business accepts: the business comes to the person.
			code := strings.TrimPrefix(p.location(), srv.URL+"/r/")
			inboxMove(t, srv.URL, "desert-cool-hvac", code, "accept")
			p.open(srv.URL + "/r/" + code)
			if got := p.text("main"); !strings.Contains(got, w["comes"]) {
				t.Errorf("accepted: got %q, want %q", got, w["comes"])
			}
			p.check("accepted")
			// Then cancels: the page links to the form, to ask for another time.
			inboxMove(t, srv.URL, "desert-cool-hvac", code, "cancel")
			p.open(srv.URL + "/r/" + code)
			if got := p.text("#book-again"); got != w["book again"] {
				t.Errorf("cancelled: got %q, want %q", got, w["book again"])
			}
			p.check("cancelled")
			p.click("#book-again")
			if loc := p.location(); !strings.HasPrefix(loc, srv.URL+bookform.Path+"desert-cool-hvac?lang="+lang) {
				t.Errorf("book again: got %s, want the form", loc)
			}
		})

		t.Run(lang+" soonest", func(t *testing.T) {
			// An urgent service: the soonest window, on the first page.
			p := newPhoneTab(t, browser, shots, "phone-"+lang+"-soonest", lang, scriptsOff)
			p.open(srv.URL + bookform.Path + "desert-cool-hvac?lang=" + lang)
			p.pages.Store(1)
			p.tick(`input[name=service][value="ac-not-cooling"]`)
			p.typeIn("#zip", "85004")
			soonest := p.attr("#soonest", "value")
			p.tick("#soonest")
			p.click("button#next")
			if got := p.attr("#window-0", "value"); got != soonest {
				t.Errorf("the first window: got %s, want the soonest %s", got, soonest)
			}
			if ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`document.querySelector("#window-0").checked`)); err == nil && !ok {
				t.Errorf("the soonest window is not ticked")
			}
			if got := p.text("#call-now"); got != w["call now"] || !strings.HasPrefix(p.attr("#call-now", "href"), "tel:+1") {
				t.Errorf("beside the urgent service on the second page: got %q, want a tel: link %q", got, w["call now"])
			}
			p.check("soonest")
			p.typeIn("#street", "4417 Wisteria Lane")
			p.typeIn("#name", "Quentin Zebulon")
			p.typeIn("#phone", phone(2))
			p.click("button#send")
			if loc := p.location(); !strings.HasPrefix(loc, srv.URL+"/r/") {
				t.Fatalf("after sending: got %s, want the status page", loc)
			}
			figures = append(figures, lang+" urgent request, soonest window: "+itoa(int(p.pages.Load()))+" pages, "+itoa(p.taps)+" taps")
		})

		t.Run(lang+" deposit", func(t *testing.T) {
			p := newPhoneTab(t, browser, shots, "phone-"+lang+"-deposit", lang, scriptsOff)
			p.open(srv.URL + bookform.Path + "austin-rapid-plumbing?lang=" + lang)
			p.pages.Store(1)
			if got := p.text("#deposit-amount"); got != w["deposit"] {
				t.Errorf("the first page: got deposit %q, want %q", got, w["deposit"])
			}
			if got := p.text("#deposit-note"); !strings.Contains(got, w["simulated"]) {
				t.Errorf("the first page: got %q, want the true reason %q", got, w["simulated"])
			}
			p.check("start")
			// A preview business gives its own reason.
			p.open(srv.URL + bookform.Path + "mile-high-electric?lang=" + lang)
			if got := p.text("#deposit-note"); !strings.Contains(got, w["preview"]) {
				t.Errorf("a preview business: got %q, want %q", got, w["preview"])
			}
			p.check("preview-start")
			p.open(srv.URL + bookform.Path + "austin-rapid-plumbing?lang=" + lang)
			p.pages.Store(1)
			p.tick(`input[name=service][value="drain-cleaning"]`)
			p.typeIn("#zip", "78701")
			p.tick(`fieldset#day input[name=day]:not(#soonest)`)
			p.click("button#next")
			p.tick("#window-0")
			p.typeIn("#street", "4417 Wisteria Lane")
			p.typeIn("#name", "Quentin Zebulon")
			p.typeIn("#phone", phone(3))
			p.tick("#deposit_accepted")
			p.click("button#send")
			if loc := p.location(); !strings.HasPrefix(loc, srv.URL+"/pay/") {
				t.Fatalf("after sending: got %s, want the payment page", loc)
			}
			p.check("pay")
			p.click("button#pay")
			if got := p.attr("#deposit", "data-deposit"); got != string(booking.DepositPaid) {
				t.Errorf("after paying: got deposit %q, want paid", got)
			}
			figures = append(figures, lang+" deposit request: "+itoa(int(p.pages.Load()))+" pages, "+itoa(p.taps)+" taps")
			if got := p.pages.Load(); got > 4 {
				t.Errorf("a deposit request took %d pages, want at most 4", got)
			}
		})

		t.Run(lang+" three mistakes", func(t *testing.T) {
			// No street, a phone that is no phone, the deposit's box not
			// ticked: one refusal lists them all.
			p := newPhoneTab(t, browser, shots, "phone-"+lang+"-mistakes", lang, scriptsOff)
			p.open(srv.URL + bookform.Path + "austin-rapid-plumbing?lang=" + lang)
			p.pages.Store(1)
			p.tick(`input[name=service][value="leak-repair"]`)
			p.typeIn("#zip", "78701")
			p.tick(`fieldset#day input[name=day]:not(#soonest)`)
			p.click("button#next")
			p.tick("#window-0")
			p.typeIn("#name", "Quentin Zebulon")
			p.typeIn("#phone", "555-01")
			p.click("button#send")
			if got := p.text("#fix h2"); got != w["problems"] {
				t.Errorf("the refusal: got %q, want %q", got, w["problems"])
			}
			links, err := chromedp.Run(p.ctx, chromedp.Nodes(chromedp.CSSAll("#problems a"), chromedp.AtLeast(0)))
			if err != nil {
				t.Fatal(err)
			}
			var targets []string
			for _, n := range links {
				targets = append(targets, n.AttributeValue("href"))
			}
			if strings.Join(targets, " ") != "#street #phone #deposit_accepted" {
				t.Errorf("the problems listed: got %v, want the street, the phone and the deposit's box", targets)
			}
			for _, field := range []string{"#street", "#phone", "#deposit_accepted"} {
				if got := p.attr(field, "aria-invalid"); got != "true" {
					t.Errorf("%s: got aria-invalid %q", field, got)
				}
			}
			if got := p.attr("#name", "value"); got != "Quentin Zebulon" {
				t.Errorf("after the refusal: got name %q, want what was typed", got)
			}
			p.check("refused")
			// A link of the list leads to its field.
			if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`#problems a[href="#phone"]`))); err != nil {
				t.Fatal(err)
			}
			p.taps++
			if loc := p.location(); !strings.HasSuffix(loc, "#phone") {
				t.Errorf("the phone's link: got %s", loc)
			}
			p.setScripts(true)
			if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.querySelector("#phone").value = ""`)); err != nil {
				t.Fatal(err)
			}
			p.setScripts(false)
			p.typeIn("#phone", phone(4))
			p.typeIn("#street", "4417 Wisteria Lane")
			if ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`document.querySelector("#window-0").checked`)); err != nil || !ok {
				t.Errorf("after the refusal: the window picked is not kept (%v)", err)
			}
			p.tick("#deposit_accepted")
			p.click("button#send")
			if loc := p.location(); !strings.HasPrefix(loc, srv.URL+"/pay/") {
				t.Fatalf("after sending again: got %s, want the payment page", loc)
			}
			p.click("button#pay")
			figures = append(figures, lang+" request with three mistakes: "+itoa(int(p.pages.Load()))+" pages, "+itoa(p.taps)+" taps")
		})

		t.Run(lang+" day gone", func(t *testing.T) {
			// A form opened before midnight and sent after: its day has gone.
			p := newPhoneTab(t, browser, shots, "phone-"+lang+"-day-gone", lang, scriptsOff)
			p.open(srv.URL + bookform.Path + "desert-cool-hvac?lang=" + lang)
			p.tick(`input[name=service][value="ac-tune-up"]`)
			p.typeIn("#zip", "85004")
			p.tick(`fieldset#day input[name=day]:not(#soonest)`)
			p.click("button#next")
			// The day and its windows are over: days before today.
			gone := time.Now().AddDate(0, 0, -2)
			if err := chromedp.Do(p.ctx, chromedp.SetAttributeValue(chromedp.CSS(`input[name=day]`), "value", gone.Format("2006-01-02")),
				chromedp.SetAttributeValue(chromedp.CSS(`#window-0`), "value", gone.UTC().Format("2006-01-02")+"T17:00:00Z")); err != nil {
				t.Fatal(err)
			}
			p.tick("#window-0")
			p.typeIn("#street", "4417 Wisteria Lane")
			p.typeIn("#name", "Quentin Zebulon")
			p.typeIn("#phone", phone(5))
			p.click("button#send")
			if got := p.text("#day-error"); got != w["day gone"] {
				t.Errorf("got %q next to the days, want %q", got, w["day gone"])
			}
			if got := p.attr("#street", "value"); got != "4417 Wisteria Lane" {
				t.Errorf("after the refusal: got street %q, want what was typed", got)
			}
			if n, err := chromedp.Run(p.ctx, chromedp.Nodes(chromedp.CSSAll("#problems li"), chromedp.AtLeast(0))); err != nil || len(n) != 1 {
				t.Errorf("a day gone: got %d problems listed (%v), want the day's alone", len(n), err)
			}
			p.check("day-gone")
			p.tick(`fieldset#day input[name=day]`)
			p.click("button#show-day")
			p.tick("#window-0")
			p.click("button#send")
			if loc := p.location(); !strings.HasPrefix(loc, srv.URL+"/r/") {
				t.Fatalf("after picking another day: got %s, want the status page", loc)
			}
		})

		t.Run(lang+" e-mail limit", func(t *testing.T) {
			// Three open requests with one e-mail address, from other
			// phones: the fourth is refused naming the e-mail address.
			email := "limit-" + lang + "@example.com"
			var avail booking.Availability
			getJSON(t, srv.URL+"/api/v1/businesses/limpieza-la-estrella/availability?days=7", &avail)
			for n := range 3 {
				body := `{"window_start":"` + avail.Windows[n].Start.Format(time.RFC3339) + `","address":{"street":"1 Elm St","zip":"90026"},` +
					`"contact":{"name":"Someone","phone":"213555019` + itoa(n)[1:] + `","email":"` + email + `"}}`
				createRequest(t, srv.URL, "limpieza-la-estrella", body)
			}
			p := newPhoneTab(t, browser, shots, "phone-"+lang+"-email-limit", lang, scriptsOff)
			p.open(srv.URL + bookform.Path + "limpieza-la-estrella?lang=" + lang)
			p.tick(`input[name=service][value="standard-cleaning"]`)
			p.typeIn("#zip", "90026")
			p.tick(`fieldset#day input[name=day]:not(#soonest)`)
			p.click("button#next")
			p.tick("#window-0")
			p.typeIn("#street", "4417 Wisteria Lane")
			p.typeIn("#name", "Quentin Zebulon")
			p.typeIn("#phone", phone(6))
			p.typeIn("#email", email)
			p.click("button#send")
			want := map[string]string{"en": "This e-mail address already has requests waiting", "es": "Este correo electrónico ya tiene solicitudes esperando"}[lang]
			if got := p.text("#top-error"); !strings.HasPrefix(got, want) {
				t.Errorf("the 4th open request: got %q, want %q", got, want)
			}
			p.check("email-limit")
		})

		t.Run(lang+" addresses", func(t *testing.T) {
			p := newPhoneTab(t, browser, shots, "phone-"+lang+"-addresses", lang, scriptsOff)
			for _, path := range []string{"/book/", "/book", "/book/desert-cool-hvac/x"} {
				p.open(srv.URL + path)
				if got := p.text("h1"); got != w["not found"] {
					t.Errorf("%s: got %q, want %q", path, got, w["not found"])
				}
			}
			p.check("not-found")
			p.open(srv.URL + "/book/desert-cool-hvac/?lang=" + lang)
			if loc := p.location(); loc != srv.URL+"/book/desert-cool-hvac?lang="+lang {
				t.Errorf("a trailing slash: got %s, want the form", loc)
			}
			// A POST from another site: the form's page, nothing stored.
			p.open(otherURL + "/?lang=" + lang)
			p.click("#post")
			if got := p.text("h1"); got != w["reload"] {
				t.Errorf("a cross-site POST: got %q, want %q", got, w["reload"])
			}
			p.check("cross-site")
			req, _ := http.NewRequest(http.MethodPut, srv.URL+"/book/desert-cool-hvac", nil)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD, POST" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
				t.Errorf("PUT: got %d, Allow %q, %s", res.StatusCode, res.Header.Get("Allow"), res.Header.Get("Content-Type"))
			}
		})
	}
	for _, f := range figures {
		t.Log(f)
	}
}

// inboxMove makes a business's move on a request through the JSON inbox,
// with the local server's demo token.
func inboxMove(t *testing.T, base, slug, code, action string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/inbox/requests/"+url.PathEscape(code)+"/"+action, strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+slug+demoTokenSuffix)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: got %d", action, code, res.StatusCode)
	}
}

// TestBrowserBookingFormEmbedded puts the settings page's snippet (the
// form in an <iframe>) on a page of another site, as a business does on
// its own site, and books through it on a phone, in English and in
// Spanish: the form's final POST leaves the frame, so the person sees the
// status page, or the payment page for a business that takes a deposit
// (a payment page cannot be framed), in the whole window. Those pages are
// checked with axe-core at 390 px.
func TestBrowserBookingFormEmbedded(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	// Each business's own site, on another site: {slug}.localhost (which
	// Chromium reaches on the loopback) is not 127.0.0.1's site. A
	// business's url is https; the tab takes the test server's certificate.
	snippets := map[string]string{} // by slug
	site := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		slug := strings.TrimPrefix(r.URL.Path, "/")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Our site</title></head>` +
			`<body><main><h1>Book a visit</h1>` + snippets[slug] + `</main></body></html>`))
	}))
	// The browser's first try, before it takes the certificate, is no failure.
	site.Config.ErrorLog = log.New(io.Discard, "", 0)
	t.Cleanup(site.Close)
	siteURL := func(slug string) string { return strings.Replace(site.URL, "127.0.0.1", slug+".localhost", 1) }
	businesses := demoBusinessesFor(t)
	for _, b := range businesses {
		switch b.Slug {
		case "desert-cool-hvac", "austin-rapid-plumbing":
			b.URL = siteURL(b.Slug) // the form may be framed there
			b.Languages = []string{"en", "es"}
		}
	}
	srv := serveLocal(ctx, t, businesses, slog.New(slog.DiscardHandler), nil)
	browser := axetest.Browser(ctx, t)

	// The snippet, as the settings' booking form section gives it to the
	// business.
	for _, slug := range []string{"desert-cool-hvac", "austin-rapid-plumbing"} {
		p := newPhoneTab(t, browser, shots, "phone-embed-"+slug, "en", scriptsOff)
		signIn(t, p, srv.URL, "inbox@"+slug+".example.com")
		p.open(srv.URL + "/inbox/settings/booking-form")
		p.setScripts(true)
		snippet, err := chromedp.Run(p.ctx, chromedp.Value(chromedp.CSS("#embed-frame")))
		p.setScripts(false)
		if err != nil || !strings.HasPrefix(snippet, `<iframe src="`+srv.URL+bookform.Path+slug+`"`) {
			t.Fatalf("the booking form section's snippet: got %q (%v)", snippet, err)
		}
		snippets[slug] = snippet
	}

	tests := []struct {
		name, lang, slug, service, zip, phone, wantPath string
		deposit                                         bool
	}{
		{"en", "en", "desert-cool-hvac", "ac-tune-up", "85004", "(602) 555-0161", "/r/", false},
		{"es", "es", "desert-cool-hvac", "ac-tune-up", "85004", "(602) 555-0162", "/r/", false},
		{"deposit-en", "en", "austin-rapid-plumbing", "drain-cleaning", "78701", "(512) 555-0163", "/pay/", true},
		{"deposit-es", "es", "austin-rapid-plumbing", "drain-cleaning", "78701", "(512) 555-0164", "/pay/", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPhoneTab(t, browser, shots, "phone-embedded-"+tt.name, tt.lang, scriptsOff)
			if _, err := chromedp.Call(p.ctx, security.SetIgnoreCertificateErrors, security.SetIgnoreCertificateErrorsParams{Ignore: true}); err != nil {
				t.Fatal(err)
			}
			p.open(siteURL(tt.slug) + "/" + tt.slug)
			// The form runs in a frame of its own (another site's): the
			// test drives it there, in the person's language.
			var frameID string
			for deadline := time.Now().Add(15 * time.Second); frameID == "" && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				infos, err := chromedp.Targets(p.ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, info := range infos {
					if info.Type == "iframe" && strings.HasPrefix(info.URL, srv.URL+bookform.Path+tt.slug) {
						frameID = string(info.TargetID)
					}
				}
			}
			if frameID == "" {
				t.Fatal("the form's frame did not load")
			}
			frame, cancelFrame := chromedp.NewContext(p.ctx, chromedp.WithTargetID(target.ID(frameID)))
			defer cancelFrame()
			acceptLanguage := func(ctx context.Context, target *chromedp.Target) (chromedp.Void, error) {
				_, err := cdp.Call(ctx, target, network.SetExtraHTTPHeaders,
					network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": tt.lang}})
				return chromedp.Void{}, err
			}
			if err := chromedp.Do(frame, acceptLanguage, chromedp.Navigate(srv.URL+bookform.Path+tt.slug)); err != nil {
				t.Fatal(err)
			}
			f := &phoneTab{t: t, ctx: frame, lang: tt.lang}
			axetest.CheckLang(frame, t, "the framed form", tt.lang)
			f.tick(`input[name=service][value="` + tt.service + `"]`)
			f.typeIn("#zip", tt.zip)
			f.tick(`fieldset#day input[name=day]:not(#soonest)`)
			f.click("button#next")
			if got := f.attr("form[method=post]", "target"); got != "_top" {
				t.Errorf("the form's target: got %q, want _top", got)
			}
			f.tick("#window-0")
			f.typeIn("#street", "4417 Wisteria Lane")
			f.typeIn("#name", "Quentin Zebulon")
			f.typeIn("#phone", tt.phone)
			if tt.deposit {
				f.tick("#deposit_accepted")
			}
			// Send: the answer opens in the whole window, not the frame.
			f.tick("button#send")
			loc := ""
			for deadline := time.Now().Add(15 * time.Second); !strings.HasPrefix(loc, srv.URL+tt.wantPath) && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				loc, _ = chromedp.Run(p.ctx, chromedp.Location())
			}
			if !strings.HasPrefix(loc, srv.URL+tt.wantPath) {
				t.Fatalf("after sending: the window shows %s, want %s...", loc, srv.URL+tt.wantPath)
			}
			if err := chromedp.Do(p.ctx, chromedp.WaitVisible(chromedp.CSS("h1"))); err != nil {
				t.Fatal(err)
			}
			p.check("sent")
			if tt.deposit {
				p.click("button#pay")
				if got := p.attr("#deposit", "data-deposit"); got != string(booking.DepositPaid) {
					t.Errorf("after paying: got deposit %q, want paid", got)
				}
				p.check("paid")
			}
		})
	}
}
