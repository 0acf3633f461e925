package inboxweb_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/inboxweb"
)

func signupForm(name, trade, email string, terms bool, lang string) url.Values {
	v := url.Values{"name": {name}, "trade": {trade}, "email": {email}, "lang": {lang}}
	if terms {
		v.Set("terms", "yes")
	}
	return v
}

func TestSignupPage(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		name, path, lang string
		want             []string
	}{
		{"English", "/start", "", []string{`<html lang="en">`, "Put your business on Doorstep", `action="/start"`, `name="name"`,
			`<option value="plumbing">Plumbing</option>`, `<option value="hvac">Heating and cooling (HVAC)</option>`, `type="email"`, `type="checkbox" id="terms" name="terms" value="yes"`,
			`name="lang" value="en"`, `href="/start?lang=es"`}},
		{"the browser's Spanish", "/start", "es-MX,es;q=0.9", []string{`<html lang="es">`, "Registre su negocio en Doorstep", `<option value="plumbing">Plomería</option>`, `name="lang" value="es"`}},
		{"the switch", "/start?lang=es", "", []string{`<html lang="es">`, "Acepto estas condiciones", `href="/start?lang=en"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, agent{header: []string{"Accept-Language", tt.lang}}, "GET", tt.path, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.want...)
			wantNotIn(t, res.body, "<script", `aria-invalid="true"`)
			checkHeaders(t, res)
		})
	}
}

// TestSignupBadFields: every bad field is named next to it, in the page's
// language, with what was typed kept; nothing is sent, and nothing is
// counted: the address's three e-mails of the day are all still there.
func TestSignupBadFields(t *testing.T) {
	f := newFixture(t, nil)
	const email = "jose@fontaneria.example.com"
	tests := []struct {
		name string
		form url.Values
		bad  []string // fields
		want []string
	}{
		{"no name", signupForm("", "plumbing", email, true, "en"), []string{"name"},
			[]string{`value="jose@fontaneria.example.com"`, `<option value="plumbing" selected>`, `checked`, "Enter your business&#39;s name"}},
		{"a link in the name", signupForm("Pipes www.cheap.example", "plumbing", email, true, "en"), []string{"name"},
			[]string{`value="Pipes www.cheap.example"`, "without a web address"}},
		{"no trade", signupForm("Fontanería José", "", email, true, "es"), []string{"trade"},
			[]string{`value="Fontanería José"`, "Elija su oficio."}},
		{"a made-up trade", signupForm("Fontanería José", "roofing", email, true, "en"), []string{"trade"}, []string{"Choose your trade."}},
		{"a bad e-mail", signupForm("Fontanería José", "plumbing", "jose@", true, "es"), []string{"email"},
			[]string{`value="jose@"`, "Escriba un correo electrónico"}},
		{"no terms", signupForm("Fontanería José", "cleaning", email, false, "en"), []string{"terms"},
			[]string{`<option value="cleaning" selected>`, "To sign up, agree to the terms."}},
		{"everything", signupForm(" ", "", "", false, "es"), []string{"name", "trade", "email", "terms"},
			[]string{`<html lang="es">`, "Escriba el nombre de su negocio", "Elija su oficio.", "Para registrarse, acepte las condiciones."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, agent{}, "POST", "/start", tt.form)
			if res.status != http.StatusBadRequest {
				t.Fatalf("got %d, want 400", res.status)
			}
			wantIn(t, res.body, tt.want...)
			for _, field := range tt.bad {
				wantIn(t, res.body, `id="`+field+`-error"`)
			}
			if got := strings.Count(res.body, `aria-invalid="true"`); got != len(tt.bad) {
				t.Errorf("%d fields marked invalid, want %d", got, len(tt.bad))
			}
			if got := strings.Count(res.body, `class="field-error"`); got != len(tt.bad) {
				t.Errorf("%d messages, want %d", got, len(tt.bad))
			}
		})
	}
	if n := len(f.mail.signupsSent()) + f.mail.count(); n != 0 {
		t.Fatalf("%d e-mails sent for bad forms, want none", n)
	}
	for i := range booking.MaxSignupEmailsPerDay {
		if res := f.do(t, agent{}, "POST", "/start", signupForm("Fontanería José", "plumbing", email, true, "en")); res.status != http.StatusOK {
			t.Fatalf("good form %d: got %d", i, res.status)
		}
	}
	if got := len(f.mail.signupsSent()); got != booking.MaxSignupEmailsPerDay {
		t.Errorf("after the bad forms, %d sign-up e-mails of %d sent", got, booking.MaxSignupEmailsPerDay)
	}
}

// TestSignup goes from the form to the inbox: the e-mailed link's page
// changes nothing (no business until the button), the button creates the
// business in preview and signs its owner in (in the page's language),
// and the link works once.
func TestSignup(t *testing.T) {
	for _, lang := range []string{"en", "es"} {
		t.Run(lang, func(t *testing.T) {
			f := newFixture(t, nil)
			ctx := context.Background()
			const email = "Jose@Fontaneria.example.com"
			res := f.do(t, agent{}, "POST", "/start", signupForm("Fontanería José", "plumbing", email, true, lang))
			if res.status != http.StatusOK {
				t.Fatalf("form: got %d\n%s", res.status, res.body)
			}
			wantIn(t, res.body, `id="sent"`, email)
			sent := f.mail.signupsSent()
			if len(sent) != 1 || sent[0].to != email || sent[0].name != "Fontanería José" || sent[0].lang != lang {
				t.Fatalf("sign-up e-mails: %+v", sent)
			}
			link, err := url.Parse(sent[0].link)
			if err != nil || !strings.HasPrefix(sent[0].link, siteURL+"/start/") || link.Query().Get("lang") != lang {
				t.Fatalf("link %q", sent[0].link)
			}
			for range 2 {
				res = f.do(t, agent{}, "GET", link.RequestURI(), nil)
				if res.status != http.StatusOK {
					t.Fatalf("the link's page: got %d", res.status)
				}
				wantIn(t, res.body, `<html lang="`+lang+`">`, `id="create"`, `action="`+link.Path+`"`)
			}
			if _, err := f.store.BusinessByInboxEmail(ctx, email); booking.ErrorCode(err) != booking.NotFound {
				t.Fatalf("after opening the link, BusinessByInboxEmail = %v; want NOT_FOUND", err)
			}
			res = f.do(t, agent{}, "POST", link.Path, url.Values{"lang": {lang}})
			c := res.cookie(inboxweb.CookieName)
			if res.status != http.StatusSeeOther || res.location != "/inbox" || c == nil || c.Path != "/inbox" {
				t.Fatalf("the button: got %d to %q, cookie %v; log:\n%s\n%s", res.status, res.location, c, f.log, res.body)
			}
			if l := res.cookie("doorstep_inbox_lang"); l == nil || l.Value != lang {
				t.Errorf("language cookie %v, want %s", l, lang)
			}
			b, err := f.store.Business(ctx, "fontaneria-jose")
			if err != nil {
				t.Fatal(err)
			}
			if !b.Preview || b.AcceptingRequests || b.InboxEmail != email || b.BookingURL != siteURL+"/book/fontaneria-jose" {
				t.Errorf("created %+v", b)
			}
			page := f.do(t, agent{session: c.Value}, "GET", "/inbox?lang="+lang, nil)
			if page.status != http.StatusOK {
				t.Fatalf("inbox: got %d", page.status)
			}
			wantIn(t, page.body, "Fontanería José", `<html lang="`+lang+`">`)
			res = f.do(t, agent{}, "POST", link.Path, url.Values{"lang": {lang}})
			if res.status != http.StatusGone || res.cookie(inboxweb.CookieName) != nil {
				t.Fatalf("the button again: got %d", res.status)
			}
			wantIn(t, res.body, `href="/start?lang=`+lang+`"`)
		})
	}
}

// TestSignupSaysTheSame: a new address, an address that owns a business
// (which gets its sign-in e-mail instead) and an address past its daily
// bound (which gets nothing, and is logged) all get the same page.
func TestSignupSaysTheSame(t *testing.T) {
	f := newFixture(t, nil)
	owner := f.business(t, "austin-rapid-plumbing").InboxEmail
	const other = "someone@new.example.com"
	pages := map[string]string{}
	ask := func(what, email string) {
		res := f.do(t, agent{}, "POST", "/start", signupForm("Austin Rapid Plumbing", "plumbing", email, true, "en"))
		if res.status != http.StatusOK {
			t.Fatalf("%s: got %d", what, res.status)
		}
		pages[what] = strings.ReplaceAll(res.body, email, "ADDRESS")
	}
	ask("new", other)
	ask("owner", owner)
	if m := f.mail.last(t); m.to != owner || m.slug != "austin-rapid-plumbing" || !strings.HasPrefix(m.link, siteURL+"/inbox/sign-in/") {
		t.Errorf("the owner got %+v, want its sign-in link", m)
	}
	if got := len(f.mail.signupsSent()); got != 1 {
		t.Errorf("%d sign-up e-mails, want 1 (the new address's)", got)
	}
	for range booking.MaxSignupEmailsPerDay - 1 {
		ask("new", other)
	}
	ask("limited", other)
	if got := len(f.mail.signupsSent()); got != booking.MaxSignupEmailsPerDay {
		t.Errorf("%d sign-up e-mails, want %d", got, booking.MaxSignupEmailsPerDay)
	}
	if pages["new"] != pages["owner"] || pages["new"] != pages["limited"] {
		t.Errorf("the pages differ:\nnew: %s\nowner: %s\nlimited: %s", pages["new"], pages["owner"], pages["limited"])
	}
	wantIn(t, f.log.String(), "sign-up e-mails to one address reached their daily bound")
	wantNotIn(t, f.log.String(), other, owner)
}

// TestSignupEmail: Doorstep's words, the typed name quoted as what was
// typed (never in the subject), the link, in en and es.
func TestSignupEmail(t *testing.T) {
	const link = "https://book.example.com/start/TOKEN?lang=en"
	for _, tt := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"The business name typed on the form was:", `"Fontanería José"`, link, "within 24 hours", "Create my business"}},
		{"es", []string{"En el formulario se escribió este nombre de negocio:", "«Fontanería José»", link, "24 horas", "Crear mi negocio"}},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			lang, subject, body := inboxweb.SignupEmail("Fontanería José", tt.lang, link)
			if lang != tt.lang {
				t.Errorf("lang %q, want %q", lang, tt.lang)
			}
			if strings.Contains(subject, "José") {
				t.Errorf("subject %q holds the typed name", subject)
			}
			wantIn(t, body, tt.want...)
		})
	}
}

// signUp signs a business named name up at /start, from email, in lang,
// through the page, the e-mailed link and its button, and returns the
// browser signed in to its inbox, the CSRF token of its forms and the
// business's slug.
func (f *fixture) signUp(t *testing.T, name, email, lang string) (agent, string, string) {
	t.Helper()
	if res := f.do(t, agent{}, "POST", "/start", signupForm(name, "plumbing", email, true, lang)); res.status != http.StatusOK {
		t.Fatalf("sign-up form: got %d", res.status)
	}
	sent := f.mail.signupsSent()
	if len(sent) == 0 || sent[len(sent)-1].to != email {
		t.Fatalf("sign-up e-mails: %+v", sent)
	}
	link, err := url.Parse(sent[len(sent)-1].link)
	if err != nil {
		t.Fatal(err)
	}
	res := f.do(t, agent{}, "POST", link.Path, url.Values{"lang": {lang}})
	c := res.cookie(inboxweb.CookieName)
	if res.status != http.StatusSeeOther || c == nil {
		t.Fatalf("create my business: got %d, cookie %v", res.status, c)
	}
	b, err := f.store.BusinessByInboxEmail(context.Background(), email)
	if err != nil {
		t.Fatal(err)
	}
	a := agent{session: c.Value}
	return a, f.csrf(t, a), b.Slug
}
