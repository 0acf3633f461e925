package lambdaenv

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// callCounter counts the DynamoDB operations a client calls, by name. It
// counts calls, not HTTP attempts: the middleware sits in the initialize
// step, before the retryer.
type callCounter struct {
	mu    sync.Mutex
	calls map[string]int
}

func (c *callCounter) add(op string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[op]++
}

// take returns the counts since the last take, and the total.
func (c *callCounter) take() (map[string]int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	got, total := c.calls, 0
	for _, n := range got {
		total += n
	}
	c.calls = map[string]int{}
	return got, total
}

// countingClient is a client of the same engine as base, with a middleware
// that counts each operation into c.
func countingClient(base *dynamodb.Client, c *callCounter) *dynamodb.Client {
	count := middleware.InitializeMiddlewareFunc("DoorstepCountCalls",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			c.add(awsmiddleware.GetOperationName(ctx))
			return next.HandleInitialize(ctx, in)
		})
	return dynamodb.New(base.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(count, middleware.After)
		})
	})
}

// TestDynamoDBCallsPerOperation holds each operation of the JSON API to the
// number of DynamoDB calls it makes today: a change that adds a call fails
// here. It runs the API handler over the demo businesses on minidyn.
func TestDynamoDBCallsPerOperation(t *testing.T) {
	env := lambdatest.NewEnv(t)
	counter := &callCounter{calls: map[string]int{}}
	client := countingClient(dynamotest.NewClient(env.Vars["DYNAMODB_ENDPOINT"]), counter)
	store := dynamo.New(client, env.Vars["TABLE_NAME"])
	bookings := bookingtest.New(t, booking.Config{Store: store, SiteURL: lambdatest.SiteURL, Now: time.Now})
	handler := httpapi.New(bookings, slog.New(slog.DiscardHandler))

	const slug = "desert-cool-hvac" // no deposit, open 24/7
	type call struct {
		name       string
		method     string
		path       func() string
		body       func() string
		key        string
		wantStatus int
		maxCalls   int
	}
	var (
		windowStart string
		code        string
		phone       = "(602) 555-0147"
	)
	createBody := func() string {
		return fmt.Sprintf(`{"window_start": %q,
			"address": {"street": "1820 N 7th St", "zip": "85006"},
			"contact": {"name": "Jordan Lee", "phone": %q},
			"service_id": "ac-not-cooling", "description": "The AC blows warm air."}`, windowStart, phone)
	}
	calls := []call{
		{name: "getBusiness", method: http.MethodGet,
			path: func() string { return "/api/v1/businesses/" + slug }, wantStatus: 200, maxCalls: 1},
		{name: "listArrivalWindows", method: http.MethodGet,
			path: func() string { return "/api/v1/businesses/" + slug + "/availability?days=14" }, wantStatus: 200, maxCalls: 2},
		{name: "createServiceRequest", method: http.MethodPost,
			path: func() string { return "/api/v1/businesses/" + slug + "/requests" }, body: createBody,
			// The business, the Query of its hourly slots (which one to take;
			// the transaction's condition decides), the transaction.
			key: "calls-test-0001", wantStatus: 201, maxCalls: 3},
		{name: "createServiceRequest (idempotent replay)", method: http.MethodPost,
			path: func() string { return "/api/v1/businesses/" + slug + "/requests" }, body: createBody,
			key: "calls-test-0001", wantStatus: 201, maxCalls: 4},
		{name: "getServiceRequest", method: http.MethodGet,
			path: func() string { return "/api/v1/requests/" + code }, wantStatus: 200, maxCalls: 2},
		// The business now has two crews (below): its window's holds are
		// read too, to choose a free place in it.
		{name: "createServiceRequest, two crews", method: http.MethodPost,
			path: func() string { return "/api/v1/businesses/" + slug + "/requests" }, body: createBody,
			wantStatus: 201, maxCalls: 4},
	}

	for _, c := range calls {
		var body *strings.Reader
		if c.body != nil {
			body = strings.NewReader(c.body())
		} else {
			body = strings.NewReader("")
		}
		if c.name == "createServiceRequest, two crews" {
			twoCrews(t, store, slug)
			phone = "(602) 555-0148" // the same window as the first create, another person
		}
		req := httptest.NewRequest(c.method, c.path(), body)
		if c.key != "" {
			req.Header.Set("Idempotency-Key", c.key)
		}
		counter.take() // drop whatever came before
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		got, total := counter.take()
		if rec.Code != c.wantStatus {
			t.Fatalf("%s: got %d %s, want %d", c.name, rec.Code, rec.Body, c.wantStatus)
		}
		t.Logf("%-40s %d DynamoDB call(s) (limit %d): %s", c.name, total, c.maxCalls, formatCalls(got))
		if total > c.maxCalls {
			t.Errorf("%s made %d DynamoDB calls (%s), want at most %d", c.name, total, formatCalls(got), c.maxCalls)
		}

		switch c.name {
		case "listArrivalWindows":
			var av struct{ Windows []struct{ Start string } }
			if err := json.Unmarshal(rec.Body.Bytes(), &av); err != nil || len(av.Windows) == 0 {
				t.Fatalf("no window to request: %v %s", err, rec.Body)
			}
			windowStart = av.Windows[0].Start
		case "createServiceRequest":
			var created struct{ Code string }
			if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil || created.Code == "" {
				t.Fatalf("no code in the 201: %v %s", err, rec.Body)
			}
			code = created.Code
		case "createServiceRequest (idempotent replay)":
			if rec.Header().Get("Idempotent-Replayed") != "true" {
				t.Fatalf("the second create was not a replay: %v %s", rec.Header(), rec.Body)
			}
		}
	}
}

// twoCrews stores the business with two crews per window.
func twoCrews(t *testing.T, store *dynamo.Store, slug string) {
	t.Helper()
	err := store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
		changed := *stored
		changed.CrewsPerWindow = 2
		return &changed, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func formatCalls(calls map[string]int) string {
	if len(calls) == 0 {
		return "none"
	}
	names := make([]string, 0, len(calls))
	for name := range calls {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s=%d", name, calls[name])
	}
	return strings.Join(parts, " ")
}
