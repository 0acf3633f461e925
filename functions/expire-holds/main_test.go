package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/sweep"
)

// TestNewHandlerConfig: the sweeper needs TABLE_NAME, builds no URLs (so no
// SITE_URL), and fails at start without credentials for DynamoDB.
func TestNewHandlerConfig(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string // "" when valid
	}{
		{"table and endpoint", map[string]string{"TABLE_NAME": "doorstep", "DYNAMODB_ENDPOINT": "http://127.0.0.1:8000"}, ""},
		{"no SITE_URL needed", map[string]string{"TABLE_NAME": "doorstep", "AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret"}, ""},
		{"nothing set", map[string]string{}, "TABLE_NAME"},
		{"table of spaces", map[string]string{"TABLE_NAME": "  ", "DYNAMODB_ENDPOINT": "http://127.0.0.1:8000"}, "TABLE_NAME"},
		{"no endpoint and no credentials", map[string]string{"TABLE_NAME": "doorstep"}, "AWS_ACCESS_KEY_ID"},
		{"personal data days", map[string]string{"TABLE_NAME": "doorstep", "DYNAMODB_ENDPOINT": "http://127.0.0.1:8000", "PERSONAL_DATA_DAYS": "30"}, ""},
		{"personal data days below the minimum", map[string]string{"TABLE_NAME": "doorstep", "DYNAMODB_ENDPOINT": "http://127.0.0.1:8000", "PERSONAL_DATA_DAYS": "29"}, "at least 30 days"},
		{"personal data days not a number", map[string]string{"TABLE_NAME": "doorstep", "DYNAMODB_ENDPOINT": "http://127.0.0.1:8000", "PERSONAL_DATA_DAYS": "a year"}, "PERSONAL_DATA_DAYS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// dynamo.NewClient reads the credentials from the process's
			// environment, as Lambda sets them.
			for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"} {
				t.Setenv(k, tt.env[k])
			}
			h, err := newHandler(context.Background(), func(k string) string { return tt.env[k] })
			if tt.wantErr == "" {
				if err != nil || h == nil {
					t.Fatalf("got %v, want a handler", err)
				}
				return
			}
			if err == nil || h != nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got a handler: %v, and %v; want no handler and an error naming %s", h != nil, err, tt.wantErr)
			}
		})
	}
}

// TestEvent feeds events/expire-holds.json to the handler as the Lambda
// runtime would. Two requests with a deposit due were sent before the
// event's time: one 31 minutes before, whose hold has lapsed, and one 20
// minutes before, whose hold has not. The sweep expires the first only.
func TestEvent(t *testing.T) {
	ctx := context.Background()
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "ExpireHoldsFunction"), env.Getenv)
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

	out, err := lambda.NewHandler(h).Invoke(lambdatest.WithPath(ctx, t.Name()+": a sweep that expires a held request"), data)
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	var got sweep.Report
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
	bookings := bookingtest.New(t, booking.Config{Store: env.Store, SiteURL: lambdatest.SiteURL, Now: func() time.Time { return at }})
	b, err := bookings.Business(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	a, err := bookings.ArrivalWindows(ctx, b, booking.WindowQuery{Days: 14})
	if err != nil || len(a.Windows) == 0 {
		t.Fatalf("windows of %s at %s: %v, %v", slug, at, a.Windows, err)
	}
	service := b.Services[0].ID
	c, _, err := bookings.CreateRequest(ctx, b, booking.CreateInput{
		WindowStart:     a.Windows[0].Start,
		Address:         booking.Address{Street: "1 Sample St", ZIP: b.ServiceArea.ZIPCodes[0]},
		Contact:         booking.Contact{Name: "Sample Person", Phone: phone},
		ServiceID:       &service,
		DepositAccepted: true,
	})
	if err != nil {
		t.Fatalf("create at %s: %v", at, err)
	}
	if c.Status != booking.StatusPendingPayment {
		t.Fatalf("created %s, want pending_payment", c.Status)
	}
	return c.Code
}

