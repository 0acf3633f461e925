package htmlpage_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/htmlpage"
)

func TestSite(t *testing.T) {
	site := htmlpage.New(os.DirFS("testdata"), "p{color:#111}", "hello", "broken")
	h := site.Headers(8, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/broken":
			site.Render(w, http.StatusOK, "broken", htmlpage.Page{Lang: "en", Body: 1})
		case "/framed":
			site.AllowFraming(w, "https://Shop.example.com/book?x=1")
			site.Render(w, http.StatusOK, "hello", htmlpage.Page{Lang: "en", Body: "framed"})
		case "/bad-origin":
			site.AllowFraming(w, "javascript:alert(1)")
			site.Render(w, http.StatusOK, "hello", htmlpage.Page{Lang: "en", Body: "not framed"})
		default:
			site.Render(w, http.StatusTeapot, "hello", htmlpage.Page{Lang: "es", Body: "<b>hola</b>", Footer: "Doorstep", Switch: "/?lang=en", SwitchText: "English"})
		}
	}))
	tests := []struct {
		path       string
		wantStatus int
		wantBody   string
		wantFrame  string
	}{
		{"/", http.StatusTeapot, `<p>&lt;b&gt;hola&lt;/b&gt;</p>`, "frame-ancestors 'none'"},
		{"/broken", http.StatusInternalServerError, "server error", "frame-ancestors 'none'"}, // never half a page
		{"/framed", http.StatusOK, "<p>framed</p>", "frame-ancestors https://shop.example.com"},
		{"/bad-origin", http.StatusOK, "<p>not framed</p>", "frame-ancestors 'none'"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
			if rec.Code != tt.wantStatus || !strings.Contains(rec.Body.String(), tt.wantBody) {
				t.Fatalf("got %d %q, want %d with %q", rec.Code, rec.Body, tt.wantStatus, tt.wantBody)
			}
			hd := rec.Header()
			for k, want := range map[string]string{
				"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
				"Content-Security-Policy": "default-src 'none'; style-src 'sha256-",
			} {
				if !strings.HasPrefix(hd.Get(k), want) {
					t.Errorf("got %s %q, want %q", k, hd.Get(k), want)
				}
			}
			if got := hd.Get("Content-Security-Policy"); !strings.HasSuffix(got, tt.wantFrame) {
				t.Errorf("got CSP %q, want it to end with %q", got, tt.wantFrame)
			}
		})
	}
	t.Run("layout", func(t *testing.T) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
		body := rec.Body.String()
		for _, want := range []string{`<html lang="es">`, `<style>` + site.Style() + `</style>`, "p{color:#111}", `<main>`,
			`<footer>Doorstep · <a id="lang" href="/?lang=en" lang="en">English</a></footer>`} {
			if !strings.Contains(body, want) {
				t.Errorf("got %s, want it to hold %q", body, want)
			}
		}
	})
}

func TestOrigin(t *testing.T) {
	tests := []struct {
		in, want string
		wantOK   bool
	}{
		{"https://shop.example.com", "https://shop.example.com", true},
		{"https://Shop.Example.com:8443/a/b?c#d", "https://shop.example.com:8443", true},
		{"http://localhost:8080/", "http://localhost:8080", true},
		{"HTTPS://shop.example.com:443/", "https://shop.example.com", true},
		{"http://shop.example.com:80", "http://shop.example.com", true},
		{"http://[::1]:8080/inbox", "http://[::1]:8080", true},
		{"ftp://shop.example.com", "", false},
		{"shop.example.com", "", false},
		{"https://user:pw@shop.example.com", "", false},
		{"https://shop.example.com;script-src", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := htmlpage.Origin(tt.in)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("got %q %v, want %q %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestChoose(t *testing.T) {
	tests := []struct {
		name, query, accept string
		offered             []string
		def, want           string
	}{
		{"the business's default", "", "", []string{"en", "es"}, "es", "es"},
		{"?lang= wins", "lang=en", "es", []string{"en", "es"}, "es", "en"},
		{"?lang= not offered", "lang=es", "", []string{"en"}, "en", "en"},
		{"?lang= unknown", "lang=fr", "es-MX,en;q=0.5", []string{"en", "es"}, "en", "es"},
		{"the browser's first offered", "", "fr-FR, en-US;q=0.8, es;q=0.5", []string{"en", "es"}, "es", "en"},
		{"the browser names none offered", "", "es", []string{"en"}, "en", "en"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/?"+tt.query, nil)
			if tt.accept != "" {
				r.Header.Set("Accept-Language", tt.accept)
			}
			if got := htmlpage.Choose(r, tt.offered, tt.def); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTexts(t *testing.T) {
	texts := htmlpage.Texts{"en": {"hi": "Hello %s", "only_en": "English"}, "es": {"hi": "Hola %s"}}
	for _, tt := range []struct{ got, want string }{
		{texts.T("es", "hi", "Ana"), "Hola Ana"},
		{texts.T("es", "only_en"), "English"}, // a missing key falls back to English
		{texts.T("fr", "hi", "Ana"), "Hello Ana"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestTelURL(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"+16025550163", "tel:+16025550163"},
		{"16025550163", ""},
		{"+1 602 555 0163", ""},
		{"+", ""},
		{"javascript:alert(1)", ""},
	} {
		if got := string(htmlpage.TelURL(tt.in)); got != tt.want {
			t.Errorf("TelURL(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPhone(t *testing.T) {
	for _, tt := range []struct{ in, text, link string }{
		{"+16025550163", "(602) 555-0163", "tel:+16025550163"},
		{"+442071234567", "+442071234567", "tel:+442071234567"},
		{"602 555 0163", "602 555 0163", ""},
	} {
		text, link := htmlpage.Phone(tt.in)
		if text != tt.text || string(link) != tt.link {
			t.Errorf("Phone(%q): got %q %q, want %q %q", tt.in, text, link, tt.text, tt.link)
		}
	}
}
