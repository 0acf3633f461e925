package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
)

const siteURL = "https://book.example.com"

// start is Friday 2026-11-20 00:00 UTC: Thursday afternoon in Los Angeles.
var start = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// newAPI returns the JSON API over a fresh embedded store holding the test
// businesses, and its clock.
func newAPI(t *testing.T) (http.Handler, *bookingtest.Clock) {
	t.Helper()
	bookings, c := newBookings(t)
	return httpapi.New(bookings, slog.New(slog.NewTextHandler(io.Discard, nil))), c
}

// newBookings returns the service over a fresh embedded store holding the
// test businesses, and its clock.
func newBookings(t *testing.T) (*booking.Bookings, *bookingtest.Clock) {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	dynamotest.PutBusinesses(t, store, "../booking/testdata/businesses.json", nil)
	c := bookingtest.NewClock(start)
	return bookingtest.New(t, booking.Config{Store: store, SiteURL: siteURL, Now: c.Now}), c
}

type response struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func call(t *testing.T, h http.Handler, method, path, body string, header ...string) response {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, path, r)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := openapitest.Serve(t, h, req)
	res := response{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
	if rec.Body.Len() > 0 {
		if err := json.Unmarshal(rec.Body.Bytes(), &res.body); err != nil {
			t.Fatalf("%s %s: body is not a JSON object: %v: %s", method, path, err, rec.Body)
		}
		if got := rec.Header().Get("Content-Type"); got != "application/json" {
			t.Errorf("%s %s: got Content-Type %q, want application/json", method, path, got)
		}
		if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s: got X-Content-Type-Options %q, want nosniff", method, path, got)
		}
	}
	if got := rec.Header().Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("%s %s: got Access-Control-Allow-Origin %q, want *", method, path, got)
	}
	return res
}

// errorCode returns the error code of an error response, failing the test
// when the body is not the spec's error shape.
func (r response) errorCode(t *testing.T) string {
	t.Helper()
	e, ok := r.body["error"].(map[string]any)
	if !ok || len(r.body) != 1 {
		t.Fatalf("got body %s, want {\"error\": {...}}", r.raw)
	}
	code, _ := e["code"].(string)
	if msg, _ := e["message"].(string); msg == "" || len(e) != 2 {
		t.Fatalf("got error %v, want exactly code and a non-empty message", e)
	}
	return code
}

// wantStatus stops the test unless r has status and, where code is not "",
// is the error with that code. It reports whether it is such an error.
func (r response) wantStatus(t *testing.T, status int, code string) bool {
	t.Helper()
	if r.status != status {
		t.Fatalf("got %d %s, want %d", r.status, r.raw, status)
	}
	if code == "" {
		return false
	}
	if got := r.errorCode(t); got != code {
		t.Fatalf("got %s, want %s", got, code)
	}
	return true
}

func (r response) str(key string) string {
	s, _ := r.body[key].(string)
	return s
}

// requestBody is a valid createServiceRequest body for split-day-plumbing at
// start, with the given window and phone.
func requestBody(window, phone string) string {
	return fmt.Sprintf(`{"window_start":%q,"address":{"street":"12 Main St","zip":"90012"},
		"contact":{"name":"Ana Ruiz","phone":%q,"email":%q,"sms_consent":true},
		"service_id":"drain-cleaning","description":"Slow drain","language":"es"}`, window, phone, emailFor(phone))
}

// emailFor is the test person's e-mail for a phone: one person each, as
// the e-mail counts against its own open requests too.
func emailFor(phone string) string {
	return "ana-" + strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, phone) + "@example.com"
}

const (
	firstWindow  = "2026-11-23T16:00:00Z" // Monday 08:00 in Los Angeles
	secondWindow = "2026-11-23T18:00:00Z"
)

