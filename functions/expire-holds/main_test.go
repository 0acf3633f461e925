package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// TestEvent feeds events/expire-holds.json to the handler as the Lambda
// runtime would. Two requests with a deposit due were sent before the
// event's time: one 31 minutes before, whose hold has lapsed, and one 20
// minutes before, whose hold has not. The sweep expires the first only.
func TestEvent(t *testing.T) {
	ctx := context.Background()
	env := lambdatest.NewEnv(t)
	h, err := newHandler(ctx, env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	data := lambdatest.Event(t, "expire-holds.json")
	var e events.EventBridgeEvent
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}

	const slug = "austin-rapid-plumbing" // takes a deposit
	lapsed := send(t, env, slug, e.Time.Add(-31*time.Minute), "5125550101")
	live := send(t, env, slug, e.Time.Add(-20*time.Minute), "5125550102")

	out, err := lambda.NewHandler(h).Invoke(ctx, data)
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	var got lambdaenv.SweepReport
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output %s: %v", out, err)
	}
	if got.Expired != 1 || got.Skipped != 0 || !got.Now.Equal(e.Time) {
		t.Errorf("got %s, want 1 expired, 0 skipped, now %s", out, e.Time.Format(time.RFC3339))
	}
	for code, want := range map[string]booking.Status{lapsed: booking.StatusExpired, live: booking.StatusPendingPayment} {
		r, err := env.Store.Request(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != want {
			t.Errorf("request %s is %s after the sweep, want %s", code, r.Status, want)
		}
	}
}

// send creates a request of the business at the given time, with its
// deposit accepted, on the first window open then, and returns its code.
func send(t *testing.T, env *lambdatest.Env, slug string, at time.Time, phone string) string {
	t.Helper()
	ctx := context.Background()
	desk := booking.NewDesk(env.Store, lambdatest.SiteURL, func() time.Time { return at })
	b, err := desk.Business(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	a, err := desk.ArrivalWindows(ctx, slug, "", "14")
	if err != nil || len(a.Windows) == 0 {
		t.Fatalf("windows of %s at %s: %v, %v", slug, at, a.Windows, err)
	}
	body := fmt.Sprintf(`{"window_start": %q, "address": {"street": "1 Sample St", "zip": %q},
		"contact": {"name": "Sample Person", "phone": %q}, "service_id": %q, "deposit_accepted": true}`,
		a.Windows[0].Start.Format(time.RFC3339), b.ServiceArea.ZIPCodes[0], phone, b.Services[0].ID)
	c, _, err := desk.CreateRequest(ctx, slug, []byte(body), "")
	if err != nil {
		t.Fatalf("create at %s: %v", at, err)
	}
	if c.Status != booking.StatusPendingPayment {
		t.Fatalf("created %s, want pending_payment", c.Status)
	}
	return c.Code
}
