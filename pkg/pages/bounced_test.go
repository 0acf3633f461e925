package pages_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// bounce records the person's address of request code as undeliverable,
// as the mail-events function does on a permanent bounce.
func (f *fixture) bounce(t *testing.T, email, code string) {
	t.Helper()
	ev := booking.MailEvent{Kind: booking.MailBounced, Email: email, At: f.clock.Now(), RequestCode: code}
	if _, err := f.bookings.RecordMailEvent(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
}

// TestHearBackBounced: once the person's address bounced, the status page
// says "our e-mail to j…@… could not be delivered" (en, es), counts it as
// no way (booking.PersonReach), and offers the form for another address;
// with texts on, the answer still reaches them by text. Adding another
// address replaces the bad one, and the page then says it is written to.
func TestHearBackBounced(t *testing.T) {
	f := newFixture(t, nil)
	n := 0
	bad := func() string { n++; return fmt.Sprintf("jordan.typo%d@example.com", n) } // one address per request: each has its open count
	tests := []struct {
		name    string
		sms     bool
		lang    string
		want    []string
		notWant []string
	}{
		{"e-mail only", false, "en",
			[]string{`id="hear-bounced">Our e-mail to j…@… could not be delivered. Give another address below, and we write to it instead.</p>`,
				"Nobody will write to you: keep this page.", `id="hear-email"`, `id="hear-sms"`},
			[]string{`id="hear-ways"`, "jordan.typo"}},
		{"solo correo", false, "es",
			[]string{`id="hear-bounced">Nuestro correo a j…@… no se pudo entregar. Dé otro correo abajo y le escribiremos a ese.</p>`,
				"Nadie le escribirá: guarde esta página.", `id="hear-email"`},
			[]string{`id="hear-ways"`, "jordan.typo"}},
		{"e-mail and texts", true, "en",
			[]string{`id="hear-bounced">Our e-mail to j…@… could not be delivered.`, "answer reaches you by text to …0", `id="hear-email"`},
			[]string{"Nobody will write", "by e-mail to", `id="hear-sms"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr := bad()
			c := f.createWith(t, addr, tt.sms, tt.lang)
			before := f.do(t, "GET", "/r/"+c.Code, nil).body
			wantNotIn(t, before, `id="hear-bounced"`)
			f.bounce(t, addr, c.Code)
			res := f.do(t, "GET", "/r/"+c.Code, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.want...)
			wantNotIn(t, res.body, tt.notWant...)
		})
	}
	t.Run("another address replaces the bad one", func(t *testing.T) {
		addr := bad()
		c := f.createWith(t, addr, false, "en")
		f.bounce(t, addr, c.Code)
		res := f.do(t, "POST", "/r/"+c.Code+"/contact", url.Values{"way": {"email"}, "email": {"nina@example.com"}})
		if res.status != http.StatusSeeOther || res.location != "/r/"+c.Code+"?done=email" {
			t.Fatalf("got %d to %q, want 303 to ?done=email", res.status, res.location)
		}
		if got := f.request(t, c.Code).Contact.Email; got != "nina@example.com" {
			t.Errorf("stored e-mail %q, want nina@example.com in place of %s", got, addr)
		}
		page := f.do(t, "GET", res.location, nil).body
		wantIn(t, page, "We will write to n…@… about this request", "answer reaches you by e-mail to n…@….")
		wantNotIn(t, page, `id="hear-bounced"`, `id="hear-email"`, "Nobody will write")
	})
	t.Run("the bad address again changes nothing", func(t *testing.T) {
		addr := bad()
		c := f.createWith(t, addr, false, "en")
		f.bounce(t, addr, c.Code)
		res := f.do(t, "POST", "/r/"+c.Code+"/contact", url.Values{"way": {"email"}, "email": {addr}})
		if res.status != http.StatusSeeOther {
			t.Fatalf("got %d, want 303", res.status)
		}
		page := f.do(t, "GET", res.location, nil).body
		wantIn(t, page, `id="hear-bounced"`, `id="hear-email"`)
		wantNotIn(t, page, "We will write to")
	})
}
