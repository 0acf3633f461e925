package bookform_test

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
)

// TestSteps walks the form's steps with GETs: danger first, the services
// with the urgent ones marked, the ZIP code answered at once, a week of
// days, then a day's windows as the API gives them, with nothing of the
// person's choices pre-ticked.
func TestSteps(t *testing.T) {
	f := newFixture(t, nil)
	form := bookform.Path + plain
	t.Run("first step", func(t *testing.T) {
		res := f.get(t, form)
		if res.Status != 200 {
			t.Fatalf("got %d, want 200", res.Status)
		}
		danger := strings.Index(res.Body, `id="danger-title"`)
		step := strings.Index(res.Body, `name="service"`)
		if danger < 0 || step < 0 || danger > step {
			t.Errorf("got the danger notice at %d and the first step at %d, want the notice first", danger, step)
		}
		wantIn(t, res.Body, `<html lang="en">`, "call 911", `href="tel:&#43;16025550163"`,
			"water you cannot stop", "Anything else, urgent repairs included, you can ask for here.",
			`value="ac-not-cooling"><span>AC not cooling <strong class="badge">Urgent</strong></span></label><a class="call-now" href="tel:&#43;16025550163">Call now</a>`,
			`value="other"`, `<label for="zip">`,
			"Pick a day", "Today, Monday, November 23", "Tomorrow, Tuesday, November 24", "first free at",
			`id="soonest" value="2026-11-2`, "Soonest open window:",
			`<a id="lang" href="/book/desert-cool-hvac?lang=es" lang="es">Español</a>`)
		wantNotIn(t, res.Body, " checked", "Do not use this form", `id="fix"`, `class="error"`)
	})
	tests := []struct {
		name, query string
		wantStatus  int
		want        []string
		wantNot     []string
	}{
		{"a ZIP outside the area", "service=ac-not-cooling&zip=90210&next=1", 400,
			[]string{`id="zip-error">Desert Cool Heating &amp; Air does not work in this ZIP code. Call them to ask.`, `<a class="call" href="tel:&#43;16025550163">`, `value="ac-not-cooling" checked`, `value="90210"`}, nil},
		{"a ZIP that is no ZIP", "service=ac-not-cooling&zip=8500&next=1", 400, []string{`id="zip-error">Write the ZIP code as 5 digits.`, `aria-invalid="true"`}, nil},
		{"no service", "zip=85004&next=1", 400, []string{`id="service-error">Pick one of the services.`}, nil},
		{"an unknown service", "service=roofing&zip=85004&next=1", 400, []string{`id="service-error">`}, nil},
		{"every problem of the first page at once", "zip=8500&next=1", 400,
			[]string{`<a href="#service">Pick one of the services.</a>`, `<a href="#zip">Write the ZIP code as 5 digits.</a>`, `<a href="#day">Pick a day with an open window.</a>`,
				`id="day-error"`, `id="service-error"`, `id="zip-error"`}, nil},
		{"the week", "service=ac-not-cooling&zip=85004", 200,
			[]string{"Pick a day", "Today, Monday, November 23", "Sunday, November 29", "open windows", `id="next-week"`, `value="2026-11-24"`,
				`value="ac-not-cooling" checked`, `value="85004"`},
			[]string{`id="prev-week"`, `class="error"`, `id="fix"`}},
		{"the next week", "service=ac-not-cooling&zip=85004&show_week=1", 200,
			[]string{"Monday, November 30", `id="prev-week"`, "no open window", `value="ac-not-cooling" checked`}, []string{`id="next-week"`, "Soonest"}},
		{"a week past the horizon", "service=ac-not-cooling&zip=85004&show_week=9", 200, []string{"Today, Monday, November 23"}, nil},
		{"something else", "service=other&zip=85004", 200, []string{"Something else (you describe it on the next page)"}, nil},
		{"the soonest window", "service=ac-not-cooling&zip=85004&day=2026-11-23T17:00:00Z", 200,
			[]string{"Arrival window: Today, Monday, November 23", `id="window-0" value="2026-11-23T17:00:00Z" checked`}, nil},
		{"a day", "service=ac-not-cooling&zip=85004&day=2026-11-24", 200,
			[]string{"Arrival window: Tomorrow, Tuesday, November 24", `target="_top"`, `id="call-now" href="tel:&#43;16025550163">Call now</a>`, `value="2026-11-24T15:00:00Z"`, "8:00 AM – 10:00 AM MST",
				`name="token"`, `name="key"`, `value="emergency" checked`, `id="not-a-booking"`, `id="send"`,
				`<input type="checkbox" id="sms_consent" name="sms_consent" value="yes"><span>`},
			[]string{`deposit_accepted`, `id="window-0" value="2026-11-24T15:00:00Z" checked`}},
		{"a day past the horizon", "service=ac-not-cooling&zip=85004&day=2027-01-04", 400, []string{"That day is no longer offered. Pick another day.", `value="ac-not-cooling" checked`}, nil},
		{"a day that is no date", "service=ac-not-cooling&zip=85004&day=tomorrow", 400, []string{"That day is no longer offered."}, nil},
		{"the first page in Spanish", "lang=es", 200,
			[]string{"¿Hay peligro? Salga y después llame", "Todo lo demás, incluidas las reparaciones urgentes, puede pedirlo aquí.", "Llamar ahora",
				"Hoy, lunes 23 de noviembre", "Mañana, martes 24 de noviembre", "primer horario libre a las ", "Otra cosa (la describe en la página siguiente)"}, nil},
		{"in Spanish", "lang=es&service=ac-not-cooling&zip=85004&day=2026-11-24", 200,
			[]string{`<html lang="es">`, "Horario de llegada: Mañana, martes 24 de noviembre", "08:00 – 10:00 MST", "no una cita", "Enviar solicitud", `lang="en">English</a>`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.get(t, form+"?"+tt.query)
			if res.Status != tt.wantStatus {
				t.Fatalf("got %d, want %d: %s", res.Status, tt.wantStatus, res.Body)
			}
			wantIn(t, res.Body, tt.want...)
			wantNotIn(t, res.Body, tt.wantNot...)
		})
	}
	t.Run("the windows are the API's", func(t *testing.T) {
		day := f.day(t, plain, 1)
		res := f.get(t, form+"?service=ac-not-cooling&zip=85004&day="+day)
		got := regexp.MustCompile(`name="window" id="window-\d+" value="([^"]+)"`).FindAllStringSubmatch(res.Body, -1)
		want := f.windows(t, plain, day)
		if len(got) != len(want) || len(want) == 0 {
			t.Fatalf("got %d windows, want %d", len(got), len(want))
		}
		for i, w := range want {
			if got[i][1] != w.Start.Format(time.RFC3339) {
				t.Errorf("window %d: got %s, want %s", i, got[i][1], w.Start.Format(time.RFC3339))
			}
		}
	})
}

