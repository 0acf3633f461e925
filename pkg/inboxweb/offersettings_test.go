package inboxweb_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// sectionVersion reads the version of the forms of a settings section.
func (f *fixture) sectionVersion(t *testing.T, a agent, section string) string {
	t.Helper()
	res := f.do(t, a, "GET", "/inbox/settings/"+section, nil)
	m := versionField.FindStringSubmatch(res.body)
	if m == nil {
		t.Fatalf("no version on the %s section (%d)", section, res.status)
	}
	return m[1]
}

// detailsOf is the details form of b as the page shows it.
func detailsOf(b *booking.Business) url.Values {
	v := url.Values{"name": {b.Name}, "phone": {b.Phone}, "city": {b.City}, "state": {b.State}, "timezone": {b.Timezone}, "url": {b.URL},
		"default_language": {b.DefaultLanguage}}
	for _, l := range b.Languages {
		v.Set("lang_"+l, "on")
	}
	if b.License != nil {
		v.Set("license_number", b.License.Number)
		v.Set("license_authority", b.License.Authority)
	}
	return v
}

func TestOfferForms(t *testing.T) {
	const slug = "desert-cool-hvac"
	newService := url.Values{"name_en": {"Duct cleaning"}, "name_es": {"Limpieza de ductos"}, "desc_en": {"We clean your air ducts."}, "desc_es": {"Limpiamos sus ductos de aire."}}
	with := func(base url.Values, kv ...string) url.Values {
		v := url.Values{}
		for k, x := range base {
			v[k] = slices.Clone(x)
		}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	tests := []struct {
		name       string
		form       string
		values     func(b *booking.Business) url.Values
		lang       string
		wantStatus int
		wantIn     []string // on the page of a 400 or 409
		check      func(before, after *booking.Business) bool
	}{
		{"new public details", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "name", "Desert Cool Heating & Air", "phone", "(602) 555-0199", "city", "Tempe", "state", "az",
				"timezone", "America/Denver", "lang_es", "on", "default_language", "es", "license_number", "ROC 123456", "license_authority", "Arizona ROC")
		}, "", 303, nil, func(_, b *booking.Business) bool {
			return b.Name == "Desert Cool Heating & Air" && b.Phone == "+16025550199" && b.City == "Tempe" && b.State == "AZ" &&
				b.Timezone == "America/Denver" && slices.Equal(b.Languages, []string{"en", "es"}) && b.DefaultLanguage == "es" &&
				b.License != nil && *b.License == booking.License{Number: "ROC 123456", Authority: "Arizona ROC"}
		}},
		{"no license", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "license_number", "", "license_authority", "")
		}, "", 303, nil, func(_, b *booking.Business) bool { return b.License == nil }},
		{"a name with a link", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "name", "Desert Cool, book at cheap-ac.com")
		}, "", 400, []string{
			`<a href="#name">Business name: Take out the link: web addresses are not allowed here.</a>`,
			`value="Desert Cool, book at cheap-ac.com" maxlength="60" autocomplete="organization" aria-describedby="name-error" aria-invalid="true"`,
			`<p class="field-error" id="name-error">Take out the link`,
		}, unchanged},
		{"a name with a link, in Spanish", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "name", "Desert Cool www.barato.mx")
		}, "es", 400, []string{`<p class="field-error" id="name-error">Quite el enlace: aquí no se permiten direcciones web.</p>`, `value="Desert Cool www.barato.mx"`}, unchanged},
		{"a name with another phone", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "name", "Desert Cool 480-555-0100")
		}, "", 400, []string{`id="name-error">Take out the phone number`}, unchanged},
		{"a public phone of no country", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "phone", "+0123456789")
		}, "", 400, []string{`<p class="field-error" id="phone-error">Enter a phone number of 10 digits`, `value="&#43;0123456789"`}, unchanged},
		{"a public phone whose exchange starts with 1, in Spanish", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "phone", "(602) 155-0199")
		}, "es", 400, []string{`<p class="field-error" id="phone-error">Escriba un teléfono de 10 dígitos`, `value="(602) 155-0199"`}, unchanged},
		{"a public phone of another country", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "phone", "+52 55 1234 5678")
		}, "", 303, nil, func(_, b *booking.Business) bool { return b.Phone == "+525512345678" }},
		{"half a license and a bad state", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "license_number", "ROC 1", "license_authority", "", "state", "Arizona")
		}, "", 400, []string{`id="license_authority-error"`, `id="state-error"`, `value="ROC 1"`, `value="Arizona"`}, unchanged},
		{"another business's site", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "url", "https://austin-rapid-plumbing.example.com")
		}, "", 400, []string{`id="url-error">Another business on Doorstep has this website.`, `value="https://austin-rapid-plumbing.example.com"`}, unchanged},
		{"a time zone off the list", "details", func(b *booking.Business) url.Values {
			return with(detailsOf(b), "timezone", "Europe/Paris")
		}, "", 400, []string{`id="timezone-error"`}, unchanged},
		{"add an urgent service", "add-service", func(*booking.Business) url.Values { return with(newService, "urgent", "on") }, "", 303, nil,
			func(before, b *booking.Business) bool {
				s := b.Services[len(b.Services)-1]
				return len(b.Services) == len(before.Services)+1 && s.ID == "duct-cleaning" && s.Urgent && s.Name.ES == "Limpieza de ductos"
			}},
		{"add a service whose name has a link", "add-service", func(*booking.Business) url.Values {
			return with(newService, "name_en", "Ducts http://ducts.example")
		}, "", 400, []string{`<p class="field-error" id="name_en-error">Take out the link`, `value="Ducts http://ducts.example"`, `Limpiamos sus ductos de aire.</textarea>`}, unchanged},
		{"add a service whose description has an e-mail, in Spanish", "add-service", func(*booking.Business) url.Values {
			return with(newService, "desc_es", "Escriba a ductos@example.com")
		}, "es", 400, []string{`<p class="field-error" id="desc_es-error">Quite la dirección de correo`, `Escriba a ductos@example.com</textarea>`}, unchanged},
		{"rename a service", "edit-service", func(b *booking.Business) url.Values {
			return with(newService, "id", b.Services[0].ID)
		}, "", 303, nil, func(before, b *booking.Business) bool {
			return b.Services[0].ID == before.Services[0].ID && b.Services[0].Name.EN == "Duct cleaning"
		}},
		{"move a service down", "move-service", func(b *booking.Business) url.Values {
			return url.Values{"id": {b.Services[0].ID}, "to": {"down"}}
		}, "", 303, nil, func(before, b *booking.Business) bool {
			return b.Services[1].ID == before.Services[0].ID && b.Services[0].ID == before.Services[1].ID
		}},
		{"move the first service up", "move-service", func(b *booking.Business) url.Values {
			return url.Values{"id": {b.Services[0].ID}, "to": {"up"}}
		}, "", 400, []string{"This service is not on the list any more."}, unchanged},
		{"remove a service", "remove-service", func(b *booking.Business) url.Values {
			return url.Values{"id": {b.Services[0].ID}}
		}, "", 303, nil, func(before, b *booking.Business) bool {
			return len(b.Services) == len(before.Services)-1 && slices.Contains(b.RemovedServiceIDs, before.Services[0].ID)
		}},
		{"paste ZIP codes", "area", func(*booking.Business) url.Values {
			return url.Values{"label": {"Phoenix and Tempe"}, "zip_codes": {"85004, 85281;85006\n85004  "}}
		}, "", 303, nil, func(_, b *booking.Business) bool {
			return b.ServiceArea.Label == "Phoenix and Tempe" && slices.Equal(b.ServiceArea.ZIPCodes, []string{"85004", "85281", "85006"})
		}},
		{"a ZIP code of 4 digits", "area", func(*booking.Business) url.Values {
			return url.Values{"label": {"Phoenix"}, "zip_codes": {"85004 8528"}}
		}, "es", 400, []string{`id="zip_codes-error">Cada código postal tiene 5 dígitos.`, `>85004 8528</textarea>`}, unchanged},
		{"no ZIP code", "area", func(*booking.Business) url.Values {
			return url.Values{"label": {"Phoenix"}, "zip_codes": {" \n "}}
		}, "", 400, []string{`id="zip_codes-error">Enter at least one ZIP code.`}, unchanged},
		{"90-minute windows, 30 days", "windows", func(*booking.Business) url.Values {
			return url.Values{"arrival_window_minutes": {"90"}, "books_up_to_days_ahead": {"30"}}
		}, "", 303, nil, func(_, b *booking.Business) bool { return b.ArrivalWindowMinutes == 90 && b.BooksUpToDaysAhead == 30 }},
		{"a length off the list", "windows", func(*booking.Business) url.Values {
			return url.Values{"arrival_window_minutes": {"100"}, "books_up_to_days_ahead": {"30"}}
		}, "", 400, []string{"These settings are not valid."}, unchanged},
		{"61 days", "windows", func(*booking.Business) url.Values {
			return url.Values{"arrival_window_minutes": {"120"}, "books_up_to_days_ahead": {"61"}}
		}, "", 400, []string{`id="books_up_to_days_ahead-error"`, `value="61"`}, unchanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			a, csrf := f.signIn(t, slug)
			before := f.business(t, slug)
			sec := offerSection[tt.form]
			form := tt.values(before)
			form.Set("csrf", csrf)
			form.Set("version", f.sectionVersion(t, a, sec))
			path := "/inbox/settings/" + tt.form
			if tt.lang != "" {
				path += "?lang=" + tt.lang
			}
			res := f.do(t, a, "POST", path, form)
			if res.status != tt.wantStatus {
				t.Fatalf("got %d, want %d:\n%s", res.status, tt.wantStatus, res.body)
			}
			if res.status == http.StatusSeeOther {
				if want := "/inbox/settings/" + sec + "?done=" + tt.form; res.location != want {
					t.Errorf("got 303 to %q, want %q", res.location, want)
				}
				wantIn(t, f.do(t, a, "GET", res.location, nil).body, `class="notice" role="status"`)
			}
			wantIn(t, res.body, tt.wantIn...)
			if after := f.business(t, slug); !tt.check(before, after) {
				t.Errorf("stored %+v", after)
			}
		})
	}
}

