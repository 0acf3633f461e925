package main

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/notify"
)

// signupLink is the link of a sign-up e-mail.
var signupLink = regexp.MustCompile(`https?://\S+/start/[A-Za-z0-9_-]+\?lang=(en|es)`)

// choose picks value in the select sel: one tap.
func (p *phoneTab) choose(sel, value string) {
	p.t.Helper()
	p.taps++
	ctx, cancel := p.soon()
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(sel), value)); err != nil {
		p.t.Fatalf("choose %s in %s: %v", value, sel, err)
	}
}

// outboxSignupLink is the link of the newest sign-up e-mail to email in
// the local outbox.
func outboxSignupLink(t *testing.T, base, email string) string {
	t.Helper()
	return fromOutbox(t, base, "sign-up link to "+email, signupLink, func(m notify.Message) bool {
		return m.Kind == inboxweb.KindSignup && m.To == email
	})
}

// signUp signs a business up in the tab, from /start to its inbox: the
// form (with a first try that leaves out the terms, to be told so next to
// them with what was typed kept), the e-mailed link, its button. It
// checks each page.
func signUp(t *testing.T, p *phoneTab, base, name, trade, email string, texts map[string]string) {
	t.Helper()
	p.open(base + "/start")
	if got := p.text("h1"); got != texts["start"] {
		t.Errorf("/start: got %q, want %q", got, texts["start"])
	}
	p.check("start")
	p.typeIn("#name", name)
	p.choose("#trade", trade)
	p.typeIn("#email", email)
	p.click("button#send")
	if got := p.text("#terms-error"); got != texts["terms"] {
		t.Errorf("without the terms: got %q next to them, want %q", got, texts["terms"])
	}
	if got := p.attr("#name", "value"); got != name {
		t.Errorf("without the terms: the name reads %q, want %q kept", got, name)
	}
	if got := p.attr("#email", "value"); got != email {
		t.Errorf("without the terms: the e-mail reads %q, want %q kept", got, email)
	}
	p.check("start-terms")
	p.tick("#terms")
	p.click("button#send")
	if got := p.text("h1"); got != texts["sent"] {
		t.Errorf("after the form: got %q, want %q", got, texts["sent"])
	}
	p.check("sent")

	link := outboxSignupLink(t, base, email)
	p.taps++ // the link in the e-mail
	p.open(link)
	if got := p.text("h1"); got != texts["link"] {
		t.Errorf("the link's page: got %q, want %q", got, texts["link"])
	}
	p.check("link")
	p.click("button#create")
	if got := p.location(); !strings.HasSuffix(got, "/inbox") {
		t.Fatalf("after the button: at %q, want the inbox", got)
	}
	if got := p.text("header .who"); !strings.Contains(got, name) {
		t.Errorf("the inbox's header: got %q, want the business %q", got, name)
	}
	p.check("inbox")
}

// TestBrowserSignup drives Chromium, at a phone's size, in English and in
// Spanish, from {SITE_URL}/start to the new business's inbox, signed in:
// the form (a missing agreement is named next to it, what was typed
// kept), the sign-up e-mail's link from the local outbox, its one button.
// The business is then in preview and not accepting requests; the link
// works once. Every page is checked with axe-core and for touch targets.
func TestBrowserSignup(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var logs logBuffer
	srv := serveLocal(ctx, t, demoBusinessesFor(t), slog.New(slog.NewTextHandler(&logs, nil)), nil)
	browser := axetest.Browser(ctx, t)
	tests := []struct {
		lang, name, trade, email, slug string
		texts                          map[string]string
	}{
		{"en", "Joe's Plumbing & Heating", "plumbing", "joe@joes-plumbing.example.com", "joe-s-plumbing-and-heating", map[string]string{
			"start": "Put your business on Doorstep", "terms": "To sign up, agree to the terms.", "sent": "Check your e-mail",
			"link": "Create your business", "spent": "This link cannot be used any more"}},
		{"es", "Fontanería José", "plumbing", "jose@fontaneria-jose.example.com", "fontaneria-jose", map[string]string{
			"start": "Registre su negocio en Doorstep", "terms": "Para registrarse, acepte las condiciones.", "sent": "Revise su correo",
			"link": "Cree su negocio", "spent": "Este enlace ya no sirve"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			p := newPhoneTab(t, browser, shots, "signup-"+tt.lang, tt.lang, scriptsOff)
			signUp(t, p, srv.URL, tt.name, tt.trade, tt.email, tt.texts)
			t.Logf("%s: %d pages and %d taps from /start to the new business's inbox", tt.lang, p.pages.Load(), p.taps)

			var b booking.Business
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug, &b)
			if b.Slug != tt.slug || !b.Preview || b.AcceptingRequests || b.Name != tt.name {
				t.Errorf("getBusiness: got %s %q, preview %v, accepting %v; want %s in preview, not accepting", b.Slug, b.Name, b.Preview, b.AcceptingRequests, tt.slug)
			}

			// The link works once: in another tab, it says so.
			other := newPhoneTab(t, browser, shots, "signup-again-"+tt.lang, tt.lang, scriptsOff)
			other.open(outboxSignupLink(t, srv.URL, tt.email))
			other.click("button#create")
			if got := other.text("h1"); got != tt.texts["spent"] {
				t.Errorf("the link again: got %q, want %q", got, tt.texts["spent"])
			}
			other.check("spent")
			if token := strings.TrimPrefix(strings.Split(outboxSignupLink(t, srv.URL, tt.email), "?")[0], srv.URL+"/start/"); strings.Contains(logs.String(), token) {
				t.Error("the server's log holds the link's token")
			}
			if strings.Contains(logs.String(), tt.email) {
				t.Error("the server's log holds the owner's address")
			}
		})
	}
}
