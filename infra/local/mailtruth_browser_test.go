package main

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/notify"
)

// emailChangeLink is the link that confirms a new inbox address.
var emailChangeLink = regexp.MustCompile(`https?://\S+/inbox/email/[A-Za-z0-9_-]+`)

// sixDigits is a sign-in code in its text.
var sixDigits = regexp.MustCompile(`\b[0-9]{6}\b`)

// TestBrowserMailThatBounces drives Chromium, at a phone's size, in
// English and Spanish, on the local server, whose outbox answers SES's
// mailbox simulator through the mail-events handler (issue 34). A person
// books with an address that bounces: their status page then says "our
// e-mail to b…@… could not be delivered" and takes another address, which
// gets the next message. The business's own inbox address bounces too (the
// new-request e-mail): the owner signs in with a code texted to the
// confirmed number, sees the banner, and changes the address in the
// settings, confirmed by the link sent to the new one. Every page is checked
// with axe-core and for touch targets.
func TestBrowserMailThatBounces(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	tests := []struct {
		lang, slug, service, zip, phone, owner string
		bounced, added, codeTitle, banner      string
		linkSent, confirmed                    string
	}{
		{"en", "desert-cool-hvac", "ac-tune-up", "85004", "6025550160", "6025550161",
			"Our e-mail to b…@… could not be delivered. Give another address below, and we write to it instead.",
			"We will write to n…@… about this request", "Type the code we texted",
			"Our e-mail to your inbox address, bounce+owner-en@simulator.amazonses.com, could not be delivered",
			"A link is on its way to the new address", "The new inbox address is confirmed"},
		{"es", "limpieza-la-estrella", "standard-cleaning", "90026", "3235550162", "3235550163",
			"Nuestro correo a b…@… no se pudo entregar. Dé otro correo abajo y le escribiremos a ese.",
			"Le escribiremos a n…@… sobre esta solicitud", "Escriba el código que le enviamos",
			"Nuestro correo a la dirección de su bandeja, bounce+owner-es@simulator.amazonses.com, no se pudo entregar",
			"Un enlace va en camino a la nueva dirección", "La nueva dirección de la bandeja está confirmada"},
	}
	businesses := demoBusinessesFor(t)
	for _, tt := range tests {
		b := businessOf(businesses, tt.slug)
		b.InboxEmail = "bounce+owner-" + tt.lang + "@simulator.amazonses.com"
		b.OwnerPhone = tt.owner
	}
	srv := serveLocal(ctx, t, businesses, slog.New(slog.DiscardHandler), nil)
	browser := axetest.Browser(ctx, t)
	outbox := func() []notify.Message { return outboxAt(t, srv.URL) }
	// until waits for cond, reading again, up to 10 s.
	until := func(t *testing.T, what string, cond func() bool) {
		t.Helper()
		for range 100 {
			if cond() {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("still not %s after 10 s", what)
	}

	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			// A person books with an address that bounces.
			var avail booking.Availability
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug+"/availability?days=14", &avail)
			if len(avail.Windows) == 0 {
				t.Fatal("no open window")
			}
			body := `{"window_start":"` + avail.Windows[0].Start.Format(time.RFC3339) + `",` +
				`"address":{"street":"1 Test St","zip":"` + tt.zip + `"},` +
				`"contact":{"name":"Bounce Person","phone":"` + tt.phone + `","email":"bounce+person-` + tt.lang + `@simulator.amazonses.com"},` +
				`"service_id":"` + tt.service + `","language":"` + tt.lang + `"}`
			created := createRequest(t, srv.URL, tt.slug, body)

			// The status page says so, and takes another address.
			p := newPhoneTab(t, browser, shots, "bounce-"+tt.lang, tt.lang, scriptsOff)
			until(t, "told on the status page", func() bool {
				p.open(created.StatusURL)
				return p.count("#hear-bounced") == 1
			})
			if got := p.text("#hear-bounced"); got != tt.bounced {
				t.Errorf("status page: got %q, want %q", got, tt.bounced)
			}
			p.check("status-bounced")
			newAddr := "nina-" + tt.lang + "@example.com"
			p.typeIn("#hear-email-input", newAddr)
			p.click("#hear-email button")
			if got := p.text(".notice"); !strings.HasPrefix(got, tt.added) {
				t.Errorf("after adding %s: got notice %q, want %q", newAddr, got, tt.added)
			}
			if p.count("#hear-bounced") != 0 {
				t.Error("the new address is said not to be delivered")
			}
			p.check("status-added")
			until(t, "written to at the new address", func() bool {
				for _, m := range outbox() {
					if m.To == newAddr && m.Audience == notify.AudiencePerson {
						return true
					}
				}
				return false
			})

			// The business's inbox address bounced (the new-request
			// e-mail): the owner is texted once ...
			until(t, "the owner texted", func() bool {
				for _, m := range outbox() {
					if m.Kind == inboxweb.KindInboxBounced && m.To == "+1"+tt.owner {
						return true
					}
				}
				return false
			})
			// ... and signs in by a texted code.
			o := newPhoneTab(t, browser, shots, "owner-bounce-"+tt.lang, tt.lang, scriptsOff)
			o.open(srv.URL + "/inbox?lang=" + tt.lang)
			o.typeIn("#email", "bounce+owner-"+tt.lang+"@simulator.amazonses.com")
			o.check("sign-in")
			o.click("button#by-text")
			if got := o.text("h1"); got != tt.codeTitle {
				t.Errorf("the code's page: got %q, want %q", got, tt.codeTitle)
			}
			o.check("code")
			code := fromOutbox(t, srv.URL, "sign-in code texted to "+tt.owner, sixDigits, func(m notify.Message) bool {
				return m.Kind == inboxweb.KindSignInCode && m.To == "+1"+tt.owner
			})
			o.typeIn("#code", code)
			o.click("button#verify")
			until(t, "told in the inbox", func() bool {
				o.open(srv.URL + "/inbox")
				return o.count("#inbox-bounced") == 1
			})
			if got := o.text("#inbox-bounced"); !strings.HasPrefix(got, tt.banner) {
				t.Errorf("the inbox's banner: got %q, want it to start %q", got, tt.banner)
			}
			o.check("inbox-bounced")

			// ... and changes the address, confirmed by a link to the new one.
			o.click("a#bounced-settings")
			newInbox := "office-" + tt.lang + "@example.com"
			o.typeIn("#inbox_email", newInbox)
			o.click("button#send-email-link")
			if got := o.text(".notice"); !strings.HasPrefix(got, tt.linkSent) {
				t.Errorf("after asking for the link: got %q, want %q", got, tt.linkSent)
			}
			o.check("email-link-sent")
			link := fromOutbox(t, srv.URL, "link to "+newInbox, emailChangeLink, func(m notify.Message) bool {
				return m.Kind == inboxweb.KindInboxEmailChange && m.To == newInbox
			})
			o.follow(link, "email-confirm", "button#confirm-email")
			if got := o.text(".notice"); !strings.HasPrefix(got, tt.confirmed) {
				t.Errorf("after confirming: got %q, want %q", got, tt.confirmed)
			}
			if got := o.text("#texts-email"); !strings.Contains(got, newInbox) {
				t.Errorf("the inbox address: got %q, want %s", got, newInbox)
			}
			o.check("email-confirmed")
			o.open(srv.URL + "/inbox")
			if o.count("#inbox-bounced") != 0 {
				t.Error("the banner stays after the address changed")
			}
		})
	}
}
