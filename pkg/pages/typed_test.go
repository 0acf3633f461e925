package pages_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

// TestRefusalsRepeatABoundedValue: the status page's hear-back form shows
// back at most its field's maxlength (254) of an address typed wrong, with
// the message next to the field, and the lookup at most 40 characters of a
// code: a value of 10,000 characters gets the answer one just over the
// bound gets, byte for byte in size.
func TestRefusalsRepeatABoundedValue(t *testing.T) {
	f := newFixture(t, nil)
	c := f.createWith(t, "", false, "en")
	tests := []struct {
		name, method string
		max          int
		path         func(value string) string
		form         func(value string) url.Values
		want         []string
	}{
		{"hear-back e-mail", "POST", 254, func(string) string { return "/r/" + c.Code + "/contact" },
			func(v string) url.Values { return url.Values{"way": {"email"}, "email": {v + "@example.com"}} },
			[]string{`<p class="error" id="hear-email-error">Type an e-mail address, like name@example.com.</p>`}},
		{"lookup code", "GET", 40, func(v string) string { return "/r?code=" + v },
			func(string) url.Values { return nil }, []string{`id="code-error"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			long := strings.Repeat("x", 10_000)
			res := f.do(t, tt.method, tt.path(long), tt.form(long))
			if res.status != http.StatusBadRequest {
				t.Fatalf("got %d, want 400\n%s", res.status, res.body)
			}
			wantIn(t, res.body, tt.want...)
			wantIn(t, res.body, `aria-invalid="true"`)
			justOver := strings.Repeat("x", tt.max+1)
			just := f.do(t, tt.method, tt.path(justOver), tt.form(justOver))
			pagetest.WantBoundedRepeat(t, res.body, just.body, tt.max)
		})
	}
}