func TestGetBusiness(t *testing.T) {
	h, _ := newAPI(t)
	t.Run("found", func(t *testing.T) {
		res := call(t, h, "GET", "/api/v1/businesses/split-day-plumbing", "")
		if res.status != 200 {
			t.Fatalf("got %d %s, want 200", res.status, res.raw)
		}
		want := []string{"slug", "name", "trade", "url", "booking_url", "preview", "example", "phone", "city", "state",
			"timezone", "languages", "default_language", "license", "service_area", "accepting_requests",
			"arrival_window_minutes", "books_up_to_days_ahead", "booking_deposit", "hours", "services"}
		if len(res.body) != len(want) {
			t.Errorf("got %d fields, want %d: %s", len(res.body), len(want), res.raw)
		}
		for _, k := range want {
			if _, ok := res.body[k]; !ok {
				t.Errorf("got no field %q", k)
			}
		}
		if got := res.body["hours"].(map[string]any)["sun"]; fmt.Sprint(got) != "[]" {
			t.Errorf("got sun %v, want []", got)
		}
	})
	for _, tt := range []struct{ name, path string }{
		{"unknown slug", "/api/v1/businesses/nobody"},
		{"not a slug", "/api/v1/businesses/%2E%2E"},
		{"a slug too long to be one", "/api/v1/businesses/" + strings.Repeat("a", 101)},
		{"unknown route", "/api/v1/nothing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, h, "GET", tt.path, "")
			if res.status != 404 || res.errorCode(t) != "NOT_FOUND" {
				t.Fatalf("got %d %s, want 404 NOT_FOUND", res.status, res.raw)
			}
		})
	}
	t.Run("slug in another case", func(t *testing.T) {
		if res := call(t, h, "GET", "/api/v1/businesses/Split-Day-Plumbing", ""); res.status != 200 {
			t.Fatalf("got %d, want 200", res.status)
		}
	})
}

func TestListArrivalWindows(t *testing.T) {
	h, _ := newAPI(t)
	tests := []struct {
		name       string
		path       string
		wantStatus int
		wantCode   string
		wantCount  int
	}{
		{"one day", "/api/v1/businesses/split-day-plumbing/availability?from=2026-11-23&days=1", 200, "", 4},
		{"default: today and 7 days", "/api/v1/businesses/split-day-plumbing/availability", 200, "", 18}, // Thu (all started), Fri 4, Sat 2, Sun 0, Mon-Wed 4 each
		{"14 days", "/api/v1/businesses/split-day-plumbing/availability?days=14", 200, "", 0},
		{"paused", "/api/v1/businesses/paused-plumbing/availability", 200, "", 0},
		{"from not a date", "/api/v1/businesses/split-day-plumbing/availability?from=23-11-2026", 400, "INVALID_DATE", 0},
		{"days 0", "/api/v1/businesses/split-day-plumbing/availability?days=0", 400, "INVALID_REQUEST", 0},
		{"days 15", "/api/v1/businesses/split-day-plumbing/availability?days=15", 400, "INVALID_REQUEST", 0},
		{"days not a number", "/api/v1/businesses/split-day-plumbing/availability?days=a", 400, "INVALID_REQUEST", 0},
		{"unknown business before a bad date", "/api/v1/businesses/nobody/availability?from=x", 404, "NOT_FOUND", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, h, "GET", tt.path, "")
			if res.wantStatus(t, tt.wantStatus, tt.wantCode) {
				return // the error wanted: no body to check
			}
			windows, ok := res.body["windows"].([]any)
			if !ok {
				t.Fatalf("got %s, want a windows list", res.raw)
			}
			if tt.wantCount > 0 && len(windows) != tt.wantCount {
				t.Errorf("got %d windows, want %d", len(windows), tt.wantCount)
			}
		})
	}
	t.Run("shape", func(t *testing.T) {
		res := call(t, h, "GET", "/api/v1/businesses/split-day-plumbing/availability?from=2026-11-23&days=1", "")
		if res.str("timezone") != "America/Los_Angeles" || res.body["accepting_requests"] != true {
			t.Errorf("got %s, want the time zone and accepting_requests true", res.raw)
		}
		w := res.body["windows"].([]any)[0].(map[string]any)
		if got, want := fmt.Sprint(w), "map[date:2026-11-23 end:2026-11-23T18:00:00Z start:2026-11-23T16:00:00Z]"; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	})
	t.Run("paused says so", func(t *testing.T) {
		res := call(t, h, "GET", "/api/v1/businesses/paused-plumbing/availability", "")
		if res.body["accepting_requests"] != false || len(res.body["windows"].([]any)) != 0 {
			t.Errorf("got %s, want accepting_requests false and no windows", res.raw)
		}
	})
}

