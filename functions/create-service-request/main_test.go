package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/stripepay/stripetest"
)

func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "CreateServiceRequestFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	// The sample's window_start is a date that passes; the test sends the
	// first window open today, as a person following the README would.
	window := env.FirstOpenWindow(t, "desert-cool-hvac")
	event := lambdatest.WithBody(t, lambdatest.Event(t, "create-service-request.json"),
		map[string]any{"window_start": window.Start.Format(time.RFC3339)})

	first := lambdatest.InvokeHTTP(t, h, event)
	if first.StatusCode != 201 || !strings.Contains(first.Body, `"status":"new"`) || first.Headers["Idempotent-Replayed"] != "" {
		t.Fatalf("got %d %s %v, want a fresh 201", first.StatusCode, first.Body, first.Headers)
	}
	// The sample carries an Idempotency-Key: sending it again replays.
	again := lambdatest.InvokeHTTP(t, h, event)
	if again.StatusCode != 201 || again.Body != first.Body || again.Headers["Idempotent-Replayed"] != "true" {
		t.Fatalf("got %d %s %v on the retry, want the first answer replayed", again.StatusCode, again.Body, again.Headers)
	}
}

// TestPermissions creates requests as CreateServiceRequestFunction with
// Stripe on (the keys read from Secrets Manager at start), and
// lambdatest.Record checks each AWS call against its policy in
// template.yaml: at a business of two crews, twice, and at one whose
// deposit is paid at Stripe.
func TestPermissions(t *testing.T) {
	env := lambdatest.NewEnv(t)
	const arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep/stripe-AbCdEf"
	env.Vars["STRIPE_SECRET_ARN"] = arn
	env.Vars["SECRETS_MANAGER_ENDPOINT"] = stripetest.SecretsManager(t, arn, stripetest.Keys)
	env.Vars["STRIPE_API_URL"] = stripetest.NewServer(t).URL
	env.Crews(t, "desert-cool-hvac", 2)
	h, err := newHandler(env.Record(t, "CreateServiceRequestFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	create := func(slug, zip, service, phone string) []byte {
		event := lambdatest.Edit(t, lambdatest.Event(t, "create-service-request.json"), func(e *events.APIGatewayV2HTTPRequest) {
			e.RawPath = "/api/v1/businesses/" + slug + "/requests"
			e.RequestContext.HTTP.Path = e.RawPath
			e.PathParameters = map[string]string{"slug": slug}
			delete(e.Headers, "idempotency-key")
		})
		return lambdatest.WithBody(t, event, map[string]any{
			"window_start": env.FirstOpenWindow(t, slug).Start.Format(time.RFC3339), "service_id": service,
			"address": map[string]any{"street": "1 Sample St", "zip": zip}, "contact": map[string]any{"name": "Sample Person", "phone": phone},
			"deposit_accepted": true,
		})
	}
	tests := []struct {
		name, slug, zip, service, phone, want string
	}{
		{"two crews", "desert-cool-hvac", "85006", "ac-not-cooling", "6025550101", `"status":"new"`},
		{"two crews, again", "desert-cool-hvac", "85006", "ac-not-cooling", "6025550102", `"status":"new"`},
		{"a deposit at Stripe", "austin-rapid-plumbing", "78701", "", "5125550101", `"status":"pending_payment"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			service := tt.service
			if service == "" {
				b, err := env.Bookings.Business(context.Background(), tt.slug)
				if err != nil {
					t.Fatal(err)
				}
				service = b.Services[0].ID
			}
			res := lambdatest.InvokeHTTP(t, h, create(tt.slug, tt.zip, service, tt.phone))
			if res.StatusCode != 201 || !strings.Contains(res.Body, tt.want) {
				t.Fatalf("got %d %s, want 201 with %s", res.StatusCode, res.Body, tt.want)
			}
		})
	}
}
