package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/logjson"
)

// --personal-data-days sets how long the sweep keeps personal details; a
// value below the minimum stops the server at start, saying why.
func TestPersonalDataDaysFlag(t *testing.T) {
	if o, err := parseFlags(nil); err != nil || o.personalDataDays != 365 {
		t.Errorf("default: got %d, %v; want 365", o.personalDataDays, err)
	}
	if o, err := parseFlags([]string{"--personal-data-days", "30"}); err != nil || o.personalDataDays != 30 {
		t.Errorf("30: got %d, %v; want 30", o.personalDataDays, err)
	}
	startLocal(t, "--personal-data-days", "45")
	err := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--memory", "--personal-data-days", "29"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "at least 30 days") {
		t.Errorf("--personal-data-days 29: got %v, want an error saying at least 30 days", err)
	}
}

// TestLogsHoldNoContactNorCode walks a request from its create to its
// erasure through the local server (the public API, the person's pages,
// the business's JSON inbox and its export, a refused create) and scans
// every log line for the contact details it sent and for its code: none
// is there, only the code's LogRef.
func TestLogsHoldNoContactNorCode(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	businesses, err := loadBusinesses("")
	if err != nil {
		t.Fatal(err)
	}
	var logs logBuffer
	srv := serveLocal(ctx, t, businesses, logjson.New(&logs), nil)

	const (
		slug        = "desert-cool-hvac"
		token       = slug + demoTokenSuffix
		name        = "Zebulon Quixote"
		phone       = "602-555-0199"
		badPhone    = "602-555-019"
		email       = "zq.walk@example.com"
		street      = "77 Kumquat Way"
		unit        = "Apt 7Z"
		city        = "Tempe"
		description = "Mind the tortoise by the gate"
	)
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(method, path, body string, header ...string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := noRedirects.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(data)
	}
	form := []string{"Content-Type", "application/x-www-form-urlencoded", "Sec-Fetch-Site", "same-origin"}
	bearer := []string{"Authorization", "Bearer " + token, "Content-Type", "application/json"}

	_, body := send("GET", "/api/v1/businesses/"+slug+"/availability?days=2", "")
	var availability struct{ Windows []struct{ Start string } }
	if err := json.Unmarshal([]byte(body), &availability); err != nil || len(availability.Windows) == 0 {
		t.Fatalf("windows: %s %v", body, err)
	}
	create := func(p string) string {
		return `{"window_start":"` + availability.Windows[0].Start + `","address":{"street":"` + street + `","unit":"` + unit +
			`","city":"` + city + `","zip":"85004"},"contact":{"name":"` + name + `","phone":"` + p + `","email":"` + email +
			`","sms_consent":true},"description":"` + description + `"}`
	}
	if status, _ := send("POST", "/api/v1/businesses/"+slug+"/requests", create(badPhone), "Content-Type", "application/json"); status != 400 {
		t.Fatalf("a create with a bad phone: got %d, want 400", status)
	}
	status, body := send("POST", "/api/v1/businesses/"+slug+"/requests", create(phone), "Content-Type", "application/json", "Idempotency-Key", "log-walk-key-0001")
	var created struct{ Code string }
	if err := json.Unmarshal([]byte(body), &created); err != nil || status != 201 {
		t.Fatalf("create: got %d %s", status, body)
	}
	code := created.Code
	steps := []struct {
		method, path, body string
		header             []string
		want               int
	}{
		{"POST", "/api/v1/businesses/" + slug + "/requests", create(phone), []string{"Content-Type", "application/json", "Idempotency-Key", "log-walk-key-0001"}, 201},
		{"GET", "/api/v1/requests/" + code, "", nil, 200},
		{"GET", "/r/" + code, "", nil, 200},
		{"GET", "/api/v1/inbox/requests", "", bearer, 200},
		{"GET", "/api/v1/inbox/requests/" + code, "", bearer, 200},
		{"POST", "/api/v1/inbox/requests/" + code + "/accept", "", bearer, 200},
		{"GET", "/r/" + code + "/cancel", "", nil, 200},
		{"POST", "/r/" + code + "/cancel", "deposit=", form, 303},
		{"GET", "/api/v1/inbox/export", "", bearer, 200},
		{"GET", "/r/" + code + "/erase", "", nil, 200},
		{"POST", "/r/" + code + "/erase", "confirm=yes", form, 303},
		{"GET", "/r/" + code + "?done=erased", "", nil, 200},
		{"GET", "/api/v1/inbox/requests/" + code, "", bearer, 200},
	}
	for _, s := range steps {
		if status, body := send(s.method, s.path, s.body, s.header...); status != s.want {
			t.Fatalf("%s %s: got %d, want %d: %.300s", s.method, s.path, status, s.want, body)
		}
	}
	all := logs.String()
	if !strings.Contains(all, booking.LogRef(code)) {
		t.Errorf("the logs never name the request by its LogRef %s", booking.LogRef(code))
	}
	canonical := strings.ReplaceAll(code, "-", "")
	for _, secret := range []string{name, "Zebulon", "Quixote", phone, badPhone, "6025550199", "555-0199", "555-019", "(602) 555",
		email, "zq.walk", street, "Kumquat", unit, description, "tortoise", code, canonical, strings.ToLower(canonical), "log-walk-key-0001"} {
		if strings.Contains(all, secret) {
			for line := range strings.Lines(all) {
				if strings.Contains(line, secret) {
					t.Errorf("a log line holds %q: %s", secret, line)
				}
			}
		}
	}
	if n := strings.Count(all, "\n"); n < len(steps) {
		t.Errorf("got %d log lines for %d steps: the walk was not logged", n, len(steps))
	}
}

// --signups-per-hour is the stack's SignupsPerHour here: 100 unless
// given; less than 1 stops the server at start.
func TestSignupsPerHourFlag(t *testing.T) {
	tests := []struct {
		args  []string
		want  int
		fails bool
	}{
		{nil, 100, false},
		{[]string{"--signups-per-hour", "3"}, 3, false},
		{[]string{"--signups-per-hour", "0"}, 0, true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			o, err := parseFlags(tt.args)
			if (err != nil) != tt.fails || (!tt.fails && o.signupsPerHour != tt.want) {
				t.Errorf("got %d, %v; want %d, failing %v", o.signupsPerHour, err, tt.want, tt.fails)
			}
		})
	}
}
