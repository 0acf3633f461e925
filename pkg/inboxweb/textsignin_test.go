package inboxweb_test

import (
	"context"
	"html"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/outbox"
)

// confirmOwnerPhone gives slug a confirmed owner's number, as the settings
// would once its code came back.
func (f *fixture) confirmOwnerPhone(t *testing.T, slug, phone string) {
	t.Helper()
	err := f.store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
		changed := *stored
		changed.OwnerPhone = phone
		return &changed, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSignInByText: the sign-in form offers a code by text where the
// server sends texts, and not where it does not. The answer is the page
// for the code, the same for a business with a confirmed number, one
// without, and an address no business has (the address typed aside), and
// takes at least the delay; only the first gets a code. A wrong code is
// the page again saying so next to the field, with what was typed; the
// right one signs in and goes to next.
func TestSignInByText(t *testing.T) {
	const delay = 40 * time.Millisecond
	x := &texter{}
	f := newFixture(t, func(c *inboxweb.Config) { c.Texter = x; c.SignInDelay = delay })
	const slug, with, without = "mile-high-electric", "inbox@mile-high-electric.example.com", "inbox@desert-cool-hvac.example.com"
	f.confirmOwnerPhone(t, slug, "7205550142")

	wantIn(t, f.do(t, agent{}, "GET", "/inbox", nil).body, `formaction="/inbox/sign-in-text"`, "Text me a code instead")
	wantIn(t, f.do(t, agent{}, "GET", "/inbox?lang=es", nil).body, "Mejor envíenme un código por mensaje de texto")
	off := newFixture(t, nil)
	wantNotIn(t, off.do(t, agent{}, "GET", "/inbox", nil).body, "sign-in-text")

	tests := []struct {
		name, email string
		wantCode    bool
	}{
		{"a business with a confirmed number", with, true},
		{"a business without one", without, false},
		{"an address no business has", "nobody@example.com", false},
	}
	var first string
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(x.signInCodes())
			began := time.Now()
			res := f.do(t, agent{}, "POST", "/inbox/sign-in-text", url.Values{"email": {tt.email}, "next": {"/inbox/settings"}})
			if took := time.Since(began); took < delay {
				t.Errorf("took %v, want at least %v", took, delay)
			}
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, "If this address is a business&#39;s and the business confirmed a mobile number", `id="code"`, `autocomplete="one-time-code"`)
			body := strings.ReplaceAll(res.body, html.EscapeString(tt.email), "ADDRESS")
			if i == 0 {
				first = body
			} else if body != first {
				t.Errorf("the answer differs from the first one:\n%s\nwant\n%s", body, first)
			}
			if got := len(x.signInCodes()) - before; got != map[bool]int{true: 1, false: 0}[tt.wantCode] {
				t.Fatalf("got %d codes texted, want one: %v", got, tt.wantCode)
			}
		})
	}

	sent := x.signInCodes()[0]
	if sent.phone != "7205550142" || sent.slug != slug || len(sent.code) != 6 {
		t.Fatalf("got %+v, want 6 digits to 7205550142 for %s", sent, slug)
	}
	t.Run("a wrong code", func(t *testing.T) {
		wrong := "000000"
		if wrong == sent.code {
			wrong = "111111"
		}
		res := f.do(t, agent{}, "POST", "/inbox/sign-in-code?lang=es", url.Values{"email": {with}, "code": {wrong}, "next": {"/inbox/settings"}})
		if res.status != http.StatusBadRequest || res.cookie(inboxweb.CookieName) != nil {
			t.Fatalf("got %d, want 400 and no session", res.status)
		}
		wantIn(t, res.body, `aria-describedby="wrong"`, `id="wrong" class="notice warn">Este código no es correcto`, `value="`+wrong+`"`, `value="/inbox/settings"`)
	})
	t.Run("the code for another address", func(t *testing.T) {
		res := f.do(t, agent{}, "POST", "/inbox/sign-in-code", url.Values{"email": {without}, "code": {sent.code}})
		if res.status != http.StatusBadRequest {
			t.Fatalf("got %d, want 400", res.status)
		}
	})
	t.Run("the right code", func(t *testing.T) {
		res := f.do(t, agent{}, "POST", "/inbox/sign-in-code", url.Values{"email": {strings.ToUpper(with)}, "code": {" " + sent.code + " "}, "next": {"/inbox/settings"}})
		c := res.cookie(inboxweb.CookieName)
		if res.status != http.StatusSeeOther || res.location != "/inbox/settings" || c == nil || !f.sessionOpen(t, c.Value) {
			t.Fatalf("got %d to %q, cookie %v, want 303 to /inbox/settings with a session", res.status, res.location, c)
		}
		again := f.do(t, agent{}, "POST", "/inbox/sign-in-code", url.Values{"email": {with}, "code": {sent.code}})
		if again.status != http.StatusBadRequest {
			t.Errorf("the code a second time: got %d, want 400", again.status)
		}
	})
	t.Run("no e-mail address", func(t *testing.T) {
		res := f.do(t, agent{}, "POST", "/inbox/sign-in-text", url.Values{"email": {"not an address"}})
		if res.status != http.StatusBadRequest {
			t.Fatalf("got %d, want 400", res.status)
		}
		wantIn(t, res.body, "Enter an e-mail address", `value="not an address"`)
	})
}

