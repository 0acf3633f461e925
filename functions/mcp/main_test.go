package main

import (
	"context"
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(context.Background(), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	lambdatest.RunHTTP(t, h, []lambdatest.Case{
		{Name: "tools/list", Event: lambdatest.Event(t, "mcp-tools-list.json"), WantStatus: 200, WantBody: `"name":"request_service"`},
		{Name: "get_business by a link", Event: lambdatest.Event(t, "mcp-get-business.json"), WantStatus: 200, WantBody: `"slug":"desert-cool-hvac"`},
	})
}
