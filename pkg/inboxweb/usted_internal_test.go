package inboxweb

import (
	"testing"

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
}
