package main

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

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
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	srv := serveLocal(ctx, t, demoBusinessesFor(t), slog.New(slog.DiscardHandler), nil)
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
			p := newPhoneTab(t, browser, shots, "hear-"+tt.lang, tt.lang, scriptsOff)
			// The form, to its last step.
			p.open(srv.URL + bookform.Path + tt.slug)
			p.tick(`input[name=service][value="` + tt.service + `"]`)
			p.typeIn("#zip", tt.zip)
			p.tick(`fieldset#day input[name=day]:not(#soonest)`)
			p.click("button#next")
			p.tick("#window-0")
			p.typeIn("#street", "4417 Wisteria Lane")
			p.typeIn("#city", "Lakewood")
			p.typeIn("#name", "Jordan Lee")
			p.typeIn("#phone", tt.phone)
			// Neither way chosen: the form says what that means, before Send.
			if !p.displayed("#no-way") {
				t.Errorf("with no e-mail and no texts, the warning is hidden")
			}
			p.tick("#sms_consent")
			if p.displayed("#no-way") {
				t.Errorf("with texts ticked, the warning still shows")
			}
			p.tick("#sms_consent")
			if !p.displayed("#no-way") {
				t.Errorf("texts unticked again: the warning is hidden")
			}
			if got, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`document.querySelector("#no-way").compareDocumentPosition(document.querySelector("#send")) === 4`)); err != nil || !got {
				t.Errorf("the warning before Send: got %v (%v)", got, err)
			}
			p.check("form-no-way")
			p.click("button#send")

			// The status page: keep it.
			loc, err := chromedp.Run(p.ctx, chromedp.Location())
			if err != nil || !strings.HasPrefix(loc, srv.URL+"/r/") {
				t.Fatalf("after sending: got %s (%v), want the status page", loc, err)
			}
			statusURL := loc
			code := strings.TrimPrefix(loc, srv.URL+"/r/")
			if got := p.text("#hear-silent"); !strings.HasPrefix(got, tt.silent) {
				t.Errorf("status page: got %q, want %q", got, tt.silent)
			}
			p.check("status-silent")

			// An e-mail added there.
			p.typeIn("#hear-email-input", tt.email)
			p.click("#hear-email button")
			if got := p.text("p.notice"); !strings.HasPrefix(got, tt.added) {
				t.Errorf("after adding the e-mail: got %q, want %q", got, tt.added)
			}
			if got := p.text("#hear-ways"); !strings.Contains(got, string(tt.email[0])+"…@…") {
				t.Errorf("after adding the e-mail: the page says %q", got)
			}
			p.check("status-email-added")
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
			p.open(statusURL)
			if got, _ := chromedp.Run(p.ctx, chromedp.AttributeValue(chromedp.CSS("#state"), "data-state")); got.Value != string(booking.StatusAccepted) {
				t.Errorf("status page after the accept: got %q, want accepted", got.Value)
			}
			p.check("status-accepted")

			// The code lookup: as the business read it over the phone.
			p.open(srv.URL + "/r/")
			if got := p.text("h1"); got != tt.lookup {
				t.Errorf("lookup: got %q, want %q", got, tt.lookup)
			}
			p.check("lookup")
			p.typeIn("#code", "zzzz zzzz zzzz")
			p.click("form#lookup button")
			if got := p.text("#code-error"); got == "" {
				t.Errorf("an unknown code: no message next to the field")
			}
			p.check("lookup-unknown")
			p.open(srv.URL + "/r")
			p.typeIn("#code", " "+strings.ToLower(strings.ReplaceAll(code, "-", " "))+" ")
			p.click("form#lookup button")
			if loc, err := chromedp.Run(p.ctx, chromedp.Location()); err != nil || loc != statusURL {
				t.Errorf("the code typed: got %s (%v), want %s", loc, err, statusURL)
			}
		})
	}
}

// outboxTo returns the local outbox's messages of kind to the address.
func outboxTo(t *testing.T, siteURL, to string, kind notify.Kind) []notify.Message {
	t.Helper()
	var msgs []notify.Message
	for _, m := range outboxAt(t, siteURL) {
		if m.To == to && m.Kind == kind {
			msgs = append(msgs, m)
		}
	}
	return msgs
}
