package bookform_test

import (
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

// TestEveryProblemAtOnce: a form with three mistakes (a phone that is no
// phone, no street, the deposit's box not ticked) is refused once, with
// the three listed at the top in the page's order, each linking to its
// field and said next to it with aria-invalid; nothing is stored. The
// JSON API's one code is CreateRequest's, the first of them.
func TestEveryProblemAtOnce(t *testing.T) {
	f := newFixture(t, bothLanguages)
	v := f.filled(t, preview, "power-loss", "80202", f.day(t, preview, 1))
	for _, tt := range []struct {
		lang string
		want []string
	}{
		{"en", []string{
			`<a href="#street">Write the street and number, on one line of up to 200 characters.</a>`,
			`<a href="#phone">Write a US phone number of 10 digits, such as (512) 555-0142.</a>`,
			`<a href="#deposit_accepted">To send this request, read the deposit&#39;s rules and tick the box.</a>`,
		}},
		{"es", []string{
			`<a href="#street">Escriba la calle y el número, en una línea de hasta 200 caracteres.</a>`,
			`<a href="#phone">Escriba un número de EE. UU. de 10 dígitos, como (512) 555-0142.</a>`,
			`<a href="#deposit_accepted">Para enviar esta solicitud, lea las reglas del depósito y marque la casilla.</a>`,
		}},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			res := f.post(t, preview, with(v, "lang", tt.lang, "street", "", "phone", "555-01", "deposit_accepted", ""))
			if res.Status != http.StatusBadRequest {
				t.Fatalf("got %d, want 400", res.Status)
			}
			list := regexp.MustCompile(`(?s)<ul id="problems">(.*?)</ul>`).FindStringSubmatch(res.Body)
			if list == nil {
				t.Fatalf("no list of problems: %s", res.Body)
			}
			items := regexp.MustCompile(`<li>(.*?)</li>`).FindAllStringSubmatch(list[1], -1)
			if len(items) != len(tt.want) {
				t.Fatalf("got %d problems listed, want %d: %s", len(items), len(tt.want), list[1])
			}
			for i, want := range tt.want {
				if items[i][1] != want {
					t.Errorf("problem %d: got %s, want %s", i, items[i][1], want)
				}
			}
			for _, field := range []string{"street", "phone", "deposit_accepted"} {
				if !regexp.MustCompile(`id="` + field + `"[^>]*aria-invalid="true"`).MatchString(res.Body) {
					t.Errorf("%s has no aria-invalid", field)
				}
				wantIn(t, res.Body, `id="`+field+`-error"`)
			}
			wantIn(t, res.Body, `name="name" value="Quentin Zebulon"`)
			wantNotIn(t, res.Body, developerText...)
			if n := f.stored(t, preview); n != 0 {
				t.Errorf("got %d requests stored, want none", n)
			}
		})
	}
}

// TestTooManyOpenByEmail: the 4th open request with one e-mail address,
// from another phone, names the e-mail address.
func TestTooManyOpenByEmail(t *testing.T) {
	f := newFixture(t, nil)
	v := f.filled(t, plain, "ac-not-cooling", "85004", f.day(t, plain, 1))
	ws := f.windows(t, plain, v.Get("day"))
	for i := 1; i <= 3; i++ {
		in := booking.CreateInput{WindowStart: ws[i].Start, Address: booking.Address{Street: "1 Elm St", ZIP: "85004"},
			Contact: booking.Contact{Name: "Quentin Zebulon", Phone: "602555010" + string(rune('0'+i)), Email: v.Get("email")}}
		if _, _, err := f.bookings.CreateRequest(t.Context(), f.business(t, plain), in); err != nil {
			t.Fatal(err)
		}
	}
	res := f.post(t, plain, v)
	if res.Status != http.StatusTooManyRequests {
		t.Fatalf("got %d, want 429", res.Status)
	}
	wantIn(t, res.Body, `id="top-error">This e-mail address already has requests waiting`)
	wantNotIn(t, res.Body, "This phone number")
}