// TestSignInCodeText: the sign-in code's text is Doorstep's words in the
// business's language, with its name and the code, through the SMS sender
// to +1 and the number; a number that replied STOP gets none.
func TestSignInCodeText(t *testing.T) {
	box := outbox.New(10, slog.New(slog.DiscardHandler))
	b := &booking.Business{Slug: "limpieza", Name: "Limpieza La Estrella", DefaultLanguage: "es"}
	x := inboxweb.SMSTexter{Sender: box, OptOuts: optOuts{"5125550111": true}, Now: func() time.Time { return start }}
	if err := x.SendSignInCode(t.Context(), "5125550142", b, "480213"); err != nil {
		t.Fatal(err)
	}
	msgs := box.Messages()
	if len(msgs) != 1 {
		t.Fatalf("got %d messages, want 1", len(msgs))
	}
	m := msgs[0]
	if m.To != "+15125550142" || m.Kind != inboxweb.KindSignInCode || m.Audience != notify.AudienceBusiness || m.Language != "es" || strings.Contains(m.ID, "480213") {
		t.Errorf("got %+v", m)
	}
	wantIn(t, m.Body, "Doorstep: su código para entrar en la bandeja de Limpieza La Estrella es 480213. Sirve 10 minutos.")
	if err := x.SendSignInCode(t.Context(), "5125550111", b, "480213"); err != inboxweb.ErrOptedOut || len(box.Messages()) != 1 {
		t.Errorf("to a number that replied STOP: got %v, %d messages, want ErrOptedOut and none", err, len(box.Messages()))
	}
}

