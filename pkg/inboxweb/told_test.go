package inboxweb_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/inboxweb"
)

// TestToldHowThePersonHears: after each move the person hears of, the
// confirmation names the ways that actually reach them
// (booking.PersonReach: what pkg/notify sends), for each combination of
// e-mail and text consent, of an example or preview business and of a
// deployment with texts off, in English and Spanish; when nobody writes
// to them it says to call, with the tel: link (and why, when a way they
// chose does not reach them), and the list and the page mark the request.
func TestToldHowThePersonHears(t *testing.T) {
	stopped := optOuts{}
	f := newFixture(t, func(c *inboxweb.Config) { c.OptOuts = stopped })
	const slug = "mile-high-electric"
	f.noDeposit(t, slug)
	a, csrf := f.signIn(t, slug)
	textsOn := f.h
	off := f.config
	off.Bookings = bookingtest.New(t, booking.Config{Store: f.counted, SiteURL: siteURL, Now: f.clock.Now, TextsOff: true})
	textsOff := inboxweb.New(off)
	const (
		plain = iota
		example
		preview
		noTexts  // the deployment sends no texts
		optedOut // the person's number replied STOP
		bounced  // the person's e-mail address bounced (recorded undeliverable)
	)
	tests := []struct {
		name     string
		email    bool
		sms      bool
		action   booking.Action
		before   []booking.Action
		wantEN   string
		wantES   string
		wantMark bool
		setting  int
		markEN   string // the list's mark, when not the plain one
	}{
		{"e-mail and text, accept", true, true, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">The person is told by e-mail and text.</span>",
			"Aceptada. <span id=\"told\">Se le avisa a la persona por correo electrónico y por mensaje de texto.</span>", false, plain, ""},
		{"e-mail only, accept", true, false, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">The person is told by e-mail.</span>",
			"Aceptada. <span id=\"told\">Se le avisa a la persona por correo electrónico.</span>", false, plain, ""},
		{"text only, decline", false, true, booking.ActionDecline, nil,
			"Declined. <span id=\"told\">The person is told by text.</span>",
			"Rechazada. <span id=\"told\">Se le avisa a la persona por mensaje de texto.</span>", false, plain, ""},
		{"neither, accept", false, false, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">The person gave no e-mail and did not allow texts: call them at <a class=\"tel\" id=\"told-phone\" href=\"tel:&#43;1720555014",
			"Aceptada. <span id=\"told\">La persona no dio correo electrónico ni permitió mensajes de texto: llámela al <a class=\"tel\" id=\"told-phone\" href=\"tel:&#43;1720555014", true, plain, ""},
		{"neither, cancel", false, false, booking.ActionCancel, []booking.Action{booking.ActionAccept},
			"Cancelled. <span id=\"told\">The person gave no e-mail and did not allow texts: call them at <a class=\"tel\" id=\"told-phone\" href=\"tel:&#43;1720555014",
			"Cancelada. <span id=\"told\">La persona no dio correo electrónico ni permitió mensajes de texto: llámela al", true, plain, ""},
		{"example business, e-mail and text, accept", true, true, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">This is an example business: nobody is written to. Call them at <a class=\"tel\" id=\"told-phone\" href=\"tel:&#43;1720555014",
			"Aceptada. <span id=\"told\">Este es un negocio de ejemplo: no se le escribe a nadie. Llame a la persona al <a class=\"tel\"", true, example,
			"Example business: nobody writes to this person."},
		{"example business, neither, decline", false, false, booking.ActionDecline, nil,
			"Declined. <span id=\"told\">The person gave no e-mail and did not allow texts: call them at",
			"Rechazada. <span id=\"told\">La persona no dio correo electrónico ni permitió mensajes de texto: llámela al", true, example, ""},
		{"preview business, e-mail only, accept", true, false, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">This business is a preview: the person&#39;s messages go to the preview inbox, not to them. Call them at <a class=\"tel\"",
			"Aceptada. <span id=\"told\">Este negocio es una vista previa: los mensajes de la persona van a la bandeja de vista previa, no a ella. Llámela al <a class=\"tel\"", true, preview,
			"Preview: this person&#39;s messages go to the preview inbox, not to them."},
		{"preview business, text only, cancel", false, true, booking.ActionCancel, []booking.Action{booking.ActionAccept},
			"Cancelled. <span id=\"told\">This business is a preview:",
			"Cancelada. <span id=\"told\">Este negocio es una vista previa:", true, preview,
			"Preview: this person&#39;s messages go to the preview inbox, not to them."},
		{"texts off, e-mail and text, accept", true, true, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">The person is told by e-mail.</span>",
			"Aceptada. <span id=\"told\">Se le avisa a la persona por correo electrónico.</span>", false, noTexts, ""},
		{"texts off, text only, decline", false, true, booking.ActionDecline, nil,
			"Declined. <span id=\"told\">Texts are off on this service, and the person gave no e-mail: call them at <a class=\"tel\" id=\"told-phone\" href=\"tel:&#43;1720555014",
			"Rechazada. <span id=\"told\">Los mensajes de texto están desactivados en este servicio y la persona no dio correo electrónico: llámela al <a class=\"tel\"", true, noTexts,
			"Texts are off and no e-mail: nobody writes to this person."},
		{"opted out, e-mail and text, accept", true, true, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">The person is told by e-mail.</span>",
			"Aceptada. <span id=\"told\">Se le avisa a la persona por correo electrónico.</span>", false, optedOut, ""},
		{"opted out, text only, decline", false, true, booking.ActionDecline, nil,
			"Declined. <span id=\"told\">The person&#39;s number replied STOP to texts, and they gave no e-mail: call them at <a class=\"tel\" id=\"told-phone\" href=\"tel:&#43;1720555014",
			"Rechazada. <span id=\"told\">El número de la persona respondió STOP a los mensajes de texto y no dio correo electrónico: llámela al <a class=\"tel\"", true, optedOut,
			"Texts stopped (STOP) and no e-mail: nobody writes to this person."},
		{"bounced, e-mail only, accept", true, false, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">Our e-mail to j…@… could not be delivered, and no other way reaches the person: call them at <a class=\"tel\" id=\"told-phone\" href=\"tel:&#43;1720555014",
			"Aceptada. <span id=\"told\">Nuestro correo a j…@… no se pudo entregar y ninguna otra vía llega a la persona: llámela al <a class=\"tel\"", true, bounced,
			"Our e-mail to j…@… could not be delivered: nobody writes to this person. Call them."},
		{"bounced, e-mail and text, decline", true, true, booking.ActionDecline, nil,
			"Declined. <span id=\"told\">The person is told by text.</span>",
			"Rechazada. <span id=\"told\">Se le avisa a la persona por mensaje de texto.</span>", false, bounced, ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.h = textsOn
			if tt.setting == noTexts {
				f.h = textsOff
			}
			err := f.store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
				c := *stored
				c.Example, c.Preview = tt.setting == example, tt.setting == preview
				c.RequestsPerHour = 20 // more rows than the default's 10
				return &c, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			code := f.createFor(t, slug, "", "", 1+i%4, i/4, func(c *booking.Contact) {
				if !tt.email {
					c.Email = ""
				}
				c.SMSConsent = tt.sms
				if tt.setting == bounced {
					c.Email = "jo.bounce@example.com"
				}
			})
			if tt.setting == optedOut {
				stopped[f.request(t, code).Contact.Phone] = true
			}
			if tt.setting == bounced {
				_, err := f.bookings.RecordMailEvent(context.Background(), booking.MailEvent{Kind: booking.MailBounced, Email: "jo.bounce@example.com", At: f.clock.Now(), RequestCode: code})
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, m := range tt.before {
				f.businessMove(t, slug, code, m, "")
			}
			// Before the move: the list and the page mark a request
			// nobody writes to the person of, with the number to call.
			list, page := f.do(t, a, "GET", "/inbox", nil), f.do(t, a, "GET", "/inbox/requests/"+code, nil)
			mark := fmt.Sprintf(`data-unreachable="%s"`, code)
			if got := contains(list.body, mark); got != tt.wantMark {
				t.Errorf("the list marks it unreachable: got %v, want %v", got, tt.wantMark)
			}
			if got := contains(page.body, `id="unreachable"`); got != tt.wantMark {
				t.Errorf("the page marks it unreachable: got %v, want %v", got, tt.wantMark)
			}
			if tt.wantMark {
				markEN := tt.markEN
				if markEN == "" {
					markEN = "No e-mail, no texts: nobody writes to this person."
				}
				wantIn(t, list.body, mark+`>`+markEN+` <a class="tel" href="tel:&#43;1720555014`)
				wantIn(t, page.body, `id="unreachable">`+markEN+`</strong>`)
			}
			// The page's hints (decline, cancel) and the move page's
			// explanation say "the person is told" only when someone
			// writes to them; otherwise that nobody does, and to call.
			move := f.do(t, a, "GET", "/inbox/requests/"+code+"/move", nil).body
			for what, body := range map[string]string{"the page": page.body, "the move page": move} {
				if tt.wantMark {
					wantNotIn(t, body, "the person is told", "The person is told")
					if !strings.Contains(strings.ToLower(body), "nobody writes to the person") {
						t.Errorf("%s: does not say that nobody writes to the person", what)
					}
				} else if !strings.Contains(body, "the person is told") {
					t.Errorf("%s: no \"the person is told\", though someone writes to them", what)
				}
			}
			path := "/inbox/requests/" + code + "/" + string(tt.action)
			form := url.Values{"csrf": {csrf}}
			if tt.action != booking.ActionAccept {
				// The confirm step says beforehand that nobody writes to
				// the person, when nobody does, in its explanation too.
				confirm := f.do(t, a, "GET", path, nil).body
				if got := strings.Contains(confirm, `id="told"`); got != tt.wantMark {
					t.Errorf("the confirm page says to call: got %v, want %v", got, tt.wantMark)
				}
				if got := strings.Contains(confirm, "The person is told"); got == tt.wantMark {
					t.Errorf("the confirm page's explanation says the person is told: got %v, want %v", got, !tt.wantMark)
				}
				form.Set("deposit", "")
			}
			res := f.do(t, a, "POST", path, form)
			if res.status != http.StatusSeeOther {
				t.Fatalf("got %d, want 303", res.status)
			}
			en, es := f.do(t, a, "GET", res.location, nil).body, f.do(t, a, "GET", res.location+"&lang=es", nil).body
			wantIn(t, en, tt.wantEN)
			wantIn(t, es, tt.wantES)
			if tt.wantMark {
				wantIn(t, en, "</a>. Their page already shows your answer.</span>")
				wantIn(t, es, "</a>. La página de la persona ya muestra su respuesta.</span>")
			}
		})
	}
	t.Run("moves the person does not hear of say nothing of it", func(t *testing.T) {
		f.h = textsOn
		code := f.createFor(t, slug, "", "", 4, 2, func(c *booking.Contact) { c.Email, c.SMSConsent = "", false })
		res := f.do(t, a, "POST", "/inbox/requests/"+code+"/spam", url.Values{"csrf": {csrf}})
		if res.status != http.StatusSeeOther {
			t.Fatalf("got %d, want 303", res.status)
		}
		page := f.do(t, a, "GET", res.location, nil).body
		wantIn(t, page, "Marked not genuine. Nobody is told.")
		wantNotIn(t, page, `id="told"`, `id="unreachable"`) // declined: nothing more to tell
	})
}

func contains(body, s string) bool {
	return strings.Contains(body, s)
}