// TestNotUTF8: a form whose text is not UTF-8 is refused with a message
// next to the field, the bytes are never shown back, and nothing is stored.
func TestNotUTF8(t *testing.T) {
	f := newFixture(t, nil)
	v := f.filled(t, plain, "ac-not-cooling", "85004", f.day(t, plain, 1))
	res := f.post(t, plain, with(v, "name", "Jos\xe9", "city", "Tucs\xf3n"))
	if res.Status != http.StatusBadRequest {
		t.Fatalf("got %d, want 400", res.Status)
	}
	wantIn(t, res.Body, `id="city-error">Some characters here could not be read.`, `id="name-error">Some characters here could not be read.`,
		`name="name" value="Jos"`, `<a href="#city">`)
	if strings.Contains(res.Body, "\xe9") || strings.Contains(res.Body, "\uFFFD") {
		t.Error("the page shows the bytes that are not UTF-8")
	}
	if n := f.stored(t, plain); n != 0 {
		t.Errorf("got %d requests stored, want none", n)
	}

	// Every problem at once: text that is not UTF-8 does not hide a
	// window that is no window, nor an e-mail address that is none.
	res = f.post(t, plain, with(v, "name", "Jos\xe9", "city", "Tucs\xf3n", "window", "2026-11-24T15:17:00Z", "email", "not-an-address"))
	if res.Status != http.StatusBadRequest {
		t.Fatalf("with a bad window: got %d, want 400", res.Status)
	}
	wantIn(t, res.Body, `id="city-error">Some characters here could not be read.`, `id="name-error">Some characters here could not be read.`,
		`id="window-error">Pick one of the open windows.`, `id="email-error">`, `<a href="#window">`)
	if n := f.stored(t, plain); n != 0 {
		t.Errorf("with a bad window: got %d requests stored, want none", n)
	}
}

// TestDayGone: a form opened before midnight and sent after, for a day no
// longer offered, keeps what was typed and says so with the days to pick
// another; picking one shows its windows, everything still kept.
func TestDayGone(t *testing.T) {
	f := newFixture(t, nil)
	f.clock.Set(start.Add(15 * time.Hour)) // 11:00 PM in Phoenix
	// The form of a day whose windows are over: the day is a hidden field.
	v := with(f.filled(t, plain, "ac-not-cooling", "85004", f.day(t, plain, 1)), "day", f.day(t, plain, 0), "window", "")
	f.clock.Set(start.Add(16*time.Hour + 30*time.Minute)) // after midnight: the form's token is still good
	res := f.post(t, plain, v)
	if res.Status != http.StatusBadRequest {
		t.Fatalf("got %d, want 400: %s", res.Status, res.Body)
	}
	wantNotIn(t, res.Body, `id="window-error"`)
	wantIn(t, res.Body, `id="day-error">That day is no longer offered. Pick another day.`, `<a href="#day">`,
		`name="street" value="4417 Wisteria Lane"`, `name="name" value="Quentin Zebulon"`, ">The breaker trips.</textarea>",
		`name="day" id="day-2026-11-25" value="2026-11-25"`, `id="show-day"`, "Today, Tuesday, November 24")
	res = f.post(t, plain, with(v, "day", "2026-11-25", "show_day", "1", "window", ""))
	if res.Status != http.StatusOK {
		t.Fatalf("another day: got %d, want 200", res.Status)
	}
	wantIn(t, res.Body, "Arrival window: Tomorrow, Wednesday, November 25", `id="window-0"`,
		`name="street" value="4417 Wisteria Lane"`, `name="name" value="Quentin Zebulon"`)
	wantNotIn(t, res.Body, `class="error"`)
	if n := f.stored(t, plain); n != 0 {
		t.Errorf("got %d requests stored, want none", n)
	}
}

// TestAddresses: every address under /book that is no form is the form's
// own 404 page, a trailing slash redirects to the form, another method is
// 405 with Allow, and a POST from another site gets the form's page.
func TestAddresses(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		method, path string
		header       []string
		wantStatus   int
		want         string
	}{
		{"GET", "/book", nil, 404, "Page not found"},
		{"GET", "/book/", nil, 404, "Page not found"},
		{"GET", "/book/" + plain + "/x", nil, 404, "Page not found"},
		{"GET", "/book/" + plain + "/", nil, 301, ""},
		{"GET", "/book/" + plain + "/?lang=es", nil, 301, ""},
		{"PUT", "/book/" + plain, nil, 405, "This page cannot do that"},
		{"DELETE", "/book/" + plain, []string{"Accept-Language", "es"}, 405, "Esta página no puede hacer eso"},
		{"POST", "/book/" + plain, []string{"Sec-Fetch-Site", "cross-site"}, 403, `href="/book/desert-cool-hvac"`},
		{"POST", "/book/" + plain, []string{"Sec-Fetch-Site", "cross-site", "Accept-Language", "es"}, 403, "Vuelva a abrir el formulario"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			res := pagetest.Do(t, f.h, tt.method, tt.path, nil, tt.header...)
			if res.Status != tt.wantStatus {
				t.Fatalf("got %d, want %d: %s", res.Status, tt.wantStatus, res.Body)
			}
			if got := res.Header.Get("Content-Type"); tt.wantStatus != 301 && got != "text/html; charset=utf-8" {
				t.Errorf("got Content-Type %q, want the form's page", got)
			}
			wantIn(t, res.Body, tt.want)
			wantNotIn(t, res.Body, `{"error"`)
			switch tt.wantStatus {
			case 405:
				if got := res.Header.Get("Allow"); got != "GET, HEAD, POST" {
					t.Errorf("got Allow %q", got)
				}
			case 301:
				want := "/book/" + plain
				if _, q, ok := strings.Cut(tt.path, "?"); ok {
					want += "?" + q
				}
				if got := res.Header.Get("Location"); got != want {
					t.Errorf("got Location %q, want %q", got, want)
				}
			}
		})
	}
}

