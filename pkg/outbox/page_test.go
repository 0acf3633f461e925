package outbox_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/outbox"
)

// A browser gets the outbox as a page, newest first, its links as links;
// curl, Go's http.Get and ?format=json get the JSON.
func TestOutboxPage(t *testing.T) {
	o := outbox.New(10, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	first := message(0, notify.ChannelEmail)
	first.Body = "Sign in: http://127.0.0.1:8080/inbox/sign-in/abc_DEF-1. It works once."
	second := message(1, notify.ChannelSMS)
	second.Subject, second.Language = "", "es"
	second.Body = "Vea su solicitud (http://127.0.0.1:8080/r/7K3M-Q9TD-2HXA) <b>no</b>"
	for _, m := range []notify.Message{first, second} {
		if err := o.SendEmail(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, accept, query string
		wantType            string
	}{
		{"a browser", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "", "text/html; charset=utf-8"},
		{"curl", "*/*", "", "application/json"},
		{"no Accept", "", "", "application/json"},
		{"JSON first", "application/json, text/html", "", "application/json"},
		{"the page's JSON link", "text/html", "?format=json", "application/json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, outbox.Path+tt.query, nil)
			if tt.accept != "" {
				r.Header.Set("Accept", tt.accept)
			}
			rec := httptest.NewRecorder()
			o.ServeHTTP(rec, r)
			if got := rec.Header().Get("Content-Type"); rec.Code != http.StatusOK || got != tt.wantType {
				t.Fatalf("got %d %q, want 200 %q", rec.Code, got, tt.wantType)
			}
			if got := rec.Header().Get("Vary"); got != "Accept" {
				t.Errorf("got Vary %q, want Accept", got)
			}
			if tt.wantType == "application/json" {
				return
			}
			page := rec.Body.String()
			for _, want := range []string{
				`<a href="http://127.0.0.1:8080/inbox/sign-in/abc_DEF-1">http://127.0.0.1:8080/inbox/sign-in/abc_DEF-1</a>. It works once.`,
				`(<a href="http://127.0.0.1:8080/r/7K3M-Q9TD-2HXA">http://127.0.0.1:8080/r/7K3M-Q9TD-2HXA</a>) &lt;b&gt;no&lt;/b&gt;`,
				`lang="es"`,
			} {
				if !strings.Contains(page, want) {
					t.Errorf("the page lacks %s:\n%s", want, page)
				}
			}
			if s, f := strings.Index(page, "/r/7K3M"), strings.Index(page, "/inbox/sign-in/"); s < 0 || f < 0 || s > f {
				t.Errorf("got the messages oldest first, want newest first:\n%s", page)
			}
			if got := rec.Header().Get("Content-Security-Policy"); !strings.Contains(got, "default-src 'none'") {
				t.Errorf("got CSP %q, want the pages' own", got)
			}
		})
	}
}
