package inboxweb_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

// TestRefusalsRepeatABoundedValue: a refused form shows back at most its
// field's maxlength of what was typed, with the message next to the field:
// a value of 10,000 characters gets the answer one just over the bound
// gets, byte for byte in size.
func TestRefusalsRepeatABoundedValue(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	a, csrf := f.signIn(t, slug)
	b := f.business(t, slug)
	signedIn := func(section string, base url.Values) func(string) url.Values {
		return func(string) url.Values {
			v := url.Values{}
			for k, x := range base {
				v[k] = x
			}
			v.Set("csrf", csrf)
			v.Set("version", f.sectionVersion(t, a, section))
			return v
		}
	}
	newService := url.Values{"name_en": {"Duct cleaning"}, "name_es": {"Limpieza de ductos"}, "desc_en": {"Ducts."}, "desc_es": {"Ductos."}}
	tests := []struct {
		name, path, field string
		who               agent
		max               int // the field's maxlength
		form              func(value string) url.Values
		wantIn            []string
	}{
		{"sign-up name", "/start", "name", agent{}, 200, func(v string) url.Values {
			return signupForm(v, "plumbing", "jose@example.com", true, "en")
		}, []string{`<p class="field-error" id="name-error">Enter your business&#39;s name: one line, up to 60 characters`}},
		{"sign-up e-mail, in Spanish", "/start", "email", agent{}, 254, func(v string) url.Values {
			return signupForm("Fontanería José", "plumbing", v+"@example.com", true, "es")
		}, []string{`<p class="field-error" id="email-error">Escriba un correo electrónico`}},
		{"sign-in e-mail", "/inbox/sign-in", "email", agent{}, 254, func(v string) url.Values {
			return url.Values{"email": {v + "@example.com"}}
		}, []string{`aria-describedby="invalid"`}},
		{"business name", "/inbox/settings/details", "name", a, 60, func(v string) url.Values {
			form := signedIn("details", detailsOf(b))(v)
			form.Set("name", v)
			return form
		}, []string{`<p class="field-error" id="name-error">Use 60 characters or fewer.</p>`}},
		{"service description", "/inbox/settings/add-service", "desc_en", a, 200, func(v string) url.Values {
			form := signedIn("services", newService)(v)
			form.Set("desc_en", v)
			return form
		}, []string{`<p class="field-error" id="desc_en-error">Use 200 characters or fewer.</p>`}},
		{"service area label", "/inbox/settings/area", "label", a, 60, func(v string) url.Values {
			form := signedIn("area", url.Values{"zip_codes": {"85004"}})(v)
			form.Set("label", v)
			return form
		}, []string{`<p class="field-error" id="label-error">Use 60 characters or fewer.</p>`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			long := f.do(t, tt.who, "POST", tt.path, tt.form(strings.Repeat("x", 10_000)))
			if long.status != http.StatusBadRequest {
				t.Fatalf("got %d, want 400:\n%s", long.status, long.body)
			}
			wantIn(t, long.body, tt.wantIn...)
			wantIn(t, long.body, `aria-invalid="true"`)
			just := f.do(t, tt.who, "POST", tt.path, tt.form(strings.Repeat("x", tt.max+1)))
			pagetest.WantBoundedRepeat(t, long.body, just.body, tt.max)
		})
	}
}

// TestLanguageLinkRepeatsABoundedQuery: a signed-out page's language link
// repeats at most 100 characters of each value of the query.
func TestLanguageLinkRepeatsABoundedQuery(t *testing.T) {
	f := newFixture(t, nil)
	res := f.do(t, agent{}, "GET", "/start?ref="+strings.Repeat("x", 10_000), nil)
	if got, want := languageLink.FindString(res.body), `id="lang" href="/start?lang=es&amp;ref=`+strings.Repeat("x", 100)+`"`; got != want {
		t.Errorf("got %.200s, want %.200s", got, want)
	}
	if len(res.body) > 10_000 {
		t.Errorf("got a page of %d bytes, want it under 10,000", len(res.body))
	}
}
