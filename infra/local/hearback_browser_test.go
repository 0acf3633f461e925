package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
	"github.com/doorstep/doorstep/pkg/notify"
)

// TestBrowserHearBack is issue 26 §1 as a person lives it, in Chromium with
// JavaScript disabled at a phone's 390 px, in English and in Spanish, on
// the local server's own wiring: they book through the form giving no
// e-mail and allowing no texts, and read before Send that nobody will
// write to them (the warning goes when a way is ticked, and comes back);
// the status page says to keep it; they add an e-mail there, which gets
// one message with the page's link at once (the outbox); the business
// accepts, and that e-mail gets the confirmation. Then the code lookup at
// /r/: a code no request has, and the code as read over the phone, in
// lower case with spaces, which leads to the status page. axe-core checks
// every page opened; each is screenshotted to artifacts/screenshots/.
func TestBrowserHearBack(t *testing.T) {
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	businesses, err := loadBusinesses("")
	if err != nil {
		t.Fatal(err)
	}
	handler, closeStore, err := newHandler(ctx, businesses, srv.URL, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore()
	browser := axetest.Browser(ctx, t)

	tests := []struct {
		lang, slug, service, zip, phone, email string
		silent, added, lookup                  string // the status page's words (pkg/pages hearback_text.go)
	}{
		{"en", "desert-cool-hvac", "ac-not-cooling", "85004", "(602) 555-0171", "jordan.lee@example.com",
			"Nobody will write to you: keep this page.", "We will write to j…@… about this request", "Find your request"},
		{"es", "limpieza-la-estrella", "standard-cleaning", "90026", "(213) 555-0172", "ana.ruiz@example.com",
			"Nadie le escribirá: guarde esta página.", "Le escribiremos a a…@… sobre esta solicitud", "Buscar su solicitud"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			old, _ := filepath.Glob(filepath.Join(shots, "hear-"+tt.lang+"-*.png"))
			for _, f := range old {
				os.Remove(f)
			}
			tab, cancelTab := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
			defer cancelTab()
			acceptLanguage := func(ctx context.Context, target *chromedp.Target) (chromedp.Void, error) {
				_, err := cdp.Call(ctx, target, network.SetExtraHTTPHeaders,
					network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": tt.lang}})
				return chromedp.Void{}, err
			}
			if err := chromedp.Do(tab, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), acceptLanguage); err != nil {
				t.Fatal(err)
			}
			scripts := func(on bool) {
				t.Helper()
				if _, err := chromedp.Call(tab, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on}); err != nil {
					t.Fatal(err)
				}
			}
			scripts(false)
			n := 0
			check := func(step string) {
				t.Helper()
				n++
				axetest.Screenshot(tab, t, shots, "hear-"+tt.lang+"-"+itoa(n)+"-"+step)
				scripts(true)
				t.Run("axe "+itoa(n)+"-"+step, func(t *testing.T) { axetest.Check(tab, t) })
				axetest.CheckTargets(tab, t)
				scripts(false)
				axetest.CheckLang(tab, t, step, tt.lang)
			}
			text := func(sel string) string { t.Helper(); return axetest.Text(tab, t, sel) }
			click := func(sel string) { t.Helper(); axetest.Click(tab, t, sel) }
			tick := func(sel string) {
				t.Helper()
				if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(sel))); err != nil {
					t.Fatalf("tick %s: %v", sel, err)
				}
			}
			typeIn := func(sel, value string) {
				t.Helper()
				if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.CSS(sel), value)); err != nil {
					t.Fatalf("type in %s: %v", sel, err)
				}
			}
			navigate := func(url string) {
				t.Helper()
				if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
					t.Fatalf("open %s: %v", url, err)
				}
			}
			shown := func(sel string) bool {
				t.Helper()
				v, err := chromedp.Run(tab, chromedp.Evaluate[bool](`getComputedStyle(document.querySelector("`+sel+`")).display !== "none"`))
				if err != nil {
					t.Fatalf("is %s shown: %v", sel, err)
				}
				return v
			}

			// The form, to its last step.
			navigate(srv.URL + bookform.Path + tt.slug)
			tick(`input[name=service][value="` + tt.service + `"]`)
			typeIn("#zip", tt.zip)
			tick(`fieldset#day input[name=day]:not(#soonest)`)
			click("button#next")
			tick("#window-0")
			typeIn("#street", "4417 Wisteria Lane")
			typeIn("#city", "Lakewood")
			typeIn("#name", "Jordan Lee")
			typeIn("#phone", tt.phone)
			// Neither way chosen: the form says what that means, before Send.
			if !shown("#no-way") {
				t.Errorf("with no e-mail and no texts, the warning is hidden")
			}
			tick("#sms_consent")
			if shown("#no-way") {
				t.Errorf("with texts ticked, the warning still shows")
			}
			tick("#sms_consent")
			if !shown("#no-way") {
				t.Errorf("texts unticked again: the warning is hidden")
			}
			if got, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.querySelector("#no-way").compareDocumentPosition(document.querySelector("#send")) === 4`)); err != nil || !got {
				t.Errorf("the warning before Send: got %v (%v)", got, err)
			}
			check("form-no-way")
			click("button#send")

			// The status page: keep it.
			loc, err := chromedp.Run(tab, chromedp.Location())
			if err != nil || !strings.HasPrefix(loc, srv.URL+"/r/") {
				t.Fatalf("after sending: got %s (%v), want the status page", loc, err)
			}
			statusURL := loc
			code := strings.TrimPrefix(loc, srv.URL+"/r/")
			if got := text("#hear-silent"); !strings.HasPrefix(got, tt.silent) {
				t.Errorf("status page: got %q, want %q", got, tt.silent)
			}
			check("status-silent")

			// An e-mail added there.
			typeIn("#hear-email-input", tt.email)
			click("#hear-email button")
			if got := text("p.notice"); !strings.HasPrefix(got, tt.added) {
				t.Errorf("after adding the e-mail: got %q, want %q", got, tt.added)
			}
			if got := text("#hear-ways"); !strings.Contains(got, string(tt.email[0])+"…@…") {
				t.Errorf("after adding the e-mail: the page says %q", got)
			}
			check("status-email-added")
			wayAdded := outboxTo(t, srv.URL, tt.email, notify.KindWayAdded)
			if len(wayAdded) != 1 || !strings.Contains(wayAdded[0].Body, statusURL) {
				t.Fatalf("outbox: %d way_added messages to %s, want 1 with %s: %+v", len(wayAdded), tt.email, statusURL, wayAdded)
			}

			// The business accepts (its JSON inbox): the e-mail is told.
			req, _ := http.NewRequest("POST", srv.URL+"/api/v1/inbox/requests/"+code+"/accept", nil)
			req.Header.Set("Authorization", "Bearer "+tt.slug+demoTokenSuffix)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("accept: got %d, want 200", res.StatusCode)
			}
			confirmed := outboxTo(t, srv.URL, tt.email, notify.KindConfirmed)
			if len(confirmed) != 1 || !strings.Contains(confirmed[0].Body, statusURL) || confirmed[0].Language != tt.lang {
				t.Errorf("outbox: %d confirmations to %s, want 1 in %s with %s: %+v", len(confirmed), tt.email, tt.lang, statusURL, confirmed)
			}
			navigate(statusURL)
			if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#state"), "data-state")); got.Value != string(booking.StatusAccepted) {
				t.Errorf("status page after the accept: got %q, want accepted", got.Value)
			}
			check("status-accepted")

			// The code lookup: as the business read it over the phone.
			navigate(srv.URL + "/r/")
			if got := text("h1"); got != tt.lookup {
				t.Errorf("lookup: got %q, want %q", got, tt.lookup)
			}
			check("lookup")
			typeIn("#code", "zzzz zzzz zzzz")
			click("form#lookup button")
			if got := text("#code-error"); got == "" {
				t.Errorf("an unknown code: no message next to the field")
			}
			check("lookup-unknown")
			navigate(srv.URL + "/r")
			typeIn("#code", " "+strings.ToLower(strings.ReplaceAll(code, "-", " "))+" ")
			click("form#lookup button")
			if loc, err := chromedp.Run(tab, chromedp.Location()); err != nil || loc != statusURL {
				t.Errorf("the code typed: got %s (%v), want %s", loc, err, statusURL)
			}
		})
	}
}

// outboxTo returns the local outbox's messages of kind to the address.
func outboxTo(t *testing.T, siteURL, to string, kind notify.Kind) []notify.Message {
	t.Helper()
	var outbox struct{ Messages []notify.Message }
	getJSON(t, siteURL+"/dev/outbox", &outbox)
	var msgs []notify.Message
	for _, m := range outbox.Messages {
		if m.To == to && m.Kind == kind {
			msgs = append(msgs, m)
		}
	}
	return msgs
}
