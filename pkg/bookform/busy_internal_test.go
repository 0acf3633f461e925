package bookform

import (
	"errors"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// A create the store was too busy to answer keeps the form as typed and
// says, at the top, in the page's language, to send it again: not "could
// not be sent, check the form", which would send the person hunting for a
// mistake they did not make.
func TestRefuseServerBusy(t *testing.T) {
	busy := booking.Busy(errors.New("ThrottlingException"))
	for _, lang := range []string{"en", "es"} {
		t.Run(lang, func(t *testing.T) {
			f := &form{Lang: lang}
			if got := f.refuse(busy); got != "top" {
				t.Errorf("field: got %q, want top", got)
			}
			if got, want := f.Errors["top"], tr(lang, "refused_busy"); got != want || got == tr(lang, "refused_other") {
				t.Errorf("message: got %q, want %q", got, want)
			}
			if f.Call {
				t.Error("told to call the business, want to send again")
			}
		})
	}
}
