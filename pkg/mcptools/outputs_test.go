package mcptools_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/mcptools"
)

// The tool server over HTTP, under both protocol generations: 2025-11-25,
// which opens with initialize, and 2026-07-28, sessionless, which sends its
// version and capabilities in every request's _meta. Every success case's
// structuredContent must validate against its tool's outputSchema (JSON
// Schema 2020-12, every object closed), every refusal a tool can give must
// have the one form the official clients take, and no schema may name a
// field that no public response carries.

// outputsGeneration is one protocol generation's way of calling the server.
type outputsGeneration struct {
	version    string
	initialize bool
}

var outputsGenerations = []outputsGeneration{{"2025-11-25", true}, {protoNewProtocol, false}}

// outputsServer is the tool server over a fresh store, spoken to under one
// generation.
type outputsServer struct {
	gen      outputsGeneration
	url      string
	bookings *booking.Bookings
}

func newOutputsServer(t *testing.T, gen outputsGeneration, bookings *booking.Bookings) *outputsServer {
	t.Helper()
	srv := httptest.NewServer(mcptools.New(bookings, slog.New(slog.NewTextHandler(io.Discard, nil))))
	t.Cleanup(srv.Close)
	s := &outputsServer{gen: gen, url: srv.URL + mcptools.Path, bookings: bookings}
	if gen.initialize {
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + gen.version +
			`","capabilities":{},"clientInfo":{"name":"outputs-test","version":"1.0.0"}}}`
		var init struct{ ProtocolVersion string }
		if err := json.Unmarshal(s.rpc(t, "initialize", "", body), &init); err != nil || init.ProtocolVersion != gen.version {
			t.Fatalf("initialize: got %q, %v, want %s", init.ProtocolVersion, err, gen.version)
		}
	}
	return s
}

// rpc posts one JSON-RPC request and returns its result; a JSON-RPC error
// fails the test.
func (s *outputsServer) rpc(t *testing.T, method, tool, body string) json.RawMessage {
	t.Helper()
	version := s.gen.version
	if method == "initialize" {
		version = ""
	}
	req, err := http.NewRequest(http.MethodPost, s.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range protoHeaders(version, method, tool) {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var rpc protoRPC
	if err := json.Unmarshal(data, &rpc); err != nil || rpc.Error != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: got %d %s, want a result", method, tool, res.StatusCode, data)
	}
	return rpc.Result
}

// call calls a tool and returns its result.
func (s *outputsServer) call(t *testing.T, tool string, args any) json.RawMessage {
	t.Helper()
	data, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return s.rpc(t, "tools/call", tool, protoBody(s.gen.version, "tools/call", `"name":"`+tool+`","arguments":`+string(data)))
}

// schemas lists the tools and compiles each outputSchema.
func (s *outputsServer) schemas(t *testing.T) map[string]outputsSchema {
	t.Helper()
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(s.rpc(t, "tools/list", "", protoBody(s.gen.version, "tools/list", "")), &list); err != nil {
		t.Fatal(err)
	}
	out := map[string]outputsSchema{}
	for _, tool := range list.Tools {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.OutputSchema))
		if err != nil {
			t.Fatalf("%s: outputSchema: %v", tool.Name, err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		url := "mem:///" + tool.Name + ".json"
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		compiled, err := c.Compile(url)
		if err != nil {
			t.Fatalf("%s: outputSchema does not compile: %v", tool.Name, err)
		}
		var raw map[string]any
		if err := json.Unmarshal(tool.OutputSchema, &raw); err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = outputsSchema{compiled, raw}
	}
	return out
}

// structured checks that result is a success whose structuredContent
// validates against schema, and returns it.
func structured(t *testing.T, schema outputsSchema, result json.RawMessage) map[string]any {
	t.Helper()
	var got struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		Content           []struct{ Text string }
	}
	if err := json.Unmarshal(result, &got); err != nil {
		t.Fatal(err)
	}
	if got.IsError || len(got.StructuredContent) == 0 {
		t.Fatalf("got %s, want a success with structuredContent", result)
	}
	instance, err := jsonschema.UnmarshalJSON(bytes.NewReader(got.StructuredContent))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(instance); err != nil {
		t.Errorf("structuredContent does not match the outputSchema: %v\n%s", err, got.StructuredContent)
	}
	var m map[string]any
	_ = json.Unmarshal(got.StructuredContent, &m)
	return m
}

