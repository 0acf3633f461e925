package bookform_test

import (
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

// TestRefusalsRepeatABoundedValue: a refused form shows back at most each
// field's maxlength of what was typed, with the message next to the
// field: a value of 10,000 characters gets the answer one just over the
// bound gets, byte for byte in size.
func TestRefusalsRepeatABoundedValue(t *testing.T) {
	tests := []struct {
		field string
		max   int // the field's maxlength
		want  string
	}{
		{"street", 200, "on one line of up to 200 characters"},
		{"name", 100, "on one line of up to 100 characters"},
		{"phone", 30, "Write a US phone number of 10 digits"},
		{"email", 254, "does not look like an e-mail address"},
		{"zip", 10, "Write the ZIP code as 5 digits."},
		{"description", 2000, "2000 characters"},
	}
	f := newFixture(t, nil)
	v := f.filled(t, plain, "ac-not-cooling", "85004", f.day(t, plain, 1))
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			long := f.post(t, plain, with(v, tt.field, strings.Repeat("x", 10_000)))
			if long.Status != 400 {
				t.Fatalf("got %d, want 400: %s", long.Status, long.Body)
			}
			wantIn(t, long.Body, `id="`+tt.field+`-error">`, tt.want)
			just := f.post(t, plain, with(v, tt.field, strings.Repeat("x", tt.max+1)))
			pagetest.WantBoundedRepeat(t, long.Body, just.Body, tt.max)
		})
	}
}
