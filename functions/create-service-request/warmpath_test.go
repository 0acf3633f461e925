package main

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// TestWarmPath measures what one create runs once the function is warm
// (its business cache full): go run ./infra/bench counts the files and
// functions it covers (issue 21's measure).
func TestWarmPath(t *testing.T) {
	path := lambdatest.NewWarmPath(t)
	env := lambdatest.NewEnv(t)
	h, err := newHandler(path.Context(context.Background()), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	// Each create sends the first window still open, with its own key;
	// the event is made before the call measured.
	event := func(key string) []byte {
		window := env.FirstOpenWindow(t, "desert-cool-hvac")
		event := lambdatest.WithBody(t, lambdatest.Event(t, "create-service-request.json"),
			map[string]any{"window_start": window.Start.Format(time.RFC3339)})
		return lambdatest.Edit(t, event, func(e *events.APIGatewayV2HTTPRequest) { e.Headers["idempotency-key"] = key })
	}
	create := func(event []byte) {
		if res := lambdatest.InvokeHTTP(t, h, event); res.StatusCode != 201 {
			t.Fatalf("got %d %s, want 201", res.StatusCode, res.Body)
		}
	}
	create(event("warm-path-0001"))
	second := event("warm-path-0002")
	path.Measure("create", func() { create(second) })
}
