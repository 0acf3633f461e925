package pages

import (
	"html/template"
	"strings"

	"github.com/doorstep/doorstep/pkg/booking"
)

// phone writes a business's phone (international format, +digits) for
// people, (512) 555-0142 for a US number, and as a tel: link.
func phone(p string) (string, template.URL) {
	digits := strings.TrimPrefix(p, "+")
	for _, c := range digits {
		if c < '0' || c > '9' {
			return p, ""
		}
	}
	link := template.URL("tel:+" + digits) // +digits only: safe in an href
	return booking.FormatPhone(p), link
}
