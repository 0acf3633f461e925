package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// sampleEvent is events/expire-holds.json and its time.
func sampleEvent(t *testing.T) ([]byte, time.Time) {
	t.Helper()
	data := lambdatest.Event(t, "expire-holds.json")
	var e events.EventBridgeEvent
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	if e.DetailType != "Scheduled Event" || e.Source != "aws.events" || e.Time.IsZero() {
		t.Fatalf("events/expire-holds.json is %q from %q at %s, want a Scheduled Event from aws.events with a time", e.DetailType, e.Source, e.Time)
	}
	return data, e.Time
}

// withTime returns the sample event with its time replaced; "" removes it.
func withTime(t *testing.T, data []byte, at string) []byte {
	t.Helper()
	var e map[string]any
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	if at == "" {
		delete(e, "time")
	} else {
		e["time"] = at
	}
	out, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSweepHandler invokes the sweeper as the Lambda runtime would, with
// the function's clock fixed just after the sample event's time, over a
// table with one request whose payment hold lapsed a minute before it.
func TestSweepHandler(t *testing.T) {
	sample, at := sampleEvent(t)
	tests := []struct {
		name        string
		event       []byte
		table       string        // "" for the environment's table
		deadline    time.Duration // the invocation's time left; 0 for none
		wantErr     string        // "" when the sweep succeeds
		wantExpired int
		wantLog     string // the level of the log line; "" for none
	}{
		{"the sample", sample, "", 0, "", 1, "INFO"},
		{"the sample with time left", sample, "", time.Minute, "", 1, "INFO"},
		{"no time", withTime(t, sample, ""), "", 0, "no time", 0, ""},
		{"a time well ahead of the clock", withTime(t, sample, at.Add(3*time.Minute).Format(time.RFC3339)), "", 0, "ahead of the clock", 0, ""},
		{"a time a little ahead of the clock", withTime(t, sample, at.Add(40*time.Second).Format(time.RFC3339)), "", 0, "", 1, "INFO"},
		{"the sweep fails", sample, "no-such-table", 0, "sweep at " + at.Format(time.RFC3339), 0, "ERROR"},
		// It stops short of the deadline, so that it can still log.
		{"too close to the deadline", sample, "", time.Second, "deadline exceeded", 0, "ERROR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			env := lambdatest.NewEnv(t)
			lapsed := pendingRequest(t, env.Store, at.Add(-31*time.Minute))

			table := env.Vars["TABLE_NAME"]
			if tt.table != "" {
				table = tt.table
			}
			store := dynamo.New(dynamotest.NewClient(env.Vars["DYNAMODB_ENDPOINT"]), table)
			var logs bytes.Buffer
			clock := func() time.Time { return at.Add(30 * time.Second) }
			h := Handler(bookingtest.New(t, booking.Config{Store: store, SiteURL: lambdatest.SiteURL, Now: clock}), clock, slog.New(slog.NewJSONHandler(&logs, nil)))

			ctx = lambdacontext.NewContext(ctx, &lambdacontext.LambdaContext{AwsRequestID: "c0ffee-sweep"})
			if tt.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.deadline)
				defer cancel()
			}
			out, err := lambda.NewHandler(h).Invoke(ctx, tt.event)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %s, %v; want an error with %q", out, err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatalf("got %v, want no error", err)
			} else {
				var report Report
				if err := json.Unmarshal(out, &report); err != nil {
					t.Fatalf("output %s: %v", out, err)
				}
				if report.Expired != tt.wantExpired || report.Skipped != 0 || report.DurationMS < 0 {
					t.Errorf("got %s, want %d expired", out, tt.wantExpired)
				}
			}

			r, err := env.Store.Request(ctx, lapsed)
			if err != nil {
				t.Fatal(err)
			}
			want := booking.StatusPendingPayment
			if tt.wantExpired == 1 {
				want = booking.StatusExpired
			}
			if r.Status != want {
				t.Errorf("the lapsed request is %s, want %s", r.Status, want)
			}
			checkSweepLog(t, logs.String(), tt.wantLog, tt.wantExpired)
		})
	}
}

// checkSweepLog checks the handler's log: one JSON line at level, with
// what the sweep did, or nothing when level is "".
func checkSweepLog(t *testing.T, logs, level string, expired int) {
	t.Helper()
	if level == "" {
		if logs != "" {
			t.Errorf("logged %s, want nothing: the sweep did not run", logs)
		}
		return
	}
	lines := strings.Split(strings.TrimSpace(logs), "\n")
	if len(lines) != 1 {
		t.Fatalf("logged %d lines, want 1: %s", len(lines), logs)
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &line); err != nil {
		t.Fatalf("log line %s: %v", lines[0], err)
	}
	if line["level"] != level || line["msg"] != "sweep" || line["request_id"] != "c0ffee-sweep" || line["expired"] != float64(expired) {
		t.Errorf("log line %s, want level %s, msg sweep, request_id c0ffee-sweep, expired %d", lines[0], level, expired)
	}
	for _, k := range []string{"now", "skipped", "duration_ms"} {
		if _, ok := line[k]; !ok {
			t.Errorf("log line %s has no %s", lines[0], k)
		}
	}
	if _, ok := line["error"]; ok != (level == "ERROR") {
		t.Errorf("log line %s: has an error = %v, want %v", lines[0], ok, level == "ERROR")
	}
}

