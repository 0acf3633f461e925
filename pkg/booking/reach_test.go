package booking_test

import (
	"cmp"
	"fmt"
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

// TestPersonReach covers every combination of the business (plain,
// example, preview), the person's ways (e-mail, consent) and what holds
// one back (texts off, the number opted out, the address recorded
// undeliverable): what is actually written to, and why a chosen way is
// held back (an undeliverable address first: it is the reason the
// business is told when no way is left).
func TestPersonReach(t *testing.T) {
	type business struct {
		name             string
		example, preview bool
	}
	businesses := []business{{"plain", false, false}, {"example", true, false}, {"preview", false, true}}
	for _, bz := range businesses {
		for _, email := range []bool{false, true} {
			for _, consent := range []bool{false, true} {
				for _, textsOff := range []bool{false, true} {
					for _, optedOut := range []bool{false, true} {
						for _, bounced := range []bool{false, true} {
							name := fmt.Sprintf("%s/email=%v/consent=%v/texts_off=%v/opted_out=%v/undeliverable=%v", bz.name, email, consent, textsOff, optedOut, bounced)
							t.Run(name, func(t *testing.T) {
								b := &booking.Business{Slug: "b", Example: bz.example, Preview: bz.preview}
								c := booking.Contact{Phone: "5125550142", SMSConsent: consent}
								if email {
									c.Email = "j@example.com"
								}
								var want []string
								var wantHeld booking.Held
								switch {
								case bz.example && (email || consent):
									wantHeld = booking.HeldExample
								case bz.preview && (email || consent):
									wantHeld = booking.HeldPreview
								case bz.example || bz.preview:
								default:
									switch {
									case email && bounced:
										wantHeld = booking.HeldUndeliverable
									case email:
										want = append(want, "email")
									}
									switch {
									case consent && textsOff:
										wantHeld = cmp.Or(wantHeld, booking.HeldTextsOff)
									case consent && optedOut:
										wantHeld = cmp.Or(wantHeld, booking.HeldOptedOut)
									case consent:
										want = append(want, "sms")
									}
								}
								r := booking.PersonReach(b, c, booking.Delivery{TextsOff: textsOff, OptedOut: optedOut, EmailUndeliverable: bounced})
								if got := r.Channels(); !slices.Equal(got, want) {
									t.Errorf("Channels() = %#v, want %#v", got, want)
								}
								if got := r.Held; got != wantHeld {
									t.Errorf("Held = %q, want %q", got, wantHeld)
								}
								if got, want := r.None(), len(want) == 0; got != want {
									t.Errorf("None() = %v, want %v", got, want)
								}
							})
						}
					}
				}
			}
		}
	}
}

// TestAddableWays: the status page offers a way only when the person does
// not have it and PersonReach would write to it.
func TestAddableWays(t *testing.T) {
	plain, example, preview := &booking.Business{}, &booking.Business{Example: true}, &booking.Business{Preview: true}
	tests := []struct {
		name        string
		b           *booking.Business
		c           booking.Contact
		d           booking.Delivery
		email, text bool
	}{
		{"neither way yet", plain, booking.Contact{Phone: "5125550142"}, booking.Delivery{}, true, true},
		{"e-mail given", plain, booking.Contact{Phone: "5125550142", Email: "j@example.com"}, booking.Delivery{}, false, true},
		{"texts on", plain, booking.Contact{Phone: "5125550142", SMSConsent: true}, booking.Delivery{}, true, false},
		{"no phone a text reaches", plain, booking.Contact{Phone: "555"}, booking.Delivery{}, true, false},
		{"texts off", plain, booking.Contact{Phone: "5125550142"}, booking.Delivery{TextsOff: true}, true, false},
		{"opted out", plain, booking.Contact{Phone: "5125550142"}, booking.Delivery{OptedOut: true}, true, false},
		{"e-mail undeliverable: another in its place", plain, booking.Contact{Phone: "5125550142", Email: "j@example.com"}, booking.Delivery{EmailUndeliverable: true}, true, true},
		{"e-mail undeliverable, texts on", plain, booking.Contact{Phone: "5125550142", Email: "j@example.com", SMSConsent: true}, booking.Delivery{EmailUndeliverable: true}, true, false},
		{"e-mail undeliverable, example business", example, booking.Contact{Phone: "5125550142", Email: "j@example.com"}, booking.Delivery{EmailUndeliverable: true}, false, false},
		{"example business", example, booking.Contact{Phone: "5125550142"}, booking.Delivery{}, false, false},
		{"preview business", preview, booking.Contact{Phone: "5125550142"}, booking.Delivery{}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := booking.AddableWays(tt.b, tt.c, tt.d)
			if got.Email != tt.email || got.SMS != tt.text {
				t.Errorf("got e-mail %v, text %v; want %v, %v", got.Email, got.SMS, tt.email, tt.text)
			}
		})
	}
}