// windowStarts lists the window starts of split-day-plumbing on 2026-11-23.
func windowStarts(t *testing.T, h http.Handler) []string {
	t.Helper()
	res := call(t, h, "GET", "/api/v1/businesses/split-day-plumbing/availability?from=2026-11-23&days=1", "")
	var starts []string
	for _, w := range res.body["windows"].([]any) {
		starts = append(starts, w.(map[string]any)["start"].(string))
	}
	return starts
}

func TestCreateServiceRequest(t *testing.T) {
	h, _ := newAPI(t)
	res := call(t, h, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(firstWindow, "(323) 555-0142"))
	if res.status != 201 {
		t.Fatalf("got %d %s, want 201", res.status, res.raw)
	}
	code := res.str("code")
	want := map[string]any{
		"code":        code,
		"status":      "new",
		"status_url":  siteURL + "/r/" + code,
		"api_url":     siteURL + "/api/v1/requests/" + code,
		"payment_url": nil,
	}
	if fmt.Sprint(res.body) != fmt.Sprint(want) {
		t.Fatalf("got %v, want %v", res.body, want)
	}
	if got := res.header.Get("Idempotent-Replayed"); got != "" {
		t.Errorf("got Idempotent-Replayed %q on a first call, want none", got)
	}
	if got := windowStarts(t, h); len(got) != 3 || got[0] != secondWindow {
		t.Errorf("got windows %v, want the held one gone", got)
	}
	t.Run("the same window again", func(t *testing.T) {
		res := call(t, h, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(firstWindow, "3235550143"))
		if res.status != 409 || res.errorCode(t) != "WINDOW_TAKEN" {
			t.Fatalf("got %d %s, want 409 WINDOW_TAKEN", res.status, res.raw)
		}
	})
	t.Run("the same window in another offset", func(t *testing.T) {
		res := call(t, h, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody("2026-11-23T08:00:00-08:00", "3235550143"))
		if res.status != 409 || res.errorCode(t) != "WINDOW_TAKEN" {
			t.Fatalf("got %d %s, want 409 WINDOW_TAKEN", res.status, res.raw)
		}
	})
}

