package mcptools_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
	"github.com/doorstep/doorstep/pkg/mcptools"
)

// toolsStart is Friday 2026-11-20 00:00 UTC: Thursday afternoon in Los Angeles.
var toolsStart = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// toolsFixture is the tool server and the JSON API over one embedded store
// holding the test businesses, at a fixed time, with an SDK client session.
type toolsFixture struct {
	api     http.Handler
	session *mcp.ClientSession
}

func newToolsFixture(t *testing.T) *toolsFixture {
	t.Helper()
	return newToolsFixtureWith(t, nil)
}

// newToolsFixtureWith is newToolsFixture with each business changed by
// edit when it is not nil.
func newToolsFixtureWith(t *testing.T, edit func(*booking.Business)) *toolsFixture {
	t.Helper()
	bookings := newToolsBookingsWith(t, edit)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewServer(mcptools.New(bookings, log))
	t.Cleanup(srv.Close)

	c := mcp.NewClient(&mcp.Implementation{Name: "doorstep-test", Version: "1.0.0"}, nil)
	session, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return &toolsFixture{api: httpapi.New(bookings, log), session: session}
}

// newToolsBookings returns the service over a fresh embedded store holding
// the test businesses, at toolsStart.
func newToolsBookings(t *testing.T) *booking.Bookings {
	t.Helper()
	return newToolsBookingsWith(t, nil)
}

func newToolsBookingsWith(t *testing.T, edit func(*booking.Business)) *booking.Bookings {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	dynamotest.PutBusinesses(t, store, "../booking/testdata/businesses.json", edit)
	return bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://book.example.com", Now: func() time.Time { return toolsStart }})
}

// call calls a tool and returns its structured content as a JSON object,
// its text content, and whether it is a refusal (isError). A refusal must
// have the form every official client takes (checkRefusal).
func (f *toolsFixture) call(t *testing.T, name string, args map[string]any) (map[string]any, string, bool) {
	t.Helper()
	res, err := f.session.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	text := strings.Join(texts, "\n")
	if res.IsError {
		if res.StructuredContent != nil || len(res.Content) != 1 {
			t.Fatalf("%s: got a refusal with structured content %v and %d contents, want one text and no structured content", name, res.StructuredContent, len(res.Content))
		}
		return nil, text, true
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var structured map[string]any
	if err := json.Unmarshal(data, &structured); err != nil {
		t.Fatalf("%s: structured content is not an object: %s", name, data)
	}
	return structured, text, false
}

// post sends a JSON API request and returns its status and decoded body.
func (f *toolsFixture) post(t *testing.T, path string, body any) (int, map[string]any) {
	t.Helper()
	data, _ := json.Marshal(body)
	rec := openapitest.Serve(t, f.api, httptest.NewRequest("POST", path, strings.NewReader(string(data))))
	var out map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("POST %s: %v: %s", path, err, rec.Body)
	}
	return rec.Code, out
}

func requestArgs(window, phone string) map[string]any {
	return map[string]any{
		"window_start": window,
		"address":      map[string]any{"street": "12 Main St", "zip": "90012"},
		"contact":      map[string]any{"name": "Ana Ruiz", "phone": phone, "sms_consent": false},
		"service_id":   "drain-cleaning",
		"description":  "Slow drain",
	}
}

func with(args map[string]any, key string, value any) map[string]any {
	out := make(map[string]any, len(args)+1)
	for k, v := range args {
		out[k] = v
	}
	out[key] = value
	return out
}

// refusedCode is the code a refusal's text starts with: "WINDOW_TAKEN: ...".
func refusedCode(text string) string {
	code, _, _ := strings.Cut(text, ": ")
	return code
}

