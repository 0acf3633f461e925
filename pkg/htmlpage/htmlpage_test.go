package htmlpage_test

import (
	"html/template"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/htmlpage"
)

type data struct {
	Lang string
	CSS  template.CSS
	Text string
}

func TestSite(t *testing.T) {
	site := htmlpage.New(os.DirFS("testdata"), "p{color:#111}", "hello", "broken")
	h := site.Headers(8, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/broken" {
			site.Render(w, http.StatusOK, "broken", data{Lang: "en"})
			return
		}
		site.Render(w, http.StatusTeapot, "hello", data{Lang: "es", CSS: site.CSS(), Text: "<b>hola</b>"})
	}))
	tests := []struct {
		path       string
		wantStatus int
		wantBody   string
	}{
		{"/", http.StatusTeapot, `<html lang="es"><head><style>p{color:#111}</style></head><body><p>&lt;b&gt;hola&lt;/b&gt;</p>`},
		{"/broken", http.StatusInternalServerError, "server error"}, // never half a page
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
