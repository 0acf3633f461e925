package main

import (
	"context"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/stripepay/stripetest"
)

const secretARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep/form-key-AbCdEf"

// formEnv is the function's environment, with its form secret.
func formEnv(t *testing.T) *lambdatest.Env {
	env := lambdatest.NewEnv(t)
	env.Vars["FORM_SECRET_ARN"] = secretARN
	env.Vars["SECRETS_MANAGER_ENDPOINT"] = stripetest.SecretsManager(t, secretARN, "a-form-key-of-at-least-32-characters-0123456789")
	return env
}

// TestEvents: the sample event opens the form; the steps' GETs and the
// POST go through the Lambda adapter, and a request is sent: 303 to its
// status page.
func TestEvents(t *testing.T) {
	env := formEnv(t)
	h, err := newHandler(env.Record(t, "BookFormFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	sample := lambdatest.Event(t, "book-form.json")
	res := lambdatest.InvokeHTTP(t, h, sample)
	if res.StatusCode != 200 || !strings.Contains(res.Body, "Ask Desert Cool Heating &amp; Air for a visit") {
		t.Fatalf("got %d %s, want the form", res.StatusCode, res.Body)
	}
	if got := res.Headers["Content-Security-Policy"]; !strings.HasSuffix(got, "frame-ancestors https://desert-cool-hvac.example.com") {
		t.Errorf("got CSP %q, want framing by the business's site only", got)
	}

	res = sendForm(t, env, h, "desert-cool-hvac", "ac-not-cooling", "85004")
	if res.StatusCode != 303 || !strings.HasPrefix(res.Headers["Location"], lambdatest.SiteURL+"/r/") {
		t.Fatalf("got %d to %q %s, want 303 to the status page", res.StatusCode, res.Headers["Location"], res.Body)
	}
}

// TestSimulatedDeposits: in a stack without Stripe (PAYMENTS=simulated),
// a deposit asked for through the form is simulated, as through the API,
// so that the person can pay it on the service's own page.
func TestSimulatedDeposits(t *testing.T) {
	env := formEnv(t)
	env.Vars["PAYMENTS"] = "simulated"
	h, err := newHandler(env.Record(t, "BookFormFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	res := sendForm(t, env, h, "austin-rapid-plumbing", "leak-repair", "78701")
	code, ok := strings.CutPrefix(res.Headers["Location"], lambdatest.SiteURL+"/pay/")
	if res.StatusCode != 303 || !ok {
		t.Fatalf("got %d to %q %s, want 303 to the payment page", res.StatusCode, res.Headers["Location"], res.Body)
	}
	r, err := env.Store.Request(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	if r.Deposit == nil || !r.Deposit.Simulated {
		t.Fatalf("got deposit %+v, want a simulated one", r.Deposit)
	}
}

// sendForm opens the last step of the form of slug for the service and
// ZIP code on the first open window, fills it in as a person does (the
// deposit's box ticked) and returns the answer to its POST.
func sendForm(t *testing.T, env *lambdatest.Env, h any, slug, service, zip string) events.APIGatewayV2HTTPResponse {
	t.Helper()
	w := env.FirstOpenWindow(t, slug)
	open := lambdatest.Edit(t, lambdatest.Event(t, "book-form.json"), func(e *events.APIGatewayV2HTTPRequest) {
		e.RawPath, e.RequestContext.HTTP.Path = "/book/"+slug, "/book/"+slug
		e.PathParameters = map[string]string{"slug": slug}
		e.RawQueryString = url.Values{"service": {service}, "zip": {zip}, "day": {w.Date}}.Encode()
	})
	res := lambdatest.InvokeHTTP(t, h, open)
	if res.StatusCode != 200 || !strings.Contains(res.Body, `name="token"`) {
		t.Fatalf("got %d %s, want the last step", res.StatusCode, res.Body)
	}
	form := url.Values{}
	for _, m := range regexp.MustCompile(`<input type="hidden" name="([a-z]+)" value="([^"]*)">`).FindAllStringSubmatch(res.Body, -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	form.Set("window", w.Start.Format("2006-01-02T15:04:05Z07:00"))
	form.Set("street", "1 Sample St")
	form.Set("zip", zip)
	form.Set("name", "Sample Person")
	form.Set("phone", "(602) 555-0188")
	form.Set("deposit_accepted", "yes")
	post := lambdatest.Route(t, lambdatest.Event(t, "book-form.json"), "POST", "/book/{slug}", "/book/"+slug, map[string]string{"slug": slug}, form.Encode())
	return lambdatest.InvokeHTTP(t, h, lambdatest.WithHeader(t, post, "sec-fetch-site", "same-origin"))
}

// TestNewHandlerAtStart: the form fails at start without its secret, or
// without TABLE_NAME; it needs no Stripe key.
func TestNewHandlerAtStart(t *testing.T) {
	env := formEnv(t)
	tests := []struct {
		name, unset, set, wantErr string
	}{
		{"without STRIPE_SECRET_ARN", "STRIPE_SECRET_ARN", "", ""},
		{"without FORM_SECRET_ARN", "FORM_SECRET_ARN", "", "FORM_SECRET_ARN"},
		{"with a FORM_SECRET_ARN that is no ARN", "", "not-an-arn", "FORM_SECRET_ARN"},
		{"without TABLE_NAME", "TABLE_NAME", "", "TABLE_NAME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				switch {
				case k == tt.unset:
					return ""
				case k == "FORM_SECRET_ARN" && tt.set != "":
					return tt.set
				}
				return env.Getenv(k)
			}
			h, err := newHandler(context.Background(), getenv)
			if tt.wantErr == "" {
				if err != nil || h == nil {
					t.Fatalf("got %v, want the form to start", err)
				}
				return
			}
			if err == nil || h != nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got a handler: %v, and %v; want no handler and an error naming %s", h != nil, err, tt.wantErr)
			}
		})
	}
}
