package inboxweb_test

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/inboxweb"
)

func TestSignInForm(t *testing.T) {
	f := newFixture(t, nil)
	tests := []struct {
		name, path, lang string
		want             []string
	}{
		{"English", "/inbox", "", []string{`<html lang="en">`, "Sign in to your inbox", `action="/inbox/sign-in"`, `type="email"`, `href="/inbox?lang=es"`}},
		{"the browser's Spanish", "/inbox", "es-MX,es;q=0.9", []string{`<html lang="es">`, "Inicie sesión en su bandeja"}},
		{"the switch", "/inbox?lang=es", "", []string{`<html lang="es">`, "Enviarme un enlace", `href="/inbox?lang=en"`}},
		{"on the way to a request", "/inbox?next=/inbox/requests/7K3M-Q9TD-2HXA", "", []string{`name="next" value="/inbox/requests/7K3M-Q9TD-2HXA"`, "you go back to the page you opened"}},
		{"on the way elsewhere: not carried", "/inbox?next=https://evil.example/", "", []string{"Sign in to your inbox"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, agent{header: []string{"Accept-Language", tt.lang}}, "GET", tt.path, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.want...)
			wantNotIn(t, res.body, "evil.example", "<script", "src=")
			checkHeaders(t, res)
		})
	}
}

// checkHeaders checks the security headers every page carries.
func checkHeaders(t *testing.T, res response) {
	t.Helper()
	for k, want := range map[string]string{
		"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
	} {
		if got := res.header.Get(k); got != want {
			t.Errorf("%s: got %q, want %q", k, got, want)
		}
	}
	csp := res.header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "style-src 'sha256-", "form-action 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("got CSP %q, want %s", csp, want)
		}
	}
	if strings.Contains(csp, "script-src") || strings.Contains(csp, "unsafe") {
		t.Errorf("got CSP %q: no script, nothing unsafe", csp)
	}
}

// The answer to the sign-in form is the same, byte for byte, whatever the
// address, and takes at least the delay; only a business's address gets a
// link.
func TestSignInAnswersAlike(t *testing.T) {
	const delay = 60 * time.Millisecond
	f := newFixture(t, func(c *inboxweb.Config) { c.SignInDelay = delay })
	tests := []struct {
		name, email string
		wantMail    bool
	}{
		{"a business's address", "inbox@desert-cool-hvac.example.com", true},
		{"in another case, with spaces", "  INBOX@Desert-Cool-HVAC.example.com ", true},
		{"an unknown address", "nobody@example.com", false},
		{"an address the service fails on", "fails@example.com", false},
	}
	var first response
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.email, "fails") {
				f.counted.failSignIns(errors.New("dynamodb: throttled"))
				defer f.counted.failSignIns(nil)
			}
			before := f.mail.count()
			began := time.Now()
			res := f.do(t, agent{}, "POST", "/inbox/sign-in", url.Values{"email": {tt.email}})
			took := time.Since(began)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			if took < delay {
				t.Errorf("took %v, want at least %v", took, delay)
			}
			wantIn(t, res.body, "If this address belongs to a business, a sign-in link is on its way.")
			if i == 0 {
				first = res
			} else if res.body != first.body || !sameHeader(res.header, first.header) {
				t.Errorf("the answer differs from the first one:\n%v\n%s\nwant\n%v\n%s", res.header, res.body, first.header, first.body)
			}
			if got := f.mail.count() - before; got != map[bool]int{true: 1, false: 0}[tt.wantMail] {
				t.Fatalf("got %d e-mails, want one: %v", got, tt.wantMail)
			}
			if tt.wantMail {
				m := f.mail.last(t)
				if m.to != "inbox@desert-cool-hvac.example.com" || !strings.HasPrefix(m.link, siteURL+"/inbox/sign-in/") {
					t.Errorf("got a link %q to %q", m.link, m.to)
				}
			}
		})
	}
	t.Run("no e-mail address at all", func(t *testing.T) {
		res := f.do(t, agent{}, "POST", "/inbox/sign-in", url.Values{"email": {"not an address"}})
		if res.status != http.StatusBadRequest {
			t.Fatalf("got %d, want 400", res.status)
		}
		wantIn(t, res.body, "Enter an e-mail address", `aria-invalid="true"`)
	})
	t.Run("a form from another site", func(t *testing.T) {
		before := f.counted.signInsAsked()
		res := f.do(t, agent{header: []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}}, "POST", "/inbox/sign-in",
			url.Values{"email": {"inbox@desert-cool-hvac.example.com"}})
		if res.status != http.StatusForbidden || f.counted.signInsAsked() != before {
			t.Errorf("got %d with %d sign-ins started, want 403 and none", res.status, f.counted.signInsAsked()-before)
		}
	})
}

