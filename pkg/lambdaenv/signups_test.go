package lambdaenv_test

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
)

func TestSignupsPerHour(t *testing.T) {
	tests := []struct {
		value string
		want  int
		fails bool
	}{
		{"", 0, false}, // booking's default, 30
		{"30", 30, false},
		{" 5 ", 5, false},
		{"0", 0, true},
		{"-1", 0, true},
		{"many", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			got, err := lambdaenv.SignupsPerHour(func(k string) string {
				if k == "SIGNUPS_PER_HOUR" {
					return tt.value
				}
				return ""
			})
			if (err != nil) != tt.fails || got != tt.want {
				t.Errorf("SignupsPerHour(%q) = %d, %v; want %d, failing %v", tt.value, got, err, tt.want, tt.fails)
			}
		})
	}
}
