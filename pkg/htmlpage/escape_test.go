package htmlpage_test

import (
	"html/template"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/htmlpage"
)

// TestEscape: Escape writes what html/template writes of the same string,
// in text and in a quoted attribute value.
func TestEscape(t *testing.T) {
	page := template.Must(template.New("p").Parse(`<p title="{{.}}">{{.}}</p>`))
	tests := []string{
		"",
		"Tuesday, December 1",
		"8:00 AM – 10:00 AM MST",
		`<script>alert("x" + 'y') & more</script>`,
		"tel:+16025550163",
		"nul\x00byte",
		"día · ñ",
	}
	for _, s := range tests {
		t.Run(s, func(t *testing.T) {
			var want strings.Builder
			if err := page.Execute(&want, s); err != nil {
				t.Fatal(err)
			}
			got := `<p title="` + htmlpage.Escape(s) + `">` + htmlpage.Escape(s) + `</p>`
			if got != want.String() {
				t.Errorf("got  %s\nwant %s", got, want.String())
			}
		})
	}
}