func TestCreateServiceRequestErrors(t *testing.T) {
	h, _ := newAPI(t)
	valid := requestBody(firstWindow, "3235550142")
	tests := []struct {
		name       string
		slug       string
		body       string
		header     []string
		wantStatus int
		wantCode   string
	}{
		{"unknown business before a malformed body", "nobody", "{", nil, 404, "NOT_FOUND"},
		{"malformed JSON", "split-day-plumbing", "{", nil, 400, "INVALID_REQUEST"},
		{"empty body", "split-day-plumbing", "", nil, 400, "INVALID_REQUEST"},
		{"over 64 KiB", "split-day-plumbing", strings.Replace(valid, "Slow drain", strings.Repeat("x", 66000), 1), nil, 400, "INVALID_REQUEST"},
		{"window_start not ISO", "split-day-plumbing", strings.Replace(valid, firstWindow, "Monday 8am", 1), nil, 400, "INVALID_WINDOW"},
		{"street empty", "split-day-plumbing", strings.Replace(valid, "12 Main St", " ", 1), nil, 400, "INVALID_ADDRESS"},
		{"zip", "split-day-plumbing", strings.Replace(valid, `"90012"`, `"9001"`, 1), nil, 400, "INVALID_ZIP"},
		{"name empty", "split-day-plumbing", strings.Replace(valid, "Ana Ruiz", "", 1), nil, 400, "INVALID_NAME"},
		{"phone", "split-day-plumbing", requestBody(firstWindow, "555-0142"), nil, 400, "INVALID_PHONE"},
		{"email", "split-day-plumbing", strings.Replace(valid, "@example.com", ".example.com", 1), nil, 400, "INVALID_EMAIL"},
		{"service", "split-day-plumbing", strings.Replace(valid, "drain-cleaning", "roofing", 1), nil, 400, "SERVICE_UNAVAILABLE"},
		{"paused", "paused-plumbing", valid, nil, 503, "BOOKING_PAUSED"},
		{"out of area", "split-day-plumbing", strings.Replace(valid, `"90012"`, `"94110"`, 1), nil, 400, "OUT_OF_AREA"},
		{"deposit terms", "deposit-plumbing", strings.Replace(requestBody("2026-11-23T13:00:00Z", "3235550142"), `"90012"`, `"10001"`, 1), nil, 400, "DEPOSIT_TERMS"},
		{"too late", "split-day-plumbing", requestBody("2026-11-19T16:00:00Z", "3235550142"), nil, 400, "TOO_LATE"},
		{"not a window start", "split-day-plumbing", requestBody("2026-11-23T17:00:00Z", "3235550142"), nil, 400, "INVALID_WINDOW"},
		{"header key too short", "split-day-plumbing", valid, []string{"Idempotency-Key", "short"}, 400, "INVALID_REQUEST"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, h, "POST", "/api/v1/businesses/"+tt.slug+"/requests", tt.body, tt.header...)
			res.wantStatus(t, tt.wantStatus, tt.wantCode)
		})
	}
	t.Run("nothing was stored", func(t *testing.T) {
		if got := windowStarts(t, h); len(got) != 4 {
			t.Fatalf("got windows %v, want all 4 still open", got)
		}
		// The phone counter did not move: three requests still fit.
		for i, w := range windowStarts(t, h)[:3] {
			if res := call(t, h, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(w, "3235550142")); res.status != 201 {
				t.Fatalf("request %d: got %d %s, want 201", i+1, res.status, res.raw)
			}
		}
	})
}

func TestTooManyOpen(t *testing.T) {
	h, _ := newAPI(t)
	starts := windowStarts(t, h)
	for i, w := range starts[:3] {
		if res := call(t, h, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(w, "(323) 555-0150")); res.status != 201 {
			t.Fatalf("request %d: got %d %s, want 201", i+1, res.status, res.raw)
		}
	}
	res := call(t, h, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(starts[3], "+1 323 555 0150"))
	if res.status != 429 || res.errorCode(t) != "TOO_MANY_OPEN" {
		t.Fatalf("4th request: got %d %s, want 429 TOO_MANY_OPEN", res.status, res.raw)
	}
	if got := windowStarts(t, h); len(got) != 1 || got[0] != starts[3] {
		t.Errorf("got windows %v, want the 4th still open", got)
	}
	t.Run("another phone may take it", func(t *testing.T) {
		if res := call(t, h, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(starts[3], "3235550151")); res.status != 201 {
			t.Fatalf("got %d %s, want 201", res.status, res.raw)
		}
	})
}

