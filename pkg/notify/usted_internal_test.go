package notify

import (
	"reflect"
	"testing"

	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

// TestSpanishUsesUsted: every Spanish phrase of the messages speaks as
// usted, and calls an arrival window a horario.
func TestSpanishUsesUsted(t *testing.T) {
	l := reflect.ValueOf(*wording["es"])
	for i := range l.NumField() {
		if f := l.Field(i); f.Kind() == reflect.String {
			pagetest.CheckUsted(t, l.Type().Field(i).Name, f.String())
		}
	}
}
