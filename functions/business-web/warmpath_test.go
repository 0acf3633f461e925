package main

import (
	"context"
	"regexp"
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// TestWarmPath measures what one "accept" in the web inbox runs once the
// function is warm (signed in, its business cache full, one request
// accepted already): go run ./infra/bench counts the files, functions and
// AWS calls (issue 21's measure: one read of the request).
func TestWarmPath(t *testing.T) {
	path := lambdatest.NewWarmPath(t)
	env := lambdatest.NewEnv(t)
	withSender(env)
	const slug = "desert-cool-hvac"
	codes := []string{env.Send(t, slug, "6025550101"), env.Send(t, slug, "6025550102")}
	h, err := newHandler(path.Context(context.Background()), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	cookie := signIn(t, h, env)
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(invokeWeb(t, h, webEvent(t, "GET", "/inbox", cookie, ""), 200).Body)
	if csrf == nil {
		t.Fatal("no CSRF token in the inbox page")
	}
	invokeWeb(t, h, webEvent(t, "POST", "/inbox/requests/"+codes[0]+"/accept", cookie, "csrf="+csrf[1]), 303)
	accept := webEvent(t, "POST", "/inbox/requests/"+codes[1]+"/accept", cookie, "csrf="+csrf[1])
	path.Measure("web accept", func() { invokeWeb(t, h, accept, 303) })
}