// newOutputsBookings is the service over a fresh embedded store holding the
// test businesses at toolsStart: deposit-plumbing with a license and open
// on Sundays, and
// all-day-plumbing taking two public requests an hour.
func newOutputsBookings(t *testing.T) *booking.Bookings {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	dynamotest.PutBusinesses(t, store, "../booking/testdata/businesses.json", func(b *booking.Business) {
		switch b.Slug {
		case "deposit-plumbing":
			b.License = &booking.License{Number: "M-1", Authority: "State Board"}
			b.Hours.Sun = []booking.Interval{{Open: "09:00", Close: "12:00"}}
		case "all-day-plumbing":
			b.RequestsPerHour = 2
		}
	})
	return bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://book.example.com", Now: func() time.Time { return toolsStart }})
}

func TestToolResultsMatchTheirSchemas(t *testing.T) {
	for _, gen := range outputsGenerations {
		t.Run(gen.version, func(t *testing.T) {
			s := newOutputsServer(t, gen, newOutputsBookings(t))
			schemas := s.schemas(t)
			seen := map[string]map[string]bool{} // tool -> every key path a success carried
			success := func(t *testing.T, tool string, args any) map[string]any {
				t.Helper()
				out := structured(t, schemas[tool], s.call(t, tool, args))
				if seen[tool] == nil {
					seen[tool] = map[string]bool{}
				}
				keyPaths(out, "", seen[tool])
				return out
			}
			ctx := context.Background()
			windows := func(t *testing.T, slug string) []string {
				out := success(t, "list_arrival_windows", map[string]any{"business": slug, "days": 14})
				var starts []string
				for _, w := range out["windows"].([]any) {
					starts = append(starts, w.(map[string]any)["start"].(string))
				}
				if len(starts) < 8 {
					t.Fatalf("%s: got %d windows, want 8 or more", slug, len(starts))
				}
				return starts
			}
			split, deposit, late := windows(t, "split-day-plumbing"), windows(t, "deposit-plumbing"), windows(t, "all-day-plumbing")

			t.Run("successes", func(t *testing.T) {
				for _, slug := range []string{"split-day-plumbing", "deposit-plumbing", "paused-plumbing", "example-plumbing", "https://www.split-day-plumbing.example.com/"} {
					success(t, "get_business", map[string]any{"business": slug})
				}
				success(t, "list_arrival_windows", map[string]any{"business": "split-day-plumbing"})
				success(t, "list_arrival_windows", map[string]any{"business": "split-day-plumbing", "from": "2026-11-24", "days": 1})
				if out := success(t, "list_arrival_windows", map[string]any{"business": "paused-plumbing"}); out["accepting_requests"] != false {
					t.Errorf("paused: got %v, want accepting_requests false", out)
				}
				var codes []string
				for _, args := range []map[string]any{
					// Something else: no service_id.
					{"business": "split-day-plumbing", "window_start": split[0], "address": addr("90012"), "contact": contact("3235550101")},
					// English-only business, every optional argument.
					{"business": "split-day-plumbing", "window_start": split[1], "address": map[string]any{"street": "12 Main St", "unit": "4B", "city": "Los Angeles", "zip": "90012"},
						"contact":    map[string]any{"name": "Ana Ruiz", "phone": "(323) 555-0102", "email": "ana@example.com", "sms_consent": true},
						"service_id": "drain-cleaning", "urgency": "emergency", "description": "Slow drain", "language": "en", "idempotency_key": "outputs-key-1", "assistant_name": "Test Assistant"},
					// A deposit.
					{"business": "deposit-plumbing", "window_start": deposit[0], "address": addr("10001"), "contact": contact("3235550103"), "deposit_accepted": true, "language": "es"},
					// An example business.
					{"business": "example-plumbing", "window_start": windows(t, "example-plumbing")[0], "address": addr("90012"), "contact": contact("3235550104")},
				} {
					out := success(t, "request_service", args)
					codes = append(codes, out["code"].(string))
				}
				// A retry under the same key: the same answer again.
				retry := success(t, "request_service", map[string]any{"business": "split-day-plumbing", "window_start": split[1], "address": map[string]any{"street": "12 Main St", "unit": "4B", "city": "Los Angeles", "zip": "90012"},
					"contact":    map[string]any{"name": "Ana Ruiz", "phone": "(323) 555-0102", "email": "ana@example.com", "sms_consent": true},
					"service_id": "drain-cleaning", "urgency": "emergency", "description": "Slow drain", "language": "en", "idempotency_key": "outputs-key-1", "assistant_name": "Test Assistant"})
				if retry["code"] != codes[1] {
					t.Errorf("retry: got %v, want %s", retry["code"], codes[1])
				}
				for _, code := range codes {
					success(t, "get_request_status", map[string]any{"code": code})
				}
				// What the business and the payment do show in the status too.
				b, err := s.bookings.Business(ctx, "split-day-plumbing")
				if err != nil {
					t.Fatal(err)
				}
				to, _ := edge.ParseWindowStart(split[2])
				if _, err := bookingtest.Inbox(t, s.bookings, b.Slug).Move(ctx, codes[0], booking.ActionMove, to); err != nil {
					t.Fatal(err)
				}
				if _, err := bookingtest.Inbox(t, s.bookings, b.Slug).Move(ctx, codes[1], booking.ActionDecline, time.Time{}); err != nil {
					t.Fatal(err)
				}
				if _, err := s.bookings.PaySimulated(ctx, codes[2]); err != nil {
					t.Fatal(err)
				}
				for _, code := range codes[:3] {
					success(t, "get_request_status", map[string]any{"code": code})
				}
			})

			t.Run("refusals", func(t *testing.T) {
				// Three open requests from one phone, and a phone marked spam.
				for i := range 3 {
					success(t, "request_service", map[string]any{"business": "split-day-plumbing", "window_start": split[3+i], "address": addr("90012"), "contact": contact("3235550120")})
				}
				spam := success(t, "request_service", map[string]any{"business": "split-day-plumbing", "window_start": split[6], "address": addr("90012"), "contact": contact("3235550130")})
				b, err := s.bookings.Business(ctx, "split-day-plumbing")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := bookingtest.Inbox(t, s.bookings, b.Slug).Move(ctx, spam["code"].(string), booking.ActionSpam, time.Time{}); err != nil {
					t.Fatal(err)
				}
				// all-day-plumbing takes two public requests an hour.
				for i := range 2 {
					success(t, "request_service", map[string]any{"business": "all-day-plumbing", "window_start": late[i], "address": addr("90012"), "contact": contact("323555014" + string(rune('0'+i)))})
				}
				ok := func(edit func(map[string]any)) map[string]any {
					args := map[string]any{"business": "split-day-plumbing", "window_start": split[7], "address": addr("90012"), "contact": contact("3235550150"), "service_id": "drain-cleaning"}
					if edit != nil {
						edit(args)
					}
					return args
				}
				set := func(key string, value any) map[string]any { return ok(func(a map[string]any) { a[key] = value }) }
				cases := []struct {
					name, tool string
					args       any
					want       booking.Code
				}{
					{"unknown business", "get_business", map[string]any{"business": "no-such-business"}, booking.NotFound},
					{"business missing", "get_business", map[string]any{}, booking.InvalidRequest},
					{"business not a string", "get_business", map[string]any{"business": 5}, booking.InvalidRequest},
					{"unknown business", "list_arrival_windows", map[string]any{"business": "no-such-business"}, booking.NotFound},
					{"from not a date", "list_arrival_windows", map[string]any{"business": "split-day-plumbing", "from": "tomorrow"}, booking.InvalidDate},
					{"days 30", "list_arrival_windows", map[string]any{"business": "split-day-plumbing", "days": 30}, booking.InvalidRequest},
					{"days not a number", "list_arrival_windows", map[string]any{"business": "split-day-plumbing", "days": "seven"}, booking.InvalidRequest},
					{"unknown request", "get_request_status", map[string]any{"code": "0000-0000-0000"}, booking.NotFound},
					{"code missing", "get_request_status", map[string]any{}, booking.InvalidRequest},
					{"unknown business", "request_service", set("business", "no-such-business"), booking.NotFound},
					{"contact missing", "request_service", ok(func(a map[string]any) { delete(a, "contact") }), booking.InvalidRequest},
					{"urgency", "request_service", set("urgency", "asap"), booking.InvalidRequest},
					{"window not a time", "request_service", set("window_start", "Monday 8am"), booking.InvalidWindow},
					{"street empty", "request_service", set("address", map[string]any{"street": " ", "zip": "90012"}), booking.InvalidAddress},
					{"zip", "request_service", set("address", addr("9001")), booking.InvalidZIP},
					{"name empty", "request_service", set("contact", map[string]any{"name": " ", "phone": "3235550150"}), booking.InvalidName},
					{"phone 555-12", "request_service", set("contact", contact("555-12")), booking.InvalidPhone},
					{"e-mail", "request_service", set("contact", map[string]any{"name": "Ana", "phone": "3235550150", "email": "ana@"}), booking.InvalidEmail},
					{"service", "request_service", set("service_id", "roofing"), booking.ServiceUnavailable},
					{"paused", "request_service", set("business", "paused-plumbing"), booking.BookingPaused},
					{"out of area", "request_service", set("address", addr("94110")), booking.OutOfArea},
					{"deposit terms", "request_service", map[string]any{"business": "deposit-plumbing", "window_start": deposit[1], "address": addr("10001"), "contact": contact("3235550150")}, booking.DepositTerms},
					{"window started", "request_service", set("window_start", "2026-11-19T16:00:00Z"), booking.TooLate},
					{"not a window start", "request_service", set("window_start", "2026-11-23T17:00:00Z"), booking.InvalidWindow},
					{"too many open", "request_service", ok(func(a map[string]any) { a["contact"] = contact("3235550120") }), booking.TooManyOpen},
					{"window taken", "request_service", set("window_start", split[2]), booking.WindowTaken},
					{"key reused", "request_service", set("idempotency_key", "outputs-key-1"), booking.IdempotencyKeyReused},
					{"rate limited", "request_service", map[string]any{"business": "all-day-plumbing", "window_start": late[2], "address": addr("90012"), "contact": contact("3235550160")}, booking.RateLimited},
					{"refused", "request_service", set("contact", contact("3235550130")), booking.RequestRefused},
				}
				for _, c := range cases {
					t.Run(c.tool+"/"+c.name, func(t *testing.T) {
						if got := protoRefusal(t, s.call(t, c.tool, c.args)); got != string(c.want) {
							t.Errorf("got %s, want %s", got, c.want)
						}
					})
				}
			})

			t.Run("schemas name only what the public gets", func(t *testing.T) {
				private := privateNames()
				for tool, schema := range schemas {
					paths := map[string]bool{}
					schemaPaths(schema.raw, "", paths)
					for path := range paths {
						if !seen[tool][path] {
							t.Errorf("%s: outputSchema names %s, which no public response carried", tool, path)
						}
						if name := path[strings.LastIndex(path, ".")+1:]; private[name] {
							t.Errorf("%s: outputSchema names %s, a field only the owner sees", tool, path)
						}
					}
				}
			})
		})
	}
}

