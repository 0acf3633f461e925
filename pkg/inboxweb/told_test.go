package inboxweb_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestToldHowThePersonHears: after each move the person hears of, the
// confirmation names the ways the request's stored contact reaches them
// (booking.Contact.Reach), for each combination of e-mail and text
// consent, in English and Spanish; when nobody writes to them it says to
// call, with the tel: link, and the list and the page mark the request.
func TestToldHowThePersonHears(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "mile-high-electric"
	f.noDeposit(t, slug)
	a, csrf := f.signIn(t, slug)
	tests := []struct {
		name     string
		email    bool
		sms      bool
		action   booking.Action
		before   []booking.Action
		wantEN   string
		wantES   string
		wantMark bool
	}{
		{"e-mail and text, accept", true, true, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">The person is told by e-mail and text.</span>",
			"Aceptada. <span id=\"told\">Se le avisa a la persona por correo electrónico y por mensaje de texto.</span>", false},
		{"e-mail only, accept", true, false, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">The person is told by e-mail.</span>",
			"Aceptada. <span id=\"told\">Se le avisa a la persona por correo electrónico.</span>", false},
		{"text only, decline", false, true, booking.ActionDecline, nil,
			"Declined. <span id=\"told\">The person is told by text.</span>",
			"Rechazada. <span id=\"told\">Se le avisa a la persona por mensaje de texto.</span>", false},
		{"neither, accept", false, false, booking.ActionAccept, nil,
			"Accepted. <span id=\"told\">The person gave no e-mail and did not allow texts: call them at <a class=\"tel\" id=\"told-phone\" href=\"tel:&#43;1720555014",
			"Aceptada. <span id=\"told\">La persona no dio correo electrónico ni permitió mensajes de texto: llámela al <a class=\"tel\" id=\"told-phone\" href=\"tel:&#43;1720555014", true},
		{"neither, cancel", false, false, booking.ActionCancel, []booking.Action{booking.ActionAccept},
			"Cancelled. <span id=\"told\">The person gave no e-mail and did not allow texts: call them at <a class=\"tel\" id=\"told-phone\" href=\"tel:&#43;1720555014",
			"Cancelada. <span id=\"told\">La persona no dio correo electrónico ni permitió mensajes de texto: llámela al", true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code := f.createFor(t, slug, "", "", 1+i%4, i/4, func(c *booking.Contact) {
				if !tt.email {
					c.Email = ""
				}
				c.SMSConsent = tt.sms
			})
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
				wantIn(t, list.body, mark+`>No e-mail, no texts: nobody writes to this person. <a class="tel" href="tel:&#43;1720555014`)
			}
			path := "/inbox/requests/" + code + "/" + string(tt.action)
			form := url.Values{"csrf": {csrf}}
			if tt.action != booking.ActionAccept {
				// The confirm step says beforehand that nobody writes to
				// the person, when nobody does.
				confirm := f.do(t, a, "GET", path, nil).body
				if got := strings.Contains(confirm, `id="told"`); got != tt.wantMark {
					t.Errorf("the confirm page says to call: got %v, want %v", got, tt.wantMark)
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
