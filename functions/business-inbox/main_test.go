package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

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

// TestPermissions drives every move of the inbox at a business of two
// crews, as BusinessInboxFunction, and lambdatest.Record checks each AWS
// call against its policy in template.yaml: a move finds the slot its
// request's hold is on with a Query of the window's holds; the export
// reads the inbox index; erasing the declined request's details deletes
// its contact's zero counts and puts it.
func TestPermissions(t *testing.T) {
	env := lambdatest.NewEnv(t)
	const slug = "desert-cool-hvac" // the samples' token's business
	env.Crews(t, slug, 2)
	h, err := newHandler(env.Record(t, "BusinessInboxFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	accept := lambdatest.Event(t, "business-inbox-accept.json")
	move := func(code, action, body string) []byte {
		return lambdatest.Edit(t, accept, func(e *events.APIGatewayV2HTTPRequest) {
			e.RawPath = "/api/v1/inbox/requests/" + code + "/" + action
			e.RequestContext.HTTP.Path = e.RawPath
			e.PathParameters = map[string]string{"code": code, "action": action}
			e.Body = body
		})
	}
	codes := []string{env.Send(t, slug, "6025550101"), env.Send(t, slug, "6025550102"), env.Send(t, slug, "6025550103"), env.Send(t, slug, "6025550104")}
	moveTo := fmt.Sprintf(`{"window_start": %q}`, env.FirstOpenWindow(t, slug).Start.Format(time.RFC3339))
	read := lambdatest.Edit(t, lambdatest.Event(t, "business-inbox-list.json"), func(e *events.APIGatewayV2HTTPRequest) {
		e.RouteKey, e.RequestContext.RouteKey = "GET /api/v1/inbox/requests/{code}", "GET /api/v1/inbox/requests/{code}"
		e.RawPath, e.RawQueryString = "/api/v1/inbox/requests/"+codes[0], ""
		e.RequestContext.HTTP.Path = e.RawPath
		e.PathParameters = map[string]string{"code": codes[0]}
	})
	spam := lambdatest.Edit(t, accept, func(e *events.APIGatewayV2HTTPRequest) {
		e.RouteKey, e.RequestContext.RouteKey = "POST /api/v1/inbox/spam", "POST /api/v1/inbox/spam"
		e.RawPath = "/api/v1/inbox/spam"
		e.RequestContext.HTTP.Path = e.RawPath
		e.PathParameters = nil
		e.Body = fmt.Sprintf(`{"since": %q}`, time.Now().Add(-time.Minute).UTC().Format(time.RFC3339))
	})
	export := lambdatest.Edit(t, lambdatest.Event(t, "business-inbox-list.json"), func(e *events.APIGatewayV2HTTPRequest) {
		e.RouteKey, e.RequestContext.RouteKey = "GET /api/v1/inbox/export", "GET /api/v1/inbox/export"
		e.RawPath, e.RawQueryString = "/api/v1/inbox/export", ""
		e.RequestContext.HTTP.Path = e.RawPath
		e.QueryStringParameters = nil
	})
	lambdatest.RunHTTP(t, h, []lambdatest.Case{
		{Name: "read", Event: read, WantStatus: 200, WantBody: `"code":"` + codes[0] + `"`},
		{Name: "accept", Event: move(codes[0], "accept", ""), WantStatus: 200, WantBody: `"status":"accepted"`},
		{Name: "move", Event: move(codes[0], "move", moveTo), WantStatus: 200, WantBody: `"status":"accepted"`},
		{Name: "complete", Event: move(codes[0], "complete", ""), WantStatus: 200, WantBody: `"status":"completed"`},
		{Name: "decline", Event: move(codes[1], "decline", ""), WantStatus: 200, WantBody: `"status":"declined"`},
		{Name: "accept then cancel", Event: move(codes[2], "accept", ""), WantStatus: 200, WantBody: `"status":"accepted"`},
		{Name: "cancel", Event: move(codes[2], "cancel", ""), WantStatus: 200, WantBody: `"status":"cancelled"`},
		{Name: "spam", Event: move(codes[3], "spam", ""), WantStatus: 200, WantBody: `"action":"spam"`},
		{Name: "spam since", Event: spam, WantStatus: 200, WantBody: `"marked"`},
		{Name: "export", Event: export, WantStatus: 200, WantBody: `"business":"` + slug + `"`},
		{Name: "erase", Event: move(codes[1], "erase", ""), WantStatus: 200, WantBody: `"erased":"`},
	})
}