func TestIdempotency(t *testing.T) {
	h, c := newAPI(t)
	post := func(body string, header ...string) response {
		return call(t, h, "POST", "/api/v1/businesses/split-day-plumbing/requests", body, header...)
	}
	body := requestBody(firstWindow, "3235550142")
	first := post(body, "Idempotency-Key", "retry-key-1")
	if first.status != 201 {
		t.Fatalf("got %d %s, want 201", first.status, first.raw)
	}
	tests := []struct {
		name       string
		body       string
		header     []string
		wantStatus int
		wantCode   string
	}{
		{"same key, same body", body, []string{"Idempotency-Key", "retry-key-1"}, 201, ""},
		{"same key in the body", strings.Replace(body, `"language"`, `"idempotency_key":"retry-key-1","language"`, 1), nil, 201, ""},
		{"same key, body respaced", strings.Join(strings.Fields(body), " "), []string{"Idempotency-Key", "retry-key-1"}, 201, ""},
		{"same key, another body", strings.Replace(body, "Slow drain", "Fast drain", 1), []string{"Idempotency-Key", "retry-key-1"}, 422, "IDEMPOTENCY_KEY_REUSED"},
		{"header and body keys differ", strings.Replace(body, `"language"`, `"idempotency_key":"retry-key-2","language"`, 1), []string{"Idempotency-Key", "retry-key-1"}, 400, "INVALID_REQUEST"},
		{"no key: a second request", body, nil, 409, "WINDOW_TAKEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := post(tt.body, tt.header...)
			if res.wantStatus(t, tt.wantStatus, tt.wantCode) {
				return // the error wanted: no body to check
			}
			if res.raw != first.raw {
				t.Errorf("got %s, want the first answer %s", res.raw, first.raw)
			}
			if got := res.header.Get("Idempotent-Replayed"); got != "true" {
				t.Errorf("got Idempotent-Replayed %q, want true", got)
			}
		})
	}
	t.Run("a retry after the window started still gets its answer", func(t *testing.T) {
		// all-day-plumbing's windows start every hour: one starts an hour
		// after the first call, well within the key's 24 hours.
		soon := requestBody("2026-11-20T01:00:00Z", "3235550142")
		first := call(t, h, "POST", "/api/v1/businesses/all-day-plumbing/requests", soon, "Idempotency-Key", "retry-key-9")
		if first.status != 201 {
			t.Fatalf("got %d %s, want 201", first.status, first.raw)
		}
		c.Set(start.Add(90 * time.Minute))
		defer c.Set(start)
		res := call(t, h, "POST", "/api/v1/businesses/all-day-plumbing/requests", soon, "Idempotency-Key", "retry-key-9")
		if res.status != 201 || res.raw != first.raw || res.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("got %d %s, want the first answer replayed", res.status, res.raw)
		}
		if res := call(t, h, "POST", "/api/v1/businesses/all-day-plumbing/requests", soon); res.status != 400 || res.errorCode(t) != "TOO_LATE" {
			t.Fatalf("without the key: got %d %s, want 400 TOO_LATE", res.status, res.raw)
		}
	})
	t.Run("a key is scoped to its business", func(t *testing.T) {
		other := strings.Replace(requestBody("2026-11-23T15:00:00Z", "3235550142"), `"90012"`, `"10001"`, 1)
		other = strings.Replace(other, `"language"`, `"deposit_accepted":true,"language"`, 1)
		res := call(t, h, "POST", "/api/v1/businesses/deposit-plumbing/requests", other, "Idempotency-Key", "retry-key-1")
		if res.status != 201 || res.str("code") == first.str("code") {
			t.Fatalf("got %d %s, want a new request", res.status, res.raw)
		}
	})
	t.Run("a failed request stores nothing under its key", func(t *testing.T) {
		bad := post(requestBody(secondWindow, "555"), "Idempotency-Key", "retry-key-3")
		if bad.status != 400 {
			t.Fatalf("got %d, want 400", bad.status)
		}
		good := post(requestBody(secondWindow, "3235550199"), "Idempotency-Key", "retry-key-3")
		if good.status != 201 || good.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("got %d %s replayed %q, want a fresh 201", good.status, good.raw, good.header.Get("Idempotent-Replayed"))
		}
	})
	t.Run("the key is kept 24 hours", func(t *testing.T) {
		c.Set(start.Add(24*time.Hour + time.Second))
		defer c.Set(start)
		res := post(requestBody("2026-11-23T21:00:00Z", "3235550142"), "Idempotency-Key", "retry-key-1")
		if res.status != 201 || res.str("code") == first.str("code") {
			t.Fatalf("got %d %s, want a new request under the expired key", res.status, res.raw)
		}
	})
}

func TestConcurrentRetriesReplay(t *testing.T) {
	h, _ := newAPI(t)
	body := requestBody(firstWindow, "3235550142")
	codes := make([]string, 20)
	statuses := make([]int, 20)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := httptest.NewRequest("POST", "/api/v1/businesses/split-day-plumbing/requests", strings.NewReader(body))
			req.Header.Set("Idempotency-Key", "concurrent-key")
			rec := openapitest.Serve(t, h, req)
			statuses[i] = rec.Code
			var c booking.Created
			_ = json.Unmarshal(rec.Body.Bytes(), &c)
			codes[i] = c.Code
		}()
	}
	wg.Wait()
	for i := range codes {
		if statuses[i] != 201 || codes[i] != codes[0] || codes[i] == "" {
			t.Fatalf("call %d: got %d %q, want 201 with the one code %q", i, statuses[i], codes[i], codes[0])
		}
	}
}

