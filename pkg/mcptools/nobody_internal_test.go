package mcptools

import (
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestNobodyWillWriteFollowsPersonReach: request_service's "nobody will
// write to them" follows booking.PersonReach (what pkg/notify sends), with
// why and the ways the status page can still add, for each business kind,
// each choice of the person and a deployment with texts off.
func TestNobodyWillWriteFollowsPersonReach(t *testing.T) {
	const statusURL = "https://book.example.com/r/7K3M-Q9TD-2HXA"
	plain := &booking.Business{Name: "Split Day Plumbing"}
	example := &booking.Business{Name: "Example Plumbing", Example: true}
	preview := &booking.Business{Name: "Preview Plumbing", Preview: true}
	none := booking.Contact{Phone: "(323) 555-0161"}
	email := booking.Contact{Phone: "(323) 555-0161", Email: " ana@example.com "}
	texts := booking.Contact{Phone: "+1 323 555 0161", SMSConsent: true}
	textsOff := booking.Delivery{TextsOff: true}
	tests := []struct {
		name    string
		b       *booking.Business
		c       booking.Contact
		d       booking.Delivery
		want    string // "" says nothing
		wantAdd string // the ways the page still offers; "" none
	}{
		{"plain, neither way", plain, none, booking.Delivery{}, "The person gave no e-mail and did not allow texts: nobody will write to them", "add an e-mail or allow texts."},
		{"plain, e-mail", plain, email, booking.Delivery{}, "", ""},
		{"plain, texts (a phone as typed)", plain, texts, booking.Delivery{}, "", ""},
		{"example, e-mail", example, email, booking.Delivery{}, "Example Plumbing is an example business, which writes to nobody: nobody will write to them", ""},
		{"example, neither way", example, none, booking.Delivery{}, "The person gave no e-mail and did not allow texts: nobody will write to them", ""},
		{"preview, texts", preview, texts, booking.Delivery{}, "Preview Plumbing is a preview: its messages go to a preview inbox, not to the person: nobody will write to them", ""},
		{"texts off, texts", plain, texts, textsOff, "This service sends no texts, and the person gave no e-mail: nobody will write to them", "add an e-mail."},
		{"texts off, neither way", plain, none, textsOff, "The person gave no e-mail and did not allow texts: nobody will write to them", "add an e-mail."},
		{"texts off, e-mail", plain, email, textsOff, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := nobodyWillWrite(tt.b, tt.c, tt.d, statusURL)
			if tt.want == "" {
				if got != "" {
					t.Errorf("got %q, want nothing", got)
				}
				return
			}
			if !strings.HasPrefix(got, tt.want) || !strings.Contains(got, "Give them status_url ("+statusURL+") to keep") {
				t.Errorf("got %q, want it to start %q and give status_url", got, tt.want)
			}
			if gotAdd := strings.Contains(got, "On that page"); gotAdd != (tt.wantAdd != "") || !strings.HasSuffix(got, tt.wantAdd) {
				t.Errorf("got %q, want the page's ways %q", got, tt.wantAdd)
			}
		})
	}
}
