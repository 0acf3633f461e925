package inboxweb_test

import (
	"testing"
)

// TestEmbedSnippet: the settings page gives the snippet that puts the
// booking form on the business's own site, a link and a frame, in the
// business's language, written as text to copy (never as markup on the
// page itself).
func TestEmbedSnippet(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		slug string
		want []string
	}{
		{"desert-cool-hvac", []string{
			`<a id="booking-form" class="back" href="` + siteURL + `/book/desert-cool-hvac">Open your booking form</a>`,
			`<textarea id="embed-link" readonly rows="3">&lt;a href=&#34;` + siteURL + `/book/desert-cool-hvac&#34; rel=&#34;noopener&#34;&gt;Request a visit&lt;/a&gt;</textarea>`,
			`&lt;iframe src=&#34;` + siteURL + `/book/desert-cool-hvac&#34; title=&#34;Request a visit from Desert Cool Heating &amp;amp; Air&#34;`,
			"only on https://desert-cool-hvac.example.com,",
		}},
		{"limpieza-la-estrella", []string{"Su formulario de reservas en su sitio", "Pedir una visita", "/book/limpieza-la-estrella"}},
	}
	for _, tt := range tests {
		t.Run(tt.slug, func(t *testing.T) {
			a, _ := f.signIn(t, tt.slug)
			res := f.do(t, a, "GET", "/inbox/settings/booking-form", nil)
			if res.status != 200 {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.want...)
			wantNotIn(t, res.body, "<iframe")
		})
	}
}