// TestRemind: the sweeper's reminder, as ExpireHoldsFunction, its calls
// checked against its policy by lambdatest.Record. A request accepted two
// days ago, at a business of two crews, for a window still ahead whose
// day-before reminder is due now, gets its reminder.
func TestRemind(t *testing.T) {
	ctx := context.Background()
	env := lambdatest.NewEnv(t)
	const slug = "desert-cool-hvac" // open 24/7, no deposit
	env.Crews(t, slug, 2)
	h, err := newHandler(env.Record(t, "ExpireHoldsFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second) // the sweep's time
	past := now.Add(-48 * time.Hour)
	bookings, b, windows := bookingsAt(ctx, t, env, slug, past, 7)
	var w booking.Window
	for _, c := range windows {
		if at := b.RemindAt(c); c.Start.After(now) && !at.After(now) && at.After(past) {
			w = c
			break
		}
	}
	if w.Start.IsZero() {
		t.Fatalf("no window of %s starts after %s with its reminder due by then", slug, now)
	}
	service := b.Services[0].ID
	c, _, err := bookings.CreateRequest(ctx, b, booking.CreateInput{
		WindowStart: w.Start,
		Address:     booking.Address{Street: "1 Sample St", ZIP: b.ServiceArea.ZIPCodes[0]},
		Contact:     booking.Contact{Name: "Sample Person", Phone: "6025550109"},
		ServiceID:   &service,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bookingtest.Inbox(t, bookings, b.Slug).Move(ctx, c.Code, booking.ActionAccept, time.Time{}); err != nil {
		t.Fatal(err)
	}
	got, out := sweepAt(ctx, t, h, now, "a reminder due")
	if got.Reminded != 1 {
		t.Errorf("got %s, want 1 reminded", out)
	}
}

// TestErase: the sweeper's erasure, as ExpireHoldsFunction, its calls
// checked against its policy by lambdatest.Record. A request cancelled 366
// days before the event's time has its details erased; one cancelled 364
// days before keeps them (PERSONAL_DATA_DAYS unset: 365).
func TestErase(t *testing.T) {
	ctx := context.Background()
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "ExpireHoldsFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	data := lambdatest.Event(t, "expire-holds.json")
	var e events.EventBridgeEvent
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	const slug = "austin-rapid-plumbing"
	cancelled := func(daysAgo int, phone string) string {
		at := e.Time.AddDate(0, 0, -daysAgo)
		code := send(t, env, slug, at.Add(-time.Minute), phone)
		bookings := bookingtest.New(t, booking.Config{Store: env.Store, SiteURL: lambdatest.SiteURL, Now: func() time.Time { return at }})
		if _, err := bookings.CustomerCancel(ctx, code); err != nil {
			t.Fatal(err)
		}
		return code
	}
	due, kept := cancelled(366, "5125550103"), cancelled(364, "5125550104")

	out, err := lambda.NewHandler(h).Invoke(lambdatest.WithPath(ctx, t.Name()+": a sweep that erases a request's details"), data)
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	var got sweep.Report
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output %s: %v", out, err)
	}
	if got.Erased != 1 {
		t.Errorf("got %s, want 1 erased", out)
	}
	for code, wantErased := range map[string]bool{due: true, kept: false} {
		r, err := env.Store.Request(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		if erased := !r.Erased.IsZero() && r.Contact.Name == ""; erased != wantErased {
			t.Errorf("request %s erased = %t (%+v), want %t", code, erased, r.Contact, wantErased)
		}
	}
}

// TestNudgeBusiness: the sweeper's nudge, as ExpireHoldsFunction, its
// calls checked against its policy by lambdatest.Record (the remind index's
// Query, the request's read and its conditional put). A request sent three
// hours ago, still new, for a window still ahead, gets its nudge.
func TestNudgeBusiness(t *testing.T) {
	ctx := context.Background()
	env := lambdatest.NewEnv(t)
	const slug = "desert-cool-hvac" // open 24/7, no deposit
	h, err := newHandler(env.Record(t, "ExpireHoldsFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Second) // the sweep's time
	past := now.Add(-3 * time.Hour)
	bookings, b, windows := bookingsAt(ctx, t, env, slug, past, 2)
	var w booking.Window
	for _, c := range windows {
		if c.Start.After(now.Add(time.Hour)) {
			w = c
			break
		}
	}
	service := b.Services[0].ID
	c, _, err := bookings.CreateRequest(ctx, b, booking.CreateInput{
		WindowStart: w.Start,
		Address:     booking.Address{Street: "1 Sample St", ZIP: b.ServiceArea.ZIPCodes[0]},
		Contact:     booking.Contact{Name: "Sample Person", Phone: "6025550119"},
		ServiceID:   &service,
	})
	if err != nil {
		t.Fatal(err)
	}
	got, out := sweepAt(ctx, t, h, now, "a nudge due")
	r, err := env.Store.Request(ctx, c.Code)
	if got.Nudged != 1 || err != nil || r.Status != booking.StatusNew || r.History[len(r.History)-1].Action != booking.ActionNudge {
		t.Errorf("got %s, request %v (%v), want 1 nudged, still new, its last event the nudge", out, r, err)
	}
}

// sweepAt invokes h on the sample scheduled event with its time set to
// now, as EventBridge would send it then, and returns the sweep's report
// and the answer as sent; why names the call in the permission log.
func sweepAt(ctx context.Context, t *testing.T, h func(context.Context, events.EventBridgeEvent) (sweep.Report, error), now time.Time, why string) (sweep.Report, []byte) {
	t.Helper()
	event := lambdatest.Event(t, "expire-holds.json")
	var e map[string]any
	if err := json.Unmarshal(event, &e); err != nil {
		t.Fatal(err)
	}
	e["time"] = now.Format(time.RFC3339)
	event, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	out, err := lambda.NewHandler(h).Invoke(lambdatest.WithPath(ctx, t.Name()+": "+why), event)
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	var got sweep.Report
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output %s: %v", out, err)
	}
	return got, out
}

// bookingsAt is the service over env's store with its clock stopped at
// at, the business slug, and its windows open then over the next days.
func bookingsAt(ctx context.Context, t *testing.T, env *lambdatest.Env, slug string, at time.Time, days int) (*booking.Bookings, *booking.Business, []booking.Window) {
	t.Helper()
	bookings := bookingtest.New(t, booking.Config{Store: env.Store, SiteURL: lambdatest.SiteURL, Now: func() time.Time { return at }})
	b, err := bookings.Business(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	a, err := bookings.ArrivalWindows(ctx, b, booking.WindowQuery{Days: days})
	if err != nil {
		t.Fatal(err)
	}
	return bookings, b, a.Windows
}