// TestLanguage: the business's default, ?lang= and Accept-Language, among
// the languages the business offers.
func TestLanguage(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		name, slug, query, accept, want string
		wantSwitch                      bool
	}{
		{"default en", plain, "", "", "en", true},
		{"default es", spanish, "", "", "es", true},
		{"?lang=", spanish, "lang=en", "es", "en", true},
		{"Accept-Language", plain, "", "es-MX,es;q=0.9", "es", true},
		{"not offered", preview, "lang=es", "es", "en", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.get(t, bookform.Path+tt.slug+"?"+tt.query, "Accept-Language", tt.accept)
			wantIn(t, res.Body, `<html lang="`+tt.want+`">`)
			if got := strings.Contains(res.Body, `id="lang"`); got != tt.wantSwitch {
				t.Errorf("got a language switch %v, want %v", got, tt.wantSwitch)
			}
		})
	}
}

// TestStates: an example business takes nothing, a preview says so, a
// paused one gives its phone, an unknown slug is the 404 page.
func TestStates(t *testing.T) {
	f := newFixture(t, nil)
	t.Run("example", func(t *testing.T) {
		day := f.day(t, example, 1)
		v := f.filled(t, example, "furnace-repair", "60613", day)
		res := f.get(t, bookform.Path+example+"?service=furnace-repair&zip=60613&day="+day)
		wantIn(t, res.Body, `id="example"`, "made up", `id="no-send"`)
		wantNotIn(t, res.Body, `id="send"`)
		res = f.post(t, example, v)
		if res.Status != 403 {
			t.Fatalf("got %d, want 403", res.Status)
		}
		wantIn(t, res.Body, "nothing was sent", `value="4417 Wisteria Lane"`)
		if n := f.stored(t, example); n != 0 {
			t.Errorf("got %d requests stored, want none", n)
		}
	})
	t.Run("preview", func(t *testing.T) {
		res := f.get(t, bookform.Path+preview+"?service=power-loss&zip=80202&day="+f.day(t, preview, 1))
		wantIn(t, res.Body, `id="preview"`, "preview inbox", "This business asks a deposit of $25.00.", "Simulated deposit",
			"You cancel at least 24 hours before the arrival window: refunded in full.",
			`<input type="checkbox" id="deposit_accepted" name="deposit_accepted" value="yes"><span>`)
	})
	t.Run("paused", func(t *testing.T) {
		for _, path := range []string{"", "?service=breaker-trips&zip=10031&day=" + f.day(t, paused, 1)} {
			res := f.get(t, bookform.Path+paused+path)
			if res.Status != 200 {
				t.Errorf("got %d, want 200", res.Status)
			}
			wantIn(t, res.Body, "Online requests are paused", `href="tel:&#43;1`)
			wantNotIn(t, res.Body, "<form")
		}
	})
	t.Run("paused, posted", func(t *testing.T) {
		g := newFixture(t, nil)
		day := g.day(t, plain, 1)
		v := g.filled(t, plain, "ac-not-cooling", "85004", day)
		if _, err := bookingtest.Inbox(t, g.bookings, plain).SetAcceptingRequests(context.Background(), false); err != nil {
			t.Fatal(err)
		}
		g.clock.Add(10 * time.Minute) // past the business cache
		res := g.post(t, plain, v)
		if res.Status != 503 {
			t.Fatalf("got %d, want 503", res.Status)
		}
		wantIn(t, res.Body, "Online requests are paused", `href="tel:&#43;16025550163"`)
		if n := g.stored(t, plain); n != 0 {
			t.Errorf("got %d requests stored, want none", n)
		}
	})
	t.Run("unknown slug", func(t *testing.T) {
		for _, path := range []string{bookform.Path + "no-such-business", bookform.Path + "NO%20SUCH", "/book/", "/elsewhere"} {
			res := f.get(t, path, "Accept-Language", "es")
			if res.Status != 404 {
				t.Errorf("%s: got %d, want 404", path, res.Status)
			}
			wantIn(t, res.Body, "Página no encontrada", "<main>")
		}
	})
}

