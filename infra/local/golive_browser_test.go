package main

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
)

// TestBrowserGoLive: the owner of a business in preview sees the
// checklist on the inbox, follows its one item not done (a mobile number,
// confirmed by a code) to where it is done, goes live (the local server
// approves by itself), goes back to preview (the booking form says so
// again), and pauses online requests: each in one tap, in English and in
// Spanish, at 390 px, axe-core finding nothing.
func TestBrowserGoLive(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	businesses := demoBusinessesFor(t)
	// limpieza-la-estrella (Spanish) in preview, as a new business is.
	es := *businessOf(businesses, "limpieza-la-estrella")
	es.Preview = true
	*businessOf(businesses, "limpieza-la-estrella") = es
	srv := serveLocal(ctx, t, businesses, slog.New(slog.DiscardHandler), nil)
	browser := axetest.Browser(ctx, t)

	business := func(t *testing.T, slug string) booking.Business {
		t.Helper()
		var b booking.Business
		getJSON(t, srv.URL+"/api/v1/businesses/"+slug, &b)
		return b
	}
	tests := []struct {
		lang, slug, email, mobile string
		preview, live, back       string // the page's words
	}{
		{"en", "mile-high-electric", "inbox@mile-high-electric.example.com", "3035550177",
			"Your booking page is a preview", "You are live: people can book you now.", "Back to preview: requests go to the preview inbox."},
		{"es", "limpieza-la-estrella", "inbox@limpieza-la-estrella.example.com", "3235550178",
			"Su página de reservas es una vista previa", "Publicado: las personas ya pueden reservar con usted.", "De vuelta en vista previa: las solicitudes van a la bandeja de prueba."},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			if b := business(t, tt.slug); !b.Preview {
				t.Fatal("getBusiness: want preview: true before going live")
			}
			p := newPhoneTab(t, browser, shots, "golive-"+tt.lang, tt.lang, scriptsOff)
			signIn(t, p, srv.URL, tt.email)
			pages, taps := p.pages.Load(), p.taps

			// The checklist, its one item not done a link to where it is done.
			if got := p.text("#live-title"); got != tt.preview {
				t.Errorf("the inbox's heading: got %q, want %q", got, tt.preview)
			}
			if n := p.count(`#live [data-done='true']`); n != 5 {
				t.Errorf("items done: got %d, want 5 (all but the mobile; the public details too)", n)
			}
			if n := p.count("#go-live"); n != 0 {
				t.Error("Go live is offered before the checklist holds")
			}
			p.check("checklist")
			p.click("a#fix-mobile")
			p.typeIn("#owner_phone", tt.mobile)
			p.click("button#send-code")
			p.typeIn("#code", textedCode(t, srv.URL, tt.mobile))
			p.click("button#confirm-code")
			p.click(`header a[href="/inbox"]`)
			if n := p.count(`#live [data-done='false']`); n != 0 {
				t.Errorf("items not done after the mobile: got %d, want 0", n)
			}
			p.check("ready")

			// Go live: one tap.
			p.click("button#go-live")
			if got := p.text("#notice"); got != tt.live {
				t.Errorf("after Go live: got %q, want %q", got, tt.live)
			}
			if b := business(t, tt.slug); b.Preview || !b.AcceptingRequests {
				t.Errorf("getBusiness after going live: preview %v, accepting %v", b.Preview, b.AcceptingRequests)
			}
			p.check("live")
			t.Logf("%s: from the inbox to live: %d taps, %d pages", tt.lang, p.taps-taps, p.pages.Load()-pages)

			// Back to preview: one tap; the form says so again.
			p.click("button#back-to-preview")
			if got := p.text("#notice"); got != tt.back {
				t.Errorf("after Back to preview: got %q, want %q", got, tt.back)
			}
			if b := business(t, tt.slug); !b.Preview {
				t.Error("getBusiness after going back: want preview: true")
			}
			p.check("back-to-preview")

			// Pause: one tap.
			p.click("button#pause-now")
			if b := business(t, tt.slug); b.AcceptingRequests {
				t.Error("getBusiness after pausing: want accepting_requests: false")
			}
			if n := p.count("button#resume-now"); n != 1 {
				t.Error("no Resume after pausing")
			}
			p.check("paused")
			p.click("button#resume-now")

			// The booking form of the preview business: its banner.
			p.open(srv.URL + "/book/" + tt.slug)
			if n := p.count("#preview"); n != 1 {
				t.Error("the booking form of a preview business has no preview banner")
			}
			p.check("form-preview")

			// The history, in settings.
			p.open(srv.URL + "/inbox/settings/history")
			if n := p.count("#history li"); n < 4 {
				t.Errorf("history: got %d changes, want the mobile, live, preview, pause and resume", n)
			}
			p.check("history")
		})
	}
}
