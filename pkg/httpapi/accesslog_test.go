package httpapi_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
)

// The access log says what happened to each request, as one JSON object,
// and never what the person sent.
func TestAccessLog(t *testing.T) {
	bookings, _ := newBookings(t)
	var buf bytes.Buffer
	logged := httpapi.New(bookings, slog.New(slog.NewJSONHandler(&buf, nil)))
	if res := call(t, logged, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(firstWindow, "3235550142")); res.status != 201 {
		t.Fatalf("setup: got %d", res.status)
	}

	tests := []struct {
		name, method, path, body string
		want                     map[string]any
	}{
		{"created then taken", "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(firstWindow, "(323) 555-0177"),
			map[string]any{"method": "POST", "route": "/api/v1/businesses/{slug}/requests", "status": 409.0, "error_code": "WINDOW_TAKEN"}},
		{"unknown code", "GET", "/api/v1/requests/0000-0000-0000", "",
			map[string]any{"method": "GET", "route": "/api/v1/requests/{code}", "status": 404.0, "error_code": "NOT_FOUND"}},
		{"business", "GET", "/api/v1/businesses/split-day-plumbing", "",
			map[string]any{"method": "GET", "route": "/api/v1/businesses/{slug}", "status": 200.0}},
		{"no route", "GET", "/nowhere/secret-path", "",
			map[string]any{"method": "GET", "route": "unmatched", "status": 404.0, "error_code": "NOT_FOUND"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf.Reset()
			openapitest.Serve(t, logged, httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body)))
			var line map[string]any
			if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
				t.Fatalf("got %q, want one JSON line", buf.String())
			}
			for k, want := range tt.want {
				if got := line[k]; got != want {
					t.Errorf("got %s %v, want %v", k, got, want)
				}
			}
			if _, ok := line["error_code"]; ok != (tt.want["error_code"] != nil) {
				t.Errorf("got error_code %v, want it only on errors", line["error_code"])
			}
			if id, _ := line["request_id"].(string); id == "" {
				t.Errorf("got no request_id in %v", line)
			}
			if _, ok := line["duration_ms"].(float64); !ok {
				t.Errorf("got no duration_ms in %v", line)
			}
			// Request ids are random hex, so the phone is looked for in forms hex cannot take.
			for _, private := range []string{"555-0177", "(323)", "Ana", "@example.com", "Main St", "split-day-plumbing", "0000-0000", "secret-path"} {
				if strings.Contains(buf.String(), private) {
					t.Errorf("got %q in the log line %s", private, buf.String())
				}
			}
		})
	}
	t.Run("request id from the context", func(t *testing.T) {
		buf.Reset()
		req := httptest.NewRequest("GET", "/api/v1/businesses/split-day-plumbing", nil)
		req = req.WithContext(edge.WithRequestID(req.Context(), "lambda-req-42"))
		openapitest.Serve(t, logged, req)
		if !strings.Contains(buf.String(), `"request_id":"lambda-req-42"`) {
			t.Fatalf("got %s, want the context's request id", buf.String())
		}
	})
	// The request a line is about, by its LogRef: from the route's {code},
	// and from the create that made it; never the code itself, which opens
	// the person's pages.
	t.Run("request ref", func(t *testing.T) {
		buf.Reset()
		res := call(t, logged, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(secondWindow, "3235550188"))
		code, _ := res.body["code"].(string)
		if res.status != 201 || code == "" {
			t.Fatalf("got %d %s, want a create", res.status, res.raw)
		}
		created := buf.String()
		buf.Reset()
		call(t, logged, "GET", "/api/v1/requests/"+strings.ToLower(code), "")
		read := buf.String()
		for name, text := range map[string]string{"create": created, "read by a lower-case code": read} {
			var line map[string]any
			if err := json.Unmarshal([]byte(text), &line); err != nil {
				t.Fatalf("%s: got %q, want one JSON line", name, text)
			}
			if got, want := line["request"], booking.LogRef(code); got != want {
				t.Errorf("%s: got request %v, want %s", name, got, want)
			}
			if strings.Contains(strings.ToUpper(text), code) {
				t.Errorf("%s: got the code in %s", name, text)
			}
		}
	})
}