// TestSend: a request sent through the form is the JSON API's request: 303
// to the status page, or the payment page when a deposit is due, and a
// double submit makes one request.
func TestSend(t *testing.T) {
	tests := []struct {
		name, slug, service, zip string
		wantTo                   string
		wantStatus               booking.Status
	}{
		{"no deposit", plain, "ac-not-cooling", "85004", siteURL + "/r/", booking.StatusNew},
		{"something else", plain, "other", "85004", siteURL + "/r/", booking.StatusNew},
		{"simulated deposit", preview, "power-loss", "80202", siteURL + "/pay/", booking.StatusPendingPayment},
		{"deposit at Stripe", paid, "leak-repair", "78701", siteURL + "/pay/", booking.StatusPendingPayment},
		{"in Spanish", spanish, "standard-cleaning", "90026", siteURL + "/r/", booking.StatusNew},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			day := f.day(t, tt.slug, 1)
			v := f.filled(t, tt.slug, tt.service, tt.zip, day)
			open := len(f.windows(t, tt.slug, day))
			first := f.post(t, tt.slug, v)
			if first.Status != 303 || !strings.HasPrefix(first.Location, tt.wantTo) {
				t.Fatalf("got %d to %q, want 303 to %s...: %s", first.Status, first.Location, tt.wantTo, first.Body)
			}
			again := f.post(t, tt.slug, v) // a double click
			if again.Status != 303 || again.Location != first.Location {
				t.Errorf("the second submit: got %d to %q, want 303 to %q", again.Status, again.Location, first.Location)
			}
			// One request holds one window (pending_payment ones are not in
			// the business's inbox yet).
			if got := open - len(f.windows(t, tt.slug, day)); got != 1 {
				t.Fatalf("got %d windows taken, want 1", got)
			}
			code := first.Location[strings.LastIndex(first.Location, "/")+1:]
			r, err := f.bookings.OperatorRequest(context.Background(), code)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tt.wantStatus || r.Contact.Phone != "7205550142" || r.Contact.SMSConsent || r.Address.Street != "4417 Wisteria Lane" ||
				r.Window.Start.Format(time.RFC3339) != v.Get("window") || r.Language != v.Get("lang") || r.AssistantName != "" {
				t.Errorf("got %+v, want the form's answers", r)
			}
			if tt.service == "other" && r.ServiceID != "" || tt.service != "other" && r.ServiceID != tt.service {
				t.Errorf("got service %q, want %q", r.ServiceID, tt.service)
			}
		})
	}
}