// offerSection is the section of the settings each offer form is in.
var offerSection = map[string]string{"details": "details", "add-service": "services", "edit-service": "services", "move-service": "services",
	"remove-service": "services", "area": "area", "windows": "windows"}

// unchanged: nothing was stored.
func unchanged(before, after *booking.Business) bool {
	return before.Details().Version() == after.Details().Version() && booking.ServicesVersion(before.Services) == booking.ServicesVersion(after.Services) &&
		before.Area().Version() == after.Area().Version() && before.WindowSettings().Version() == after.WindowSettings().Version()
}

// TestOfferSections: each section shows what the business offers now, in
// English and Spanish; ZIP codes one a line; the deposit read-only, with
// whom to ask.
func TestOfferSections(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "austin-rapid-plumbing" // takes a deposit
	a, _ := f.signIn(t, slug)
	b := f.business(t, slug)
	tests := []struct {
		path   string
		wantIn []string
	}{
		{"/inbox/settings/details?lang=en", []string{`value="` + b.Name + `"`, `value="&#43;` + strings.TrimPrefix(b.Phone, "+") + `"`, `<option value="America/Chicago" selected>Central (Chicago)</option>`}},
		{"/inbox/settings/details?lang=es", []string{"Datos públicos", `Centro (Chicago)`}},
		{"/inbox/settings/services?lang=en", []string{b.Services[0].Name.EN, "Add a service", `aria-label="Down: ` + b.Services[0].Name.EN + `">Down</button>`}},
		{"/inbox/settings/services?lang=es", []string{b.Services[0].Name.ES, "Agregar un servicio"}},
		{"/inbox/settings/services?edit=" + b.Services[1].ID, []string{"Edit the service", `value="` + b.Services[1].ID + `"`, `value="` + b.Services[1].Name.ES + `"`}},
		{"/inbox/settings/area?lang=en", []string{strings.Join(b.ServiceArea.ZIPCodes, "\n") + "</textarea>"}},
		{"/inbox/settings/windows?lang=en", []string{`<option value="120" selected>2 hours</option>`, "Deposits are turned on and changed by the operator", `id="deposit"`}},
		{"/inbox/settings/windows?lang=es", []string{"2 horas", "Los depósitos los activa y cambia el operador"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res := f.do(t, a, "GET", tt.path, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d", res.status)
			}
			wantIn(t, res.body, tt.wantIn...)
		})
	}
	// A zone an operator loaded, off the list, is kept and shown by its name.
	f.setSchedule(t, slug, func(b *booking.Business) { b.Timezone = "America/Boise" })
	wantIn(t, f.do(t, a, "GET", "/inbox/settings/details", nil).body, `<option value="America/Boise" selected>America/Boise</option>`)
	// The deposit has no form: no field posts it.
	res := f.do(t, a, "GET", "/inbox/settings/windows", nil)
	wantNotIn(t, res.body, `name="amount_cents"`, `name="booking_deposit`)
}

