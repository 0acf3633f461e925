package booking

import (
	"testing"
	"time"
)

// Times for people, in both languages, across a daylight-saving change.
func TestFormatTimes(t *testing.T) {
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 24, 22, 30, 0, 0, time.UTC) // Tuesday 14:30 PST
	summer := time.Date(2026, 7, 1, 16, 0, 0, 0, time.UTC)   // Wednesday 09:00 PDT
	tests := []struct {
		name, got, want string
	}{
		{"day en", FormatDay("en", start, la), "Tuesday, November 24, 2026"},
		{"day es", FormatDay("es", start, la), "martes 24 de noviembre de 2026"},
		{"clock en", FormatClock("en", start, la), "2:30 PM"},
		{"clock es", FormatClock("es", start, la), "14:30"},
		{"moment en", FormatMoment("en", start, la), "Tuesday, November 24, 2026, 2:30 PM PST"},
		{"moment es, summer time", FormatMoment("es", summer, la), "miércoles 1 de julio de 2026, 09:00 (PDT)"},
		{"window en", FormatWindow("en", start, start.Add(2*time.Hour), la), "Tuesday, November 24, 2026, 2:30 PM – 4:30 PM PST"},
		{"window es", FormatWindow("es", start, start.Add(2*time.Hour), la), "martes 24 de noviembre de 2026, de 14:30 a 16:30 (PST)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}
