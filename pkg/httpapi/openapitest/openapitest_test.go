package openapitest_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
)

// recordingTB records what Check reports instead of failing the test.
type recordingTB struct {
	testing.TB
	errors []string
}

func (r *recordingTB) Helper() {}
func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recordingTB) Fatalf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

const (
	created     = `{"code":"7K3M-Q9TD-2HXA","status":"new","status_url":"https://book.example.com/r/7K3M-Q9TD-2HXA","api_url":"https://book.example.com/api/v1/requests/7K3M-Q9TD-2HXA","payment_url":null}`
	validBody   = `{"window_start":"2026-11-23T16:00:00Z","address":{"street":"12 Main St","zip":"90012"},"contact":{"name":"Ana Ruiz","phone":"(323) 555-0142"}}`
	requestPath = "/api/v1/businesses/split-day-plumbing/requests"
)

func errorBody(code string) string {
	return `{"error":{"code":"` + code + `","message":"text"}}`
}

var jsonHeader = http.Header{"Content-Type": {"application/json"}}

// noStore is the headers of an answer that must never be kept: the
// availability (holds decide bookings).
var noStore = http.Header{"Content-Type": {"application/json"}, "Cache-Control": {"no-store"}}

// A page of the person's, as pkg/pages answers it.
const page = "<!doctype html>\n<html lang=\"en\"><title>Request</title></html>"

const stripeEvent = `{"id":"evt_1","object":"event","type":"checkout.session.completed","data":{"object":{"id":"cs_test_1"}}}`

var (
	htmlHeader = http.Header{"Content-Type": {"text/html; charset=utf-8"}, "Cache-Control": {"no-store"}}
	formHeader = http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
)

// pageAllowing is htmlHeader with an Allow header: a 405 page's.
func pageAllowing(allow string) http.Header {
	h := htmlHeader.Clone()
	h.Set("Allow", allow)
	return h
}

func redirectHeader(location string) http.Header {
	return http.Header{"Location": {location}, "Cache-Control": {"no-store"}}
}

