package httpapi_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// windowOf is the hour-long window of all-day-plumbing that starts i hours
// after Monday 00:00 in Los Angeles.
func windowOf(i int) string {
	return time.Date(2026, 11, 23, 8+i, 0, 0, 0, time.UTC).Format(time.RFC3339)
}

// TestBusinessLimits, through the JSON API at the default limits: a
// legitimate day is never refused (eight people within an hour all get
// through), one client making up people is (the eleventh request of an
// hour gets 429 RATE_LIMITED with Retry-After, and nothing is stored), and
// an hour later the business takes requests again.
func TestBusinessLimits(t *testing.T) {
	h, clock := newAPI(t)
	const slug = "all-day-plumbing" // default limits: 10 an hour, 20 unanswered
	create := func(i int) response {
		t.Helper()
		return call(t, h, "POST", "/api/v1/businesses/"+slug+"/requests", requestBody(windowOf(i), fmt.Sprintf("32355501%02d", i)))
	}
	for i := range 8 { // eight people within an hour
		if res := create(i); res.status != 201 {
			t.Fatalf("person %d of a legitimate day: got %d %s, want 201", i+1, res.status, res.raw)
		}
		clock.Add(7 * time.Minute)
	}
	for i := 8; i < 10; i++ {
		if res := create(i); res.status != 201 {
			t.Fatalf("request %d: got %d %s, want 201", i+1, res.status, res.raw)
		}
	}
	res := create(10)
	if res.status != 429 || res.errorCode(t) != "RATE_LIMITED" {
		t.Fatalf("the 11th request of the hour: got %d %s, want 429 RATE_LIMITED", res.status, res.raw)
	}
	wait, err := strconv.Atoi(res.header.Get("Retry-After"))
	if err != nil || wait < 1 || wait > 3600 {
		t.Errorf("got Retry-After %q, want seconds until the first slot frees", res.header.Get("Retry-After"))
	}
	if msg := res.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "All Day Plumbing") || !strings.Contains(msg, "+13235550100") {
		t.Errorf("got message %q, want the business's name and phone to call instead", msg)
	}
	if got := call(t, h, "GET", "/api/v1/businesses/"+slug+"/availability?from=2026-11-23&days=1", ""); !strings.Contains(got.raw, windowOf(10)) {
		t.Errorf("the refused request holds its window: %s", got.raw)
	}
	clock.Add(time.Duration(wait) * time.Second)
	if res := create(10); res.status != 201 {
		t.Errorf("after Retry-After: got %d %s, want 201", res.status, res.raw)
	}
}
