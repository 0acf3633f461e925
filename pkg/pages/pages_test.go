package pages_test

import (
	"html"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
	"github.com/doorstep/doorstep/pkg/pages"
)

// personal lists what no page may show of the person.
var personal = []string{personName, "720555014", "555-014", personEmail, street, "Wisteria", unit, "80202", "The breaker trips"}

func TestStatusPage(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		lang string
		want []string
	}{
		{"en", []string{`<html lang="en">`, "Waiting for your deposit", "Mile High Electric", "(303) 555-0117", `href="tel:&#43;13035550117"`,
			"Monday, November 23, 2026, 9:00 AM – 10:00 AM MST", city, "$25.00 due. Pay by Monday, November 23, 2026, 8:30 AM MST.",
			"Simulated deposit", "You cancel at least 24 hours before the arrival window: refunded in full.",
			"https://mile-high-electric.example.com/deposit-terms", `id="pay" href="/pay/`, `id="cancel" href="/r/`,
			"not an appointment until the business confirms", "Other service (see the description)"}},
		{"es", []string{`<html lang="es">`, "Esperando su depósito", "martes 24 de noviembre de 2026, de 08:00 a 09:00 (MST)",
			"$25.00 pendiente. Pague antes de lunes 23 de noviembre de 2026, 08:30 (MST).", "Depósito simulado",
			"Cancela al menos 24 horas antes del horario de llegada", "Otro servicio (ver la descripción)", "Cancelar esta solicitud"}},
	}
	for i, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			c := f.create(t, "mile-high-electric", "80202", tt.lang, i)
			res := f.do(t, "GET", "/r/"+c.Code, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.want...)
			wantIn(t, res.body, c.Code)
			wantNotIn(t, res.body, personal...)
			wantNotIn(t, res.body, "<script", "http://", "src=")
			for k, want := range map[string]string{
				"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
				"X-Content-Type-Options": "nosniff",
			} {
				if got := res.header.Get(k); got != want {
					t.Errorf("%s: got %q, want %q", k, got, want)
				}
			}
			if csp := res.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "style-src 'sha256-") {
				t.Errorf("got CSP %q, want default-src 'none' and the style's hash", csp)
			}
		})
	}
	t.Run("the code is read leniently", func(t *testing.T) {
		c := f.create(t, "mile-high-electric", "80202", "en", 3)
		if res := f.do(t, "GET", "/r/"+strings.ToLower(strings.ReplaceAll(c.Code, "-", "")), nil); res.status != http.StatusOK {
			t.Errorf("got %d, want 200", res.status)
		}
	})
	t.Run("a window the business moved says so", func(t *testing.T) {
		c := f.create(t, "mile-high-electric", "80202", "en", 2)
		f.paySimulated(t, c.Code)
		w := f.windows(t, "mile-high-electric", "2026-11-27", 1)
		if len(w) == 0 {
			t.Fatal("no open window on 2026-11-27")
		}
		f.businessMove(t, "mile-high-electric", c.Code, booking.ActionMove, w[0].Start.Format(time.RFC3339))
		// The offer answered the request: it is confirmed at the new
		// window, and the person may cancel with the deposit refunded.
		res := f.do(t, "GET", "/r/"+c.Code, nil)
		wantIn(t, res.body, `data-state="accepted"`, "Confirmed by the business",
			"Mile High Electric set this arrival window instead of the one you asked for, and will come to your address then. If it does not suit you, you may cancel this request.",
			"The business moved your arrival window to this time.", "Friday, November 27, 2026, 8:00 AM – 9:00 AM MST",
			"$25.00 paid on Monday, November 23, 2026.", `id="cancel" href="/r/`, `id="add-to-calendar"`)
		wantNotIn(t, res.body, "not an appointment until the business confirms")
		cancel := f.do(t, "GET", "/r/"+c.Code+"/cancel", nil)
		wantIn(t, cancel.body, "The business moved your arrival window, so your $25.00 deposit is refunded in full.")
	})
	t.Run("a declined request says nobody can cancel it", func(t *testing.T) {
		for i, lang := range []string{"en", "es"} {
			c := f.create(t, "mile-high-electric", "80202", lang, 4+i)
			f.paySimulated(t, c.Code)
			f.businessMove(t, "mile-high-electric", c.Code, booking.ActionDecline, "")
			res := f.do(t, "GET", "/r/"+c.Code, nil)
			wantIn(t, res.body, `data-state="declined"`, html.EscapeString(pages.Texts(lang)["private_view"]))
			wantNotIn(t, res.body, html.EscapeString(pages.Texts(lang)["private"]), "cancelar la solicitud", "cancel the request", `id="cancel"`)
		}
	})
	t.Run("a request the business did not answer before its window", func(t *testing.T) {
		c := f.create(t, "mile-high-electric", "80202", "es", 1)
		f.paySimulated(t, c.Code)
		r := f.request(t, c.Code)
		f.clock.Set(r.Window.Start) // before any sweep
		t.Cleanup(func() { f.clock.Set(start) })
		res := f.do(t, "GET", "/r/"+c.Code, nil)
		wantIn(t, res.body, "Vencida: el negocio no respondió a tiempo", "reembolsado por completo")
		wantNotIn(t, res.body, "el depósito no se pagó a tiempo", "Cancelar esta solicitud")
	})
}

