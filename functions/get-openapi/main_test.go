package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(context.Background(), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	event := lambdatest.Event(t, "get-openapi.json")
	lambdatest.RunHTTP(t, h, []lambdatest.Case{
		{Name: "JSON", Event: event, WantStatus: 200, WantBody: `{"openapi":"3.1.0",`},
	})
	t.Run("YAML", func(t *testing.T) {
		// The same event on the function's other route.
		res := lambdatest.InvokeHTTP(t, h, bytes.ReplaceAll(event, []byte("openapi.json"), []byte("openapi.yaml")))
		if res.StatusCode != 200 || res.Body != string(httpapi.OpenAPIYAML()) || res.Headers["Content-Type"] != "application/yaml" {
			t.Fatalf("got %d %q %.60q, want 200 application/yaml with openapi.yaml", res.StatusCode, res.Headers["Content-Type"], res.Body)
		}
	})
}
