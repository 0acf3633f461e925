package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "McpFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	lambdatest.RunHTTP(t, h, []lambdatest.Case{
		{Name: "tools/list", Event: lambdatest.Event(t, "mcp-tools-list.json"), WantStatus: 200, WantBody: `"name":"request_service"`},
		{Name: "get_business by a link", Event: lambdatest.Event(t, "mcp-get-business.json"), WantStatus: 200, WantBody: `"slug":"desert-cool-hvac"`},
	})
}

// TestPermissions drives every tool, as McpFunction, and lambdatest.Record
// checks each AWS call against its policy in template.yaml: request_service
// is a create (the blocked-contact checks, the puts, the counters), here
// at a business of two crews.
func TestPermissions(t *testing.T) {
	env := lambdatest.NewEnv(t)
	const slug = "desert-cool-hvac" // no deposit, open 24/7
	env.Crews(t, slug, 2)
	h, err := newHandler(env.Record(t, "McpFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	call := func(tool, args string) []byte {
		return lambdatest.Edit(t, lambdatest.Event(t, "mcp-get-business.json"), func(e *events.APIGatewayV2HTTPRequest) {
			e.Body = fmt.Sprintf(`{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": %q, "arguments": %s}}`, tool, args)
		})
	}
	request := func(phone string) []byte {
		return call("request_service", fmt.Sprintf(`{"business": %q, "window_start": %q,
			"address": {"street": "1820 N 7th St", "zip": "85006"}, "contact": {"name": "Jordan Lee", "phone": %q},
			"service_id": "ac-not-cooling", "description": "The AC blows warm air."}`,
			slug, env.FirstOpenWindow(t, slug).Start.Format(time.RFC3339), phone))
	}
	lambdatest.RunHTTP(t, h, []lambdatest.Case{
		{Name: "list_arrival_windows", Event: call("list_arrival_windows", `{"business": "`+slug+`"}`), WantStatus: 200, WantBody: `"windows"`},
		{Name: "request_service", Event: request("6025550147"), WantStatus: 200, WantBody: `"status":"new"`},
		{Name: "get_request_status", Event: call("get_request_status", `{"code": "`+lambdatest.SampleRequestCode+`"}`), WantStatus: 200, WantBody: `"status":"new"`},
	})
	// The next open window, which the first request may have half filled.
	lambdatest.RunHTTP(t, h, []lambdatest.Case{
		{Name: "request_service again", Event: request("6025550148"), WantStatus: 200, WantBody: `"status":"new"`},
	})
}
