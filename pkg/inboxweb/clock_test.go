package inboxweb_test

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/inboxweb"
)

func TestParseClock(t *testing.T) {
	tests := []struct {
		typed   string
		closing bool
		want    string // "" refused
	}{
		{"14:00", false, "14:00"},
		{"14", false, "14:00"},
		{"8", false, "08:00"},
		{"08:30", false, "08:30"},
		{"2pm", false, "14:00"},
		{"2 PM", false, "14:00"},
		{"2:00 PM", false, "14:00"},
		{" 2:30 p.m. ", false, "14:30"},
		{"8am", false, "08:00"},
		{"12am", false, "00:00"},
		{"12pm", false, "12:00"},
		{"12:00 AM", true, "24:00"},
		{"00:00", true, "24:00"},
		{"24:00", true, "24:00"},
		{"0:00", false, "00:00"},
		{"24:00", false, ""},
		{"24:30", true, ""},
		{"25:00", false, ""},
		{"8:60", false, ""},
		{"8:5", false, ""},
		{"13pm", false, ""},
		{"0am", false, ""},
		{"8 o'clock", false, ""},
		{"0800", false, ""},
		{"-1", false, ""},
		{"", false, ""},
		{"pm", false, ""},
		{"８:００", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.typed, func(t *testing.T) {
			got, ok := inboxweb.ParseClock(tt.typed, tt.closing)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("parseClock(%q, closing %v) = %q, %v, want %q", tt.typed, tt.closing, got, ok, tt.want)
			}
		})
	}
}

func TestShowClock(t *testing.T) {
	tests := []struct{ lang, clock, want string }{
		{"en", "14:00", "2:00 PM"},
		{"en", "08:30", "8:30 AM"},
		{"en", "00:00", "12:00 AM"},
		{"en", "24:00", "12:00 AM"},
		{"es", "14:00", "14:00"},
		{"es", "08:30", "08:30"},
		{"es", "24:00", "24:00"},
		{"en", "not a time", "not a time"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+" "+tt.clock, func(t *testing.T) {
			got := inboxweb.ShowClock(tt.lang, tt.clock)
			if got != tt.want {
				t.Errorf("showClock(%q, %q) = %q, want %q", tt.lang, tt.clock, got, tt.want)
			}
			// What is shown reads back as what is stored.
			if tt.clock != "not a time" {
				if back, ok := inboxweb.ParseClock(got, tt.clock == "24:00"); !ok || back != tt.clock {
					t.Errorf("parseClock(%q) = %q, %v, want %q back", got, back, ok, tt.clock)
				}
			}
		})
	}
}
