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
	"github.com/doorstep/doorstep/pkg/notify"
)

// oneTapLink is the one-tap link of a new request's e-mail: a sign-in
// link that comes back to the request.
var oneTapLink = regexp.MustCompile(`https?://\S+/inbox/sign-in/[A-Za-z0-9_-]+\?next=\S+`)

// TestBrowserOneTap drives Chromium, at a phone's size, in English and in
// Spanish: a person sends a request; the owner, signed out, opens the
// link of the new-request e-mail from the local outbox, taps its one
// button, lands on the request and accepts it. It counts the taps from
// the e-mail to the accepted request, and every page is checked with
// axe-core and for touch targets.
func TestBrowserOneTap(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var logs logBuffer
	srv := serveLocal(ctx, t, demoBusinessesFor(t), slog.New(slog.NewTextHandler(&logs, nil)), nil)
	browser := axetest.Browser(ctx, t)

	tests := []struct {
		lang, slug, service, zip string
		open, state              string // the link's page's heading; the request's page's state, accepted
		done                     string // the notice after accepting
	}{
		{"en", "desert-cool-hvac", "ac-tune-up", "85004", "Open the request", "Accepted",
			"Accepted. The person is told by e-mail."},
		{"es", "limpieza-la-estrella", "standard-cleaning", "90026", "Abrir la solicitud", "Aceptada",
			"Aceptada. Se le avisa a la persona por correo electrónico."},
	}
	for i, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			// A person sends a request (with an e-mail, no texts).
			var avail booking.Availability
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug+"/availability?days=14", &avail)
			if len(avail.Windows) == 0 {
				t.Fatal("no open window")
			}
			body := `{"window_start":"` + avail.Windows[0].Start.Format(time.RFC3339) + `",` +
				`"address":{"street":"1 Test St","zip":"` + tt.zip + `"},` +
				`"contact":{"name":"Tap Person","phone":"602555017` + string(rune('0'+i)) + `","email":"tap-` + tt.lang + `@example.com"},` +
				`"service_id":"` + tt.service + `","language":"` + tt.lang + `"}`
			created := createRequest(t, srv.URL, tt.slug, body)

			// The new-request e-mail, in the outbox.
			link := fromOutbox(t, srv.URL, "new-request e-mail with a one-tap link for "+created.Code, oneTapLink, func(m notify.Message) bool {
				return m.Kind == notify.KindNewRequest && strings.Contains(m.Subject, created.Code)
			})

			p := newPhoneTab(t, browser, shots, "onetap-"+tt.lang, tt.lang, scriptsOn)

			// Signed out, the owner taps the link in the e-mail ...
			p.follow(link, "")
			if got := p.text("h1"); got != tt.open {
				t.Errorf("the link's page: got %q, want %q", got, tt.open)
			}
			p.check("link")
			// ... taps its one button, and is on the request, signed in ...
			p.click("button#sign-in")
			if got, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string]("location.pathname")); got != "/inbox/requests/"+created.Code {
				t.Fatalf("after the button: at %q, want the request's page", got)
			}
			p.check("request")
			// ... and accepts it.
			p.click("button#accept")
			if got := p.text(".notice"); got != tt.done {
				t.Errorf("after accepting: got notice %q, want %q", got, tt.done)
			}
			if got := p.text("h1#state"); !strings.HasSuffix(got, tt.state) {
				t.Errorf("after accepting: got %q, want it %s", got, tt.state)
			}
			p.check("accepted")
			if p.taps != 3 {
				t.Errorf("got %d taps from the e-mail to an accepted request, want 3", p.taps)
			}
			t.Logf("%s: %d taps from the new-request e-mail to an accepted request", tt.lang, p.taps)
			if token := strings.TrimPrefix(strings.Split(link, "?")[0], srv.URL+"/inbox/sign-in/"); strings.Contains(logs.String(), token) {
				t.Error("the server's log holds the link's token")
			}
		})
	}
}

