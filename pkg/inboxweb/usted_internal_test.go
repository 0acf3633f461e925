package inboxweb

import (
	"regexp"
	"testing"
)

// tuForms are words that speak to the reader as tú: the Spanish texts
// speak to everyone as usted (issue 20).
var tuForms = regexp.MustCompile(`(?i)(^|[^\pL])(tú|tu|tus|te|ti|contigo|tienes|puedes|quieres|recibes|llamarte|págalo|acéptalas|recházalas|pediste|revísalo|inténtalo|estás|eres|debes)([^\pL]|$)`)

// TestSpanishUsesUsted: every Spanish text speaks as usted, and calls an
// arrival window a horario.
func TestSpanishUsesUsted(t *testing.T) {
	franja := regexp.MustCompile(`(?i)franja`)
	for key, s := range texts["es"] {
		if m := tuForms.FindString(s); m != "" {
			t.Errorf("es %s = %q: %q speaks as tú", key, s, m)
		}
		if franja.MatchString(s) {
			t.Errorf("es %s = %q: say horario, not franja", key, s)
		}
	}
}