// TestWindowLengthWithRequestAhead: the window length does not change
// while a request lies ahead; the page says so next to the field, and
// the days ahead typed are kept.
func TestWindowLengthWithRequestAhead(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	f.create(t, slug, "", "", 2)
	a, csrf := f.signIn(t, slug)
	form := url.Values{"csrf": {csrf}, "version": {f.sectionVersion(t, a, "windows")}, "arrival_window_minutes": {"90"}, "books_up_to_days_ahead": {"21"}}
	res := f.do(t, a, "POST", "/inbox/settings/windows", form)
	if res.status != http.StatusConflict {
		t.Fatalf("got %d, want 409:\n%s", res.status, res.body)
	}
	wantIn(t, res.body, `id="arrival_window_minutes-error">Requests still to come hold windows of the current length.`, `value="21"`)
	if b := f.business(t, slug); b.ArrivalWindowMinutes != 120 || b.BooksUpToDaysAhead == 21 {
		t.Errorf("stored %d minutes, %d days", b.ArrivalWindowMinutes, b.BooksUpToDaysAhead)
	}
	// The days ahead alone change.
	form.Set("arrival_window_minutes", "120")
	if res := f.do(t, a, "POST", "/inbox/settings/windows", form); res.status != http.StatusSeeOther {
		t.Fatalf("days ahead alone: got %d", res.status)
	}
	if b := f.business(t, slug); b.BooksUpToDaysAhead != 21 {
		t.Errorf("stored %d days, want 21", b.BooksUpToDaysAhead)
	}
}

// TestOfferFormChangedMeanwhile: a form of a section as it was before
// another change stores nothing and shows the section as it is now.
func TestOfferFormChangedMeanwhile(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	a, csrf := f.signIn(t, slug)
	old := f.sectionVersion(t, a, "area")
	f.setSchedule(t, slug, func(b *booking.Business) { b.ServiceArea.ZIPCodes = []string{"85004"} })
	res := f.do(t, a, "POST", "/inbox/settings/area", url.Values{"csrf": {csrf}, "version": {old}, "label": {"X"}, "zip_codes": {"85006"}})
	if res.status != http.StatusConflict {
		t.Fatalf("got %d, want 409", res.status)
	}
	wantIn(t, res.body, ">85004</textarea>")
	if b := f.business(t, slug); !slices.Equal(b.ServiceArea.ZIPCodes, []string{"85004"}) {
		t.Errorf("stored %v", b.ServiceArea.ZIPCodes)
	}
}
