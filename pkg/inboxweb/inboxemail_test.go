package inboxweb_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestInboxEmailChangesPerDay: a business's links to new inbox addresses
// stop at booking.MaxInboxEmailChangesPerDay, whichever the addresses;
// past it, the page says so next to the field (in English and Spanish),
// keeps what was typed, answers 429 with Retry-After (never a 5xx), says
// no link is on its way, and sends nothing.
func TestInboxEmailChangesPerDay(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "mile-high-electric"
	a, csrf := f.signIn(t, slug)
	ask := func(path, email string) response {
		t.Helper()
		return f.do(t, a, "POST", path, url.Values{"csrf": {csrf}, "inbox_email": {email}})
	}
	for i := range booking.MaxInboxEmailChangesPerDay {
		if res := ask("/inbox/settings/inbox-email", fmt.Sprintf("office-%d@example.com", i)); res.status != http.StatusSeeOther {
			t.Fatalf("link %d: got %d, want 303", i+1, res.status)
		}
	}
	tests := []struct {
		lang, path, want string
	}{
		{"en", "/inbox/settings/inbox-email", "No link was sent: this business asked for the most links to new addresses a day allows. Try again tomorrow."},
		{"es", "/inbox/settings/inbox-email?lang=es", "No se envió ningún enlace: esta empresa ya pidió hoy los enlaces a direcciones nuevas que se permiten en un día. Inténtelo mañana."},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			typed := "one-more-" + tt.lang + "@example.com"
			res := ask(tt.path, typed)
			if res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") == "" {
				t.Fatalf("past the day's links: got %d, Retry-After %q, want 429 and one", res.status, res.header.Get("Retry-After"))
			}
			wantIn(t, res.body, `id="inbox_email-error">`+tt.want, `value="`+typed+`"`, `aria-invalid="true"`)
			wantNotIn(t, res.body, "A link is on its way", "Un enlace va en camino")
		})
	}
	f.mail.mu.Lock()
	sent := len(f.mail.changes)
	f.mail.mu.Unlock()
	if sent != booking.MaxInboxEmailChangesPerDay {
		t.Errorf("%d links sent, want %d", sent, booking.MaxInboxEmailChangesPerDay)
	}
}