// TestDepositFirst: the deposit's amount, that it is paid after sending,
// and the true reason a deposit is simulated show on the first page.
func TestDepositFirst(t *testing.T) {
	f := newFixture(t, bothLanguages)
	res := f.get(t, bookform.Path+preview)
	wantIn(t, res.Body, `id="deposit-amount">This business asks a deposit of $25.00.`, "You pay it after sending, on the next page.",
		`id="deposit-note">Simulated deposit: this business&#39;s site is a preview`)
	res = f.get(t, bookform.Path+paid)
	wantIn(t, res.Body, `id="deposit-amount">`)
	wantNotIn(t, res.Body, "Simulated deposit")
	res = f.get(t, bookform.Path+plain)
	wantNotIn(t, res.Body, `id="deposit-amount"`)

	// A server that takes no real payments says so, not "a preview".
	s := newSimulatingForm(t)
	res = pagetest.Do(t, s, "GET", bookform.Path+paid, nil)
	wantIn(t, res.Body, `id="deposit-note">Simulated deposit: this server takes no real payments`)
	wantNotIn(t, res.Body, "is a preview")
	res = pagetest.Do(t, s, "GET", bookform.Path+paid+"?lang=es", nil)
	wantIn(t, res.Body, "este servidor no acepta pagos reales")
}

// newSimulatingForm serves the form on a server whose deposits are all
// simulated (booking.Config.SimulateDeposits), as the local server's are.
func newSimulatingForm(t *testing.T) http.Handler {
	t.Helper()
	f := newFixture(t, bothLanguages)
	bookings := bookingtest.New(t, booking.Config{Store: f.store, SiteURL: siteURL, Now: f.clock.Now, SimulateDeposits: true})
	h, err := bookform.New(bookform.Config{Bookings: bookings, Key: key, Now: f.clock.Now, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// bothLanguages offers the deposit businesses' forms in Spanish too.
func bothLanguages(b *booking.Business) {
	if b.Slug == preview || b.Slug == paid {
		b.Languages = []string{"en", "es"}
	}
}

// TestResentLater: a form sent again once its window starts too soon (a
// resend within the token's life) gets the request it made, as the JSON
// API replays it, not the problem the clock would now find.
func TestResentLater(t *testing.T) {
	f := newFixture(t, func(b *booking.Business) { b.MinNoticeMinutes = 60 })
	v := f.filled(t, plain, "ac-not-cooling", "85004", f.day(t, plain, 0))
	first := f.post(t, plain, v)
	if first.Status != http.StatusSeeOther {
		t.Fatalf("the first send: got %d %s", first.Status, first.Body)
	}
	window, err := time.Parse(time.RFC3339, v.Get("window"))
	if err != nil {
		t.Fatal(err)
	}
	if later := window.Add(-30 * time.Minute); later.Sub(start) < bookform.TokenTTL {
		f.clock.Set(later) // within the notice now, the token still good
	} else {
		t.Fatalf("the first window today starts at %s: too late for the token's life", window)
	}
	again := f.post(t, plain, v)
	if again.Status != http.StatusSeeOther || again.Header.Get("Location") != first.Header.Get("Location") {
		t.Fatalf("sent again: got %d to %q, want %d to %q: %s", again.Status, again.Header.Get("Location"), http.StatusSeeOther, first.Header.Get("Location"), again.Body)
	}
	if n := f.stored(t, plain); n != 1 {
		t.Errorf("got %d requests stored, want 1", n)
	}
}

// TestDayNames: the days are short enough for a phone's line, with the
// year only when it is not this year's.
func TestDayNames(t *testing.T) {
	f := newFixture(t, nil)
	f.clock.Set(time.Date(2026, 12, 30, 15, 0, 0, 0, time.UTC))
	res := f.get(t, bookform.Path+plain)
	wantIn(t, res.Body, "Today, Wednesday, December 30</strong>", "Tomorrow, Thursday, December 31</strong>", "Friday, January 1, 2027</strong>")
	res = f.get(t, bookform.Path+plain+"?lang=es")
	wantIn(t, res.Body, "Hoy, miércoles 30 de diciembre</strong>", "viernes 1 de enero de 2027</strong>")
}