// TestMethodNotAllowed: another method on a page's path is 405 with the
// path's methods in Allow, a page in the browser's language, and changes
// nothing; a path no page has stays 404 whatever the method.
func TestMethodNotAllowed(t *testing.T) {
	f := newFixture(t, nil)
	c := f.create(t, "desert-cool-hvac", "85004", "en", 1)
	tests := []struct {
		name, method, path, lang, allow, want string
	}{
		{"the status page", "PUT", "/r/" + c.Code, "", "GET, HEAD", "This page cannot do that"},
		{"the cancel page", "DELETE", "/r/" + c.Code + "/cancel", "", "GET, HEAD, POST", "This page cannot do that"},
		{"the contact form", "GET", "/r/" + c.Code + "/contact", "", "POST", "This page cannot do that"},
		{"the payment page, in Spanish", "PATCH", "/pay/" + c.Code, "es", "GET, HEAD, POST", "Esta página no puede hacer eso"},
		{"the lookup", "POST", "/r", "", "GET, HEAD", "This page cannot do that"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, tt.method, tt.path, nil, "Accept-Language", tt.lang)
			if res.status != http.StatusMethodNotAllowed || res.header.Get("Allow") != tt.allow {
				t.Fatalf("got %d with Allow %q, want 405 with %q", res.status, res.header.Get("Allow"), tt.allow)
			}
			wantIn(t, res.body, tt.want)
		})
	}
	t.Run("another path", func(t *testing.T) {
		if res := f.do(t, "PUT", "/r/"+c.Code+"/other", nil); res.status != http.StatusNotFound {
			t.Errorf("got %d, want 404", res.status)
		}
	})
	if got := f.request(t, c.Code).Status; got != booking.StatusNew {
		t.Errorf("got %s, want new", got)
	}
}

func TestNotFound(t *testing.T) {
	f := newFixture(t, nil)
	check := func(t *testing.T, path, lang, want string) {
		t.Helper()
		res := f.do(t, "GET", path, nil, "Accept-Language", lang)
		if res.status != http.StatusNotFound {
			t.Fatalf("got %d, want 404", res.status)
		}
		wantIn(t, res.body, want)
	}
	const english = "No request has this address."
	paths := []struct{ name, path string }{
		{"unknown code", "/r/ZZZZ-ZZZZ-ZZZZ"},
		{"not a code", "/r/hello"},
		{"unknown code, pay page", "/pay/ZZZZ-ZZZZ-ZZZZ"},
		{"unknown code, cancel page", "/r/ZZZZ-ZZZZ-ZZZZ/cancel"},
		{"another path", "/r/ZZZZ-ZZZZ-ZZZZ/other"},
	}
	for _, tt := range paths {
		t.Run(tt.name, func(t *testing.T) { check(t, tt.path, "", english) })
	}
	t.Run("in the browser's language", func(t *testing.T) {
		check(t, "/r/ZZZZ-ZZZZ-ZZZZ", "es-MX,es;q=0.9,en;q=0.8", "Ninguna solicitud tiene esta dirección.")
	})
	t.Run("English first", func(t *testing.T) {
		check(t, "/r/ZZZZ-ZZZZ-ZZZZ", "fr, en-US;q=0.9, es;q=0.8", english)
	})
}

