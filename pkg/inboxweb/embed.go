package inboxweb

import (
	"html"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage"
)

// embedView is the settings page's snippet that puts the visitor's booking
// form (pkg/bookform, {SITE_URL}/book/{slug}) on the business's own site:
// a link, and an <iframe>, which the form allows only on the origin of the
// business's url.
type embedView struct {
	Heading, Help, Open, FormURL string
	LinkLabel, Link              string
	FrameLabel, Frame            string
}

// embedTexts are the snippet's words.
var embedTexts = htmlpage.Texts{
	"en": {
		"heading": "Your booking form on your site",
		"help":    "People can ask for a visit at your booking form. Put this link, or the form itself in a frame, on your own site. The frame shows only on %s, your site's address.",
		"open":    "Open your booking form",
		"link":    "A link button (HTML)",
		"frame":   "The form in a frame (HTML)",
		"button":  "Request a visit",
		"title":   "Request a visit from %s",
	},
	"es": {
		"heading": "Su formulario de reservas en su sitio",
		"help":    "Las personas pueden pedir una visita en su formulario de reservas. Ponga este enlace, o el formulario en un marco, en su propio sitio. El marco solo se muestra en %s, la dirección de su sitio.",
		"open":    "Abrir su formulario de reservas",
		"link":    "Un botón de enlace (HTML)",
		"frame":   "El formulario en un marco (HTML)",
		"button":  "Pedir una visita",
		"title":   "Pedir una visita a %s",
	},
}

// embedSnippet is b's snippet, in lang (the form opens in the business's
// default language; the person may switch).
func embedSnippet(siteURL string, b *booking.Business, lang string) embedView {
	t := func(key string, args ...any) string { return embedTexts.T(lang, key, args...) }
	form := siteURL + "/book/" + b.Slug
	origin, ok := htmlpage.Origin(b.URL)
	if !ok {
		origin = b.URL
	}
	attr := html.EscapeString
	return embedView{
		Heading: t("heading"), Help: t("help", origin), Open: t("open"), FormURL: form,
		LinkLabel: t("link"), Link: `<a href="` + attr(form) + `" rel="noopener">` + html.EscapeString(t("button")) + `</a>`,
		FrameLabel: t("frame"), Frame: `<iframe src="` + attr(form) + `" title="` + attr(t("title", b.Name)) +
			`" style="width:100%;min-height:1600px;border:0" loading="lazy"></iframe>`,
	}
}