func TestGetServiceRequest(t *testing.T) {
	h, c := newAPI(t)
	created := call(t, h, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(firstWindow, "3235550142"))
	code := created.str("code")
	res := call(t, h, "GET", "/api/v1/requests/"+code, "")
	if res.status != 200 {
		t.Fatalf("got %d %s, want 200", res.status, res.raw)
	}
	want := fmt.Sprintf(`{"code":%q,"status":"new","business":{"slug":"split-day-plumbing","name":"Split Day Plumbing","phone":"+13235550100"},`+
		`"service":{"en":"Drain cleaning","es":"Limpieza de drenaje"},`+
		`"arrival_window":{"start":"2026-11-23T16:00:00Z","end":"2026-11-23T18:00:00Z","changed_by_business":false},`+
		`"deposit":null,"created":"2026-11-20T00:00:00Z"}`+"\n", code)
	if res.raw != want {
		t.Fatalf("got  %s\nwant %s", res.raw, want)
	}
	for _, private := range []string{"Ana", "555-0142", "5550142", "@example.com", "Main St", "90012", "Slow drain"} {
		if strings.Contains(res.raw, private) {
			t.Errorf("got %q in the status response: it carries no contact details", private)
		}
	}
	t.Run("code typed back loosely", func(t *testing.T) {
		loose := strings.ToLower(strings.ReplaceAll(code, "-", ""))
		if res := call(t, h, "GET", "/api/v1/requests/"+loose, ""); res.status != 200 || res.str("code") != code {
			t.Fatalf("got %d %s, want 200 for %s", res.status, res.raw, code)
		}
	})
	for _, tt := range []struct{ name, code string }{
		{"unknown code", "0000-0000-0000"},
		{"not a code", "hello"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, h, "GET", "/api/v1/requests/"+tt.code, "")
			if res.status != 404 || res.errorCode(t) != "NOT_FOUND" {
				t.Fatalf("got %d %s, want 404 NOT_FOUND", res.status, res.raw)
			}
		})
	}
	t.Run("no service chosen", func(t *testing.T) {
		body := strings.Replace(requestBody(secondWindow, "3235550142"), `"service_id":"drain-cleaning",`, "", 1)
		created := call(t, h, "POST", "/api/v1/businesses/split-day-plumbing/requests", body)
		res := call(t, h, "GET", "/api/v1/requests/"+created.str("code"), "")
		if got := fmt.Sprint(res.body["service"]); !strings.Contains(got, "Other service") {
			t.Fatalf("got service %s, want the other-service text", got)
		}
	})
	_ = c
}