// A failure on Doorstep's side is refused as SERVER_ERROR by every tool,
// without its detail.
func TestToolServerErrorIsARefusal(t *testing.T) {
	client, _ := dynamotest.Minidyn(t)
	broken := bookingtest.New(t, booking.Config{Store: dynamo.New(client, "no-such-table"), SiteURL: "https://book.example.com", Now: func() time.Time { return toolsStart }})
	s := newOutputsServer(t, outputsGenerations[0], broken)
	for tool, args := range map[string]any{
		"get_business":         map[string]any{"business": "split-day-plumbing"},
		"list_arrival_windows": map[string]any{"business": "split-day-plumbing"},
		"request_service":      map[string]any{"business": "split-day-plumbing", "window_start": "2026-11-23T16:00:00Z", "address": addr("90012"), "contact": contact("3235550142")},
		"get_request_status":   map[string]any{"code": "DEM0-REQ0-0001"},
	} {
		t.Run(tool, func(t *testing.T) {
			result := s.call(t, tool, args)
			if got := protoRefusal(t, result); got != string(booking.ServerError) {
				t.Errorf("got %s, want SERVER_ERROR", got)
			}
			if strings.Contains(string(result), "no-such-table") || strings.Contains(string(result), "ResourceNotFound") {
				t.Errorf("got %s, which tells the store's error", result)
			}
		})
	}
}

