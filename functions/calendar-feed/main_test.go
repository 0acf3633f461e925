package main

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// withToken returns the sample event for another token.
func withToken(t *testing.T, event []byte, token string) []byte {
	t.Helper()
	return lambdatest.Edit(t, event, func(e *events.APIGatewayV2HTTPRequest) {
		e.RawPath = "/calendar/" + token + ".ics"
		e.RequestContext.HTTP.Path = e.RawPath
		e.PathParameters = map[string]string{"token": token + ".ics"}
	})
}

// The sample carries desert-cool-hvac's local demo feed token, whose hash
// infra/local/businesses.json holds; its feed lists the sample request.
func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "CalendarFeedFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	sample := lambdatest.Event(t, "calendar-feed.json")
	tests := []struct {
		name       string
		event      []byte
		wantStatus int
		wantType   string
		want       string
	}{
		{"sample", sample, 200, "text/calendar; charset=utf-8", "UID:" + lambdatest.SampleRequestCode + "@book.example.com\r\n"},
		{"wrong token", withToken(t, sample, "desert-cool-hvac.not-the-feed-token-at-all"), 404, "text/plain; charset=utf-8", "Not Found"},
		{"inbox token", withToken(t, sample, "desert-cool-hvac.local-demo-inbox-token"), 404, "text/plain; charset=utf-8", "Not Found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := lambdatest.InvokeHTTP(t, h, tt.event)
			if res.StatusCode != tt.wantStatus || !strings.Contains(res.Body, tt.want) {
				t.Fatalf("got %d %s, want %d with %q", res.StatusCode, res.Body, tt.wantStatus, tt.want)
			}
			if got := res.Headers["Content-Type"]; got != tt.wantType {
				t.Errorf("got Content-Type %q, want %q", got, tt.wantType)
			}
		})
	}
}

// TestNewHandlerAtStart: the feed fails at start without TABLE_NAME.
func TestNewHandlerAtStart(t *testing.T) {
	env := lambdatest.NewEnv(t)
	getenv := func(k string) string {
		if k == "TABLE_NAME" {
			return ""
		}
		return env.Getenv(k)
	}
	if h, err := newHandler(context.Background(), getenv); err == nil || h != nil {
		t.Fatalf("got a handler: %v, and %v; want no handler and an error", h != nil, err)
	}
}