// Past the hourly limit of sign-in links, the page says so and when to
// try again, in the same words for a business's address and an unknown
// one; no link is sent.
func TestSignInLimit(t *testing.T) {
	for _, lang := range []string{"en", "es"} {
		t.Run(lang, func(t *testing.T) {
			f := newFixture(t, nil)
			f.clock.Set(start.Add(15 * time.Minute)) // 45 minutes to the next clock hour
			want := map[string][]string{
				"en": {"Too many sign-in links", "5 sign-in links were asked for this address in this hour already: no other is sent now. Try again in 45 min."},
				"es": {"Demasiados enlaces para iniciar sesión", "Ya se pidieron 5 enlaces para este correo en esta hora: no se envía otro ahora. Inténtelo de nuevo en 45 min."},
			}[lang]
			var first response
			for _, email := range []string{"inbox@desert-cool-hvac.example.com", "nobody@example.com"} {
				ask := func() response {
					return f.do(t, agent{header: []string{"Accept-Language", lang}}, "POST", "/inbox/sign-in", url.Values{"email": {email}})
				}
				for i := range booking.MaxSignInsPerHour {
					if res := ask(); res.status != http.StatusOK {
						t.Fatalf("%s, link %d: got %d, want 200", email, i+1, res.status)
					}
				}
				before := f.mail.count()
				res := ask()
				if res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") != "2700" {
					t.Errorf("%s, past the limit: got %d, Retry-After %q, want 429, 2700", email, res.status, res.header.Get("Retry-After"))
				}
				wantIn(t, res.body, want...)
				wantNotIn(t, res.body, "sign-in link is on its way", "le llega un enlace")
				if f.mail.count() != before {
					t.Errorf("%s: a link was sent past the limit", email)
				}
				if first.body == "" {
					first = res
				} else if res.body != first.body || !sameHeader(res.header, first.header) {
					t.Errorf("an unknown address's answer differs from a business's:\n%s\nwant\n%s", res.body, first.body)
				}
			}
		})
	}
}

// sameHeader compares two answers' headers.
func sameHeader(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if strings.Join(a[k], "\n") != strings.Join(b[k], "\n") {
			return false
		}
	}
	return true
}

