package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
)

// TestBrowserBookingForm books as a person, in Chromium with JavaScript
// disabled, on the local server's own wiring: the booking form at
// /book/{slug} from its first page (the service, the ZIP code and the day)
// to the status page, in English and in
// Spanish; to the payment page for a business that takes a deposit, in
// both languages; after refusals (a ZIP code outside the area in English,
// no phone in Spanish, the deposit's box not ticked in both); after a
// window taken by someone else meanwhile (the refusal keeps what was
// typed); and with a double submit that makes one request. The message
// pages (a paused business, an unknown address, a forged form token) are
// opened in both languages. Every page is checked with axe-core (WCAG
// 2.0-2.2 A and AA) and for touch targets, the form's steps at 390 px and
// at 1280 px, and screenshotted at 390 px to artifacts/screenshots/.
func TestBrowserBookingForm(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var posts atomic.Int32 // the forms sent
	var slow atomic.Bool   // answer the forms sent late, as a slow network does
	businesses := demoBusinessesFor(t)
	for i := range businesses {
		switch businesses[i].Slug {
		case "hudson-heights-electric", "mile-high-electric":
			// The paused page, and a deposit's rules, in both languages.
			businesses[i].Languages = []string{"en", "es"}
		}
	}
	srv := serveLocal(ctx, t, businesses, slog.New(slog.DiscardHandler), func(handler http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, bookform.Path) {
				handler.ServeHTTP(w, r)
				return
			}
			posts.Add(1)
			// The request is handled in full, whatever the browser does
			// meanwhile; its answer is late when slow.
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, r.WithContext(context.WithoutCancel(r.Context())))
			if slow.Load() {
				time.Sleep(time.Second)
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
		})
	})
	browser := axetest.Browser(ctx, t)

	tests := []struct {
		name, lang, slug, service, zip, phone string
		deposit                               bool // the business takes one: a refusal first, then the payment page
		taken                                 bool // someone takes the window meanwhile
		double                                bool // the send button is pressed twice
		phoneLater                            bool // sent first without the phone: refused
		heading, taken_, wantPath, wantHeader string
	}{
		{name: "en", lang: "en", slug: "desert-cool-hvac", service: "ac-not-cooling", zip: "85004", phone: "(602) 555-0111",
			taken: true, heading: "Ask Desert Cool Heating & Air for a visit", taken_: "That window was just taken. Pick another.", wantPath: "/r/"},
		{name: "es", lang: "es", slug: "limpieza-la-estrella", service: "standard-cleaning", zip: "90026", phone: "(213) 555-0122",
			double: true, phoneLater: true, heading: "Pida una visita a Limpieza La Estrella", wantPath: "/r/"},
		{name: "deposit", lang: "en", slug: "mile-high-electric", service: "power-loss", zip: "80202", phone: "(303) 555-0133",
			deposit: true, heading: "Ask Mile High Electric for a visit", wantPath: "/pay/"},
		{name: "deposit-es", lang: "es", slug: "mile-high-electric", service: "power-loss", zip: "80202", phone: "(303) 555-0144",
			deposit: true, heading: "Pida una visita a Mile High Electric", wantPath: "/pay/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// JavaScript off: the form must work without it.
			p := newPhoneTab(t, browser, shots, "book-"+tt.name, tt.lang, scriptsOff)
			tab := p.ctx
			phone := func(width int64) error {
				return chromedp.Do(tab, chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile))
			}
			n := 0
			// check checks the page with axe-core and for touch targets at a
			// phone's width and at a desktop's (and screenshots it at the
			// phone's when a check failed: axetest.Screenshot).
			check := func(step string) {
				t.Helper()
				n++
				p.setScripts(true)
				for _, width := range []int64{390, 1280} {
					if err := chromedp.Do(tab, chromedp.EmulateViewport(width, 844)); err != nil {
						t.Fatal(err)
					}
					t.Run("axe "+itoa(n)+"-"+step+" "+strconv.Itoa(int(width)), func(t *testing.T) { axetest.Check(tab, t) })
					axetest.CheckTargets(tab, t)
				}
				p.setScripts(false)
				if err := phone(390); err != nil {
					t.Fatal(err)
				}
				axetest.CheckLang(tab, t, step, tt.lang)
				axetest.Screenshot(tab, t, shots, "book-"+tt.name+"-"+itoa(n)+"-"+step)
			}
			// The first step: danger first, then the service and the ZIP code.
			if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+bookform.Path+tt.slug)); err != nil {
				t.Fatal(err)
			}
			if got := p.text("h1"); got != tt.heading {
				t.Errorf("got %q, want %q", got, tt.heading)
			}
			if got, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.querySelector("#danger-title").compareDocumentPosition(document.querySelector("input[name=service]")) === 4`)); err != nil || !got {
				t.Errorf("the danger notice before the first step: got %v (%v)", got, err)
			}
			check("start")
			// The phone's screen, as docs/book-form-phone.png shows it.
			png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
			if err == nil {
				err = os.WriteFile(filepath.Join(shots, "book-"+tt.name+"-phone.png"), png, 0o644)
			}
			if err != nil {
				t.Errorf("the phone's screenshot: %v", err)
			}
			p.tick(`input[name=service][value="` + tt.service + `"]`)
			if tt.taken {
				// A ZIP code outside the area is answered at once, with
				// the business's phone.
				p.typeIn("#zip", "99999")
				p.click("button#next")
				if got := p.text("#zip-error"); !strings.Contains(got, "does not work in this ZIP code") {
					t.Errorf("got %q next to the ZIP code, want the refusal", got)
				}
				if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("a.call"), "href")); !strings.HasPrefix(got.Value, "tel:+") {
					t.Errorf("got call link %q, want a tel: link", got.Value)
				}
				check("zip-outside")
				if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#zip"), "value")); got.Value != "99999" {
					t.Errorf("after the refusal: got ZIP %q, want what was typed", got.Value)
				}
				// Start again, as a person who mistyped the ZIP code may.
				if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+bookform.Path+tt.slug)); err != nil {
					t.Fatal(err)
				}
				p.tick(`input[name=service][value="` + tt.service + `"]`)
			}
			p.typeIn("#zip", tt.zip)
			// A day of the week, on the same page.
			p.tick(`fieldset#day input[name=day]:not(#soonest)`)
			p.click("button#next")

			// The window, the address, the contact, what is needed; send.
			check("details")
			p.tick("#window-0")
			window, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#window-0"), "value"))
			p.typeIn("#street", "4417 Wisteria Lane")
			p.typeIn("#city", "Lakewood")
			p.typeIn("#name", "Quentin Zebulon")
			if !tt.phoneLater {
				p.typeIn("#phone", tt.phone)
			}
			p.typeIn("#email", "quentin@example.com")
			p.typeIn("#description", "The breaker trips.")
			if tt.phoneLater {
				p.click("button#send")
				if got := p.text("#phone-error"); !strings.HasPrefix(got, "Escriba un número de EE. UU. de 10 dígitos") {
					t.Errorf("got %q next to the phone, want the refusal in Spanish", got)
				}
				if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#street"), "value")); got.Value != "4417 Wisteria Lane" {
					t.Errorf("after the refusal: got street %q, want what was typed", got.Value)
				}
				check("phone-refused")
				p.typeIn("#phone", tt.phone)
			}
			if tt.taken {
				// Someone takes the window through the JSON API meanwhile.
				body := `{"window_start":"` + window.Value + `","address":{"street":"1 Elm St","zip":"` + tt.zip + `"},"contact":{"name":"Someone Else","phone":"6025550199"}}`
				createRequest(t, srv.URL, tt.slug, body)
				p.click("button#send")
				if got := p.text("#window-error"); got != tt.taken_ {
					t.Errorf("got %q next to the windows, want %q", got, tt.taken_)
				}
				if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#name"), "value")); got.Value != "Quentin Zebulon" {
					t.Errorf("after the refusal: got name %q, want what was typed", got.Value)
				}
				if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#window-0"), "value")); got.Value == window.Value {
					t.Errorf("after the refusal: the taken window %s is still offered", window.Value)
				}
				check("window-taken")
				p.tick("#window-0")
			}
			if tt.deposit {
				p.click("button#send") // the deposit's box not ticked
				want := map[string]string{"en": "tick the box", "es": "marque la casilla"}[tt.lang]
				if got := p.text("#deposit_accepted-error"); !strings.Contains(got, want) {
					t.Errorf("got %q next to the deposit's box, want the refusal", got)
				}
				if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#street"), "value")); got.Value != "4417 Wisteria Lane" {
					t.Errorf("after the refusal: got street %q, want what was typed", got.Value)
				}
				check("deposit-refused")
				p.tick("#deposit_accepted")
			}
			if tt.double {
				// Two presses on the button, the second while the first
				// waits for a slow answer: the browser sends the form again.
				if err := chromedp.Do(tab, chromedp.ScrollIntoView(chromedp.CSS("#send"))); err != nil {
					t.Fatal(err)
				}
				box, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => { const r = document.querySelector("#send").getBoundingClientRect(); return [r.left + r.width/2, r.top + r.height/2]; })()`))
				if err != nil || len(box) != 2 {
					t.Fatalf("the send button's place: %v %v", box, err)
				}
				before := posts.Load()
				slow.Store(true)
				defer slow.Store(false)
				if err := chromedp.Do(tab, chromedp.MouseClickXY(box[0], box[1]), chromedp.Sleep(300*time.Millisecond), chromedp.MouseClickXY(box[0], box[1])); err != nil {
					t.Fatalf("double click: %v", err)
				}
				if err := chromedp.Do(tab, chromedp.WaitVisible(chromedp.CSS("#state"))); err != nil {
					t.Fatal(err)
				}
				if got := posts.Load() - before; got != 2 {
					t.Errorf("the double click sent the form %d times, want 2", got)
				}
			} else {
				p.click("button#send")
			}
			loc, err := chromedp.Run(tab, chromedp.Location())
			if err != nil || !strings.HasPrefix(loc, srv.URL+tt.wantPath) {
				t.Fatalf("after sending: got %s (%v), want %s...", loc, err, srv.URL+tt.wantPath)
			}
			check("sent")
			if tt.double {
				var inbox struct{ Requests []struct{ Code string } }
				req, _ := http.NewRequest("GET", srv.URL+"/api/v1/inbox/requests", nil)
				req.Header.Set("Authorization", "Bearer "+tt.slug+demoTokenSuffix)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				err = json.NewDecoder(res.Body).Decode(&inbox)
				res.Body.Close()
				if err != nil {
					t.Fatal(err)
				}
				if len(inbox.Requests) != 1 {
					t.Errorf("after a double submit: the business has %d requests, want 1", len(inbox.Requests))
				}
			}
		})
	}

	// The form's message pages, in both languages at a phone's width: a
	// paused business, an address no business has, and the page of a form
	// sent with a forged token (nothing is stored).
	for _, lang := range []string{"en", "es"} {
		t.Run("messages "+lang, func(t *testing.T) {
			tab := newPhoneTab(t, browser, shots, "book-messages-"+lang, lang, scriptsOn).ctx
			check := func(page, want string) {
				t.Helper()
				if got := axetest.Text(tab, t, "h1"); got != want {
					t.Errorf("%s: got heading %q, want %q", page, got, want)
				}
				t.Run("axe "+page, func(t *testing.T) { axetest.Check(tab, t) })
				axetest.CheckTargets(tab, t)
				axetest.CheckLang(tab, t, page, lang)
				axetest.Screenshot(tab, t, shots, "book-messages-"+lang+"-"+page)
			}
			headings := map[string][3]string{
				"en": {"Online requests are paused", "Page not found", "Reload the form"},
				"es": {"Las solicitudes en línea están en pausa", "Página no encontrada", "Vuelva a abrir el formulario"},
			}[lang]
			for i, p := range []struct{ name, path string }{
				{"paused", "hudson-heights-electric?lang=" + lang},
				{"not-found", "no-such-business"},
			} {
				if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+bookform.Path+p.path)); err != nil {
					t.Fatal(err)
				}
				check(p.name, headings[i])
			}
			before := posts.Load()
			if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+bookform.Path+"limpieza-la-estrella?lang="+lang+"&service=standard-cleaning&zip=90026")); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`fieldset#day input[name=day]`))); err != nil {
				t.Fatal(err)
			}
			axetest.Click(tab, t, "button#next")
			if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`(document.querySelector("input[name=token]").value = "forged") !== ""`)); err != nil {
				t.Fatal(err)
			}
			axetest.Click(tab, t, "button#send")
			if got := posts.Load() - before; got != 1 {
				t.Errorf("got %d forms sent, want 1", got)
			}
			check("reload", headings[2])
		})
	}
}
