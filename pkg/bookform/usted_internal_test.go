package bookform

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

// TestSpanishUsesUsted: the form's Spanish speaks to the person as usted,
// and calls an arrival window a horario, as every other page does.
func TestSpanishUsesUsted(t *testing.T) {
	for key, s := range texts["es"] {
		pagetest.CheckUsted(t, key, s)
	}
}
