package booking

import (
	"regexp"
	"testing"
)

func TestNewCode(t *testing.T) {
	format := regexp.MustCompile(`^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`)
	seen := map[string]bool{}
	for i := 0; i < 10000; i++ {
		c := NewCode()
		if !format.MatchString(c) {
			t.Fatalf("got %q, want 12 Crockford base32 characters in dashed groups of 4", c)
		}
		if seen[c] {
			t.Fatalf("got %q twice in %d codes", c, i)
		}
		seen[c] = true
		if got, ok := CanonicalCode(c); !ok || got != c {
			t.Fatalf("CanonicalCode(%q) = %q, %v; want it unchanged", c, got, ok)
		}
	}
}

func TestCanonicalCode(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"7K3M-Q9TD-2HXA", "7K3M-Q9TD-2HXA"},
		{"7k3mq9td2hxa", "7K3M-Q9TD-2HXA"},
		{"7k3m q9td 2hxa", "7K3M-Q9TD-2HXA"},
		{"OIL0-0000-0000", "0110-0000-0000"},
		{"7K3M-Q9TD-2HX", ""},
		{"7K3M-Q9TD-2HXAB", ""},
		{"7K3M-Q9TD-2HXU", ""}, // U is not in the alphabet
		{"../../etc/passwd", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := CanonicalCode(tt.in)
			if got != tt.want && !(tt.want == "" && !ok) {
				t.Fatalf("got %q, %v, want %q", got, ok, tt.want)
			}
			if ok != (tt.want != "") {
				t.Fatalf("got ok %v, want %v", ok, tt.want != "")
			}
		})
	}
}