// pendingRequest stores a request of a deposit business sent at created,
// waiting for its deposit for 30 minutes, and returns its code.
func pendingRequest(t *testing.T, store *dynamo.Store, created time.Time) string {
	t.Helper()
	start := created.Add(48 * time.Hour).Truncate(time.Hour)
	r := booking.Request{
		Code: booking.NewCode(), BusinessSlug: "austin-rapid-plumbing", Status: booking.StatusPendingPayment,
		ServiceName: booking.LocalText{EN: "Other service"},
		Window:      booking.Window{Date: start.Format("2006-01-02"), Start: start, End: start.Add(2 * time.Hour)},
		Address:     booking.Address{Street: "1 Sample St", ZIP: "78701"},
		Contact:     booking.Contact{Name: "Sample Person", Phone: "5125550101"},
		Urgency:     "soon", Language: "en",
		Deposit:     &booking.DepositRecord{AmountCents: 4900, Currency: "usd", State: booking.DepositDue},
		HoldExpires: created.Add(30 * time.Minute), Created: created,
	}
	if err := store.CreateRequest(context.Background(), r, nil, bookingtest.Unlimited, created); err != nil {
		t.Fatal(err)
	}
	return r.Code
}

// A warm function serves many invocations: each log line names its own
// invocation's request id, once, not every id the function has served.
func TestSweepHandlerLogsEachRequestIDOnce(t *testing.T) {
	sample, at := sampleEvent(t)
	env := lambdatest.NewEnv(t)
	var logs bytes.Buffer
	clock := func() time.Time { return at }
	h := Handler(bookingtest.New(t, booking.Config{Store: env.Store, SiteURL: lambdatest.SiteURL, Now: clock}), clock, slog.New(slog.NewJSONHandler(&logs, nil)))
	for _, id := range []string{"first-invocation", "second-invocation"} {
		logs.Reset()
		ctx := lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{AwsRequestID: id})
		if _, err := lambda.NewHandler(h).Invoke(ctx, sample); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(logs.String(), `"request_id"`); got != 1 || !strings.Contains(logs.String(), `"request_id":"`+id+`"`) {
			t.Errorf("%s: got log %s, want one request_id, %q", id, logs.String(), id)
		}
	}
}

// TestSweepHandlerReminds: the scheduled sweep also records each reminder
// due at the event's time, once: a second invocation for the same minute
// (EventBridge may deliver an event twice) records nothing more.
func TestSweepHandlerReminds(t *testing.T) {
	sample, at := sampleEvent(t)
	env := lambdatest.NewEnv(t)
	start := at.Add(20 * time.Hour).Truncate(time.Hour)
	r := booking.Request{
		Code: booking.NewCode(), BusinessSlug: "austin-rapid-plumbing", Status: booking.StatusAccepted,
		ServiceName: booking.LocalText{EN: "Other service"},
		Window:      booking.Window{Date: start.Format("2006-01-02"), Start: start, End: start.Add(2 * time.Hour)},
		Address:     booking.Address{Street: "1 Sample St", ZIP: "78701"},
		Contact:     booking.Contact{Name: "Sample Person", Phone: "5125550101"},
		Urgency:     "soon", Language: "en", Created: at.Add(-48 * time.Hour),
		ReminderDue: at.Add(-time.Minute),
	}
	if err := env.Store.CreateRequest(context.Background(), r, nil, bookingtest.Unlimited, r.Created); err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return at }
	h := Handler(bookingtest.New(t, booking.Config{Store: env.Store, SiteURL: lambdatest.SiteURL, Now: clock}), clock, slog.New(slog.DiscardHandler))
	for i, want := range []int{1, 0} {
		out, err := lambda.NewHandler(h).Invoke(context.Background(), sample)
		if err != nil {
			t.Fatal(err)
		}
		var report Report
		if err := json.Unmarshal(out, &report); err != nil {
			t.Fatal(err)
		}
		if report.Reminded != want {
			t.Errorf("invocation %d: got %s, want %d reminded", i+1, out, want)
		}
	}
	got, err := env.Store.Request(context.Background(), r.Code)
	if err != nil {
		t.Fatal(err)
	}
	reminds := 0
	for _, e := range got.History {
		if e.Action == booking.ActionRemind {
			reminds++
		}
	}
	if got.Status != booking.StatusAccepted || reminds != 1 || !got.ReminderDue.IsZero() {
		t.Errorf("after two sweeps: %s with %d remind events, ReminderDue %s; want accepted, 1, none", got.Status, reminds, got.ReminderDue)
	}
}
