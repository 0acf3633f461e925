package main

import (
	"bytes"
	"net/http"
	"os"
	"testing"

	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// TestEvents serves the document with an empty environment: the function
// reads no TABLE_NAME, SITE_URL or credentials, since it touches no table.
func TestEvents(t *testing.T) {
	for _, k := range []string{"TABLE_NAME", "SITE_URL", "DYNAMODB_ENDPOINT", "AWS_REGION", "AWS_DEFAULT_REGION",
		"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"} {
		t.Setenv(k, "") // restored after the test
		os.Unsetenv(k)
	}
	h := newHandler()
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

// The document answers with an ETag, and a 304 to If-None-Match naming it.
func TestETag(t *testing.T) {
	h := newHandler()
	event := lambdatest.Event(t, "get-openapi.json")
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
