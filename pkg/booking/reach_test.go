package booking_test

import (
	"slices"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

func TestContactReach(t *testing.T) {
	tests := []struct {
		name    string
		contact booking.Contact
		want    []string
		none    bool
	}{
		{"e-mail and texts", booking.Contact{Phone: "5125550142", Email: "j@example.com", SMSConsent: true}, []string{"email", "sms"}, false},
		{"e-mail only", booking.Contact{Phone: "5125550142", Email: "j@example.com"}, []string{"email"}, false},
		{"texts only", booking.Contact{Phone: "5125550142", SMSConsent: true}, []string{"sms"}, false},
		{"neither", booking.Contact{Phone: "5125550142"}, []string{}, true},
		{"consent without a phone a text can reach", booking.Contact{Phone: "555", SMSConsent: true}, []string{}, true},
		{"erased contact", booking.Contact{}, []string{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.contact.Reach()
			if got := r.Channels(); !slices.Equal(got, tt.want) || got == nil {
				t.Errorf("Channels() = %#v, want %#v", got, tt.want)
			}
			if got := r.None(); got != tt.none {
				t.Errorf("None() = %v, want %v", got, tt.none)
			}
		})
	}
}
