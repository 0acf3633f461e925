package main

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
	"github.com/doorstep/doorstep/pkg/notify"
)

// TestBrowserComingOnBoard drives Chromium, at a phone's size, in English
// and in Spanish, the whole way a business comes on board by itself
// (issue 33, "Done when"): from /start to the e-mailed link, to a business
// in preview; its owner adds two services (one urgent), three ZIP codes
// and Saturday hours, confirms a mobile number by its texted code, gives
// the public details going live needs, and goes live (the local server
// approves by itself); then a person books it through the booking form,
// and the owner accepts the request from the new-request e-mail. Every
// page is checked with axe-core, for touch targets and for its language.
// It counts the pages and taps from /start to live, and logs them.
func TestBrowserComingOnBoard(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	var logs logBuffer
	srv := serveLocal(ctx, t, demoBusinessesFor(t), slog.New(slog.NewTextHandler(&logs, nil)), nil)
	browser := axetest.Browser(ctx, t)

	type service struct{ nameEN, nameES, descEN, descES string }
	tests := []struct {
		lang, name, trade, email, slug, mobile, phone, city, state, tz string
		services                                                       [2]service // the second is urgent
		zips                                                           [3]string
		texts                                                          map[string]string
	}{
		{lang: "en", name: "Barton Creek Plumbing", trade: "plumbing", email: "owner@barton-creek.example.com", slug: "barton-creek-plumbing",
			mobile: "5125550161", phone: "(512) 555-0160", city: "Austin", state: "TX", tz: "America/Chicago",
			services: [2]service{
				{"Drain cleaning", "Limpieza de drenaje", "Clogged sinks, tubs and lines.", "Lavabos, tinas y tuberías tapadas."},
				{"Burst pipe", "Tubería rota", "Water where it should not be.", "Agua donde no debe estar."}},
			zips: [3]string{"78701", "78704", "78746"},
			texts: map[string]string{"start": "Put your business on Doorstep", "sent": "Check your e-mail", "link": "Create your business",
				"live": "Your booking page is live", "booked": "", "accepted": "Accepted"}},
		{lang: "es", name: "Fontanería José", trade: "plumbing", email: "jose@fontaneria-jose.example.com", slug: "fontaneria-jose",
			mobile: "2135550162", phone: "(213) 555-0163", city: "Los Angeles", state: "CA", tz: "America/Los_Angeles",
			services: [2]service{
				{"Water heater repair", "Reparación de calentador", "No hot water, or a leak.", "Sin agua caliente, o una fuga."},
				{"Gas leak", "Fuga de gas", "A smell of gas at home.", "Olor a gas en casa."}},
			zips: [3]string{"90026", "90012", "90004"},
			texts: map[string]string{"start": "Registre su negocio en Doorstep", "sent": "Revise su correo", "link": "Cree su negocio",
				"live": "Su página de reservas está publicada", "accepted": "Aceptada"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			p := newPhoneTab(t, browser, shots, "onboard-"+tt.lang, tt.lang, scriptsOff)
			submit := func(form string) { p.click("#" + form + ` button[type="submit"]`) }

			// 1. From /start to the e-mailed link; 2. to a preview business.
			p.open(srv.URL + "/start")
			if got := p.text("h1"); got != tt.texts["start"] {
				t.Errorf("/start: got %q, want %q", got, tt.texts["start"])
			}
			p.check("start")
			p.typeIn("#name", tt.name)
			p.choose("#trade", tt.trade)
			p.typeIn("#email", tt.email)
			p.tick("#terms")
			p.click("button#send")
			if got := p.text("h1"); got != tt.texts["sent"] {
				t.Errorf("after the form: got %q, want %q", got, tt.texts["sent"])
			}
			p.check("sent")
			p.taps++ // the link in the e-mail
			p.open(outboxSignupLink(t, srv.URL, tt.email))
			p.check("link")
			p.click("button#create")
			if got := p.attr("#live", "data-state"); got != "preview" {
				t.Fatalf("the new business's inbox: state %q, want preview", got)
			}
			if n := p.count("button#resume-now, button#pause-now"); n != 0 {
				t.Errorf("the new business's inbox offers %d pause or resume buttons; it takes no requests yet (issue 40)", n)
			}
			p.check("preview")

			// 3. Two services, one urgent; three ZIP codes; Saturday hours.
			p.click("a#fix-service")
			for i, s := range tt.services {
				if p.count("#to-add-service") > 0 { // the list first, then the form
					p.click("a#to-add-service")
				}
				p.typeIn("#name_en", s.nameEN)
				p.typeIn("#name_es", s.nameES)
				p.typeIn("#desc_en", s.descEN)
				p.typeIn("#desc_es", s.descES)
				if i == 1 {
					p.tick("#urgent")
				}
				submit("add-service")
				if got := p.count("#services-list > li"); got != i+1 {
					t.Fatalf("after adding %q: %d services listed, want %d", s.nameEN, got, i+1)
				}
			}
			p.check("services")
			p.click(`header a[href="/inbox"]`)
			p.click("a#fix-zip")
			p.typeIn("#label", tt.city)
			p.typeIn("#zip_codes", strings.Join(tt.zips[:], "\n"))
			submit("area")
			p.check("area")
			p.click(`header a[href="/inbox/settings"]`)
			if n := p.count("a#to-checklist"); n != 1 || p.count("a#resume") != 0 {
				t.Errorf("settings before the public details: %d links to the checklist, %d Resume; want 1 and none", n, p.count("a#resume"))
			}
			p.check("settings-not-ready")
			p.click("a#open-hours")
			p.typeIn("#sat-open-0", "09:00")
			p.typeIn("#sat-close-0", "13:00")
			submit("hours")
			p.check("hours")

			// 4. A mobile number, confirmed by its texted code.
			p.click(`header a[href="/inbox"]`)
			p.click("a#fix-mobile")
			p.typeIn("#owner_phone", tt.mobile)
			p.click("button#send-code")
			p.typeIn("#code", textedCode(t, srv.URL, tt.mobile))
			p.click("button#confirm-code")
			p.check("mobile")

			// The public details a live business shows: its phone, city,
			// state and time zone (and, in Spanish, its language).
			p.click(`header a[href="/inbox"]`)
			p.click("a#fix-details")
			p.typeIn("#phone", tt.phone)
			p.typeIn("#city", tt.city)
			p.typeIn("#state", tt.state)
			p.choose("#timezone", tt.tz)
			if tt.lang == "es" {
				p.tick("#lang_es")
				p.choose("#default_language", "es")
			}
			submit("details")
			p.check("details")

			// 5. Live.
			p.click(`header a[href="/inbox"]`)
			if got := p.count(`#live li[data-done='false']`); got != 0 {
				t.Errorf("the checklist: %d items left, want none", got)
			}
			p.check("ready")
			p.click("button#go-live")
			if got := p.attr("#live", "data-state"); got != "live" {
				t.Fatalf("after going live: state %q, want live", got)
			}
			if got := p.text("#live-title"); got != tt.texts["live"] {
				t.Errorf("after going live: got %q, want %q", got, tt.texts["live"])
			}
			p.check("live")
			t.Logf("%s: %d pages and %d taps from /start to live", tt.lang, p.pages.Load(), p.taps)

			var b booking.Business
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug, &b)
			if b.Preview || !b.AcceptingRequests || len(b.Services) != 2 || !b.Services[1].Urgent || len(b.ServiceArea.ZIPCodes) != 3 || len(b.Hours.Sat) != 1 {
				t.Fatalf("getBusiness: preview %v, accepting %v, services %+v, ZIP codes %v, Saturday %v",
					b.Preview, b.AcceptingRequests, b.Services, b.ServiceArea.ZIPCodes, b.Hours.Sat)
			}

			// 6. A person books it through the form ...
			person := newPhoneTab(t, browser, shots, "onboard-person-"+tt.lang, tt.lang, scriptsOff)
			person.open(srv.URL + bookform.Path + tt.slug)
			person.check("form")
			person.tick(`input[name=service][value="` + b.Services[0].ID + `"]`)
			person.typeIn("#zip", tt.zips[1])
			person.tick(`fieldset#day input[name=day]:not(#soonest)`)
			person.click("button#next")
			person.check("form-details")
			person.tick("#window-0")
			person.typeIn("#street", "4417 Wisteria Lane")
			person.typeIn("#city", tt.city)
			person.typeIn("#name", "Quentin Zebulon")
			person.typeIn("#phone", "(512) 555-0199")
			person.typeIn("#email", "quentin-"+tt.lang+"@example.com")
			person.typeIn("#description", "The kitchen sink drains slowly.")
			person.click("button#send")
			loc := person.location()
			if !strings.HasPrefix(loc, srv.URL+"/r/") {
				t.Fatalf("after sending: at %s, want the status page", loc)
			}
			person.check("sent")
			requestCode := strings.TrimPrefix(loc, srv.URL+"/r/")
			requestCode, _, _ = strings.Cut(requestCode, "?")

			// ... and the owner accepts it from the new-request e-mail.
			link := fromOutbox(t, srv.URL, "new-request e-mail to "+tt.email+" with a one-tap link for "+requestCode, oneTapLink, func(m notify.Message) bool {
				return m.Kind == notify.KindNewRequest && m.To == tt.email && strings.Contains(m.Subject, requestCode)
			})
			p.follow(link, "one-tap", "button#sign-in", "button#accept")
			if got := p.text("h1#state"); !strings.HasSuffix(got, tt.texts["accepted"]) {
				t.Errorf("after accepting: got %q, want it %s", got, tt.texts["accepted"])
			}
			p.check("accepted")
			if strings.Contains(logs.String(), tt.email) {
				t.Error("the server's log holds the owner's address")
			}
		})
	}
}
