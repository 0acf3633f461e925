package booking_test

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

func TestFormatMoney(t *testing.T) {
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
		if got := booking.FormatMoney(tt.cents, tt.currency); got != tt.want {
			t.Errorf("FormatMoney(%d, %q) = %q, want %q", tt.cents, tt.currency, got, tt.want)
		}
	}
}

func TestFormatPhone(t *testing.T) {
	tests := []struct{ in, want string }{
		{"+15125550142", "(512) 555-0142"}, // a business's
		{"5125550142", "(512) 555-0142"},   // a person's
		{"+442071234567", "+442071234567"}, // not a US number
		{"+1512555014", "+1512555014"},     // too short
		{"512555014x", "512555014x"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := booking.FormatPhone(tt.in); got != tt.want {
			t.Errorf("FormatPhone(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
