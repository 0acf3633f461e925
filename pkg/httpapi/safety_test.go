package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
)

// TestNosniffOnTheDocument: the OpenAPI document, which is not written
// by edge.WriteJSON, carries nosniff too (call checks every JSON answer).
func TestNosniffOnTheDocument(t *testing.T) {
	h, _ := newAPI(t)
	for _, path := range []string{"/api/v1/openapi.json", "/api/v1/openapi.yaml"} {
		t.Run(path, func(t *testing.T) {
			rec := openapitest.Serve(t, h, httptest.NewRequest(http.MethodGet, path, nil))
			if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
				t.Fatalf("got X-Content-Type-Options %q, want nosniff", got)
			}
		})
	}
}

// TestErrorMessagesRepeatAnExcerpt: a 10 KB path, slug, code, date or
// inbox action gets a message that repeats at most an excerpt of it.
func TestErrorMessagesRepeatAnExcerpt(t *testing.T) {
	fx := newInboxFixture(t)
	long := strings.Repeat("z", 10<<10)
	tests := []struct {
		name, method, path string
		token              string
		want               string
	}{
		{"unknown route", "GET", "/api/v1/" + long, "", "NOT_FOUND"},
		{"slug", "GET", "/api/v1/businesses/" + long, "", "NOT_FOUND"},
		{"code", "GET", "/api/v1/requests/" + long, "", "NOT_FOUND"},
		{"date", "GET", "/api/v1/businesses/split-day-plumbing/availability?from=" + long, "", "INVALID_DATE"},
		{"days", "GET", "/api/v1/businesses/split-day-plumbing/availability?days=" + long, "", "INVALID_REQUEST"},
		{"inbox status", "GET", httpapi.InboxPrefix + "/requests?status=" + long, fx.tokenA, "INVALID_REQUEST"},
		{"inbox code", "GET", httpapi.InboxPrefix + "/requests/" + long, fx.tokenA, "NOT_FOUND"},
		{"inbox action", "POST", httpapi.InboxPrefix + "/requests/ZZZZ-ZZZZ-ZZZZ/" + long, fx.tokenA, "NOT_FOUND"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var header []string
			if tt.token != "" {
				header = []string{"Authorization", "Bearer " + tt.token}
			}
			res := call(t, fx.h, tt.method, tt.path, "", header...)
			if got := res.errorCode(t); got != tt.want {
				t.Fatalf("got %d %s, want %s", res.status, got, tt.want)
			}
			msg := res.body["error"].(map[string]any)["message"].(string)
			if strings.Contains(msg, strings.Repeat("z", 41)) || len(msg) > 200 {
				t.Fatalf("got a message of %d bytes repeating the input: %.300s", len(msg), msg)
			}
		})
	}
}
