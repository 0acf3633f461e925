package main

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// The samples carry desert-cool-hvac's local demo inbox token, whose hash
// infra/local/businesses.json holds, and act on the sample request.
func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "BusinessInboxFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	noToken := lambdatest.WithHeader(t, lambdatest.Event(t, "business-inbox-list.json"), "authorization", "Bearer desert-cool-hvac.not-the-token-at-all")
	lambdatest.RunHTTP(t, h, []lambdatest.Case{
		{Name: "list", Event: lambdatest.Event(t, "business-inbox-list.json"), WantStatus: 200, WantBody: `"code":"` + lambdatest.SampleRequestCode + `"`},
		{Name: "accept", Event: lambdatest.Event(t, "business-inbox-accept.json"), WantStatus: 200, WantBody: `"status":"accepted"`},
		{Name: "accept again", Event: lambdatest.Event(t, "business-inbox-accept.json"), WantStatus: 409, WantBody: `"code":"INVALID_TRANSITION"`},
		{Name: "wrong token", Event: noToken, WantStatus: 401, WantBody: `"code":"UNAUTHORIZED"`},
	})
}
