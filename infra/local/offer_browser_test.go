package main

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
)

// TestBrowserOfferSettings: an owner, on a phone, in English and in
// Spanish, edits what the business offers on the web inbox's settings: a
// service name with a link is refused next to its field with what was
// typed kept; two services are added, one urgent; three ZIP codes are
// pasted and shown back one a line. Each section is checked by axe-core
// and is no taller than two phone screens.
func TestBrowserOfferSettings(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	businesses := demoBusinessesFor(t)
	srv := serveLocal(ctx, t, businesses, slog.New(slog.DiscardHandler), nil)
	browser := axetest.Browser(ctx, t)
	shots := axetest.Screenshots(t)
	tests := []struct {
		lang, slug          string
		refused, refusedMsg string
		first, second       [4]string // name en, name es, description en, description es
		zips, wantZIPs      string
	}{
		{"en", "desert-cool-hvac", "Ducts, see ducts-deals.com", "Take out the link",
			[4]string{"Duct cleaning", "Limpieza de ductos", "We clean your air ducts.", "Limpiamos sus ductos de aire."},
			[4]string{"Gas leak check", "Revisión de fuga de gas", "We find gas leaks at once.", "Encontramos fugas de gas al momento."},
			"85004, 85281;85006", "85004\n85281\n85006"},
		{"es", "limpieza-la-estrella", "Limpieza www.barato.mx", "Quite el enlace",
			[4]string{"Window washing", "Lavado de ventanas", "Inside and outside.", "Por dentro y por fuera."},
			[4]string{"Flood cleanup", "Limpieza de inundación", "Water out, same day.", "Sacamos el agua el mismo día."},
			"90026 90031\n90065", "90026\n90031\n90065"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			p := newPhoneTab(t, browser, shots, "offer-"+tt.lang, tt.lang, scriptsOff)
			signIn(t, p, srv.URL, "inbox@"+tt.slug+".example.com")
			value := func(sel string) string {
				t.Helper()
				v, err := chromedp.Run(p.ctx, chromedp.Value(chromedp.CSS(sel)))
				if err != nil {
					t.Fatalf("%s's value: %v", sel, err)
				}
				return v
			}
			fit := func(section string) {
				t.Helper()
				h, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`document.documentElement.scrollHeight`))
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s section: %d px", section, h)
				if h > 2*844 {
					t.Errorf("the %s section is %d px tall, more than two phone screens (2 × 844 px)", section, h)
				}
			}
			clear := func(sel string) { // empties the field, to type anew in it
				t.Helper()
				p.setScripts(true)
				defer p.setScripts(false)
				if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`(document.querySelector("`+sel+`").value = "", true)`)); err != nil {
					t.Fatalf("clear %s: %v", sel, err)
				}
			}
			fill := func(s [4]string) {
				t.Helper()
				for i, sel := range []string{"#name_en", "#name_es", "#desc_en", "#desc_es"} {
					clear(sel)
					p.typeIn(sel, s[i])
				}
			}

			p.open(srv.URL + "/inbox/settings/services?lang=" + tt.lang)
			p.check("services")
			fit("services")
			before := p.count("#services-list li")

			// A name with a link: refused next to its field, kept as typed.
			p.click("#to-add-service")
			p.check("add-service")
			fit("add-service")
			fill(tt.first)
			clear("#name_en")
			p.typeIn("#name_en", tt.refused)
			p.click("#add-service button[type=submit]")
			p.check("refused")
			if got := p.text("#name_en-error"); !strings.HasPrefix(got, tt.refusedMsg) {
				t.Errorf("next to the name: got %q, want %q…", got, tt.refusedMsg)
			}
			if got := p.attr("#name_en", "aria-invalid"); got != "true" {
				t.Errorf("the name's aria-invalid: got %q", got)
			}
			if got := value("#name_en"); got != tt.refused {
				t.Errorf("the name typed: got %q, want %q kept", got, tt.refused)
			}
			if got := value("#desc_es"); got != tt.first[3] {
				t.Errorf("the description typed: got %q, want %q kept", got, tt.first[3])
			}

			// Two services, the first urgent.
			fill(tt.first)
			p.tick("#urgent")
			p.click("#add-service button[type=submit]")
			p.click("#to-add-service")
			fill(tt.second)
			p.click("#add-service button[type=submit]")
			p.check("two-services")
			if got := p.count("#services-list li"); got != before+2 { // and none of the refusal
				t.Fatalf("got %d services, want %d", got, before+2)
			}
			name := 1 // the page shows the name in its language
			if tt.lang == "en" {
				name = 0
			}
			list := p.text("#services-list")
			urgent := map[string]string{"en": "urgent", "es": "urgente"}[tt.lang]
			if !strings.Contains(list, tt.first[name]+" · "+urgent) || !strings.Contains(list, tt.second[name]) || strings.Contains(list, tt.second[name]+" · ") {
				t.Errorf("the services: got %q, want %q urgent and %q not", list, tt.first[name], tt.second[name])
			}

			// Three ZIP codes pasted with any separators, shown one a line.
			p.open(srv.URL + "/inbox/settings/area")
			p.check("area")
			fit("area")
			clear("#zip_codes")
			p.typeIn("#zip_codes", tt.zips)
			p.click("#area button[type=submit]")
			p.check("area-saved")
			if got := value("#zip_codes"); got != tt.wantZIPs {
				t.Errorf("the ZIP codes shown: got %q, want %q", got, tt.wantZIPs)
			}

			for _, section := range []string{"details", "windows"} {
				p.open(srv.URL + "/inbox/settings/" + section)
				p.check(section)
				fit(section)
			}
			t.Logf("%s: %d taps, %d pages", tt.lang, p.taps, p.pages.Load())
		})
	}
}
