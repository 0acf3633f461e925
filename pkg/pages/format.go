package pages

import (
	"html/template"

	"github.com/doorstep/doorstep/pkg/display"
	"github.com/doorstep/doorstep/pkg/htmlpage"
)

// phone writes a business's phone (international format, +digits) for
// people, (512) 555-0142 for a US number, and as a tel: link; a phone that
// is not +digits is shown as it is, with no link.
func phone(p string) (string, template.URL) {
	link := htmlpage.TelURL(p)
	if link == "" {
		return p, ""
	}
	return display.Phone(p), link
}
