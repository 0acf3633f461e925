package main

import (
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "CreateServiceRequestFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	// The sample's window_start is a date that passes; the test sends the
	// first window open today, as a person following the README would.
	window := env.FirstOpenWindow(t, "desert-cool-hvac")
	event := lambdatest.WithBody(t, lambdatest.Event(t, "create-service-request.json"),
		map[string]any{"window_start": window.Start.Format(time.RFC3339)})

	first := lambdatest.InvokeHTTP(t, h, event)
	if first.StatusCode != 201 || !strings.Contains(first.Body, `"status":"new"`) || first.Headers["Idempotent-Replayed"] != "" {
		t.Fatalf("got %d %s %v, want a fresh 201", first.StatusCode, first.Body, first.Headers)
	}
	// The sample carries an Idempotency-Key: sending it again replays.
	again := lambdatest.InvokeHTTP(t, h, event)
	if again.StatusCode != 201 || again.Body != first.Body || again.Headers["Idempotent-Replayed"] != "true" {
		t.Fatalf("got %d %s %v on the retry, want the first answer replayed", again.StatusCode, again.Body, again.Headers)
	}
}