// TestInboxBannerWhenTheInboxAddressBounced: once mail to the business's
// own inbox address is recorded undeliverable, the inbox says so, with the
// address and the day, and what to do: sign in by a texted code when the
// business has a confirmed number, confirm one when it has none; in
// English and Spanish. Before, there is no banner.
func TestInboxBannerWhenTheInboxAddressBounced(t *testing.T) {
	f := newFixture(t, func(c *inboxweb.Config) { c.Texter = &texter{} })
	const slug, addr = "mile-high-electric", "inbox@mile-high-electric.example.com"
	a, _ := f.signIn(t, slug)
	wantNotIn(t, f.do(t, a, "GET", "/inbox", nil).body, `id="inbox-bounced"`)
	ev := booking.MailEvent{Kind: booking.MailBounced, Email: addr, At: start}
	if _, err := f.bookings.RecordMailEvent(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, phone string
		want              []string
	}{
		{"no number", "/inbox?lang=en", "",
			[]string{"Our e-mail to your inbox address, inbox@mile-high-electric.example.com, could not be delivered (it bounced on Monday, November 23, 2026)",
				"confirm a mobile number to be texted of new requests and to sign in by text.", `href="/inbox/settings/texts">Ways to be told</a>`}},
		{"a confirmed number", "/inbox?lang=en", "7205550142",
			[]string{"could not be delivered", "Meanwhile you can sign in with a code texted to (720) 555-0142."}},
		{"un número confirmado", "/inbox?lang=es", "7205550142",
			[]string{"Nuestro correo a la dirección de su bandeja, inbox@mile-high-electric.example.com, no se pudo entregar (rebotó el lunes",
				"Mientras tanto puede iniciar sesión con un código enviado por mensaje de texto al (720) 555-0142."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.confirmOwnerPhone(t, slug, tt.phone)
			res := f.do(t, a, "GET", tt.path, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, `id="inbox-bounced" role="alert"`)
			wantIn(t, res.body, tt.want...)
		})
	}
}

// TestTellOwnerOfBounce: the owner is texted once that the inbox address
// bounced, however often the events about it come, and only with a
// confirmed number; the text is Doorstep's, in the business's language,
// without the address.
func TestTellOwnerOfBounce(t *testing.T) {
	x := &texter{}
	f := newFixture(t, func(c *inboxweb.Config) { c.Texter = x })
	const slug, addr = "mile-high-electric", "inbox@mile-high-electric.example.com"
	ctx := context.Background()
	if _, err := f.bookings.RecordMailEvent(ctx, booking.MailEvent{Kind: booking.MailComplained, Email: addr, At: start}); err != nil {
		t.Fatal(err)
	}
	if sent, err := inboxweb.TellOwnerOfBounce(ctx, f.bookings, x, addr); sent || err != nil {
		t.Fatalf("without a number: got %v, %v, want nothing sent", sent, err)
	}
	f.confirmOwnerPhone(t, slug, "7205550142")
	for i := range 3 {
		sent, err := inboxweb.TellOwnerOfBounce(ctx, f.bookings, x, strings.ToUpper(addr))
		if err != nil || sent != (i == 0) {
			t.Errorf("event %d: got %v, %v, want sent only the first time", i, sent, err)
		}
	}
	if len(x.bounced) != 1 || x.bounced[0] != (sentCode{"7205550142", slug, "complaint"}) {
		t.Errorf("got %+v, want one text to 7205550142 of the complaint", x.bounced)
	}
	for _, lang := range []string{"en", "es"} {
		_, body := inboxweb.InboxBouncedText(&booking.Business{Name: "Mile High Electric", DefaultLanguage: lang})
		want := map[string]string{"en": "Doorstep: our e-mail to Mile High Electric's inbox address could not be delivered", "es": "Doorstep: nuestro correo a la dirección de la bandeja de Mile High Electric no se pudo entregar"}[lang]
		if !strings.HasPrefix(body, want) || strings.Contains(body, "@") {
			t.Errorf("%s: got %q, want it to start %q, without the address", lang, body, want)
		}
	}
}

