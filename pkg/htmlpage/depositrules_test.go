package htmlpage_test

import (
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/htmlpage"
	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

func TestDepositRules(t *testing.T) {
	tests := []struct {
		lang, hours string
	}{
		{"en", "at least 24 hours before"},
		{"es", "al menos 24 horas antes"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			rules := htmlpage.DepositRules(tt.lang, 24)
			if got := len(rules); got != 6 {
				t.Fatalf("got %d rules, want the spec's 6: %q", got, rules)
			}
			if got := rules[2]; !strings.Contains(got, tt.hours) {
				t.Errorf("got %q, want the free-cancellation hours: %q", got, tt.hours)
			}
			for _, r := range rules {
				if r == "" || strings.Contains(r, "%!") {
					t.Errorf("got rule %q, want a written rule", r)
				}
				if tt.lang == "es" {
					pagetest.CheckUsted(t, "deposit rule", r)
				}
			}
		})
	}
}
