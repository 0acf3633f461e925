package mcptools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// These tests cover what the HTTP wrapping of the tool server answers before
// and around the SDK: batches, malformed bodies, unknown methods and CORS.

// transportVersions are the Mcp-Protocol-Version headers a client may send:
// none (initialize, or a client before 2025-06-18), and each version the
// SDK supports.
func transportVersions() []string {
	versions := []string{""}
	for _, v := range protoVersions {
		versions = append(versions, v.requested)
	}
	return versions
}

// countingStore counts the store calls that tools make, to show that a
// refused POST executed nothing.
type countingStore struct {
	booking.Store
	calls  atomic.Int64 // every call below
	writes atomic.Int64 // CreateRequest and MoveRequest
}

func (s *countingStore) Business(ctx context.Context, slug string) (*booking.Business, error) {
	s.calls.Add(1)
	return s.Store.Business(ctx, slug)
}

func (s *countingStore) PublicBusiness(ctx context.Context, slug string) (*booking.Business, error) {
	s.calls.Add(1)
	return s.Store.PublicBusiness(ctx, slug)
}

func (s *countingStore) BusinessesAtHost(ctx context.Context, host string) ([]*booking.Business, error) {
	s.calls.Add(1)
	return s.Store.BusinessesAtHost(ctx, host)
}

func (s *countingStore) HeldWindows(ctx context.Context, slug string, from, to, now time.Time) ([]time.Time, error) {
	s.calls.Add(1)
	return s.Store.HeldWindows(ctx, slug, from, to, now)
}

func (s *countingStore) CreateRequest(ctx context.Context, r booking.Request, key *booking.IdempotencyRecord, limits booking.Limits, now time.Time) error {
	s.calls.Add(1)
	s.writes.Add(1)
	return s.Store.CreateRequest(ctx, r, key, limits, now)
}

func (s *countingStore) MoveRequest(ctx context.Context, before, after booking.Request, tr booking.Transition, crews booking.Crews, now time.Time) error {
	s.calls.Add(1)
	s.writes.Add(1)
	return s.Store.MoveRequest(ctx, before, after, tr, crews, now)
}

func (s *countingStore) Request(ctx context.Context, code string) (*booking.Request, error) {
	s.calls.Add(1)
	return s.Store.Request(ctx, code)
}

// transportRPCError checks that res is one JSON-RPC error object with the
// given status, code and id (raw JSON: "null" or "1"), as plain JSON, and
// that a browser may read it.
func transportRPCError(t *testing.T, res protoResponse, wantStatus, wantCode int, wantID string) {
	t.Helper()
	if res.status != wantStatus {
		t.Errorf("got status %d, want %d (body %q)", res.status, wantStatus, res.body)
	}
	if got := res.header.Get("Content-Type"); got != "application/json" {
		t.Errorf("got Content-Type %q, want application/json", got)
	}
	if got := res.header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("got Access-Control-Allow-Origin %q, want *", got)
	}
	if !strings.HasPrefix(strings.TrimSpace(res.body), "{") {
		t.Fatalf("got body %q, want one JSON object", res.body)
	}
	var rpc struct {
		JSONRPC string          `json:"jsonrpc"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal([]byte(res.body), &rpc); err != nil {
		t.Fatalf("body is not JSON: %v: %q", err, res.body)
	}
	if err := json.Unmarshal([]byte(res.body), &members); err != nil {
		t.Fatalf("body is not a JSON object: %v: %q", err, res.body)
	}
	if rpc.JSONRPC != "2.0" {
		t.Errorf("got jsonrpc %q, want 2.0", rpc.JSONRPC)
	}
	// JSON-RPC 2.0: id is required in a response, null when it could not
	// be read; the refusal of a notification answers no request, so it has
	// none (wantID "").
	if id, ok := members["id"]; ok != (wantID != "") || string(id) != wantID {
		t.Errorf("got id %s (present: %t), want %s (body %s)", id, ok, wantID, res.body)
	}
	if rpc.Error == nil || len(rpc.Result) != 0 {
		t.Fatalf("got %s, want an error and no result", res.body)
	}
	if rpc.Error.Code != wantCode || rpc.Error.Message == "" {
		t.Errorf("got error %d %q, want %d with a message", rpc.Error.Code, rpc.Error.Message, wantCode)
	}
}

// A JSON-RPC batch is refused whole, whatever version the headers name, and
// nothing in it runs: one POST once carried 30 request_service calls and
// took 30 windows past the route's throttle.
func TestTransportBatchRefused(t *testing.T) {
	ctx := context.Background()
	env := lambdatest.NewEnv(t)
	store := &countingStore{Store: env.Store}
	bookings := bookingtest.New(t, booking.Config{Store: store, SiteURL: lambdatest.SiteURL, Now: time.Now})

	const slug = "desert-cool-hvac"
	open := func(t *testing.T) []string {
		t.Helper()
		b, err := env.Bookings.Business(ctx, slug)
		if err != nil {
			t.Fatal(err)
		}
		a, err := env.Bookings.ArrivalWindows(ctx, b, booking.WindowQuery{Days: 3})
		if err != nil {
			t.Fatal(err)
		}
		var starts []string
		for _, w := range a.Windows {
			starts = append(starts, w.Start.Format(time.RFC3339))
		}
		return starts
	}
	windows := open(t)
	if len(windows) < 3 {
		t.Fatalf("got %d open windows at %s, want 3 or more", len(windows), slug)
	}
	request := func(id int, start string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"request_service","arguments":`+
			`{"business":%q,"window_start":%q,"address":{"street":"%d Batch St","zip":"85004"},"contact":{"name":"Bo","phone":"602555010%d"}}}}`,
			id, slug, start, id, id)
	}
	batches := []struct{ name, body string }{
		{"three request_service calls", "[" + request(1, windows[0]) + "," + request(2, windows[1]) + "," + request(3, windows[2]) + "]"},
		{"one tools/call", `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_business","arguments":{"business":"` + slug + `"}}}]`},
		{"one tools/list", `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`},
		{"a notification", `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`},
		{"empty", `[]`},
		{"space before the bracket", " \r\n\t[" + request(1, windows[0]) + "]"},
	}
	for _, tr := range protoTransportsOver(t, bookings) {
		t.Run(tr.name, func(t *testing.T) {
			for _, v := range transportVersions() {
				t.Run("version "+v, func(t *testing.T) {
					for _, b := range batches {
						t.Run(b.name, func(t *testing.T) {
							res := tr.send(t, http.MethodPost, protoHeaders(v, "tools/call", "request_service"), b.body)
							transportRPCError(t, res, http.StatusBadRequest, -32600, "null")
						})
					}
				})
			}
		})
	}
	if got := open(t); !slices.Equal(got, windows) {
		t.Errorf("got open windows %v after the batches, want %v: a batch took some", got, windows)
	}
	if n := store.calls.Load(); n != 0 {
		t.Errorf("the store saw %d calls from refused batches, want none", n)
	}
	// The counting store does count: one single message reaches it.
	res := protoTransportsOver(t, bookings)[0].send(t, http.MethodPost, protoHeaders("", "tools/call", ""),
		protoBody("", "tools/call", `"name":"get_business","arguments":{"business":"`+slug+`"}`))
	var got struct{ IsError bool }
	protoResult(t, res, &got)
	if got.IsError || store.calls.Load() == 0 {
		t.Errorf("got isError %t and %d store calls for one get_business, want a result and some calls", got.IsError, store.calls.Load())
	}
}

