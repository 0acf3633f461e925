package pages_test

import (
	"context"
	"fmt"
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

// createWith sends a request to desert-cool-hvac (no deposit) with the
// given e-mail and consent to texts, in lang, for the nth open window of
// the week from tomorrow.
func (f *fixture) createWith(t *testing.T, email string, sms bool, lang string) booking.Created {
	t.Helper()
	b := f.business(t, "desert-cool-hvac")
	day := f.clock.Now().In(b.Location()).AddDate(0, 0, 1).Format("2006-01-02")
	w := f.windows(t, "desert-cool-hvac", day, 6)
	if len(w) <= f.phones {
		t.Fatalf("%d windows on %s, want more than %d", len(w), day, f.phones)
	}
	in := booking.CreateInput{
		WindowStart: w[f.phones].Start,
		Address:     booking.Address{Street: street, City: "Phoenix", ZIP: "85004"},
		Contact:     booking.Contact{Name: personName, Phone: fmt.Sprintf("480555%04d", 147+f.phones), Email: email, SMSConsent: sms},
		Language:    &lang,
	}
	f.phones++
	// Under the business's requests_per_hour: one every seven minutes.
	defer f.clock.Add(7 * time.Minute)
	c, _, err := f.bookings.CreateRequest(context.Background(), b, in)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHearBack: the status page says how the answer reaches the person,
// masked, or that nobody will write to them, and offers the ways they do
// not have, while the request is live; never once it is closed.
func TestHearBack(t *testing.T) {
	f := newFixture(t, nil)
	const email = "jordan@example.com"
	tests := []struct {
		name    string
		email   string
		sms     bool
		lang    string
		want    []string
		notWant []string
	}{
		{"nobody will write", "", false, "en",
			[]string{"How you will hear back", "Nobody will write to you: keep this page.", `id="hear-email"`, `id="hear-sms"`, `name="way" value="email"`,
				"Text me about this request at …0147."},
			[]string{`id="hear-ways"`, " checked"}},
		{"nadie le escribirá", "", false, "es",
			[]string{"Cómo le avisaremos", "Nadie le escribirá: guarde esta página.", `id="hear-email"`, `id="hear-sms"`},
			[]string{`id="hear-ways"`}},
		{"by e-mail", email, false, "en",
			[]string{"answer reaches you by e-mail to j…@….", `id="hear-sms"`},
			[]string{"Nobody will write", `id="hear-email"`, email}},
		{"by text", "", true, "en",
			[]string{"answer reaches you by text to …0150.", `id="hear-email"`},
			[]string{"Nobody will write", `id="hear-sms"`}},
		{"both", email, true, "es",
			[]string{"La respuesta del negocio le llega por correo electrónico a j…@…, y por mensaje de texto al …0151."},
			[]string{"Nadie le escribirá", `id="hear-email"`, `id="hear-sms"`, email}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := f.createWith(t, tt.email, tt.sms, tt.lang)
			res := f.do(t, "GET", "/r/"+c.Code, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.want...)
			wantNotIn(t, res.body, tt.notWant...)
			wantNotIn(t, res.body, personName, "480555")
		})
	}
	t.Run("a closed request offers nothing", func(t *testing.T) {
		c := f.createWith(t, "", false, "en")
		f.businessMove(t, "desert-cool-hvac", c.Code, booking.ActionDecline, "")
		res := f.do(t, "GET", "/r/"+c.Code, nil)
		wantNotIn(t, res.body, `id="hear-back"`, `id="hear-email"`, `id="hear-sms"`, "keep this page")
	})
}

// TestAddContactFromPage: the status page's forms add an e-mail or turn
// texts on, then 303 to the status page, which says so; a refusal is the
// status page again with the message next to the field and what was typed
// kept, nothing stored; a form from another site is refused.
func TestAddContactFromPage(t *testing.T) {
	f := newFixture(t, nil)
	post := func(t *testing.T, code string, form url.Values, header ...string) response {
		t.Helper()
		return f.do(t, "POST", "/r/"+code+"/contact", form, header...)
	}
	t.Run("an e-mail, then texts", func(t *testing.T) {
		c := f.createWith(t, "", false, "en")
		res := post(t, c.Code, url.Values{"way": {"email"}, "email": {" jordan@example.com "}})
		if res.status != http.StatusSeeOther || res.location != "/r/"+c.Code+"?done=email" {
			t.Fatalf("got %d to %q, want 303 to /r/%s?done=email", res.status, res.location, c.Code)
		}
		if got := f.request(t, c.Code).Contact.Email; got != "jordan@example.com" {
			t.Errorf("stored e-mail %q, want jordan@example.com", got)
		}
		page := f.do(t, "GET", res.location, nil)
		wantIn(t, page.body, "We will write to j…@… about this request", "reaches you by e-mail to j…@….", `id="hear-sms"`)
		wantNotIn(t, page.body, `id="hear-email"`, "Nobody will write", "jordan@")

		res = post(t, c.Code, url.Values{"way": {"sms"}, "sms_consent": {"yes"}})
		if res.status != http.StatusSeeOther || res.location != "/r/"+c.Code+"?done=sms" {
			t.Fatalf("got %d to %q, want 303 to ?done=sms", res.status, res.location)
		}
		page = f.do(t, "GET", res.location, nil)
		wantIn(t, page.body, "We will text …0", "by e-mail to j…@…, and by text to …0")
		wantNotIn(t, page.body, `id="hear-sms"`, `id="hear-email"`)
	})
	t.Run("?done= says nothing the request does not bear out", func(t *testing.T) {
		c := f.createWith(t, "", false, "en")
		page := f.do(t, "GET", "/r/"+c.Code+"?done=email", nil)
		wantNotIn(t, page.body, "We will write to")
	})

	refusals := []struct {
		name       string
		lang       string
		setup      func(t *testing.T, code string)
		form       url.Values
		wantStatus int
		want       []string
	}{
		{"an address that is not one", "en", nil, url.Values{"way": {"email"}, "email": {"jordan@"}}, http.StatusBadRequest,
			[]string{`id="hear-email-error"`, "Type an e-mail address, like name@example.com.", `value="jordan@"`, `aria-invalid="true"`}},
		{"no address", "es", nil, url.Values{"way": {"email"}, "email": {""}}, http.StatusBadRequest,
			[]string{`id="hear-email-error"`, "Escriba un correo electrónico"}},
		{"texts without the box ticked", "en", nil, url.Values{"way": {"sms"}}, http.StatusBadRequest,
			[]string{`id="hear-sms-error"`, "Tick the box to agree to texts"}},
		{"an address with three open requests here", "en", func(t *testing.T, _ string) {
			for range booking.MaxOpenPerPhone {
				f.createWith(t, "busy@example.com", false, "en")
			}
		}, url.Values{"way": {"email"}, "email": {"busy@example.com"}}, http.StatusTooManyRequests,
			[]string{"This e-mail address already has 3 open requests with this business.", `value="busy@example.com"`}},
		{"an address the business blocked", "es", func(t *testing.T, _ string) {
			spam := f.createWith(t, "spam@example.com", false, "en")
			f.businessMove(t, "desert-cool-hvac", spam.Code, booking.ActionSpam, "")
		}, url.Values{"way": {"email"}, "email": {"spam@example.com"}}, http.StatusForbidden,
			[]string{"Este correo no se puede usar para esta solicitud. Llame al negocio."}},
		{"a fourth change", "en", func(t *testing.T, code string) {
			for _, email := range []string{"a@example.com", "b@example.com", "c@example.com"} {
				if _, err := f.bookings.AddEmail(context.Background(), code, email); err != nil {
					t.Fatal(err)
				}
			}
		}, url.Values{"way": {"sms"}, "sms_consent": {"yes"}}, http.StatusTooManyRequests,
			[]string{"How you hear back was changed 3 times already for this request. Call the business."}},
		{"a declined request", "en", func(t *testing.T, code string) {
			f.businessMove(t, "desert-cool-hvac", code, booking.ActionDecline, "")
		}, url.Values{"way": {"email"}, "email": {"jordan@example.com"}}, http.StatusConflict,
			[]string{`class="notice"`, "can no longer change how you hear back"}},
		{"a form that is not one", "en", nil, url.Values{"way": {"pigeon"}}, http.StatusBadRequest,
			[]string{"This form could not be read."}},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			c := f.createWith(t, "", false, tt.lang)
			if tt.setup != nil {
				tt.setup(t, c.Code)
			}
			before := f.request(t, c.Code)
			res := post(t, c.Code, tt.form)
			if res.status != tt.wantStatus {
				t.Fatalf("got %d, want %d\n%s", res.status, tt.wantStatus, res.body)
			}
			wantIn(t, res.body, tt.want...)
			after := f.request(t, c.Code)
			if after.Contact != before.Contact || len(after.History) != len(before.History) {
				t.Errorf("stored %+v with %d events, want %+v with %d: nothing stored", after.Contact, len(after.History), before.Contact, len(before.History))
			}
		})
	}
	t.Run("a cross-site form is refused", func(t *testing.T) {
		c := f.createWith(t, "", false, "en")
		res := post(t, c.Code, url.Values{"way": {"email"}, "email": {"evil@example.com"}}, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		if res.status != http.StatusForbidden {
			t.Errorf("got %d, want 403", res.status)
		}
		if got := f.request(t, c.Code).Contact.Email; got != "" {
			t.Errorf("stored %q, want nothing", got)
		}
	})
	t.Run("an unknown code", func(t *testing.T) {
		res := post(t, "ZZZZ-ZZZZ-ZZZZ", url.Values{"way": {"sms"}, "sms_consent": {"yes"}})
		if res.status != http.StatusNotFound {
			t.Errorf("got %d, want 404", res.status)
		}
	})
}