// outputsSchema is a tool's outputSchema, compiled and as published.
type outputsSchema struct {
	*jsonschema.Schema
	raw map[string]any
}

// keyPaths adds to out the path of every member of v: "a", "a.b", and
// "a[].b" for a member of an array's objects.
func keyPaths(v any, prefix string, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, member := range v {
			path := k
			if prefix != "" {
				path = prefix + "." + k
			}
			out[path] = true
			keyPaths(member, path, out)
		}
	case []any:
		for _, item := range v {
			keyPaths(item, prefix+"[]", out)
		}
	}
}

// schemaPaths adds to out the path of every property schema names, as
// keyPaths writes them.
func schemaPaths(schema map[string]any, prefix string, out map[string]bool) {
	if props, ok := schema["properties"].(map[string]any); ok {
		for k, p := range props {
			path := k
			if prefix != "" {
				path = prefix + "." + k
			}
			out[path] = true
			if sub, ok := p.(map[string]any); ok {
				schemaPaths(sub, path, out)
			}
		}
	}
	if items, ok := schema["items"].(map[string]any); ok {
		schemaPaths(items, prefix+"[]", out)
	}
}

// privateNames are the JSON names of what a business record carries for
// its owner only (booking.Private).
func privateNames() map[string]bool {
	out := map[string]bool{}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[booking.Private]()) {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			out[name] = true
		}
	}
	return out
}

func addr(zip string) map[string]any { return map[string]any{"street": "12 Main St", "zip": zip} }

func contact(phone string) map[string]any {
	return map[string]any{"name": "Ana Ruiz", "phone": phone, "sms_consent": false}
}