// Check accepts what the document says and reports what it does not.
func TestCheck(t *testing.T) {
	tests := []struct {
		name      string
		method    string
		path      string
		reqBody   string
		reqHeader http.Header
		status    int
		header    http.Header
		respBody  string
		wantError string // a piece of the one error Check reports; "" for none
	}{
		{"created", "POST", requestPath, validBody, nil, 201, jsonHeader, created, ""},
		{"replayed", "POST", requestPath, validBody, http.Header{"Idempotency-Key": {"retry-key-1"}}, 201,
			http.Header{"Content-Type": {"application/json"}, "Idempotent-Replayed": {"true"}}, created, ""},
		{"Idempotent-Replayed other than true", "POST", requestPath, validBody, nil, 201,
			http.Header{"Content-Type": {"application/json"}, "Idempotent-Replayed": {"yes"}}, created, `response header "Idempotent-Replayed" doesn't match`},
		{"a field missing from the response", "POST", requestPath, validBody, nil, 201, jsonHeader,
			strings.Replace(created, `,"payment_url":null`, "", 1), "does not match the document"},
		{"a code outside the status's list", "POST", requestPath, validBody, nil, 409, jsonHeader, errorBody("TOO_LATE"), "does not match the document"},
		{"an undocumented status", "POST", requestPath, validBody, nil, 402, jsonHeader, errorBody("INVALID_REQUEST"), "status is not supported"},
		{"another Content-Type", "POST", requestPath, validBody, nil, 201, http.Header{"Content-Type": {"text/plain"}}, created, "does not match the document"},
		{"a refused request refused", "POST", requestPath, `{"window_start":"Monday 8am"}`, nil, 400, jsonHeader, errorBody("INVALID_REQUEST"), ""},
		{"a refused request accepted", "POST", requestPath, `{"window_start":"Monday 8am"}`, nil, 201, jsonHeader, created, "the document refuses this request"},
		{"a short Idempotency-Key accepted", "POST", requestPath, validBody, http.Header{"Idempotency-Key": {"short"}}, 201, jsonHeader, created, "the document refuses this request"},
		{"days out of range accepted", "GET", "/api/v1/businesses/x/availability?days=15", "", nil, 200, noStore,
			`{"timezone":"America/Chicago","accepting_requests":true,"windows":[]}`, "the document refuses this request"},
		{"windows that may be kept", "GET", "/api/v1/businesses/x/availability", "", nil, 200, jsonHeader,
			`{"timezone":"America/Chicago","accepting_requests":true,"windows":[]}`, `"Cache-Control" missing`},
		{"a window in local time", "GET", "/api/v1/businesses/x/availability", "", nil, 200, noStore,
			`{"timezone":"America/Chicago","accepting_requests":true,"windows":[{"date":"2026-11-23","start":"2026-11-23T08:00:00-08:00","end":"2026-11-23T18:00:00Z"}]}`, "does not match the document"},
		{"unknown route", "GET", "/api/v1/nothing", "", nil, 404, jsonHeader, errorBody("NOT_FOUND"), ""},
		{"unknown route answered 200", "GET", "/api/v1/nothing", "", nil, 200, jsonHeader, `{}`, "want 404, got 200"},
		{"unknown route with another code", "GET", "/api/v1/nothing", "", nil, 404, jsonHeader, errorBody("SERVER_ERROR"), "does not match the document"},
		{"wrong method", "DELETE", "/api/v1/requests/7K3M-Q9TD-2HXA", "", nil, 405,
			http.Header{"Content-Type": {"application/json"}, "Allow": {"GET, OPTIONS"}}, errorBody("METHOD_NOT_ALLOWED"), ""},
		{"wrong method without Allow", "DELETE", "/api/v1/requests/7K3M-Q9TD-2HXA", "", nil, 405, jsonHeader, errorBody("METHOD_NOT_ALLOWED"), `"Allow" missing`},
		{"wrong method answered 404", "DELETE", "/api/v1/requests/7K3M-Q9TD-2HXA", "", nil, 404, jsonHeader, errorBody("NOT_FOUND"), "want 405, got 404"},
		{"CORS preflight", "OPTIONS", requestPath, "", nil, 204, http.Header{}, "", ""},

		// The person's pages: HTML, outside /api/v1.
		{"status page", "GET", "/r/7K3M-Q9TD-2HXA?done=paid", "", nil, 200, htmlHeader, page, ""},
		{"status page as JSON", "GET", "/r/7K3M-Q9TD-2HXA", "", nil, 200, jsonHeader, created, "does not match the document"},
		{"status page that is no HTML document", "GET", "/r/7K3M-Q9TD-2HXA", "", nil, 200, htmlHeader, "Waiting for your deposit", "does not match the document"},
		{"status page without no-store", "GET", "/r/7K3M-Q9TD-2HXA", "", nil, 200, http.Header{"Content-Type": {"text/html; charset=utf-8"}}, page, `"Cache-Control" missing`},
		{"the 404 page", "GET", "/r/ZZZZ-ZZZZ-ZZZZ", "", nil, 404, htmlHeader, page, ""},
		{"another path under /r/: the 404 page", "GET", "/r/ZZZZ-ZZZZ-ZZZZ/other", "", nil, 404, htmlHeader, page, ""},
		{"another path under /r/ answered JSON", "GET", "/r/ZZZZ-ZZZZ-ZZZZ/other", "", nil, 404, jsonHeader, errorBody("NOT_FOUND"), "does not match the document"},
		{"another method on a page: the 405 page", "PUT", "/r/7K3M-Q9TD-2HXA", "", nil, 405, pageAllowing("GET, HEAD"), page, ""},
		{"another method on a page answered 404", "PUT", "/r/7K3M-Q9TD-2HXA", "", nil, 404, htmlHeader, page, "want 405, got 404"},
		{"another method on a page without Allow", "PUT", "/r/7K3M-Q9TD-2HXA", "", nil, 405, htmlHeader, page, `"Allow" missing`},
		{"another method on a page answered JSON", "PUT", "/r/7K3M-Q9TD-2HXA", "", nil, 405,
			http.Header{"Content-Type": {"application/json"}, "Allow": {"GET"}}, errorBody("METHOD_NOT_ALLOWED"), "does not match the document"},
		{"cancel form", "POST", "/r/7K3M-Q9TD-2HXA/cancel", "deposit=refunded", formHeader, 303, redirectHeader("/r/7K3M-Q9TD-2HXA?done=cancelled"), "", ""},
		{"cancel form without a deposit, refused", "POST", "/r/7K3M-Q9TD-2HXA/cancel", "", formHeader, 409, htmlHeader, page, ""},
		{"cancel form without a deposit, accepted", "POST", "/r/7K3M-Q9TD-2HXA/cancel", "", formHeader, 303, redirectHeader("/r/7K3M-Q9TD-2HXA"), "", "the document refuses this request"},
		{"a redirect without Location", "POST", "/r/7K3M-Q9TD-2HXA/cancel", "deposit=kept", formHeader, 303, http.Header{"Cache-Control": {"no-store"}}, "", `"Location" missing`},
		{"a cross-site form", "POST", "/pay/7K3M-Q9TD-2HXA", "", formHeader, 403,
			http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "Cache-Control": {"no-store"}}, "cross-origin request detected", ""},

		// The business's web inbox: HTML, outside /api/v1.
		{"the web inbox", "GET", "/inbox", "", nil, 200, htmlHeader, page, ""},
		{"the web inbox as JSON", "GET", "/inbox", "", nil, 200, jsonHeader, created, "does not match the document"},
		{"another path under /inbox/: the 404 page", "GET", "/inbox/nothing", "", nil, 404, htmlHeader, page, ""},
		{"another path under /inbox/ answered JSON", "GET", "/inbox/nothing", "", nil, 404, jsonHeader, errorBody("NOT_FOUND"), "does not match the document"},
		{"another method on the web inbox: the 405 page", "PUT", "/inbox", "", nil, 405, pageAllowing("GET, HEAD"), page, ""},
		{"a move", "POST", "/inbox/requests/7K3M-Q9TD-2HXA/accept", "csrf=abc", formHeader, 303, redirectHeader("/inbox/requests/7K3M-Q9TD-2HXA?done=accept"), "", ""},
		{"a move without its CSRF token, refused", "POST", "/inbox/requests/7K3M-Q9TD-2HXA/accept", "", formHeader, 403, htmlHeader, page, ""},
		{"a move without its CSRF token, made", "POST", "/inbox/requests/7K3M-Q9TD-2HXA/accept", "", formHeader, 303, redirectHeader("/inbox/requests/7K3M-Q9TD-2HXA"), "", "the document refuses this request"},
		{"signed in", "POST", "/inbox/sign-in/abc", "", formHeader, 303, http.Header{"Location": {"/inbox"}, "Cache-Control": {"no-store"},
			"Set-Cookie": {"doorstep_inbox=s3cr3t; Path=/inbox; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax"}}, "", ""},
		{"signed in without the cookie", "POST", "/inbox/sign-in/abc", "", formHeader, 303, redirectHeader("/inbox"), "", `"Set-Cookie" missing`},

		// The payment routes.
		{"to Stripe", "GET", "/pay/7K3M-Q9TD-2HXA/checkout", "", nil, 303, redirectHeader("https://checkout.stripe.com/c/pay/cs_test_1"), "", ""},
		{"back from Stripe", "GET", "/pay/7K3M-Q9TD-2HXA/return?session_id=cs_test_1", "", nil, 303, redirectHeader("/r/7K3M-Q9TD-2HXA?done=paid"), "", ""},
		{"back from Stripe with a page", "GET", "/pay/7K3M-Q9TD-2HXA/return", "", nil, 200, htmlHeader, page, "status is not supported"},
		{"another method on the checkout", "POST", "/pay/7K3M-Q9TD-2HXA/checkout", "", nil, 405,
			http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "Allow": {"GET, HEAD"}}, "Method Not Allowed", ""},
		{"another method on the checkout without Allow", "POST", "/pay/7K3M-Q9TD-2HXA/checkout", "", nil, 405,
			http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, "Method Not Allowed", `"Allow" missing`},
		{"an event", "POST", "/webhooks/stripe", stripeEvent, http.Header{"Stripe-Signature": {"t=1,v1=ab"}}, 200, jsonHeader, `{"result":"done"}`, ""},
		{"an event refused", "POST", "/webhooks/stripe", stripeEvent, http.Header{"Stripe-Signature": {"t=1,v1=ab"}}, 400, jsonHeader, `{"result":"signature check failed"}`, ""},
		{"an event answered with another result", "POST", "/webhooks/stripe", stripeEvent, http.Header{"Stripe-Signature": {"t=1,v1=ab"}}, 200, jsonHeader, `{"result":"try again"}`, "does not match the document"},
		{"an unsigned event accepted", "POST", "/webhooks/stripe", stripeEvent, nil, 200, jsonHeader, `{"result":"done"}`, "the document refuses this request"},
		{"another method on the webhook", "GET", "/webhooks/stripe", "", nil, 405,
			http.Header{"Content-Type": {"application/json"}, "Allow": {"POST"}}, `{"result":"only POST"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, nil)
			for k, v := range tt.reqHeader {
				req.Header[k] = v
			}
			rec := &recordingTB{TB: t}
			openapitest.Check(rec, req, []byte(tt.reqBody), tt.status, tt.header, []byte(tt.respBody))
			switch {
			case tt.wantError == "" && len(rec.errors) != 0:
				t.Errorf("got errors %q, want none", rec.errors)
			case tt.wantError != "" && (len(rec.errors) != 1 || !strings.Contains(rec.errors[0], tt.wantError)):
				t.Errorf("got errors %q, want one with %q", rec.errors, tt.wantError)
			}
		})
	}
}

// Serve hands the handler the request as sent, body included, and checks
// what it answers.
func TestServe(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		body       string
		wantErrors int
	}{
		{"documented", 201, created, 0},
		{"not documented", 200, created, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				data, _ := io.ReadAll(r.Body)
				got = string(data)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			})
			rec := &recordingTB{TB: t}
			res := openapitest.Serve(rec, h, httptest.NewRequest("POST", requestPath, strings.NewReader(validBody)))
			if got != validBody {
				t.Errorf("the handler got body %q, want %q", got, validBody)
			}
			if res.Code != tt.status || res.Body.String() != tt.body {
				t.Errorf("got %d %s, want %d %s", res.Code, res.Body, tt.status, tt.body)
			}
			if len(rec.errors) != tt.wantErrors {
				t.Errorf("got errors %q, want %d", rec.errors, tt.wantErrors)
			}
		})
	}
}
