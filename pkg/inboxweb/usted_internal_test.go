package inboxweb

import (
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage"
	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

// TestSpanishUsesUsted: every Spanish text speaks as usted, and calls an
// arrival window a horario.
func TestSpanishUsesUsted(t *testing.T) {
	for _, texts := range []htmlpage.Texts{texts, embedTexts} {
		for key, s := range texts["es"] {
			pagetest.CheckUsted(t, key, s)
		}
	}
	// The code texted to the owner's phone (ownertexts.go), which is no
	// page's text.
	_, body := PhoneCodeText(&booking.Business{Name: "Limpieza La Estrella", DefaultLanguage: "es"}, "480213")
	pagetest.CheckUsted(t, "PhoneCodeText", body)
	if strings.Contains(body, ". Confirma ") {
		t.Errorf("es PhoneCodeText = %q: \"Confirma este número\" reads as tú; say it as usted", body)
	}
}
