package inboxweb_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestErase: the business erases one ended request's details from its
// page, after a confirm page; a live request offers no erasure and refuses
// one asked for by address; the erased request's page and the list say
// "details erased" where the person's details were, never an error; the
// Spanish pages say the same.
func TestErase(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	a, csrf := f.signIn(t, slug)
	live := f.create(t, slug, "", "", 1)
	code := f.create(t, slug, "", "", 2)
	f.businessMove(t, slug, code, booking.ActionDecline, "")

	res := f.do(t, a, "GET", "/inbox/requests/"+live, nil)
	wantNotIn(t, res.body, `id="erase"`)
	if res := f.do(t, a, "GET", "/inbox/requests/"+live+"/erase", nil); res.status != http.StatusConflict {
		t.Errorf("erase page of a live request: got %d, want 409", res.status)
	}
	if res := f.do(t, a, "POST", "/inbox/requests/"+live+"/erase", url.Values{"csrf": {csrf}}); res.status != http.StatusConflict {
		t.Errorf("erase of a live request: got %d, want 409", res.status)
	}
	if r := f.request(t, live); !r.Erased.IsZero() {
		t.Fatal("a live request was erased")
	}
	if res := f.do(t, a, "POST", "/inbox/requests/"+code+"/erase", url.Values{}); res.status != http.StatusForbidden {
		t.Errorf("erase without the CSRF token: got %d, want 403", res.status)
	}

	res = f.do(t, a, "GET", "/inbox/requests/"+code, nil)
	wantIn(t, res.body, `id="erase" href="/inbox/requests/`+code+`/erase"`, "Erase the person&#39;s details", personName)
	res = f.do(t, a, "GET", "/inbox/requests/"+code+"/erase", nil)
	if res.status != http.StatusOK {
		t.Fatalf("erase page: got %d, want 200", res.status)
	}
	wantIn(t, res.body, "This cannot be undone.", `action="/inbox/requests/`+code+`/erase"`)
	res = f.do(t, a, "POST", "/inbox/requests/"+code+"/erase", url.Values{"csrf": {csrf}})
	if res.status != http.StatusSeeOther || res.location != "/inbox/requests/"+code+"?done=erase" {
		t.Fatalf("erase: got %d to %q, want 303 to the request's page", res.status, res.location)
	}
	r := f.request(t, code)
	if r.Erased.IsZero() || r.ErasedBy != booking.ActorBusiness || r.Contact.Name != "" || r.Address.Street != "" || r.Description != "" {
		t.Errorf("stored after the erasure: %+v", r)
	}

	for _, tt := range []struct {
		lang               string
		wantPage, wantList []string
	}{
		{"en", []string{"The person&#39;s details are erased.", "Details erased", "Declined", "The person&#39;s details were erased on"}, []string{`<strong class="name">Details erased</strong>`, "· 85004 ·"}},
		{"es", []string{"Datos borrados", "Rechazada", "Los datos de la persona se borraron el"}, []string{`<strong class="name">Datos borrados</strong>`, "· 85004 ·"}},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			res := f.do(t, a, "GET", "/inbox/requests/"+code+"?done=erase&lang="+tt.lang, nil)
			if res.status != http.StatusOK {
				t.Fatalf("the erased request's page: got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.wantPage...)
			wantNotIn(t, res.body, personName, street, city, personEmail, `id="erase"`, `id="phone"`)
			res = f.do(t, a, "GET", "/inbox?lang="+tt.lang, nil)
			if res.status != http.StatusOK {
				t.Fatalf("the list: got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.wantList...)
		})
	}
	// Erasing again: the request's page, saying it cannot be.
	if res := f.do(t, a, "POST", "/inbox/requests/"+code+"/erase", url.Values{"csrf": {csrf}}); res.status != http.StatusSeeOther {
		t.Errorf("erase again: got %d, want 303 (erasing twice is erasing once)", res.status)
	}
}
