package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/sesmail"
)

// TestWarmPath measures what one "accept" in the web inbox runs once the
// function is warm (signed in, its business cache full, one request
// accepted already): go run ./infra/bench counts the files, functions and
// AWS calls (issue 21's measure: one read of the request).
func TestWarmPath(t *testing.T) {
	path := lambdatest.NewWarmPath(t)
	env := lambdatest.NewEnv(t)
	env.Vars["SENDER_EMAIL"] = "inbox@book.example.com"
	var mail string
	ses := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mail = string(body)
		io.WriteString(w, `{"MessageId":"010001ef-0000-4e6f-8f3a-000000000000-000000"}`)
	}))
	t.Cleanup(ses.Close)
	env.Vars[sesmail.EndpointVariable] = ses.URL
	const slug = "desert-cool-hvac"
	codes := []string{env.Send(t, slug, "6025550101"), env.Send(t, slug, "6025550102")}
	h, err := newHandler(path.Context(context.Background()), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	sample := lambdatest.Event(t, "business-web-inbox.json")
	var cookie string
	event := func(method, path, form string) []byte {
		return lambdatest.Edit(t, sample, func(e *events.APIGatewayV2HTTPRequest) {
			e.RawPath, e.RequestContext.HTTP.Path, e.RequestContext.HTTP.Method = path, path, method
			if path != "/inbox" {
				e.RouteKey, e.RequestContext.RouteKey = "ANY /inbox/{proxy+}", "ANY /inbox/{proxy+}"
				e.PathParameters = map[string]string{"proxy": strings.TrimPrefix(path, "/inbox/")}
			}
			if cookie != "" {
				e.Cookies = []string{cookie}
			}
			if method == http.MethodPost {
				e.Headers["content-type"] = "application/x-www-form-urlencoded"
				e.Body = form
			}
		})
	}
	send := func(event []byte, wantStatus int) events.APIGatewayV2HTTPResponse {
		t.Helper()
		res := lambdatest.InvokeHTTP(t, h, event)
		if res.StatusCode != wantStatus {
			t.Fatalf("got %d %.300s, want %d", res.StatusCode, res.Body, wantStatus)
		}
		return res
	}
	send(event("POST", "/inbox/sign-in", "email=inbox%40desert-cool-hvac.example.com"), 200)
	token := regexp.MustCompile(`/inbox/sign-in/([A-Za-z0-9_-]+)`).FindStringSubmatch(mail)
	if token == nil {
		t.Fatalf("no sign-in link in %s", mail)
	}
	for _, c := range send(event("POST", "/inbox/sign-in/"+token[1], ""), 303).Cookies {
		if strings.HasPrefix(c, inboxweb.CookieName+"=") {
			cookie, _, _ = strings.Cut(c, ";")
		}
	}
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(send(event("GET", "/inbox", ""), 200).Body)
	if csrf == nil {
		t.Fatal("no CSRF token in the inbox page")
	}
	send(event("POST", "/inbox/requests/"+codes[0]+"/accept", "csrf="+csrf[1]), 303)
	accept := event("POST", "/inbox/requests/"+codes[1]+"/accept", "csrf="+csrf[1])
	path.Measure("web accept", func() { send(accept, 303) })
}