func TestSignInLink(t *testing.T) {
	for _, site := range []string{"https://book.example.com", "http://127.0.0.1:8080"} {
		t.Run(site, func(t *testing.T) {
			f := newFixture(t, func(c *inboxweb.Config) { c.SiteURL = site })
			f.do(t, agent{}, "POST", "/inbox/sign-in", url.Values{"email": {"inbox@mile-high-electric.example.com"}})
			path := strings.TrimPrefix(f.mail.last(t).link, site)
			token := strings.TrimPrefix(path, "/inbox/sign-in/")

			// Opening the link (a mail scanner does) spends nothing.
			for range 2 {
				res := f.do(t, agent{}, "GET", path, nil)
				if res.status != http.StatusOK {
					t.Fatalf("GET: got %d, want 200", res.status)
				}
				wantIn(t, res.body, `<button id="sign-in" type="submit">Sign in</button>`, `action="/inbox/sign-in/`+token+`"`)
			}
			res := f.do(t, agent{}, "POST", path, url.Values{})
			if res.status != http.StatusSeeOther || res.location != "/inbox" {
				t.Fatalf("POST: got %d to %q, want 303 to /inbox", res.status, res.location)
			}
			c := res.cookie(inboxweb.CookieName)
			if c == nil {
				t.Fatal("no session cookie")
			}
			raw := res.header.Get("Set-Cookie")
			for _, want := range []string{"Path=/inbox", "Max-Age=2592000", "HttpOnly", "SameSite=Lax"} {
				if !strings.Contains(raw, want) {
					t.Errorf("got Set-Cookie %q, want %s", raw, want)
				}
			}
			if secure := strings.HasPrefix(site, "https:"); c.Secure != secure {
				t.Errorf("got Secure %v, want %v on %s", c.Secure, secure, site)
			}
			if c.Value == "" || c.Value == token {
				t.Errorf("got the cookie %q, want the session's own token", c.Value)
			}
			inbox := f.do(t, agent{session: c.Value}, "GET", "/inbox", nil)
			wantIn(t, inbox.body, "Mile High Electric", "Requests", `action="/inbox/sign-out"`)

			// The link is spent.
			again := f.do(t, agent{}, "POST", path, url.Values{})
			if again.status != http.StatusGone || again.cookie(inboxweb.CookieName) != nil {
				t.Fatalf("spent: got %d, want 410 and no cookie", again.status)
			}
			wantIn(t, again.body, "This sign-in link cannot be used any more", `action="/inbox/sign-in"`, `name="email"`)
		})
	}
	t.Run("unknown and expired tokens", func(t *testing.T) {
		f := newFixture(t, nil)
		f.do(t, agent{}, "POST", "/inbox/sign-in", url.Values{"email": {"inbox@mile-high-electric.example.com"}})
		path := strings.TrimPrefix(f.mail.last(t).link, siteURL)
		f.clock.Add(15 * time.Minute)
		for name, p := range map[string]string{"expired": path, "unknown": "/inbox/sign-in/0123456789abcdef"} {
			res := f.do(t, agent{}, "POST", p, url.Values{})
			if res.status != http.StatusGone {
				t.Errorf("%s: got %d, want 410", name, res.status)
			}
			wantIn(t, res.body, "Ask for a new one.")
		}
	})
}

// A request opened signed out (from the business's e-mail) leads through
// sign-in and back to that request.
func TestSignInLeadsBack(t *testing.T) {
	f := newFixture(t, nil)
	code := f.create(t, "desert-cool-hvac", "", "", 1)
	target := "/inbox/requests/" + code
	res := f.do(t, agent{}, "GET", target, nil)
	if res.status != http.StatusSeeOther || res.location != "/inbox?next="+url.QueryEscape(target) {
		t.Fatalf("got %d to %q, want 303 to the sign-in form with next", res.status, res.location)
	}
	form := f.do(t, agent{}, "GET", res.location, nil)
	wantIn(t, form.body, `name="next" value="`+target+`"`)
	f.do(t, agent{}, "POST", "/inbox/sign-in", url.Values{"email": {"inbox@desert-cool-hvac.example.com"}, "next": {target}})
	link := f.mail.last(t).link
	if !strings.HasSuffix(link, "?next="+url.QueryEscape(target)) {
		t.Fatalf("got the link %q, want it to carry next", link)
	}
	u, _ := url.Parse(link)
	page := f.do(t, agent{}, "GET", u.RequestURI(), nil)
	wantIn(t, page.body, `name="next" value="`+target+`"`)
	res = f.do(t, agent{}, "POST", u.Path, url.Values{"next": {target}})
	if res.status != http.StatusSeeOther || res.location != target {
		t.Fatalf("got %d to %q, want 303 to %s", res.status, res.location, target)
	}
	a := agent{session: res.cookie(inboxweb.CookieName).Value}
	wantIn(t, f.do(t, a, "GET", target, nil).body, personName)
	t.Run("signed in, next goes on", func(t *testing.T) {
		res := f.do(t, a, "GET", "/inbox?next="+url.QueryEscape(target), nil)
		if res.status != http.StatusSeeOther || res.location != target {
			t.Errorf("got %d to %q", res.status, res.location)
		}
	})
}

