package notify

import (
	"reflect"
	"regexp"
	"testing"
)

// tuForms are words that speak to the reader as tú: the Spanish texts
// speak to everyone as usted (issue 20).
var tuForms = regexp.MustCompile(`(?i)(^|[^\pL])(tú|tu|tus|te|ti|contigo|tienes|puedes|quieres|recibes|llamarte|págalo|acéptalas|recházalas|pediste|revísalo|inténtalo|estás|eres|debes)([^\pL]|$)`)

// TestSpanishUsesUsted: every Spanish phrase of the messages speaks as
// usted, and calls an arrival window a horario.
func TestSpanishUsesUsted(t *testing.T) {
	l := reflect.ValueOf(*wording["es"])
	for i := range l.NumField() {
		f := l.Field(i)
		if f.Kind() != reflect.String {
			continue
		}
		name := l.Type().Field(i).Name
		if m := tuForms.FindString(f.String()); m != "" {
			t.Errorf("es %s = %q: %q speaks as tú", name, f.String(), m)
		}
		if regexp.MustCompile(`(?i)franja`).MatchString(f.String()) {
			t.Errorf("es %s = %q: say horario, not franja", name, f.String())
		}
	}
}