// TestRefusals: every code CreateRequest answers shows the form again,
// with everything typed kept, the message next to its field in the page's
// language, no developer text, and nothing stored.
func TestRefusals(t *testing.T) {
	long := strings.Repeat("x", booking.MaxDescription+1)
	tests := []struct {
		name       string
		slug       string
		edit       func(*booking.Business)
		before     func(t *testing.T, f *fixture, v url.Values) // what happened first
		change     []string                                     // field, value
		wantStatus int
		wantField  string // the id of the message's element
		want       string
		wantStored int
	}{
		{"no window", plain, nil, nil, []string{"window", ""}, 400, "window-error", "Pick one of the open windows.", 0},
		{"a window that is no window", plain, nil, nil, []string{"window", "2026-11-24T15:17:00Z"}, 400, "window-error", "Pick one of the open windows.", 0},
		{"a window that is no time", plain, nil, nil, []string{"window", "tomorrow 8am"}, 400, "window-error", "Pick one of the open windows.", 0},
		{"a window that started", plain, nil, nil, []string{"window", "2026-11-23T14:00:00Z"}, 400, "window-error", "That window starts too soon now.", 0},
		{"no street", plain, nil, nil, []string{"street", "   "}, 400, "street-error", "Write the street and number", 0},
		{"a ZIP that is no ZIP", plain, nil, nil, []string{"zip", "850"}, 400, "zip-error", "Write the ZIP code as 5 digits.", 0},
		{"a ZIP outside the area", plain, nil, nil, []string{"zip", "90210"}, 400, "zip-error", "does not work in this ZIP code", 0},
		{"no name", plain, nil, nil, []string{"name", ""}, 400, "name-error", "Write your name", 0},
		{"a phone that is no phone", plain, nil, nil, []string{"phone", "555-01"}, 400, "phone-error", "Write a US phone number of 10 digits", 0},
		{"an e-mail that is no e-mail", plain, nil, nil, []string{"email", "quentin@"}, 400, "email-error", "does not look like an e-mail address", 0},
		{"a description too long", plain, nil, nil, []string{"description", long}, 400, "description-error", "2000 characters", 0},
		{"an urgency that is none", plain, nil, nil, []string{"urgency", "yesterday"}, 400, "top-error", "The request could not be sent.", 0},
		{"deposit not accepted", preview, nil, nil, []string{"deposit_accepted", ""}, 400, "deposit_accepted-error", "tick the box", 0},
		{"window taken meanwhile", plain, nil, func(t *testing.T, f *fixture, v url.Values) {
			other := with(v, "phone", "(602) 555-0199", "key", "")
			other.Del("token")
			start, err := time.Parse(time.RFC3339, v.Get("window"))
			if err != nil {
				t.Fatal(err)
			}
			in := booking.CreateInput{WindowStart: start, Address: booking.Address{Street: "1 Elm St", ZIP: "85004"},
				Contact: booking.Contact{Name: "Someone Else", Phone: "6025550199"}}
			if _, _, err := f.bookings.CreateRequest(context.Background(), f.business(t, plain), in); err != nil {
				t.Fatal(err)
			}
		}, nil, 409, "window-error", "That window was just taken. Pick another.", 1},
		{"too many open", plain, nil, func(t *testing.T, f *fixture, v url.Values) {
			for i := 1; i <= 3; i++ {
				ws := f.windows(t, plain, v.Get("day"))
				in := booking.CreateInput{WindowStart: ws[i].Start, Address: booking.Address{Street: "1 Elm St", ZIP: "85004"},
					Contact: booking.Contact{Name: "Quentin Zebulon", Phone: v.Get("phone")}}
				if _, _, err := f.bookings.CreateRequest(context.Background(), f.business(t, plain), in); err != nil {
					t.Fatal(err)
				}
			}
		}, nil, 429, "top-error", "already has requests waiting", 3},
		{"rate limited", plain, func(b *booking.Business) { b.RequestsPerHour = 1 }, func(t *testing.T, f *fixture, v url.Values) {
			ws := f.windows(t, plain, v.Get("day"))
			in := booking.CreateInput{WindowStart: ws[1].Start, Address: booking.Address{Street: "1 Elm St", ZIP: "85004"},
				Contact: booking.Contact{Name: "Someone Else", Phone: "6025550199"}}
			if _, _, err := f.bookings.CreateRequest(context.Background(), f.business(t, plain), in); err != nil {
				t.Fatal(err)
			}
		}, nil, 429, "top-error", "taking no more online requests right now", 1},
		{"a contact marked as spam", plain, nil, func(t *testing.T, f *fixture, v url.Values) {
			ws := f.windows(t, plain, v.Get("day"))
			in := booking.CreateInput{WindowStart: ws[1].Start, Address: booking.Address{Street: "1 Elm St", ZIP: "85004"},
				Contact: booking.Contact{Name: "Quentin Zebulon", Phone: v.Get("phone")}}
			c, _, err := f.bookings.CreateRequest(context.Background(), f.business(t, plain), in)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := bookingtest.Inbox(t, f.bookings, plain).Move(context.Background(), c.Code, booking.ActionSpam, time.Time{}); err != nil {
				t.Fatal(err)
			}
		}, nil, 403, "top-error", "cannot take this request online", 1},
		{"the form sent before with other details", plain, nil, func(t *testing.T, f *fixture, v url.Values) {
			if res := f.post(t, plain, with(v, "description", "Something else first.")); res.Status != 303 {
				t.Fatalf("the first send: got %d", res.Status)
			}
		}, nil, 422, "top-error", "This form was already sent with other details.", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.edit)
			zip := map[string]string{plain: "85004", preview: "80202"}[tt.slug]
			service := map[string]string{plain: "ac-not-cooling", preview: "power-loss"}[tt.slug]
			v := f.filled(t, tt.slug, service, zip, f.day(t, tt.slug, 1))
			if tt.before != nil {
				tt.before(t, f, v)
			}
			sent := with(v, tt.change...)
			res := f.post(t, tt.slug, sent)
			if res.Status != tt.wantStatus {
				t.Fatalf("got %d, want %d: %s", res.Status, tt.wantStatus, res.Body)
			}
			// When to try again, as the JSON API says it: only a limit
			// that frees at a known time has one.
			if wait, err := strconv.Atoi(res.Header.Get("Retry-After")); (tt.name == "rate limited") != (err == nil && wait > 0) {
				t.Errorf("got Retry-After %q", res.Header.Get("Retry-After"))
			}
			if m := regexp.MustCompile(`id="` + tt.wantField + `">([^<]*)<`).FindStringSubmatch(res.Body); m == nil || !strings.Contains(m[1], strings.ReplaceAll(tt.want, "'", "&#39;")) {
				t.Errorf("got no %q next to %s", tt.want, tt.wantField)
			}
			wantIn(t, res.Body, `role="alert"`, "Arrival window:")
			changed := ""
			if len(tt.change) > 0 {
				changed = tt.change[0]
			}
			for _, field := range []string{"street", "unit", "city", "name", "email", "phone"} {
				if field != changed {
					wantIn(t, res.Body, `name="`+field+`" value="`+html.EscapeString(sent.Get(field))+`"`)
				}
			}
			if changed != "description" {
				wantIn(t, res.Body, ">"+sent.Get("description")+"</textarea>")
			}
			wantNotIn(t, res.Body, developerText...)
			if n := f.stored(t, tt.slug); n != tt.wantStored {
				t.Errorf("got %d requests stored, want %d", n, tt.wantStored)
			}
			if tt.name == "window taken meanwhile" {
				wantNotIn(t, res.Body, `value="`+v.Get("window")+`"`) // the windows as they stand now
				wantIn(t, res.Body, `value="`+v.Get("name")+`"`)
			}
		})
	}
	t.Run("in Spanish", func(t *testing.T) {
		f := newFixture(t, nil)
		v := f.filled(t, spanish, "standard-cleaning", "90026", f.day(t, spanish, 1))
		res := f.post(t, spanish, with(v, "phone", "12"))
		wantIn(t, res.Body, `<html lang="es">`, `id="phone-error">Escriba un número de EE. UU. de 10 dígitos`)
	})
}

