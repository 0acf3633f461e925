package main

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "ListArrivalWindowsFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	lambdatest.RunHTTP(t, h, []lambdatest.Case{
		{Name: "three days", Event: lambdatest.Event(t, "list-arrival-windows.json"), WantStatus: 200, WantBody: `"timezone":"America/Phoenix","accepting_requests":true,"windows":[{"date":`},
	})
}

// The windows are never kept by a client or a cache: holds decide bookings.
func TestNoStore(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "ListArrivalWindowsFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	res := lambdatest.InvokeHTTP(t, h, lambdatest.Event(t, "list-arrival-windows.json"))
	if res.StatusCode != 200 || res.Headers["Cache-Control"] != "no-store" {
		t.Errorf("got %d with headers %v, want 200 with Cache-Control: no-store", res.StatusCode, res.Headers)
	}
}
