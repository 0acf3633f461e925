package main

import (
	"context"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// The sample event, GET /inbox without a session, through the same JSON
// path as lambda.Start: the sign-in form, in HTML.
func TestEvent(t *testing.T) {
	env := lambdatest.NewEnv(t)
	env.Vars["SENDER_EMAIL"] = "inbox@book.example.com"
	h, err := newHandler(env.Record(t, "BusinessWebFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	res := lambdatest.InvokeHTTP(t, h, lambdatest.Event(t, "business-web-inbox.json"))
	if res.StatusCode != 200 || !strings.HasPrefix(res.Headers["Content-Type"], "text/html") || !strings.Contains(res.Body, `action="/inbox/sign-in"`) {
		t.Errorf("got %d %q %.200s, want 200 with the sign-in form", res.StatusCode, res.Headers["Content-Type"], res.Body)
	}
}

// Bad configuration fails at start: the sign-in e-mail needs its sender.
func TestFailsAtStart(t *testing.T) {
	env := lambdatest.NewEnv(t)
	tests := []struct {
		name, unset, want string
	}{
		{"no sender", "SENDER_EMAIL", "SENDER_EMAIL"},
		{"no table", "TABLE_NAME", "TABLE_NAME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == tt.unset {
					return ""
				}
				if k == "SENDER_EMAIL" {
					return "inbox@book.example.com"
				}
				return env.Getenv(k)
			}
			if _, err := newHandler(context.Background(), getenv); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error naming %s", err, tt.want)
			}
		})
	}
}