// Bodies that are not one JSON-RPC message, and methods the server does not
// have, get a JSON-RPC error object as application/json, never text. The
// status: 400 when the POST cannot be accepted (the transport's "MUST
// return an HTTP error status"); a request for an unknown method is a
// normal JSON-RPC answer (200), except from 2026-07-28, where SEP-2575
// makes it a 404.
func TestTransportMalformed(t *testing.T) {
	cases := []struct {
		name   string
		header map[string]string // added to protoHeaders
		body   func(version string) string
		status func(version string) int
		code   int
		id     string
	}{
		{name: "truncated JSON", body: constBody(`{"jsonrpc":"2.0","id":1,`), status: constStatus(400), code: -32700, id: "null"},
		{name: "not JSON", body: constBody(`tools/list please`), status: constStatus(400), code: -32700, id: "null"},
		{name: "empty body", body: constBody(``), status: constStatus(400), code: -32700, id: "null"},
		{name: "a string", body: constBody(`"tools/list"`), status: constStatus(400), code: -32600, id: "null"},
		{name: "a number", body: constBody(`1`), status: constStatus(400), code: -32600, id: "null"},
		{name: "null", body: constBody(`null`), status: constStatus(400), code: -32600, id: "null"},
		{name: "jsonrpc 1.0", body: constBody(`{"jsonrpc":"1.0","id":1,"method":"tools/list"}`), status: constStatus(400), code: -32600, id: "1"},
		{name: "method not a string", body: constBody(`{"jsonrpc":"2.0","id":1,"method":5}`), status: constStatus(400), code: -32600, id: "1"},
		{name: "id an object", body: constBody(`{"jsonrpc":"2.0","id":{"n":1},"method":"tools/list"}`), status: constStatus(400), code: -32600, id: "null"},
		{name: "tools/call without params", body: constBody(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}`), status: constStatus(400), code: -32600, id: "1"},
		{name: "over 128 KiB", body: constBody(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"` + strings.Repeat("x", 128<<10) + `"}}`), status: constStatus(413), code: -32600, id: "null"},
		{
			name:   "unknown method",
			body:   func(v string) string { return protoBody(v, "tools/destroy", "") },
			status: func(v string) int { return protoErrorStatus(v, -32601) },
			code:   -32601, id: "1",
		},
		{name: "unknown notification", body: constBody(`{"jsonrpc":"2.0","method":"notifications/destroyed"}`), status: constStatus(400), code: -32601, id: ""},
		{
			name:   "unsupported version header",
			header: map[string]string{"mcp-protocol-version": "1999-01-01"},
			body:   constBody(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), status: constStatus(400), code: -32600, id: "1",
		},
		{
			name:   "notification under an unsupported version header",
			header: map[string]string{"mcp-protocol-version": "1999-01-01"},
			body:   constBody(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), status: constStatus(400), code: -32600, id: "",
		},
		{
			name:   "text content type",
			header: map[string]string{"content-type": "text/plain"},
			body:   constBody(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), status: constStatus(415), code: -32600, id: "1",
		},
	}
	for _, tr := range protoTransports(t) {
		t.Run(tr.name, func(t *testing.T) {
			for _, v := range transportVersions() {
				t.Run("version "+v, func(t *testing.T) {
					for _, c := range cases {
						t.Run(c.name, func(t *testing.T) {
							header := protoHeaders(v, "tools/list", "")
							for k, val := range c.header {
								header[k] = val
							}
							res := tr.send(t, http.MethodPost, header, c.body(v))
							transportRPCError(t, res, c.status(v), c.code, c.id)
						})
					}
				})
			}
		})
	}
}

