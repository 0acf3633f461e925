package main

import (
	"bytes"
	"context"
	"net/http"
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

// PAYMENTS=simulated (a stack without Stripe): a deposit that the
// businesses file does not simulate says simulated: true; PAYMENTS=stripe
// leaves it as the file says.
func TestPaymentsSimulated(t *testing.T) {
	// austin-rapid-plumbing is no preview and takes a deposit.
	event := bytes.ReplaceAll(lambdatest.Event(t, "get-business.json"), []byte("desert-cool-hvac"), []byte("austin-rapid-plumbing"))
	for payments, want := range map[string]string{"simulated": `"simulated":true`, "stripe": `"simulated":false`} {
		t.Run(payments, func(t *testing.T) {
			env := lambdatest.NewEnv(t)
			env.Vars["PAYMENTS"] = payments
			h, err := newHandler(context.Background(), env.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			lambdatest.RunHTTP(t, h, []lambdatest.Case{{Name: "deposit", Event: event, WantStatus: 200, WantBody: want}})
		})
	}
}

// A bad configuration fails at start, with no handler, never on the first
// request.
func TestFailsAtStartOnBadConfig(t *testing.T) {
	h, err := newHandler(context.Background(), func(string) string { return "" })
	if err == nil || h != nil {
		t.Fatalf("got a handler and %v, want no handler and an error", err)
	}
}

// The business answers with an ETag, and the same event sent again with
// If-None-Match naming it gets a 304 with no body.
func TestETag(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "GetBusinessFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	event := lambdatest.Event(t, "get-business.json")
	first := lambdatest.InvokeHTTP(t, h, event)
	etag := first.Headers[http.CanonicalHeaderKey("ETag")]
	if first.StatusCode != 200 || etag == "" || first.Headers["Cache-Control"] != "no-cache" {
		t.Fatalf("got %d with headers %v, want 200 with an ETag and Cache-Control: no-cache", first.StatusCode, first.Headers)
	}
	again := lambdatest.InvokeHTTP(t, h, lambdatest.WithHeader(t, event, "if-none-match", etag))
	if again.StatusCode != 304 || again.Body != "" || again.Headers[http.CanonicalHeaderKey("ETag")] != etag {
		t.Errorf("with If-None-Match: got %d %q with headers %v, want 304 with no body and ETag %s", again.StatusCode, again.Body, again.Headers, etag)
	}
}