func TestDepositHold(t *testing.T) {
	h, c := newAPI(t)
	body := strings.Replace(requestBody("2026-11-23T13:00:00Z", "3235550142"), `"90012"`, `"10001"`, 1)
	body = strings.Replace(body, `"language"`, `"deposit_accepted":true,"language"`, 1)
	created := call(t, h, "POST", "/api/v1/businesses/deposit-plumbing/requests", body)
	code := created.str("code")
	if created.status != 201 || created.str("status") != "pending_payment" || created.str("payment_url") != siteURL+"/pay/"+code {
		t.Fatalf("got %d %s, want 201 pending_payment with a payment_url", created.status, created.raw)
	}
	availability := "/api/v1/businesses/deposit-plumbing/availability?from=2026-11-23&days=1"
	countWindows := func() int {
		return len(call(t, h, "GET", availability, "").body["windows"].([]any))
	}
	if got := countWindows(); got != 3 {
		t.Fatalf("got %d windows while held, want 3", got)
	}
	tests := []struct {
		name        string
		at          time.Duration
		wantStatus  string
		wantDeposit string
		wantWindows int
	}{
		{"held for 29 minutes", 29 * time.Minute, "pending_payment", `"state":"due","since":"2026-11-20T00:00:00Z","pay_by":"2026-11-20T00:30:00Z"`, 3},
		{"lapsed at 30 minutes", 30 * time.Minute, "expired", `"state":"expired","since":"2026-11-20T00:30:00Z","pay_by":null`, 4},
		{"lapsed at 31 minutes", 31 * time.Minute, "expired", `"state":"expired","since":"2026-11-20T00:30:00Z","pay_by":null`, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.Set(start.Add(tt.at))
			res := call(t, h, "GET", "/api/v1/requests/"+code, "")
			if res.str("status") != tt.wantStatus {
				t.Errorf("got status %s, want %s", res.str("status"), tt.wantStatus)
			}
			if want := `"deposit":{"amount_cents":4500,"currency":"usd","simulated":false,` + tt.wantDeposit + `}`; !strings.Contains(res.raw, want) {
				t.Errorf("got %s, want %s", res.raw, want)
			}
			if got := countWindows(); got != tt.wantWindows {
				t.Errorf("got %d windows, want %d", got, tt.wantWindows)
			}
		})
	}
	t.Run("a lapsed hold's window can be taken again", func(t *testing.T) {
		c.Set(start.Add(31 * time.Minute))
		again := strings.Replace(body, "3235550142", "3235550143", 1)
		if res := call(t, h, "POST", "/api/v1/businesses/deposit-plumbing/requests", again); res.status != 201 {
			t.Fatalf("got %d %s, want 201", res.status, res.raw)
		}
	})
}

func TestHTTPEdges(t *testing.T) {
	h, _ := newAPI(t)
	t.Run("CORS preflight", func(t *testing.T) {
		res := call(t, h, "OPTIONS", "/api/v1/businesses/split-day-plumbing/requests", "",
			"Origin", "https://site.example", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type, idempotency-key")
		if res.status != 204 {
			t.Fatalf("got %d, want 204", res.status)
		}
		for header, want := range map[string]string{
			"Access-Control-Allow-Methods": "GET, POST, OPTIONS",
			"Access-Control-Allow-Headers": "Content-Type, Idempotency-Key",
		} {
			if got := res.header.Get(header); got != want {
				t.Errorf("got %s %q, want %q", header, got, want)
			}
		}
	})
	t.Run("wrong method", func(t *testing.T) {
		res := call(t, h, "DELETE", "/api/v1/businesses/split-day-plumbing", "")
		if res.status != 405 || res.errorCode(t) != "METHOD_NOT_ALLOWED" || res.header.Get("Allow") != "GET, OPTIONS" {
			t.Fatalf("got %d %s Allow %q, want 405 METHOD_NOT_ALLOWED", res.status, res.raw, res.header.Get("Allow"))
		}
	})
}

// failingStore fails every call with an error whose text must stay inside.
type failingStore struct{ booking.Store }

func (failingStore) Business(context.Context, string) (*booking.Business, error) {
	return nil, errors.New("dynamodb: connection refused to 10.0.0.7 (secret detail)")
}

func (s failingStore) PublicBusiness(ctx context.Context, slug string) (*booking.Business, error) {
	return s.Business(ctx, slug)
}

func TestServerErrorHidesDetail(t *testing.T) {
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	h := httpapi.New(bookingtest.New(t, booking.Config{Store: failingStore{}, SiteURL: siteURL, Now: time.Now}), log)
	res := call(t, h, "GET", "/api/v1/businesses/split-day-plumbing", "")
	if res.status != 500 || res.errorCode(t) != "SERVER_ERROR" {
		t.Fatalf("got %d %s, want 500 SERVER_ERROR", res.status, res.raw)
	}
	if strings.Contains(res.raw, "secret") || strings.Contains(res.raw, "dynamodb") {
		t.Errorf("got %s: internal detail reached the client", res.raw)
	}
	if !strings.Contains(logged.String(), "secret detail") {
		t.Errorf("got log %q, want the internal error logged", logged.String())
	}
}