// TestLookup: /r takes a code as a person types it back, and leads to its
// status page; a code that cannot be one, or that no request has, is the
// page again with the message next to the field and the code kept.
func TestLookup(t *testing.T) {
	f := newFixture(t, nil)
	c := f.createWith(t, "", false, "en")
	spaced := strings.ToLower(strings.ReplaceAll(c.Code, "-", " "))
	tests := []struct {
		name       string
		path       string
		lang       string
		wantStatus int
		wantTo     string
		want       []string
	}{
		{"the form", "/r", "en", http.StatusOK, "", []string{"Find your request", `<form method="get" action="/r"`, `name="code"`}},
		{"the form in Spanish", "/r", "es", http.StatusOK, "", []string{"Buscar su solicitud", "Código de la solicitud"}},
		{"lower case, spaces", "/r?code=" + url.QueryEscape("  "+spaced+" "), "en", http.StatusSeeOther, "/r/" + c.Code, nil},
		{"no dashes", "/r?code=" + strings.ReplaceAll(c.Code, "-", ""), "en", http.StatusSeeOther, "/r/" + c.Code, nil},
		{"as given", "/r?code=" + c.Code, "en", http.StatusSeeOther, "/r/" + c.Code, nil},
		{"unknown", "/r?code=zzzz-zzzz-zzzz", "en", http.StatusNotFound, "",
			[]string{`id="code-error"`, "No request has this code. Check it, or call the business.", `value="zzzz-zzzz-zzzz"`}},
		{"desconocido", "/r?code=zzzz-zzzz-zzzz", "es", http.StatusNotFound, "", []string{"Ninguna solicitud tiene este código."}},
		{"not a code", "/r?code=hello", "en", http.StatusBadRequest, "", []string{"A request code has 12 letters and digits", `value="hello"`}},
		{"empty", "/r?code=", "en", http.StatusBadRequest, "", []string{"Type the request code"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, "GET", tt.path, nil, "Accept-Language", tt.lang)
			if res.status != tt.wantStatus || res.location != tt.wantTo {
				t.Fatalf("got %d to %q, want %d to %q", res.status, res.location, tt.wantStatus, tt.wantTo)
			}
			wantIn(t, res.body, tt.want...)
		})
	}
	// A long typed code comes back cut to what the field takes: 40
	// characters (its maxlength), never the 20,000 that came.
	t.Run("a long code is reflected cut to the field's length", func(t *testing.T) {
		long := strings.Repeat("é", 20000)
		res := f.do(t, "GET", "/r?code="+url.QueryEscape(long), nil, "Accept-Language", "en")
		if res.status != http.StatusBadRequest {
			t.Fatalf("got %d, want 400", res.status)
		}
		wantIn(t, res.body, `value="`+strings.Repeat("é", pages.MaxLookupTyped)+`"`, `maxlength="40"`)
		if strings.Contains(res.body, strings.Repeat("é", pages.MaxLookupTyped+1)) {
			t.Errorf("the page shows more than %d of the typed characters", pages.MaxLookupTyped)
		}
	})
	t.Run("with its slash, as API Gateway sends /r/", func(t *testing.T) {
		res := pagetest.Do(t, f.h, "GET", "/r/?code="+c.Code, nil)
		if res.Status != http.StatusSeeOther || res.Location != "/r/"+c.Code {
			t.Errorf("got %d to %q, want 303 to /r/%s", res.Status, res.Location, c.Code)
		}
		res = pagetest.Do(t, f.h, "GET", "/r/", nil)
		wantIn(t, res.Body, "Find your request")
	})
}

