package pages_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestWordsOneWay: a confirmed request says the business comes to the
// person, and a request that ended without a visit (declined, cancelled,
// expired) links to the booking form to ask for another time, in the
// request's language.
func TestWordsOneWay(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		name, lang string
		action     booking.Action // the business's move, after the deposit is paid
		want       []string
		wantNot    []string
	}{
		{"accepted", "en", booking.ActionAccept,
			[]string{"Mile High Electric will come to your address in this arrival window."},
			[]string{"expects you", `id="book-again"`}},
		{"accepted in Spanish", "es", booking.ActionAccept,
			[]string{"Mile High Electric irá a su dirección en este horario de llegada."},
			[]string{"lo espera", `id="book-again"`}},
		{"declined", "en", booking.ActionDecline,
			[]string{"Call them or ask for another time.", `<a class="button" id="book-again" href="/book/mile-high-electric?lang=en">Ask for another time</a>`}, nil},
		{"declined in Spanish", "es", booking.ActionDecline,
			[]string{`<a class="button" id="book-again" href="/book/mile-high-electric?lang=es">Pedir otro horario</a>`}, nil},
		{"cancelled", "en", booking.ActionCancel,
			[]string{`id="book-again" href="/book/mile-high-electric?lang=en"`}, nil},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := f.create(t, "mile-high-electric", "80202", tt.lang, i)
			f.paySimulated(t, c.Code)
			f.businessMove(t, "mile-high-electric", c.Code, tt.action, "")
			res := f.do(t, "GET", "/r/"+c.Code, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.want...)
			wantNotIn(t, res.body, tt.wantNot...)
		})
	}
	t.Run("expired", func(t *testing.T) {
		c := f.create(t, "mile-high-electric", "80202", "en", 5)
		f.clock.Add(2 * time.Hour) // the deposit's hold ends unpaid
		res := f.do(t, "GET", "/r/"+c.Code, nil)
		wantIn(t, res.body, `data-state="expired"`, `id="book-again" href="/book/mile-high-electric?lang=en"`)
	})
}