// TestInboxEmailChange walks the settings' new inbox address: an address
// that is none is refused next to its field, with what was typed; a good
// one gets a link and the inbox address stays until it is confirmed; the
// link's page changes nothing; its button confirms, signs in with the new
// address (the old session ends) and says so; the link is spent.
func TestInboxEmailChange(t *testing.T) {
	f := newFixture(t, nil)
	const slug, next = "mile-high-electric", "office@mile-high-electric.example.com"
	a, csrf := f.signIn(t, slug)
	post := func(form url.Values) response {
		t.Helper()
		form.Set("csrf", csrf)
		return f.do(t, a, "POST", "/inbox/settings/inbox-email", form)
	}
	res := post(url.Values{"inbox_email": {"not an address"}})
	if res.status != http.StatusBadRequest {
		t.Fatalf("an address that is none: got %d, want 400", res.status)
	}
	wantIn(t, res.body, `id="inbox_email-error">Enter an e-mail address`, `value="not an address"`, `aria-invalid="true"`)
	res = post(url.Values{"inbox_email": {next}})
	if res.status != http.StatusSeeOther || res.location != "/inbox/settings/texts?done=email-link-sent" {
		t.Fatalf("got %d to %q, want 303 to ?done=email-link-sent", res.status, res.location)
	}
	wantIn(t, f.do(t, a, "GET", res.location, nil).body, "A link is on its way to the new address")
	if got := f.business(t, slug).InboxEmail; got != "inbox@mile-high-electric.example.com" {
		t.Fatalf("before the link: inbox_email %q, want the old one", got)
	}
	f.mail.mu.Lock()
	m := f.mail.changes[len(f.mail.changes)-1]
	f.mail.mu.Unlock()
	if m.to != next || !strings.HasPrefix(m.link, siteURL+"/inbox/email/") {
		t.Fatalf("got a link %q to %q", m.link, m.to)
	}
	path := strings.TrimPrefix(m.link, siteURL)
	page := f.do(t, agent{}, "GET", path+"?lang=es", nil)
	wantIn(t, page.body, "Confirme la nueva dirección de la bandeja", `id="confirm-email"`)
	if got := f.business(t, slug).InboxEmail; got == next {
		t.Fatal("opening the link changed the address")
	}
	res = f.do(t, agent{}, "POST", path, url.Values{})
	c := res.cookie(inboxweb.CookieName)
	if res.status != http.StatusSeeOther || res.location != "/inbox/settings/texts?done=inbox-email" || c == nil {
		t.Fatalf("the button: got %d to %q, cookie %v\n%s", res.status, res.location, c, f.log)
	}
	if got := f.business(t, slug).InboxEmail; got != next {
		t.Errorf("inbox_email %q, want %s", got, next)
	}
	if f.sessionOpen(t, a.session) || !f.sessionOpen(t, c.Value) {
		t.Error("want the old address's session ended and the new one open")
	}
	wantIn(t, f.do(t, agent{session: c.Value}, "GET", res.location, nil).body, "The new inbox address is confirmed", next)
	if again := f.do(t, agent{}, "POST", path, url.Values{}); again.status != http.StatusGone {
		t.Errorf("the link again: got %d, want 410", again.status)
	}
}

// TestTellingOwner: the mail-events function's recorder records each
// event and texts the owner once, however often the events about the
// inbox address come; an event about a person's address texts nobody.
func TestTellingOwner(t *testing.T) {
	x := &texter{}
	f := newFixture(t, func(c *inboxweb.Config) { c.Texter = x })
	const slug, addr = "mile-high-electric", "inbox@mile-high-electric.example.com"
	f.confirmOwnerPhone(t, slug, "7205550142")
	teller := inboxweb.TellingOwner{Bookings: f.bookings, Texter: x}
	ctx := context.Background()
	for i, ev := range []booking.MailEvent{
		{Kind: booking.MailBounced, Email: "person@example.com", At: start},
		{Kind: booking.MailBounced, Email: addr, At: start},
		{Kind: booking.MailBounced, Email: addr, At: start}, // redelivered
		{Kind: booking.MailSuppressed, Email: addr, At: start.Add(time.Hour)},
	} {
		if _, err := teller.RecordMailEvent(ctx, ev); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
	if len(x.bounced) != 1 || x.bounced[0] != (sentCode{"7205550142", slug, "bounce"}) {
		t.Errorf("got %+v, want one text to 7205550142 of the bounce", x.bounced)
	}
	if u, _ := f.bookings.UndeliverableEmail(ctx, addr); u == nil {
		t.Error("the event was not recorded")
	}
}
