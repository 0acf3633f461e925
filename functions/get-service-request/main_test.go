package main

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "GetServiceRequestFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	lambdatest.RunHTTP(t, h, []lambdatest.Case{
		{Name: "sample request", Event: lambdatest.Event(t, "get-service-request.json"), WantStatus: 200, WantBody: `"code":"` + lambdatest.SampleRequestCode + `","status":"new"`},
	})
}