func constBody(s string) func(string) string { return func(string) string { return s } }

func constStatus(n int) func(string) int { return func(string) int { return n } }

// transportClientHeaders are the request headers MCP clients send that are
// not CORS-safelisted, so a browser asks before sending them: the
// transport's own (Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID,
// and from 2026-07-28 Mcp-Method and Mcp-Name), Content-Type
// application/json, and Authorization from clients configured with a
// token, which the server ignores.
var transportClientHeaders = []string{"Content-Type", "Accept", "Mcp-Protocol-Version", "Mcp-Session-Id", "Last-Event-ID", "Mcp-Method", "Mcp-Name", "Authorization"}

// OPTIONS /mcp answers a browser's CORS preflight for what MCP clients send.
func TestTransportPreflight(t *testing.T) {
	for _, tr := range protoTransports(t) {
		t.Run(tr.name, func(t *testing.T) {
			for _, method := range []string{http.MethodPost, http.MethodGet} {
				t.Run(method, func(t *testing.T) {
					res := tr.send(t, http.MethodOptions, map[string]string{
						"origin":                         "https://inspector.example",
						"access-control-request-method":  method,
						"access-control-request-headers": strings.ToLower(strings.Join(transportClientHeaders, ",")),
					}, "")
					if res.status != http.StatusNoContent || res.body != "" {
						t.Errorf("got %d %q, want 204 and no body", res.status, res.body)
					}
					if got := res.header.Get("Access-Control-Allow-Origin"); got != "*" {
						t.Errorf("got Access-Control-Allow-Origin %q, want *", got)
					}
					if methods := transportList(res.header.Values("Access-Control-Allow-Methods")); !slices.Contains(methods, strings.ToLower(method)) {
						t.Errorf("got Access-Control-Allow-Methods %v, want %s among them", methods, method)
					}
					allowed := transportList(res.header.Values("Access-Control-Allow-Headers"))
					for _, h := range transportClientHeaders {
						if !slices.Contains(allowed, strings.ToLower(h)) {
							t.Errorf("got Access-Control-Allow-Headers %v, want %s among them", allowed, h)
						}
					}
					if res.header.Get("Access-Control-Max-Age") == "" {
						t.Errorf("got no Access-Control-Max-Age, want the preflight cached")
					}
				})
			}
		})
	}
}

// transportList splits comma-separated header values, lower case.
func transportList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			if item = strings.ToLower(strings.TrimSpace(item)); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

// Every answer of /mcp lets a browser page of any origin read it: results,
// tool errors, refusals, the 202 of a notification and the 405 of a GET.
func TestTransportCORSOnAnswers(t *testing.T) {
	cases := []struct {
		name, method, body string
		header             map[string]string
		status             int
	}{
		{"tools/list", http.MethodPost, protoBody("2025-11-25", "tools/list", ""), protoHeaders("2025-11-25", "tools/list", ""), http.StatusOK},
		{"tool error", http.MethodPost, protoBody("2025-11-25", "tools/call", `"name":"get_business","arguments":{"business":"no-such-business"}`), protoHeaders("2025-11-25", "tools/call", "get_business"), http.StatusOK},
		{"batch", http.MethodPost, `[` + protoBody("", "tools/list", "") + `]`, protoHeaders("", "tools/list", ""), http.StatusBadRequest},
		{"notification", http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, protoHeaders("2025-11-25", "notifications/initialized", ""), http.StatusAccepted},
		{"GET", http.MethodGet, "", map[string]string{"accept": "text/event-stream", "mcp-protocol-version": "2025-11-25"}, http.StatusMethodNotAllowed},
	}
	for _, tr := range protoTransports(t) {
		t.Run(tr.name, func(t *testing.T) {
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					header := map[string]string{"origin": "https://inspector.example"}
					for k, v := range c.header {
						header[k] = v
					}
					res := tr.send(t, c.method, header, c.body)
					if res.status != c.status {
						t.Errorf("got %d %q, want %d", res.status, res.body, c.status)
					}
					if got := res.header.Get("Access-Control-Allow-Origin"); got != "*" {
						t.Errorf("got Access-Control-Allow-Origin %q, want *", got)
					}
				})
			}
		})
	}
}
