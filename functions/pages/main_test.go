package main

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// withPath returns the sample event for another method and path.
func withPath(t *testing.T, event []byte, method, route, path, code string) []byte {
	t.Helper()
	return lambdatest.Edit(t, event, func(e *events.APIGatewayV2HTTPRequest) {
		e.RouteKey, e.RequestContext.RouteKey = method+" "+route, method+" "+route
		e.RawPath, e.RequestContext.HTTP.Path, e.RequestContext.HTTP.Method = path, path, method
		e.PathParameters = map[string]string{"code": code}
	})
}

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(context.Background(), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	sample := lambdatest.Event(t, "pages-status.json")
	tests := []struct {
		name       string
		event      []byte
		wantStatus int
		want       string
	}{
		{"sample request", sample, 200, "Request sent, not confirmed yet"},
		{"its cancel page", withPath(t, sample, "GET", "/r/{code}/cancel", "/r/"+lambdatest.SampleRequestCode+"/cancel", lambdatest.SampleRequestCode), 200, "No deposit was asked for this request."},
		{"no calendar event before the business accepts", withPath(t, sample, "GET", "/r/{code}", "/r/"+lambdatest.SampleRequestCode+".ics", lambdatest.SampleRequestCode+".ics"), 404, "No request has this address."},
		{"unknown code", withPath(t, sample, "GET", "/r/{code}", "/r/ZZZZ-ZZZZ-ZZZZ", "ZZZZ-ZZZZ-ZZZZ"), 404, "No request has this address."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := lambdatest.InvokeHTTP(t, h, tt.event)
			if res.StatusCode != tt.wantStatus || !strings.Contains(res.Body, tt.want) {
				t.Fatalf("got %d %s, want %d with %q", res.StatusCode, res.Body, tt.wantStatus, tt.want)
			}
			if got := res.Headers["Content-Type"]; got != "text/html; charset=utf-8" {
				t.Errorf("got Content-Type %q, want text/html", got)
			}
			if !strings.Contains(res.Body, `<html lang="en">`) {
				t.Errorf("got no <html lang=\"en\">")
			}
		})
	}
}

// TestNewHandlerAtStart: the pages start without Stripe (they need no
// Stripe key), and fail at start without TABLE_NAME.
func TestNewHandlerAtStart(t *testing.T) {
	env := lambdatest.NewEnv(t)
	tests := []struct {
		name    string
		unset   string // the variable taken out of the environment
		wantErr string // "" when the pages start
	}{
		{"without STRIPE_SECRET_ARN", "STRIPE_SECRET_ARN", ""},
		{"without TABLE_NAME", "TABLE_NAME", "TABLE_NAME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == tt.unset {
					return ""
				}
				return env.Getenv(k)
			}
			h, err := newHandler(context.Background(), getenv)
			if tt.wantErr == "" {
				if err != nil || h == nil {
					t.Fatalf("got %v, want the pages to start", err)
				}
				return
			}
			if err == nil || h != nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got a handler: %v, and %v; want no handler and an error naming %s", h != nil, err, tt.wantErr)
			}
		})
	}
}
