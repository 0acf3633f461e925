package pages_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestErase walks "Erase my details" in each language: not offered while
// the request is live (and refused if asked for by address), offered once
// it has ended, a confirmation page that says it cannot be undone, then
// the status page saying the details are erased, with no link to erase
// again; the stored request has lost them. A POST without the confirm
// field erases nothing.
func TestErase(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		lang                                        string
		wantLink, wantConfirm, wantFinal, wantAfter string
	}{
		{"en", "Erase my details", "This cannot be undone.", "Your details are erased.", "Details erased on Monday, November 23, 2026."},
		{"es", "Borrar mis datos", "Esto no se puede deshacer.", "Sus datos están borrados.", "Datos borrados el lunes 23 de noviembre de 2026."},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			c := f.create(t, "mile-high-electric", "80202", tt.lang, 2)
			f.paySimulated(t, c.Code)
			res := f.do(t, "GET", "/r/"+c.Code, nil)
			wantNotIn(t, res.body, `id="erase"`)
			for _, method := range []string{"GET", "POST"} {
				if res := f.do(t, method, "/r/"+c.Code+"/erase", url.Values{"confirm": {"yes"}}); res.status != http.StatusConflict {
					t.Errorf("%s erase of a live request: got %d, want 409", method, res.status)
				}
			}
			f.businessMove(t, "mile-high-electric", c.Code, booking.ActionDecline, "")

			res = f.do(t, "GET", "/r/"+c.Code, nil)
			wantIn(t, res.body, `id="erase" href="/r/`+c.Code+`/erase"`, tt.wantLink)
			res = f.do(t, "GET", "/r/"+c.Code+"/erase", nil)
			if res.status != http.StatusOK {
				t.Fatalf("erase page: got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.wantConfirm, `name="confirm" value="yes"`)
			if f.request(t, c.Code).Erased.IsZero() != true {
				t.Fatal("the confirm page erased the request")
			}
			if res := f.do(t, "POST", "/r/"+c.Code+"/erase", url.Values{}); res.status != http.StatusSeeOther || !f.request(t, c.Code).Erased.IsZero() {
				t.Fatalf("a POST without confirm: got %d, erased %t; want 303 back, nothing erased", res.status, !f.request(t, c.Code).Erased.IsZero())
			}
			res = f.do(t, "POST", "/r/"+c.Code+"/erase", url.Values{"confirm": {"yes"}})
			if res.status != http.StatusSeeOther || res.location != "/r/"+c.Code+"?done=erased" {
				t.Fatalf("got %d to %q, want 303 to the status page", res.status, res.location)
			}
			r := f.request(t, c.Code)
			if r.Erased.IsZero() || r.ErasedBy != booking.ActorCustomer || r.Contact != (booking.Contact{}) || r.Address != (booking.Address{ZIP: "80202"}) || r.Description != "" {
				t.Errorf("stored after the erasure: %+v", r)
			}
			res = f.do(t, "GET", res.location, nil)
			if res.status != http.StatusOK {
				t.Fatalf("status page after the erasure: got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.wantFinal, tt.wantAfter, `data-state="declined"`)
			wantNotIn(t, res.body, `id="erase"`, city)
			// Erasing again by address: the status page, saying it cannot.
			if res := f.do(t, "GET", "/r/"+c.Code+"/erase", nil); res.status != http.StatusConflict {
				t.Errorf("the erase page of an erased request: got %d, want 409", res.status)
			}
		})
	}
}