// TestHearBackFollowsPersonReach: the status page says the ways that
// actually reach the person (booking.PersonReach: what pkg/notify sends),
// and offers only the ways that would: an example business writes to
// nobody, a preview business's messages go to its preview inbox, and a
// deployment without texts sends none. The words "Nobody will write to
// you" follow, with what the page then offers.
func TestHearBackFollowsPersonReach(t *testing.T) {
	f := newFixture(t, nil)
	textsOn := f.h
	textsOff := pages.New(pages.Config{
		Bookings: bookingtest.New(t, booking.Config{Store: f.store, SiteURL: siteURL, Now: f.clock.Now, TextsOff: true}),
		Now:      f.clock.Now, Log: slog.New(slog.DiscardHandler),
	})
	const (
		plain = iota
		example
		preview
		noTexts // the deployment sends no texts
	)
	const email = "jordan@example.com"
	tests := []struct {
		name    string
		email   string
		sms     bool
		lang    string
		setting int
		want    []string
		notWant []string
	}{
		{"example business, both ways", email, true, "en", example,
			[]string{"Nobody will write to you: keep this page.", "The business&#39;s answer shows here, and the business may call you.</p>"},
			[]string{`id="hear-ways"`, `id="hear-email"`, `id="hear-sms"`, "below"}},
		{"example business, neither way", "", false, "es", example,
			[]string{"Nadie le escribirá: guarde esta página.", "el negocio puede llamarle.</p>"},
			[]string{`id="hear-email"`, `id="hear-sms"`, "abajo"}},
		{"preview business, e-mail", email, false, "en", preview,
			[]string{"Nobody will write to you: keep this page."},
			[]string{`id="hear-ways"`, `id="hear-email"`, `id="hear-sms"`}},
		{"texts off, texts only", "", true, "en", noTexts,
			[]string{"Nobody will write to you: keep this page.", "To be told, add an e-mail address below.", `id="hear-email"`},
			[]string{`id="hear-ways"`, `id="hear-sms"`, "by text"}},
		{"texts off, both ways", email, true, "es", noTexts,
			[]string{"La respuesta del negocio le llega por correo electrónico a j…@…."},
			[]string{"Nadie le escribirá", "por mensaje de texto", `id="hear-sms"`, `id="hear-email"`}},
		{"texts off, neither way", "", false, "es", noTexts,
			[]string{"Nadie le escribirá: guarde esta página.", "Para que le avisen, añada un correo electrónico abajo.", `id="hear-email"`},
			[]string{`id="hear-sms"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := f.store.UpdateBusiness(context.Background(), "desert-cool-hvac", func(stored *booking.Business) (*booking.Business, error) {
				c := *stored
				c.Example, c.Preview = tt.setting == example, tt.setting == preview
				return &c, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			f.h = textsOn
			if tt.setting == noTexts {
				f.h = textsOff
			}
			defer func() { f.h = textsOn }()
			c := f.createWith(t, tt.email, tt.sms, tt.lang)
			res := f.do(t, "GET", "/r/"+c.Code, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.want...)
			wantNotIn(t, res.body, tt.notWant...)
		})
	}
}

// TestHearNoticeFollowsPersonReach: texts turned on where the deployment
// sends none (a form posted all the same) are stored, but ?done=sms does
// not say "We will text": no text would go.
func TestHearNoticeFollowsPersonReach(t *testing.T) {
	f := newFixture(t, nil)
	f.h = pages.New(pages.Config{
		Bookings: bookingtest.New(t, booking.Config{Store: f.store, SiteURL: siteURL, Now: f.clock.Now, TextsOff: true}),
		Now:      f.clock.Now, Log: slog.New(slog.DiscardHandler),
	})
	c := f.createWith(t, "", false, "en")
	res := f.do(t, "POST", "/r/"+c.Code+"/contact", url.Values{"way": {"sms"}, "sms_consent": {"yes"}})
	if res.status != http.StatusSeeOther || res.location != "/r/"+c.Code+"?done=sms" {
		t.Fatalf("got %d to %q, want 303 to ?done=sms", res.status, res.location)
	}
	page := f.do(t, "GET", res.location, nil)
	wantIn(t, page.body, "Nobody will write to you: keep this page.", `id="hear-email"`)
	wantNotIn(t, page.body, "We will text", "by text to", `id="hear-sms"`)
}

// countingOptOuts is the opt-out list: the numbers that replied STOP, and
// how many times it was read.
type countingOptOuts struct {
	stopped map[string]bool
	reads   int
}

func (o *countingOptOuts) OptedOut(_ context.Context, phone string) (bool, error) {
	o.reads++
	return o.stopped[phone], nil
}

// TestHearBackAfterSTOP: the status page of a person whose number replied
// STOP never says "by text": it reads the opt-out (one read, only when the
// page would say it) and says what is true, here that nobody writes to
// them, or that they hear by e-mail alone; with ?done=sms too. A page that
// would claim no text reads nothing.
func TestHearBackAfterSTOP(t *testing.T) {
	outs := &countingOptOuts{stopped: map[string]bool{}}
	f := newFixture(t, func(c *pages.Config) { c.OptOuts = outs })
	tests := []struct {
		name      string
		email     string
		sms       bool
		stop      bool
		path      string
		wantReads int
		want      []string
		notWant   []string
	}{
		{"texts only, STOP", "", true, true, "", 1,
			[]string{"Nobody will write to you: keep this page."},
			[]string{"by text", `id="hear-sms"`}},
		{"texts only, STOP, just added", "", true, true, "?done=sms", 1,
			[]string{"Nobody will write to you: keep this page."},
			[]string{"by text", "We will text"}},
		{"both ways, STOP", "jordan@example.com", true, true, "", 1,
			[]string{"by e-mail to j…@…"},
			[]string{"by text", "Nobody will write to you"}},
		{"texts only, no STOP", "", true, false, "", 1,
			[]string{"by text"},
			[]string{"Nobody will write to you"}},
		{"e-mail only: nothing to read", "jordan@example.com", false, false, "", 0,
			[]string{"by e-mail to j…@…"},
			[]string{"by text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := f.createWith(t, tt.email, tt.sms, "en")
			r, _, err := f.bookings.CustomerRequest(context.Background(), c.Code)
			if err != nil {
				t.Fatal(err)
			}
			outs.stopped[r.Contact.Phone] = tt.stop
			outs.reads = 0
			res := f.do(t, "GET", "/r/"+c.Code+tt.path, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			if outs.reads != tt.wantReads {
				t.Errorf("got %d reads of the opt-out list, want %d", outs.reads, tt.wantReads)
			}
			wantIn(t, res.body, tt.want...)
			wantNotIn(t, res.body, tt.notWant...)
		})
	}
}

// TestNoWaysWhereNoneAreOffered: at an example business, whose status
// page offers no way to be told, a posted way is refused (403, said on the
// page) and nothing is stored. (A preview business stores it: its
// messages go to its preview inbox.)
func TestNoWaysWhereNoneAreOffered(t *testing.T) {
	f := newFixture(t, nil)
	for _, setting := range []string{"example"} {
		err := f.store.UpdateBusiness(context.Background(), "desert-cool-hvac", func(stored *booking.Business) (*booking.Business, error) {
			c := *stored
			c.Example, c.Preview = setting == "example", setting == "preview"
			return &c, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range []url.Values{
			{"way": {"email"}, "email": {"jordan@example.com"}},
			{"way": {"sms"}, "sms_consent": {"yes"}},
		} {
			t.Run(setting+" "+form.Get("way"), func(t *testing.T) {
				c := f.createWith(t, "", false, "en")
				res := f.do(t, "POST", "/r/"+c.Code+"/contact", form)
				if res.status != http.StatusForbidden {
					t.Fatalf("got %d to %q, want 403", res.status, res.location)
				}
				wantIn(t, res.body, "no way to be told can be added")
				r, _, err := f.bookings.CustomerRequest(context.Background(), c.Code)
				if err != nil {
					t.Fatal(err)
				}
				if r.Contact.Email != "" || r.Contact.SMSConsent || r.ContactChanges() != 0 {
					t.Errorf("got %+v stored, %d changes, want nothing added", r.Contact, r.ContactChanges())
				}
			})
		}
	}
}
