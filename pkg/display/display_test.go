package display_test

import (
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/display"
)

// Times for people, in both languages, across a daylight-saving change.
func TestTimes(t *testing.T) {
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 24, 22, 30, 0, 0, time.UTC) // Tuesday 14:30 PST
	summer := time.Date(2026, 7, 1, 16, 0, 0, 0, time.UTC)   // Wednesday 09:00 PDT
	tests := []struct {
		name, got, want string
	}{
		{"day en", display.Day("en", start, la), "Tuesday, November 24, 2026"},
		{"day es", display.Day("es", start, la), "martes 24 de noviembre de 2026"},
		{"clock en", display.Clock("en", start, la), "2:30 PM"},
		{"clock es", display.Clock("es", start, la), "14:30"},
		{"moment en", display.Moment("en", start, la), "Tuesday, November 24, 2026, 2:30 PM PST"},
		{"moment es, summer time", display.Moment("es", summer, la), "miércoles 1 de julio de 2026, 09:00 (PDT)"},
		{"window en", display.Window("en", start, start.Add(2*time.Hour), la), "Tuesday, November 24, 2026, 2:30 PM – 4:30 PM PST"},
		{"window es", display.Window("es", start, start.Add(2*time.Hour), la), "martes 24 de noviembre de 2026, de 14:30 a 16:30 (PST)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

func TestMoney(t *testing.T) {
	tests := []struct {
		cents    int
		currency string
		want     string
	}{
		{4900, "usd", "$49.00"},
		{2505, "usd", "$25.05"},
		{1000, "eur", "10.00 EUR"},
		{5, "usd", "$0.05"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := display.Money(tt.cents, tt.currency); got != tt.want {
				t.Errorf("Money(%d, %q) = %q, want %q", tt.cents, tt.currency, got, tt.want)
			}
		})
	}
}

func TestPhone(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a business's", "+15125550142", "(512) 555-0142"},
		{"a person's", "5125550142", "(512) 555-0142"},
		{"not a US number", "+442071234567", "+442071234567"},
		{"too short", "+1512555014", "+1512555014"},
		{"not digits", "512555014x", "512555014x"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := display.Phone(tt.in); got != tt.want {
				t.Errorf("Phone(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