// errorCode is the code of a JSON API error body.
func errorCode(body map[string]any) string {
	e, _ := body["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

// An MCP client that has never seen Doorstep lists the tools, reads a
// business named by a link, lists windows, sends a request with a window
// exactly as listed, and reads its status.
func TestToolsEndToEnd(t *testing.T) {
	f := newToolsFixture(t)
	ctx := context.Background()

	tools, err := f.session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if got, want := strings.Join(names, " "), "get_business get_request_status list_arrival_windows request_service"; got != want {
		t.Fatalf("got tools %s, want %s", got, want)
	}
	if got := f.session.InitializeResult().Instructions; !strings.Contains(got, "not a confirmed appointment") {
		t.Errorf("got instructions %q, want the rules for agents", got)
	}

	business, _, isErr := f.call(t, "get_business", map[string]any{"business": "HTTPS://WWW.Split-Day-Plumbing.example.com/services/drains?utm=x#top"})
	if isErr || business["slug"] != "split-day-plumbing" {
		t.Fatalf("get_business by a link: got %v, want split-day-plumbing", business)
	}

	windows, text, isErr := f.call(t, "list_arrival_windows", map[string]any{"business": "split-day-plumbing", "from": "2026-11-23", "days": 1})
	if isErr {
		t.Fatalf("list_arrival_windows: got %v", windows)
	}
	list := windows["windows"].([]any)
	first := list[0].(map[string]any)
	if got, want := first["start"], "2026-11-23T08:00:00-08:00"; got != want {
		t.Errorf("got first start %v, want %v: the business's own offset", got, want)
	}
	if got, want := first["end"], "2026-11-23T10:00:00-08:00"; got != want {
		t.Errorf("got first end %v, want %v", got, want)
	}
	if !strings.Contains(text, "unchanged") {
		t.Errorf("got %q, want the reminder to send the start unchanged", text)
	}

	created, text, isErr := f.call(t, "request_service", with(with(requestArgs(first["start"].(string), "3235550142"),
		"business", "split-day-plumbing"), "assistant_name", "Test Assistant"))
	if isErr || created["status"] != "new" || created["payment_url"] != nil {
		t.Fatalf("request_service: got %v %s", created, text)
	}
	if !strings.Contains(text, "not a confirmed appointment") {
		t.Errorf("got %q, want the reminder that it is not confirmed", text)
	}

	status, text, isErr := f.call(t, "get_request_status", map[string]any{"code": created["code"]})
	if isErr || status["status"] != "new" || !strings.Contains(text, "Not confirmed yet") {
		t.Fatalf("get_request_status: got %v %s", status, text)
	}
	window := status["arrival_window"].(map[string]any)
	if got, want := window["start"], "2026-11-23T16:00:00Z"; got != want {
		t.Errorf("got the request's window at %v, want %v", got, want)
	}

	// The JSON API lists the same instants, written in UTC; the taken one is gone.
	rec := openapitest.Serve(t, f.api, httptest.NewRequest("GET", "/api/v1/businesses/split-day-plumbing/availability?from=2026-11-23&days=1", nil))
	var api booking.Availability
	if err := json.Unmarshal(rec.Body.Bytes(), &api); err != nil {
		t.Fatal(err)
	}
	if got, want := len(api.Windows), len(list)-1; got != want {
		t.Fatalf("got %d windows from the JSON API after the request, want %d", got, want)
	}
	for i, w := range api.Windows {
		mcpStart, _ := time.Parse(time.RFC3339, list[i+1].(map[string]any)["start"].(string))
		if !w.Start.Equal(mcpStart) {
			t.Errorf("window %d: JSON API %s, tool %s: want the same instant", i, w.Start, mcpStart)
		}
	}
}

// A failed call is a result with isError and the code the JSON API gives for
// the same request.
func TestToolErrorsMatchTheJSONAPI(t *testing.T) {
	f := newToolsFixture(t)
	if status, _ := f.post(t, "/api/v1/businesses/split-day-plumbing/requests", requestArgs("2026-11-23T18:00:00Z", "3235550199")); status != 201 {
		t.Fatalf("setup: got %d", status)
	}
	depositArgs := with(requestArgs("2026-11-23T13:00:00Z", "3235550142"), "address", map[string]any{"street": "1 A St", "zip": "10001"})
	tests := []struct {
		name     string
		business string
		args     map[string]any
		want     string
	}{
		{"unknown business", "nobody", requestArgs("2026-11-23T16:00:00Z", "3235550142"), "NOT_FOUND"},
		{"window not ISO", "split-day-plumbing", requestArgs("Monday 8am", "3235550142"), "INVALID_WINDOW"},
		{"street empty", "split-day-plumbing", with(requestArgs("2026-11-23T16:00:00Z", "3235550142"), "address", map[string]any{"street": " ", "zip": "90012"}), "INVALID_ADDRESS"},
		{"zip", "split-day-plumbing", with(requestArgs("2026-11-23T16:00:00Z", "3235550142"), "address", map[string]any{"street": "1 A St", "zip": "9001"}), "INVALID_ZIP"},
		{"phone", "split-day-plumbing", requestArgs("2026-11-23T16:00:00Z", "555-0142"), "INVALID_PHONE"},
		{"urgency", "split-day-plumbing", with(requestArgs("2026-11-23T16:00:00Z", "3235550142"), "urgency", "asap"), "INVALID_REQUEST"},
		{"description too long", "split-day-plumbing", with(requestArgs("2026-11-23T16:00:00Z", "3235550142"), "description", strings.Repeat("x", 2001)), "INVALID_REQUEST"},
		{"idempotency key too short", "split-day-plumbing", with(requestArgs("2026-11-23T16:00:00Z", "3235550142"), "idempotency_key", "short"), "INVALID_REQUEST"},
		{"service", "split-day-plumbing", with(requestArgs("2026-11-23T16:00:00Z", "3235550142"), "service_id", "roofing"), "SERVICE_UNAVAILABLE"},
		{"paused", "paused-plumbing", requestArgs("2026-11-23T16:00:00Z", "3235550142"), "BOOKING_PAUSED"},
		{"out of area", "split-day-plumbing", with(requestArgs("2026-11-23T16:00:00Z", "3235550142"), "address", map[string]any{"street": "1 A St", "zip": "94110"}), "OUT_OF_AREA"},
		{"deposit terms", "deposit-plumbing", depositArgs, "DEPOSIT_TERMS"},
		{"too late", "split-day-plumbing", requestArgs("2026-11-19T16:00:00Z", "3235550142"), "TOO_LATE"},
		{"not a window start", "split-day-plumbing", requestArgs("2026-11-23T17:00:00Z", "3235550142"), "INVALID_WINDOW"},
		{"window taken", "split-day-plumbing", requestArgs("2026-11-23T18:00:00Z", "3235550142"), "WINDOW_TAKEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, text, isErr := f.call(t, "request_service", with(tt.args, "business", tt.business))
			if !isErr || refusedCode(text) != tt.want {
				t.Fatalf("tool: got isError %v %q, want %s", isErr, text, tt.want)
			}
			if len(text) < len(tt.want)+20 {
				t.Errorf("got text %q, want it to say what went wrong and what to do next", text)
			}
			_, body := f.post(t, "/api/v1/businesses/"+tt.business+"/requests", tt.args)
			if got := errorCode(body); got != tt.want {
				t.Errorf("JSON API: got %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("unknown request code", func(t *testing.T) {
		_, text, isErr := f.call(t, "get_request_status", map[string]any{"code": "0000-0000-0000"})
		if !isErr || refusedCode(text) != "NOT_FOUND" {
			t.Fatalf("got %q, want NOT_FOUND", text)
		}
	})
	t.Run("a link to another site", func(t *testing.T) {
		_, text, isErr := f.call(t, "get_business", map[string]any{"business": "https://split-day-plumbing.example.com.evil.example/"})
		if !isErr || refusedCode(text) != "NOT_FOUND" {
			t.Fatalf("got %q, want NOT_FOUND", text)
		}
	})
}

// Each result carries the reminder the assistant needs at that moment.
func TestToolReminders(t *testing.T) {
	f := newToolsFixture(t)
	depositArgs := with(with(requestArgs("2026-11-23T13:00:00Z", "3235550142"),
		"address", map[string]any{"street": "1 A St", "zip": "10001"}), "deposit_accepted", true)
	tests := []struct {
		name     string
		tool     string
		args     map[string]any
		want     []string
		dontWant []string
	}{
		{"example business", "get_business", map[string]any{"business": "example-plumbing"},
			[]string{"example business", "no request may be sent to it for a real person"}, nil},
		{"deposit terms before a request", "get_business", map[string]any{"business": "deposit-plumbing"},
			[]string{"deposit of $45.00", "tell the person the amount and its rules"}, []string{"example business"}},
		{"plain business", "get_business", map[string]any{"business": "split-day-plumbing"},
			nil, []string{"example business", "booking deposit of", "site is a preview"}},
		{"paused business", "list_arrival_windows", map[string]any{"business": "paused-plumbing"},
			[]string{"paused online requests", "+13235550100"}, nil},
		{"deposit due", "request_service", with(depositArgs, "business", "deposit-plumbing"),
			[]string{"not a confirmed appointment", "https://book.example.com/pay/", "within 30 minutes", "Never ask for card details"}, nil},
		{"request to an example business", "request_service", with(requestArgs("2026-11-23T16:00:00Z", "3235550142"), "business", "example-plumbing"),
			[]string{"not a confirmed appointment", "no request may be sent to it for a real person"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			structured, text, isErr := f.call(t, tt.tool, tt.args)
			if isErr {
				t.Fatalf("got an error result %v", structured)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("got %q, want it to say %q", text, w)
				}
			}
			for _, w := range tt.dontWant {
				if strings.Contains(text, w) {
					t.Errorf("got %q, want nothing about %q", text, w)
				}
			}
		})
	}
}

// A retry with the same idempotency_key gets the same request back.
func TestToolIdempotencyKey(t *testing.T) {
	f := newToolsFixture(t)
	args := with(with(requestArgs("2026-11-23T16:00:00Z", "3235550142"), "business", "split-day-plumbing"), "idempotency_key", "assistant-retry-1")
	first, _, isErr := f.call(t, "request_service", args)
	if isErr {
		t.Fatalf("got %v", first)
	}
	again, _, isErr := f.call(t, "request_service", args)
	if isErr || again["code"] != first["code"] {
		t.Fatalf("got %v on the retry, want the code %v again", again, first["code"])
	}
	_, text, isErr := f.call(t, "request_service", with(args, "description", "Another problem"))
	if !isErr || refusedCode(text) != "IDEMPOTENCY_KEY_REUSED" {
		t.Fatalf("got %q, want IDEMPOTENCY_KEY_REUSED for another body under the key", text)
	}
}

// Each tool call is logged as one line, without the person's details.
// lockedBuffer is a log's buffer that the server's goroutines may write
// while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestToolCallLog(t *testing.T) {
	ctx := context.Background()
	var buf lockedBuffer
	server := mcptools.NewServer(newToolsBookings(t), slog.New(slog.NewJSONHandler(&buf, nil)))
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverSide, nil); err != nil {
		t.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	args := with(with(requestArgs("2026-11-23T16:00:00Z", "(323) 555-0177"), "business", "split-day-plumbing"), "service_id", "roofing")
	if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "request_service", Arguments: args}); err != nil {
		t.Fatal(err)
	}
	var line map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if strings.Contains(l, `"tool call"`) {
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				t.Fatal(err)
			}
		}
	}
	if line["tool"] != "request_service" || line["error_code"] != "SERVICE_UNAVAILABLE" {
		t.Fatalf("got %v, want the tool and its error code", line)
	}
	// The phone as sent and as stored; not "555" alone, which a log line's
	// nanoseconds may spell.
	for _, private := range []string{"555-0177", "3235550177", "Ana Ruiz", "Main St", "Slow drain"} {
		if strings.Contains(buf.String(), private) {
			t.Errorf("got %q in the log: %s", private, buf.String())
		}
	}
}
