package main

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// withPath returns the sample event for another method and path.
func withPath(t *testing.T, event []byte, method, route, path, code string) []byte {
	t.Helper()
	return lambdatest.Edit(t, event, func(e *events.APIGatewayV2HTTPRequest) {
		e.RouteKey, e.RequestContext.RouteKey = method+" "+route, method+" "+route
		e.RawPath, e.RequestContext.HTTP.Path, e.RequestContext.HTTP.Method = path, path, method
		e.PathParameters = map[string]string{"code": code}
	})
}

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "PagesFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	sample := lambdatest.Event(t, "pages-status.json")
	tests := []struct {
		name       string
		event      []byte
		wantStatus int
		want       string
	}{
		{"sample request", sample, 200, "Request sent, not confirmed yet"},
		{"its cancel page", withPath(t, sample, "GET", "/r/{code}/cancel", "/r/"+lambdatest.SampleRequestCode+"/cancel", lambdatest.SampleRequestCode), 200, "No deposit was asked for this request."},
		{"no calendar event before the business accepts", withPath(t, sample, "GET", "/r/{code}", "/r/"+lambdatest.SampleRequestCode+".ics", lambdatest.SampleRequestCode+".ics"), 404, "No request has this address."},
		{"unknown code", withPath(t, sample, "GET", "/r/{code}", "/r/ZZZZ-ZZZZ-ZZZZ", "ZZZZ-ZZZZ-ZZZZ"), 404, "No request has this address."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := lambdatest.InvokeHTTP(t, h, tt.event)
			if res.StatusCode != tt.wantStatus || !strings.Contains(res.Body, tt.want) {
				t.Fatalf("got %d %s, want %d with %q", res.StatusCode, res.Body, tt.wantStatus, tt.want)
			}
			if got := res.Headers["Content-Type"]; got != "text/html; charset=utf-8" {
				t.Errorf("got Content-Type %q, want text/html", got)
			}
			if !strings.Contains(res.Body, `<html lang="en">`) {
				t.Errorf("got no <html lang=\"en\">")
			}
		})
	}
}

// TestNewHandlerAtStart: the pages start without Stripe (they need no
// Stripe key), and fail at start without TABLE_NAME.
func TestNewHandlerAtStart(t *testing.T) {
	env := lambdatest.NewEnv(t)
	tests := []struct {
		name    string
		unset   string // the variable taken out of the environment
		wantErr string // "" when the pages start
	}{
		{"without STRIPE_SECRET_ARN", "STRIPE_SECRET_ARN", ""},
		{"without TABLE_NAME", "TABLE_NAME", "TABLE_NAME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == tt.unset {
					return ""
				}
				return env.Getenv(k)
			}
			h, err := newHandler(context.Background(), getenv)
			if tt.wantErr == "" {
				if err != nil || h == nil {
					t.Fatalf("got %v, want the pages to start", err)
				}
				return
			}
			if err == nil || h != nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got a handler: %v, and %v; want no handler and an error naming %s", h != nil, err, tt.wantErr)
			}
		})
	}
}

// TestPermissions drives every move the pages make, as PagesFunction,
// and lambdatest.Record checks each AWS call against its policy in
// template.yaml: the code lookup, a way to hear back added (an e-mail,
// texts), the status and cancel pages, a person's cancel of a
// request holding a window, at a business of one crew and of two (where
// the cancel finds its hold's slot with a Query), a simulated deposit
// paid on /pay/{code}, and "Erase my details" of the cancelled request.
func TestPermissions(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "PagesFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	const twoCrews = "desert-cool-hvac" // no deposit, open 24/7
	env.Crews(t, twoCrews, 2)
	env.Send(t, twoCrews, "6025550101")
	twoCrewsCode := env.Send(t, twoCrews, "6025550102")        // the window's second crew
	payCode := env.Send(t, "mile-high-electric", "3035550101") // a simulated deposit

	sample := lambdatest.Event(t, "pages-status.json")
	at := func(method, route, code, suffix, form string) []byte {
		return lambdatest.Route(t, sample, method, route, "/"+strings.SplitN(route, "/", 3)[1]+"/"+code+suffix, map[string]string{"code": code}, form)
	}
	lookup := lambdatest.Edit(t, lambdatest.Route(t, sample, "GET", "/r", "/r", nil, ""), func(e *events.APIGatewayV2HTTPRequest) {
		e.RawQueryString = "code=" + strings.ToLower(payCode)
	})
	tests := []struct {
		name       string
		event      []byte
		wantStatus int
	}{
		{"status page", sample, 200},
		{"cancel page", at("GET", "/r/{code}/cancel", lambdatest.SampleRequestCode, "/cancel", ""), 200},
		{"cancel, one crew", at("POST", "/r/{code}/cancel", lambdatest.SampleRequestCode, "/cancel", "deposit="), 303},
		{"cancel, two crews", at("POST", "/r/{code}/cancel", twoCrewsCode, "/cancel", "deposit="), 303},
		{"the code typed on /r", lookup, 303},
		// A way to hear back added while the deposit is due: the request,
		// the e-mail's open count and its block checked in one transaction.
		{"add an e-mail", at("POST", "/r/{code}/contact", payCode, "/contact", "way=email&email=late%40example.com"), 303},
		{"turn texts on", at("POST", "/r/{code}/contact", payCode, "/contact", "way=sms&sms_consent=yes"), 303},
		{"pay page", at("GET", "/pay/{code}", payCode, "", ""), 200},
		{"pay a simulated deposit", at("POST", "/pay/{code}", payCode, "", ""), 303},
		{"erase page", at("GET", "/r/{code}/erase", twoCrewsCode, "/erase", ""), 200},
		{"erase my details", at("POST", "/r/{code}/erase", twoCrewsCode, "/erase", "confirm=yes"), 303},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if res := lambdatest.InvokeHTTP(t, h, tt.event); res.StatusCode != tt.wantStatus {
				t.Fatalf("got %d %s, want %d", res.StatusCode, res.Body, tt.wantStatus)
			}
		})
	}
	if r, err := env.Store.Request(context.Background(), twoCrewsCode); err != nil || r.Erased.IsZero() || r.Contact.Phone != "" {
		t.Errorf("request %s after erase: %+v, %v; want its details erased", twoCrewsCode, r, err)
	}
	for code, want := range map[string]booking.Status{lambdatest.SampleRequestCode: booking.StatusCancelled,
		twoCrewsCode: booking.StatusCancelled, payCode: booking.StatusNew} {
		if r, err := env.Store.Request(context.Background(), code); err != nil || r.Status != want {
			t.Errorf("request %s: got %v (%v), want %s", code, r.Status, err, want)
		}
	}
	if r, err := env.Store.Request(context.Background(), payCode); err != nil || r.Contact.Email != "late@example.com" || !r.Contact.SMSConsent {
		t.Errorf("request %s: got contact %+v (%v), want late@example.com with texts on", payCode, r.Contact, err)
	}
}
