package pagetest

import (
	"regexp"
	"testing"
)

// tuForms are words that speak to the reader as tú: the Spanish texts
// speak to everyone as usted (issue 20).
var tuForms = regexp.MustCompile(`(?i)(^|[^\pL])(tú|tu|tus|te|ti|contigo|tienes|puedes|quieres|recibes|llamarte|págalo|acéptalas|recházalas|pediste|revísalo|inténtalo|estás|eres|debes)([^\pL]|$)`)

var franja = regexp.MustCompile(`(?i)franja`)

// CheckUsted fails t when the Spanish text s, named key, speaks as tú or
// calls an arrival window a franja rather than a horario.
func CheckUsted(t testing.TB, key, s string) {
	t.Helper()
	if m := tuForms.FindString(s); m != "" {
		t.Errorf("es %s = %q: %q speaks as tú", key, s, m)
	}
	if franja.MatchString(s) {
		t.Errorf("es %s = %q: say horario, not franja", key, s)
	}
}