func TestSimulatedPayment(t *testing.T) {
	f := newFixture(t, nil)
	c := f.create(t, "mile-high-electric", "80202", "en", 0)
	if *c.PaymentURL != siteURL+"/pay/"+c.Code {
		t.Fatalf("got payment_url %s, want the service's page", *c.PaymentURL)
	}
	res := f.do(t, "GET", "/pay/"+c.Code, nil)
	if res.status != http.StatusOK {
		t.Fatalf("got %d, want 200", res.status)
	}
	wantIn(t, res.body, "Pay the deposit", "$25.00", "Simulate paying $25.00",
		"Simulated deposit: this business&#39;s site is a preview, so no card is asked for and no money moves.</strong> The button moves your request on as a payment would.",
		"Pay by Monday, November 23, 2026, 8:30 AM MST", `action="/pay/`+c.Code+`"`, "Nobody there when the business comes")
	wantNotIn(t, res.body, personal...)
	// One simulation notice, not two (issue 20).
	if n := strings.Count(res.body, "Simulated deposit"); n != 1 {
		t.Errorf("the page says %q %d times, want once", "Simulated deposit", n)
	}

	res = f.do(t, "POST", "/pay/"+c.Code, url.Values{})
	if res.status != http.StatusSeeOther || res.location != "/r/"+c.Code+"?done=paid" {
		t.Fatalf("got %d to %q, want 303 to the status page", res.status, res.location)
	}
	r := f.request(t, c.Code)
	if r.Status != booking.StatusNew || r.Deposit.State != booking.DepositPaid || r.Deposit.PaymentRef != booking.PaymentRefSimulated {
		t.Fatalf("got %s, deposit %+v; want new, paid (simulated)", r.Status, r.Deposit)
	}
	res = f.do(t, "GET", res.location, nil)
	wantIn(t, res.body, `data-state="new"`, "Request sent, not confirmed yet", "Deposit received.", `data-deposit="paid"`, "$25.00 paid on Monday, November 23, 2026.")
	wantNotIn(t, res.body, `id="pay"`)

	t.Run("pressed twice", func(t *testing.T) {
		if res := f.do(t, "POST", "/pay/"+c.Code, url.Values{}); res.status != http.StatusSeeOther {
			t.Errorf("got %d, want 303", res.status)
		}
		if got := len(f.request(t, c.Code).History); got != 2 {
			t.Errorf("got %d events, want 2 (create, pay)", got)
		}
	})
	t.Run("the pay page of a paid deposit is the status page", func(t *testing.T) {
		if res := f.do(t, "GET", "/pay/"+c.Code, nil); res.status != http.StatusSeeOther || res.location != "/r/"+c.Code {
			t.Errorf("got %d to %q, want 303 to the status page", res.status, res.location)
		}
	})
	t.Run("after the hold lapsed", func(t *testing.T) {
		late := f.create(t, "mile-high-electric", "80202", "es", 1)
		f.clock.Add(30 * time.Minute)
		defer f.clock.Add(-30 * time.Minute)
		if res := f.do(t, "GET", "/pay/"+late.Code, nil); res.status != http.StatusSeeOther {
			t.Errorf("GET: got %d, want 303", res.status)
		}
		res := f.do(t, "POST", "/pay/"+late.Code, url.Values{})
		if res.status != http.StatusConflict {
			t.Errorf("POST: got %d, want 409", res.status)
		}
		wantIn(t, res.body, "El plazo para pagar este depósito ya pasó.", "Vencida: el depósito no se pagó a tiempo", "No se pagó a tiempo: no se cobró nada.")
		if got := f.request(t, late.Code).Deposit.State; got != booking.DepositDue {
			t.Errorf("got deposit %s, want still due (the sweeper expires it)", got)
		}
	})
	t.Run("a cross-site form is refused", func(t *testing.T) {
		other := f.create(t, "mile-high-electric", "80202", "en", 3)
		res := f.do(t, "POST", "/pay/"+other.Code, url.Values{}, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		if res.status != http.StatusForbidden {
			t.Errorf("got %d, want 403", res.status)
		}
		if got := f.request(t, other.Code).Status; got != booking.StatusPendingPayment {
			t.Errorf("got %s, want pending_payment", got)
		}
	})
}

// A deposit paid at Stripe: these pages send the person to the payment
// function's /pay/{code}/checkout (pkg/stripepay), which sends them back
// here with ?done=; the notice shows only when the stored request agrees.
func TestRealDeposit(t *testing.T) {
	t.Run("the pay page and the status page lead to the checkout", func(t *testing.T) {
		f := newFixture(t, nil)
		c := f.create(t, "austin-rapid-plumbing", "78701", "en", 0)
		res := f.do(t, "GET", "/pay/"+c.Code, nil)
		if res.status != http.StatusSeeOther || res.location != "/pay/"+c.Code+"/checkout" {
			t.Errorf("got %d to %q, want 303 to /pay/%s/checkout", res.status, res.location, c.Code)
		}
		wantIn(t, f.do(t, "GET", "/r/"+c.Code, nil).body, `id="pay" href="/pay/`+c.Code+`/checkout"`)
		if res := f.do(t, "POST", "/pay/"+c.Code, url.Values{}); res.status != http.StatusForbidden {
			t.Errorf("simulated pay of a real deposit: got %d, want 403", res.status)
		}
		if got := f.request(t, c.Code).Status; got != booking.StatusPendingPayment {
			t.Errorf("got %s, want pending_payment", got)
		}
	})
	t.Run("a stack without Stripe, or the local server: the deposit is simulated, says so once, and is paid there", func(t *testing.T) {
		f := newFixture(t, nil)
		f.bookings = bookingtest.New(t, booking.Config{Store: f.store, SiteURL: siteURL, Now: f.clock.Now, SimulateDeposits: true})
		f.h = pages.New(pages.Config{Bookings: f.bookings, Now: f.clock.Now, Log: slog.New(slog.DiscardHandler)})
		c := f.create(t, "austin-rapid-plumbing", "78701", "en", 0)
		if got := f.request(t, c.Code).Deposit; !got.Simulated {
			t.Errorf("stored deposit %+v, want simulated", got)
		}
		if c.PaymentURL == nil || *c.PaymentURL != siteURL+"/pay/"+c.Code {
			t.Errorf("got payment_url %v, want the simulated page", c.PaymentURL)
		}
		status := f.do(t, "GET", "/r/"+c.Code, nil).body
		wantIn(t, status, `id="pay" href="/pay/`+c.Code+`"`, "this server takes no real payments")
		wantNotIn(t, status, "preview")
		res := f.do(t, "GET", "/pay/"+c.Code, nil)
		wantIn(t, res.body, "Simulate paying $49.00", "this server takes no real payments")
		if n := strings.Count(res.body, "Simulated deposit"); n != 1 {
			t.Errorf("the pay page says %q %d times, want once", "Simulated deposit", n)
		}
		if res := f.do(t, "POST", "/pay/"+c.Code, url.Values{}); res.status != http.StatusSeeOther {
			t.Errorf("got %d, want 303", res.status)
		}
		if got := f.request(t, c.Code).Deposit.State; got != booking.DepositPaid {
			t.Errorf("got %s, want paid", got)
		}
	})
	t.Run("back from Stripe", func(t *testing.T) {
		f := newFixture(t, nil)
		c := f.create(t, "austin-rapid-plumbing", "78701", "es", 0)
		simulated := f.create(t, "mile-high-electric", "80202", "en", 1)
		notices := []string{"Depósito recibido", "se le reembolsa", "no está disponible", "Deposit received", "being refunded", "not available"}
		tests := []struct {
			name, code, done string
			prepare          func(t *testing.T)
			want             []string
		}{
			{"paid, but not in the table yet: no notice", c.Code, "paid", nil, []string{"Esperando su depósito"}},
			{"Stripe down", c.Code, "unavailable", nil, []string{"Esperando su depósito", "El pago en línea no está disponible ahora."}},
			{"refunded: a real deposit", c.Code, "refunded", nil, []string{"se le reembolsa por completo"}},
			{"refunded: a simulated deposit never is", simulated.Code, "refunded", nil, []string{"Waiting for your deposit"}},
			{"unavailable: a simulated deposit never is", simulated.Code, "unavailable", nil, []string{"Waiting for your deposit"}},
			{"paid", c.Code, "paid", func(t *testing.T) {
				out, err := f.bookings.ApplyPayment(t.Context(), booking.Payment{Code: c.Code, Ref: "pi_1", AmountCents: 4900, Currency: "usd", Paid: true})
				if err != nil || out != booking.PaymentApplied {
					t.Fatalf("got %v %v, want applied", out, err)
				}
			}, []string{"Solicitud enviada, aún sin confirmar", "Depósito recibido.", "$49.00 pagado el lunes 23 de noviembre de 2026."}},
			{"unavailable, once paid: no notice", c.Code, "unavailable", nil, []string{"Solicitud enviada, aún sin confirmar"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if tt.prepare != nil {
					tt.prepare(t)
				}
				res := f.do(t, "GET", "/r/"+tt.code+"?done="+tt.done, nil)
				if res.status != http.StatusOK {
					t.Fatalf("got %d, want 200", res.status)
				}
				wantIn(t, res.body, tt.want...)
				var unwanted []string
				for _, n := range notices {
					if !strings.Contains(strings.Join(tt.want, " "), n) {
						unwanted = append(unwanted, n)
					}
				}
				wantNotIn(t, res.body, unwanted...)
			})
		}
		t.Run("paid after the hold lapsed: refunded", func(t *testing.T) {
			late := f.create(t, "austin-rapid-plumbing", "78701", "en", 2)
			f.clock.Add(31 * time.Minute)
			defer f.clock.Set(start)
			res := f.do(t, "GET", "/r/"+late.Code+"?done=refunded", nil)
			wantIn(t, res.body, "Expired: the deposit was not paid in time", "it is being refunded in full")
			wantNotIn(t, res.body, `id="pay"`)
		})
	})
}

func TestCancel(t *testing.T) {
	f := newFixture(t, nil)
	pay := f.paySimulated
	tests := []struct {
		name        string
		days        int // the window is the first of the day this many days ahead
		prepare     func(t *testing.T, code string)
		lang        string
		wantOutcome string
		wantText    []string
		wantAfter   []string
	}{
		{"before paying", 0, nil, "en", booking.DepositCancelled,
			[]string{"The deposit has not been paid, so nothing is charged."},
			[]string{"Cancelled", "Nothing was charged: the request was cancelled before paying."}},
		{"paid, two days ahead", 2, pay, "en", booking.DepositRefunded,
			[]string{"You are cancelling at least 24 hours before the arrival window, so your $25.00 deposit is refunded in full (if you confirm by Tuesday, November 24, 2026, 8:00 AM MST)."},
			[]string{"Cancelled", "$25.00 refunded in full on Monday, November 23, 2026.", "Simulated deposit"}},
		{"paid, the same day", 0, pay, "es", booking.DepositKept,
			[]string{"El horario de llegada empieza en menos de 24 horas, así que el negocio retiene su depósito de $25.00."},
			[]string{"Cancelada", "$25.00 retenido por el negocio (lunes 23 de noviembre de 2026)."}},
		{"paid, the same day, the window moved by the business", 0, func(t *testing.T, code string) {
			pay(t, code)
			w := f.windows(t, "mile-high-electric", "2026-11-23", 1)
			if len(w) < 2 {
				t.Fatalf("got %d open windows on 2026-11-23, want 2 or more", len(w))
			}
			f.businessMove(t, "mile-high-electric", code, booking.ActionMove, w[1].Start.Format(time.RFC3339))
		}, "en", booking.DepositRefunded,
			[]string{"The business moved your arrival window, so your $25.00 deposit is refunded in full."},
			[]string{"Cancelled", "$25.00 refunded in full"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := f.create(t, "mile-high-electric", "80202", tt.lang, tt.days)
			if tt.prepare != nil {
				tt.prepare(t, c.Code)
			}
			res := f.do(t, "GET", "/r/"+c.Code+"/cancel", nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.wantText...)
			wantIn(t, res.body, `data-outcome="`+tt.wantOutcome+`"`, `name="deposit" value="`+tt.wantOutcome+`"`)
			wantNotIn(t, res.body, personal...)
			if r := f.request(t, c.Code); r.Status == booking.StatusCancelled {
				t.Fatal("the confirm page cancelled the request")
			}
			res = f.do(t, "POST", "/r/"+c.Code+"/cancel", url.Values{"deposit": {tt.wantOutcome}})
			if res.status != http.StatusSeeOther || res.location != "/r/"+c.Code+"?done=cancelled" {
				t.Fatalf("got %d to %q, want 303 to the status page", res.status, res.location)
			}
			r := f.request(t, c.Code)
			if r.Status != booking.StatusCancelled || r.Deposit.State != tt.wantOutcome {
				t.Errorf("got %s, deposit %s; want cancelled, %s", r.Status, r.Deposit.State, tt.wantOutcome)
			}
			if last := r.History[len(r.History)-1]; last.By != booking.ActorCustomer || last.Action != booking.ActionCancel {
				t.Errorf("got last event %+v, want cancel by the customer", last)
			}
			res = f.do(t, "GET", res.location, nil)
			wantIn(t, res.body, tt.wantAfter...)
			wantNotIn(t, res.body, `id="cancel"`)
		})
	}
	t.Run("the consequence changed while the person read it", func(t *testing.T) {
		c := f.create(t, "mile-high-electric", "80202", "en", 1)
		pay(t, c.Code)
		res := f.do(t, "GET", "/r/"+c.Code+"/cancel", nil)
		wantIn(t, res.body, `value="refunded"`)
		r := f.request(t, c.Code)
		f.clock.Set(r.FreeCancellationUntil().Add(time.Second)) // the deadline passes
		defer f.clock.Set(start)
		res = f.do(t, "POST", "/r/"+c.Code+"/cancel", url.Values{"deposit": {"refunded"}})
		if res.status != http.StatusConflict {
			t.Fatalf("got %d, want 409", res.status)
		}
		wantIn(t, res.body, "changed while you were deciding", "the business keeps your $25.00 deposit", `value="kept"`)
		if got := f.request(t, c.Code).Status; got != booking.StatusNew {
			t.Errorf("got %s, want new: nothing cancelled", got)
		}
	})
	t.Run("no longer possible", func(t *testing.T) {
		c := f.create(t, "mile-high-electric", "80202", "en", 4)
		pay(t, c.Code)
		f.businessMove(t, "mile-high-electric", c.Code, booking.ActionDecline, "")
		status := f.do(t, "GET", "/r/"+c.Code, nil)
		wantIn(t, status.body, "Declined by the business", "$25.00 refunded in full")
		wantNotIn(t, status.body, `id="cancel"`)
		for _, method := range []string{"GET", "POST"} {
			res := f.do(t, method, "/r/"+c.Code+"/cancel", url.Values{"deposit": {"refunded"}})
			if res.status != http.StatusConflict {
				t.Errorf("%s: got %d, want 409", method, res.status)
			}
			wantIn(t, res.body, "can no longer be cancelled online")
		}
	})
}

// The texts: every key in both languages, none empty, and a plain-words
// state for every state of a request and of a deposit.
func TestTexts(t *testing.T) {
	for _, lang := range []string{"en", "es"} {
		for _, st := range booking.Statuses {
			for _, key := range []string{"state_" + string(st), "hint_" + string(st)} {
				if _, ok := pages.Texts(lang)[key]; !ok {
					t.Errorf("%s: no %s", lang, key)
				}
			}
		}
		for _, st := range booking.DepositStates {
			if _, ok := pages.Texts(lang)["deposit_"+st]; !ok {
				t.Errorf("%s: no deposit_%s", lang, st)
			}
		}
	}
	pagetest.CheckTexts(t, pages.Texts("en"), pages.Texts("es"))
}