// TestBrowserOwnerTexts drives Chromium, at a phone's size, in English and
// in Spanish, through the settings' "Ways to be told": the owner, signed
// in by a new request's one-tap link, types a mobile number, gets its
// code in the local outbox, types it, and chooses texts for urgent
// requests only; then an urgent request is texted to that number (the
// service, the window, the ZIP code and the link; not the description)
// and a request that is not urgent is not. Every page is checked with
// axe-core and for touch targets.
func TestBrowserOwnerTexts(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var logs logBuffer
	srv := serveLocal(ctx, t, demoBusinessesFor(t), slog.New(slog.NewTextHandler(&logs, nil)), nil)
	browser := axetest.Browser(ctx, t)

	// send creates a request and returns its code.
	send := func(t *testing.T, slug, service, zip, phone, urgency string) string {
		t.Helper()
		var avail booking.Availability
		getJSON(t, srv.URL+"/api/v1/businesses/"+slug+"/availability?days=14", &avail)
		if len(avail.Windows) == 0 {
			t.Fatal("no open window")
		}
		body := `{"window_start":"` + avail.Windows[len(avail.Windows)-1].Start.Format(time.RFC3339) + `",` +
			`"address":{"street":"1 Test St","zip":"` + zip + `"},` +
			`"contact":{"name":"Text Person","phone":"` + phone + `"},"urgency":"` + urgency + `",` +
			`"service_id":"` + service + `","description":"Secret gate code 8812"}`
		return createRequest(t, srv.URL, slug, body).Code
	}
	tests := []struct {
		lang, slug, service, zip string
		sent, confirmed          string // the notices
		mobile                   string
	}{
		{"en", "desert-cool-hvac", "ac-tune-up", "85004",
			"A code is on its way to the number you gave. Type it below: it works for 15 minutes.",
			"The number is confirmed. Choose which new requests it gets a text for.", "6025550190"},
		{"es", "limpieza-la-estrella", "standard-cleaning", "90026",
			"Le enviamos un código al número que dio. Escríbalo abajo: sirve durante 15 minutos.",
			"El número está confirmado. Elija por qué solicitudes nuevas recibe un mensaje.", "3235550191"},
	}
	for i, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			code := send(t, tt.slug, tt.service, tt.zip, "602555018"+string(rune('0'+i)), "soon")
			link := fromOutbox(t, srv.URL, "one-tap link for "+code, oneTapLink, func(m notify.Message) bool {
				return m.Kind == notify.KindNewRequest && strings.Contains(m.Subject, code)
			})
			p := newPhoneTab(t, browser, shots, "texts-"+tt.lang, tt.lang, scriptsOn)
			p.follow(link, "", "button#sign-in")
			p.open(srv.URL + "/inbox/settings")
			p.click("a#open-texts") // the settings' "Ways to be told" section
			p.check("settings")
			// A number that is none is refused next to its field.
			p.typeIn("#owner_phone", "555")
			p.click("button#send-code")
			if got := p.text("#owner_phone-error"); got == "" {
				t.Error("no error next to a number that is none")
			}
			p.check("bad-number")
			if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById("owner_phone").value = ""`)); err != nil {
				t.Fatal(err)
			}
			p.typeIn("#owner_phone", tt.mobile)
			p.click("button#send-code")
			if got := p.text(".notice"); got != tt.sent {
				t.Errorf("after asking for a code: got %q, want %q", got, tt.sent)
			}
			p.check("code-sent")
			p.typeIn("#code", textedCode(t, srv.URL, tt.mobile))
			p.click("button#confirm-code")
			if got := p.text(".notice"); got != tt.confirmed {
				t.Errorf("after the code: got %q, want %q", got, tt.confirmed)
			}
			p.tick("#text_me-urgent") // a radio: no page to wait for
			p.click("button#save-text-me")
			p.check("texts-urgent")
			if checked, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`document.getElementById("text_me-urgent").checked`)); err != nil || !checked {
				t.Errorf("urgent only is not the choice shown (%v)", err)
			}

			// An urgent request is texted to the owner, one that is not
			// urgent is not; neither text holds the description.
			urgent := send(t, tt.slug, tt.service, tt.zip, "602555019"+string(rune('0'+i)), "emergency")
			calm := send(t, tt.slug, tt.service, tt.zip, "602555020"+string(rune('0'+i)), "flexible")
			var got []string
			for _, m := range outboxAt(t, srv.URL) {
				if m.Kind == notify.KindNewRequest && m.Channel == notify.ChannelSMS && m.To == "+1"+tt.mobile {
					got = append(got, m.Body)
				}
			}
			if len(got) != 1 || !strings.Contains(got[0], urgent) || strings.Contains(got[0], calm) ||
				strings.Contains(got[0], "8812") || !strings.Contains(got[0], tt.zip) || !oneTapLink.MatchString(got[0]) {
				t.Errorf("texts to the owner: got %q, want one, of %s, with its ZIP code and link, without the description", got, urgent)
			}
		})
	}
}
