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

// WantBoundedRepeat fails unless a page refusing a value of many x's
// (long) shows back exactly max of them, no more, and weighs what the page
// refusing max+1 of them (justOver) weighs: what it repeats is bounded by
// the field's maxlength (htmlpage.Typed).
func WantBoundedRepeat(t testing.TB, long, justOver string, max int) {
	t.Helper()
	WantIn(t, long, strings.Repeat("x", max))
	if strings.Contains(long, strings.Repeat("x", max+1)) {
		t.Errorf("the page shows more than %d of the typed characters", max)
	}
	if got, want := len(long), len(justOver); got != want {
		t.Errorf("the long value got a page of %d bytes, %d over the one just over the bound gets (%d)", got, got-want, want)
	}
}
