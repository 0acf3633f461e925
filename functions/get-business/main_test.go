package main

import (
	"context"
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "GetBusinessFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	lambdatest.RunHTTP(t, h, []lambdatest.Case{
		{Name: "found", Event: lambdatest.Event(t, "get-business.json"), WantStatus: 200, WantBody: `"slug":"desert-cool-hvac"`},
		{Name: "not found", Event: lambdatest.Event(t, "get-business-not-found.json"), WantStatus: 404, WantBody: `"code":"NOT_FOUND"`},
	})
}

// A bad configuration fails at start, with no handler, never on the first
// request.
func TestFailsAtStartOnBadConfig(t *testing.T) {
	h, err := newHandler(context.Background(), func(string) string { return "" })
	if err == nil || h != nil {
		t.Fatalf("got a handler and %v, want no handler and an error", err)
	}
}