// The way back after signing in never leaves the inbox.
func TestSafeNext(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/inbox", "/inbox"},
		{"/inbox/settings", "/inbox/settings"},
		{"/inbox/settings/days-off", "/inbox/settings/days-off"},
		{"/inbox/settings/../../r/7K3M-Q9TD-2HXA", "/inbox"},
		{"/inbox/settings/crews", "/inbox"}, // a form, no page
		{"/inbox/requests/7K3M-Q9TD-2HXA", "/inbox/requests/7K3M-Q9TD-2HXA"},
		{"/inbox/requests/7K3M-Q9TD-2HXA/move", "/inbox/requests/7K3M-Q9TD-2HXA/move"},
		{"", "/inbox"},
		{"https://evil.example/inbox", "/inbox"},
		{"//evil.example/inbox", "/inbox"},
		{"/\\evil.example", "/inbox"},
		{"/inbox/../r/7K3M-Q9TD-2HXA", "/inbox"},
		{"/inbox/requests/7K3M/../../x", "/inbox"},
		{"/inbox/requests/7K3M?x=1", "/inbox"},
		{"/inbox/sign-in/abc", "/inbox"},
		{"/inbox/requests/7K3M%2F..", "/inbox"},
		{"/r/7K3M-Q9TD-2HXA", "/inbox"},
		{"javascript:alert(1)", "/inbox"},
		{"/inbox\n/requests", "/inbox"},
	}
	for _, tt := range tests {
		if got := inboxweb.SafeNext(tt.in); got != tt.want {
			t.Errorf("SafeNext(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSignOut(t *testing.T) {
	f := newFixture(t, nil)
	a, csrf := f.signIn(t, "desert-cool-hvac")
	t.Run("without the CSRF token: refused", func(t *testing.T) {
		res := f.do(t, a, "POST", "/inbox/sign-out", url.Values{"csrf": {""}})
		if res.status != http.StatusForbidden || !f.sessionOpen(t, a.session) {
			t.Errorf("got %d, want 403 and the session open", res.status)
		}
	})
	res := f.do(t, a, "POST", "/inbox/sign-out", url.Values{"csrf": {csrf}})
	if res.status != http.StatusSeeOther || res.location != "/inbox" {
		t.Fatalf("got %d to %q, want 303 to /inbox", res.status, res.location)
	}
	if c := res.cookie(inboxweb.CookieName); c == nil || c.MaxAge >= 0 {
		t.Errorf("got cookie %v, want it cleared", c)
	}
	if f.sessionOpen(t, a.session) {
		t.Errorf("the session is still open server-side")
	}
	// The old cookie opens nothing any more.
	res = f.do(t, a, "GET", "/inbox", nil)
	wantIn(t, res.body, "Sign in to your inbox")
	if res := f.do(t, a, "GET", "/inbox/settings", nil); res.status != http.StatusSeeOther {
		t.Errorf("settings after sign-out: got %d, want 303 to sign in", res.status)
	}
}

// The sign-in e-mail, in the business's language: Doorstep's words, the
// business's name and the link, nothing else.
func TestSignInEmail(t *testing.T) {
	tests := []struct {
		lang string
		want []string
	}{
		{"en", []string{"Sign in to Desert Cool", "within 15 minutes", "The link works once."}},
		{"es", []string{"Inicie sesión en la bandeja de Doorstep de", "en los próximos 15 minutos", "El enlace sirve una sola vez."}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			b := &booking.Business{Slug: "desert-cool-hvac", Name: "Desert Cool HVAC", DefaultLanguage: tt.lang}
			link := siteURL + "/inbox/sign-in/abc123"
			lang, subject, body := inboxweb.SignInEmail(b, link)
			if lang != tt.lang {
				t.Errorf("got language %s, want %s", lang, tt.lang)
			}
			wantIn(t, subject+"\n"+body, tt.want...)
			wantIn(t, body, link, "Desert Cool HVAC")
		})
	}
}
