package booking_test

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestMailbox: a "+tag" and the letter case are left out, for counting and
// blocking; nothing else of the address changes.
func TestMailbox(t *testing.T) {
	tests := []struct{ in, want string }{
		{"victim+1@example.com", "victim@example.com"},
		{"Victim+Tag+More@Example.COM", "victim@example.com"},
		{" victim@example.com ", "victim@example.com"},
		{"first.last@example.com", "first.last@example.com"},
		{"+tag@example.com", "+tag@example.com"}, // no local part without it
		{"victim+@example.com", "victim@example.com"},
		{"not-an-address", "not-an-address"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := booking.Mailbox(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
