package notify_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

const ownerPhone = "3125550199"

// texts sets the owner's confirmed number and choice of texts.
func texts(phone, choice string) func(*booking.Business) {
	return func(b *booking.Business) { b.OwnerPhone, b.TextMe = phone, choice }
}

// TestOwnerTexts: the owner is texted about a new request only at a
// confirmed number (owner_phone is stored only once confirmed), only as
// chosen (every request, urgent ones, none), and the text holds the
// service, the window, the ZIP code and the link, never the person's
// description or name; a number that replied STOP gets nothing.
func TestOwnerTexts(t *testing.T) {
	const textID = code + "#0/new_request/business/sms"
	tests := []struct {
		name     string
		edits    []func(*booking.Business)
		urgency  string
		optedOut bool
		want     bool
	}{
		{"no number", nil, "emergency", false, false},
		{"a number, texts none (the default)", []func(*booking.Business){texts(ownerPhone, booking.TextsNone)}, "emergency", false, false},
		{"a choice without a confirmed number", []func(*booking.Business){texts("", booking.TextsAll)}, "emergency", false, false},
		{"every request", []func(*booking.Business){texts(ownerPhone, booking.TextsAll)}, "soon", false, true},
		{"urgent only, an emergency", []func(*booking.Business){texts(ownerPhone, booking.TextsUrgent)}, "emergency", false, true},
		{"urgent only, an urgent service", []func(*booking.Business){texts(ownerPhone, booking.TextsUrgent), func(b *booking.Business) { b.Services[0].Urgent = true }}, "flexible", false, true},
		{"urgent only, not urgent", []func(*booking.Business){texts(ownerPhone, booking.TextsUrgent)}, "soon", false, false},
		{"a preview business", []func(*booking.Business){texts(ownerPhone, booking.TextsAll), preview}, "soon", false, false},
		{"the number replied STOP", []func(*booking.Business){texts(ownerPhone, booking.TextsAll)}, "soon", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.edits...)
			f.n.Links = &tokens{}
			if tt.optedOut {
				f.ledger.optedOut[ownerPhone] = true
			}
			r := request(booking.StatusNew, "en", both)
			r.Urgency = tt.urgency
			r.Description = "Gate code 4471, the dog bites. Call 555-0100 now!"
			if err := f.n.Notify(context.Background(), nil, r); err != nil {
				t.Fatal(err)
			}
			got := slices.Contains(f.senders.got(), textID+" -> +1"+ownerPhone)
			if got != tt.want {
				t.Fatalf("texted the owner: got %v, want %v (sent %v)", got, tt.want, f.senders.got())
			}
			if !tt.want {
				return
			}
			body := f.senders.bodies[textID]
			for _, want := range []string{"Doorstep: new request " + code, "Drain cleaning", "Mon, Nov 23", "ZIP 60613", siteURL + "/inbox/sign-in/", "Reply STOP"} {
				if !strings.Contains(body, want) {
					t.Errorf("the text lacks %q:\n%s", want, body)
				}
			}
			for _, never := range []string{"Gate code", "dog", "555-0100", "Ana Ruiz", "1 W Addison"} {
				if strings.Contains(body, never) {
					t.Errorf("the text holds %q, which the person wrote:\n%s", never, body)
				}
			}
			if urgent := strings.HasPrefix(body, "URGENT."); urgent != (tt.urgency == "emergency" || tt.name == "urgent only, an urgent service") {
				t.Errorf("the text says urgent: %v:\n%s", urgent, body)
			}
			// The e-mail and the text carry the same one-tap link.
			mail := f.senders.bodies[code+"#0/new_request/business/email"]
			link := body[strings.Index(body, siteURL+"/inbox/sign-in/"):]
			link = strings.Fields(link)[0]
			if !strings.Contains(mail, link) {
				t.Errorf("the e-mail lacks the text's link %s", link)
			}
		})
	}
}

// TestNudgeMessages: the nudge of a request still unanswered goes to the
// business only, by e-mail with a fresh one-tap link and, when the owner
// chose texts for it, by text; the person hears nothing of it, and no
// text holds the description.
func TestNudgeMessages(t *testing.T) {
	tests := []struct {
		name     string
		edits    []func(*booking.Business)
		urgency  string
		wantText bool
	}{
		{"no texts", nil, "emergency", false},
		{"texts for urgent ones, urgent", []func(*booking.Business){texts(ownerPhone, booking.TextsUrgent)}, "emergency", true},
		{"texts for urgent ones, not urgent", []func(*booking.Business){texts(ownerPhone, booking.TextsUrgent)}, "soon", false},
		{"texts for every request", []func(*booking.Business){texts(ownerPhone, booking.TextsAll)}, "soon", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.edits...)
			links := &tokens{}
			f.n.Links = links
			r := request(booking.StatusNew, "en", both)
			r.Urgency = tt.urgency
			r.Description = "Gate code 4471"
			before, after := move(r, booking.ActionNudge, booking.ActorSystem, booking.StatusNew)
			if err := f.n.Notify(context.Background(), &before, after); err != nil {
				t.Fatal(err)
			}
			want := []string{code + "#1/nudge/business/email -> " + inbox}
			if tt.wantText {
				want = append(want, code+"#1/nudge/business/sms -> +1"+ownerPhone)
			}
			if got := f.senders.got(); !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			mail := f.senders.bodies[code+"#1/nudge/business/email"]
			if len(links.recs) != 1 || !strings.Contains(mail, "has no answer yet") || !strings.Contains(mail, siteURL+"/inbox/sign-in/") {
				t.Errorf("got %d links stored, e-mail\n%s\nwant one, and the e-mail with it", len(links.recs), mail)
			}
			if sms := f.senders.bodies[code+"#1/nudge/business/sms"]; tt.wantText &&
				(!strings.Contains(sms, "still waits for your answer") || strings.Contains(sms, "4471")) {
				t.Errorf("got text %q, want the nudge without the description", sms)
			}
		})
	}
}
