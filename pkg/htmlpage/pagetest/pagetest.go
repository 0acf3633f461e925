// Package pagetest holds the test helpers of the HTML edges built on
// pkg/htmlpage: send a request to a handler and read its answer, and look
// for pieces of a page.
package pagetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// Response is an answer of a handler.
type Response struct {
	Status   int
	Header   http.Header
	Body     string
	Location string
}

// Do sends a request to h, form posted when not nil; header is name,
// value pairs.
func Do(t testing.TB, h http.Handler, method, path string, form url.Values, header ...string) Response {
	t.Helper()
	return Serve(t, h, NewRequest(method, path, form, header...))
}

// NewRequest is the request Do sends.
func NewRequest(method, path string, form url.Values, header ...string) *http.Request {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := httptest.NewRequest(method, path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return req
}

// Serve sends req to h and returns the answer.
func Serve(t testing.TB, h http.Handler, req *http.Request) Response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return Recorded(rec)
}

// Recorded is the answer rec recorded.
func Recorded(rec *httptest.ResponseRecorder) Response {
	return Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.String(), Location: rec.Header().Get("Location")}
}

// WantIn fails unless body holds every piece.
func WantIn(t testing.TB, body string, pieces ...string) {
	t.Helper()
	for _, p := range pieces {
		if !strings.Contains(body, p) {
			t.Errorf("the page lacks %q:\n%s", p, body)
		}
	}
}

// WantNotIn fails if body holds any piece.
func WantNotIn(t testing.TB, body string, pieces ...string) {
	t.Helper()
	for _, p := range pieces {
		if strings.Contains(body, p) {
			t.Errorf("the page shows %q, want it left out", p)
		}
	}
}
