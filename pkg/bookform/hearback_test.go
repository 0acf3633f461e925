package bookform_test

import (
	"context"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

// TestHowToHearBack: the contact step asks how the business should tell
// the person its answer, by e-mail, by text (never pre-ticked), both or
// neither, and says before Send what neither means; choosing neither is
// allowed and sends the request, with nobody to write to.
func TestHowToHearBack(t *testing.T) {
	f := newFixture(t, nil)
	day := f.day(t, plain, 1)
	for _, tt := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"How should the business tell you its answer? By e-mail, by text, both, or neither.",
			"With no e-mail and no texts, nobody will write to you: the next page shows the business&#39;s answer, so keep it, and the business may call you."}},
		{"es", []string{"¿Cómo debe darle el negocio su respuesta?", "Sin correo y sin mensajes de texto, nadie le escribirá"}},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			res := f.get(t, bookform.Path+plain+"?"+url.Values{"service": {"ac-not-cooling"}, "zip": {"85004"}, "day": {day}, "lang": {tt.lang}}.Encode())
			wantIn(t, res.Body, tt.want...)
			wantIn(t, res.Body, `<fieldset class="hear-back" id="hear-back">`, `id="email"`, `id="no-way"`,
				`<input type="checkbox" id="sms_consent" name="sms_consent" value="yes"><span>`)
			// The question holds both ways, and the warning comes before Send.
			body := res.Body
			if !(strings.Index(body, `id="hear-back"`) < strings.Index(body, `id="email"`) &&
				strings.Index(body, `id="sms_consent"`) < strings.Index(body, `id="no-way"`) &&
				strings.Index(body, `id="no-way"`) < strings.Index(body, `id="send"`)) {
				t.Errorf("want the fieldset, then the e-mail, the texts box, the warning, and Send, in that order")
			}
		})
	}
	t.Run("a deployment that sends no texts", func(t *testing.T) {
		// The same store, on a stack without an SMS origination identity:
		// texts are not offered, and the question and its warning name
		// e-mail alone.
		off := bookingtest.New(t, booking.Config{Store: f.store, SiteURL: siteURL, Now: f.clock.Now, TextsOff: true})
		h, err := bookform.New(bookform.Config{Bookings: off, Key: key, Now: f.clock.Now, Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		for lang, want := range map[string][]string{
			"en": {"By e-mail, or not at all.", "With no e-mail, nobody will write to you"},
			"es": {"Por correo electrónico, o de ninguna forma.", "Sin correo, nadie le escribirá"},
		} {
			res := pagetest.Do(t, h, "GET", bookform.Path+plain+"?"+url.Values{"service": {"ac-not-cooling"}, "zip": {"85004"}, "day": {day}, "lang": {lang}}.Encode(), nil)
			wantIn(t, res.Body, append(want, `id="email"`, `id="no-way"`)...)
			wantNotIn(t, res.Body, `id="sms_consent"`, "mensajes de texto, ambos", "by text, both")
		}
	})
	t.Run("neither is allowed", func(t *testing.T) {
		v := with(f.filled(t, plain, "ac-not-cooling", "85004", day), "email", "", "sms_consent", "")
		res := f.post(t, plain, v)
		if res.Status != 303 || !strings.Contains(res.Location, "/r/") {
			t.Fatalf("got %d to %q, want 303 to the status page: %s", res.Status, res.Location, res.Body)
		}
		code := res.Location[strings.LastIndex(res.Location, "/")+1:]
		r, err := f.bookings.OperatorRequest(context.Background(), code)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Contact.Silent() {
			t.Errorf("stored contact %+v, want no e-mail and no texts", r.Contact)
		}
	})
}