// TestToken: a POST that did not come from a form the service rendered,
// lately, for this business, gets the page saying to reload, and nothing
// is stored.
func TestToken(t *testing.T) {
	f := newFixture(t, nil)
	v := f.filled(t, plain, "ac-not-cooling", "85004", f.day(t, plain, 1))
	issued, _, _ := strings.Cut(v.Get("token"), ".")
	tests := []struct {
		name string
		form url.Values
		wait time.Duration
	}{
		{"no token", with(v, "token", ""), 0},
		{"no key", with(v, "key", ""), 0},
		{"a forged token", with(v, "token", issued+".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), 0},
		{"a token from the future", with(v, "token", fmt.Sprint(start.Add(time.Hour).Unix())+"."+strings.SplitN(v.Get("token"), ".", 2)[1]), 0},
		{"another key", with(v, "key", "another-key-of-ours"), 0},
		{"an expired token", v, bookform.TokenTTL + time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.clock.Set(start.Add(tt.wait))
			res := f.post(t, plain, tt.form)
			if res.Status != 403 {
				t.Fatalf("got %d, want 403", res.Status)
			}
			wantIn(t, res.Body, "Reload the form", "Nothing was sent.", `href="/book/desert-cool-hvac?lang=en"`)
			if n := f.stored(t, plain); n != 0 {
				t.Errorf("got %d requests stored, want none", n)
			}
		})
	}
	t.Run("another business", func(t *testing.T) {
		f.clock.Set(start)
		other := f.filled(t, preview, "power-loss", "80202", f.day(t, preview, 1))
		res := f.post(t, plain, with(v, "key", other.Get("key"), "token", other.Get("token")))
		if res.Status != 403 {
			t.Fatalf("got %d, want 403", res.Status)
		}
	})
	t.Run("from another site", func(t *testing.T) {
		f.clock.Set(start)
		res := pagetest.Do(t, f.h, "POST", bookform.Path+plain, v, "Sec-Fetch-Site", "cross-site")
		if res.Status != 403 {
			t.Fatalf("got %d, want 403", res.Status)
		}
		if n := f.stored(t, plain); n != 0 {
			t.Errorf("got %d requests stored, want none", n)
		}
	})
	t.Run("too large", func(t *testing.T) {
		f.clock.Set(start)
		res := f.post(t, plain, with(v, "description", strings.Repeat("é", 20000)))
		if res.Status != 400 {
			t.Fatalf("got %d, want 400", res.Status)
		}
		wantIn(t, res.Body, "Reload the form")
	})
}

// TestHeaders: the form may be framed by the business's own site only; no
// other page may be framed; no cookie is set.
func TestHeaders(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		path, want string
	}{
		{bookform.Path + plain, "https://desert-cool-hvac.example.com"},
		{bookform.Path + plain + "?service=ac-not-cooling&zip=85004", "https://desert-cool-hvac.example.com"},
		{bookform.Path + spanish, "https://limpieza-la-estrella.example.com"},
		{bookform.Path + "no-such-business", "'none'"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res := f.get(t, tt.path)
			pagetest.CheckHeaders(t, res.Header, tt.want)
		})
	}
}

// TestTexts: every key has both languages.
func TestTexts(t *testing.T) {
	pagetest.CheckTexts(t, bookform.Texts["en"], bookform.Texts["es"])
}

// TestNewWithoutKey: the form does not start without a key long enough.
func TestNewWithoutKey(t *testing.T) {
	if _, err := bookform.New(bookform.Config{Key: []byte("short")}); err == nil {
		t.Fatal("got no error, want one")
	}
}
