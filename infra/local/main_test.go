package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
)

// The local server answers every operation of the JSON API on the demo
// businesses, as the README's curl walk does.
func TestLocalServer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--memory"}, pw) }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	base := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line)
	if base == "" {
		t.Fatalf("got %q, want the address it listens on", line)
	}

	// do sends a JSON API request, checks the exchange against the OpenAPI
	// document and decodes the answer into v.
	do := func(method, path, body string, v any, header ...string) int {
		t.Helper()
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		openapitest.Check(t, req, []byte(body), res.StatusCode, res.Header, data)
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, data)
		}
		return res.StatusCode
	}
	get := func(path string, v any) int {
		t.Helper()
		return do("GET", path, "", v)
	}
	var business struct {
		Slug       string
		BookingURL string `json:"booking_url"`
	}
	if status := get("/api/v1/businesses/desert-cool-hvac", &business); status != 200 || business.Slug != "desert-cool-hvac" {
		t.Fatalf("getBusiness: got %d %+v", status, business)
	}
	// Locally, booking_url is this server's own form, which opens.
	if want := base + "/book/desert-cool-hvac"; business.BookingURL != want {
		t.Errorf("getBusiness: got booking_url %q, want the local form %q", business.BookingURL, want)
	} else if res, err := http.Get(want); err != nil || res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET %s: got %v %v, want the form's page", want, res, err)
	} else {
		res.Body.Close()
	}
	var availability struct{ Windows []struct{ Start string } }
	if status := get("/api/v1/businesses/desert-cool-hvac/availability?days=2", &availability); status != 200 || len(availability.Windows) == 0 {
		t.Fatalf("listArrivalWindows: got %d %+v", status, availability)
	}
	body := `{"window_start":"` + availability.Windows[0].Start + `","address":{"street":"1 A St","zip":"85004"},"contact":{"name":"Jo","phone":"602-555-0100"}}`
	var created struct {
		Code   string `json:"code"`
		APIURL string `json:"api_url"`
	}
	if status := do("POST", "/api/v1/businesses/desert-cool-hvac/requests", body, &created); status != 201 || created.APIURL != base+"/api/v1/requests/"+created.Code {
		t.Fatalf("createServiceRequest: got %d %+v, want 201 with an api_url on this server", status, created)
	}
	var status struct{ Status string }
	if code := get("/api/v1/requests/"+created.Code, &status); code != 200 || status.Status != "new" {
		t.Fatalf("getServiceRequest: got %d %+v", code, status)
	}

	// The business inbox, with the demo business's published local token.
	var accepted struct{ Status string }
	if code := do("POST", "/api/v1/inbox/requests/"+created.Code+"/accept", "", &accepted,
		"Authorization", "Bearer desert-cool-hvac"+demoTokenSuffix); code != 200 || accepted.Status != "accepted" {
		t.Fatalf("inbox accept: got %d %+v", code, accepted)
	}
	if code := get("/api/v1/requests/"+created.Code, &status); code != 200 || status.Status != "accepted" {
		t.Fatalf("getServiceRequest after accept: got %d %+v", code, status)
	}

	// The calendar feed, with the demo business's published local feed
	// token, and the person's event: the accepted job in both.
	for _, path := range []string{"/calendar/desert-cool-hvac" + demoFeedSuffix + ".ics", "/r/" + created.Code + ".ics"} {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		openapitest.Check(t, res.Request, nil, res.StatusCode, res.Header, data)
		if res.StatusCode != 200 || !strings.Contains(string(data), "UID:"+created.Code+"@") || !strings.Contains(string(data), "STATUS:CONFIRMED") {
			t.Fatalf("GET %s: got %d %s, want the accepted job", path, res.StatusCode, data)
		}
	}

	// Notifications go to the outbox: the business heard of the new request
	// (desert-cool-hvac has an inbox_email; the person gave no e-mail and no
	// consent to texts, so they get nothing).
	res, err := http.Get(base + "/dev/outbox")
	if err != nil {
		t.Fatal(err)
	}
	var box struct {
		Messages []struct{ Kind, Audience, Channel, To, Body string }
	}
	err = json.NewDecoder(res.Body).Decode(&box)
	res.Body.Close()
	if err != nil || len(box.Messages) != 1 {
		t.Fatalf("/dev/outbox: got %+v, %v; want the business's one new-request e-mail", box, err)
	}
	if m := box.Messages[0]; m.Audience != "business" || m.To != "inbox@desert-cool-hvac.example.com" || !strings.Contains(m.Body, created.Code) {
		t.Errorf("/dev/outbox: got %+v, want the new request for inbox@desert-cool-hvac.example.com", m)
	}

	var doc struct{ OpenAPI string }
	if status := get("/api/v1/openapi.json", &doc); status != 200 || doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi.json: got %d %+v", status, doc)
	}

	res, err = http.Post(base+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	tools, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(tools), `"name":"request_service"`) {
		t.Fatalf("/mcp tools/list: got %d %s", res.StatusCode, tools)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("got %v on shutdown, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop")
	}
}

func TestBadBusinessesFileFailsAtStart(t *testing.T) {
	err := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--memory", "--businesses", "main_test.go"}, io.Discard)
	if err == nil {
		t.Fatal("got no error for a businesses file that is not JSON")
	}
}

// startLocal runs the local server on a free port, in memory (--memory:
// the tests of infra/local run on minidyn, which starts at once; the
// default engine has its own tests in store_test.go), with args after
// those, until the test ends, and returns its address.
func startLocal(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, append([]string{"--addr", "127.0.0.1:0", "--memory"}, args...), pw) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("got %v on shutdown, want nil", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	base := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line)
	if base == "" {
		t.Fatalf("got %q, want the address it listens on", line)
	}
	return base
}

// An assistant that connects without a login probes the OAuth discovery
// addresses first: the service has no authorization server, so each is a
// plain 404, with no metadata document and no WWW-Authenticate challenge,
// and the assistant goes on without authentication. (Deployed, these paths
// match no route of the HTTP API, and API Gateway answers its own 404.)
func TestLocalOAuthDiscoveryIsNotFound(t *testing.T) {
	base := startLocal(t)
	for _, path := range []string{
		"/.well-known/oauth-protected-resource",
		"/.well-known/oauth-protected-resource/mcp",
		"/.well-known/oauth-authorization-server",
		"/.well-known/oauth-authorization-server/mcp",
		"/.well-known/openid-configuration",
		"/mcp/.well-known/openid-configuration",
	} {
		t.Run(path, func(t *testing.T) {
			res, err := http.Get(base + path)
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("got %d %s, want 404", res.StatusCode, data)
			}
			if got := res.Header.Get("WWW-Authenticate"); got != "" {
				t.Errorf("got WWW-Authenticate %q, want none", got)
			}
			// Whatever the body, it is not OAuth metadata (RFC 9728, RFC 8414).
			var doc map[string]any
			_ = json.Unmarshal(data, &doc)
			for _, member := range []string{"resource", "authorization_servers", "issuer", "authorization_endpoint", "token_endpoint"} {
				if _, ok := doc[member]; ok {
					t.Errorf("got %s in %s, want no OAuth metadata", member, data)
				}
			}
		})
	}
	// And /mcp itself answers without a login.
	res, err := http.Post(base+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("WWW-Authenticate") != "" {
		t.Errorf("/mcp: got %d with WWW-Authenticate %q, want 200 and no challenge", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
}

// The local server's /mcp carries the tool server's HTTP wrapping: CORS
// preflights, and batches refused.
func TestLocalMCPTransport(t *testing.T) {
	base := startLocal(t)
	req, err := http.NewRequest(http.MethodOptions, base+"/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", "https://inspector.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "content-type,mcp-protocol-version")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent || res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("OPTIONS /mcp: got %d with Access-Control-Allow-Origin %q, want 204 and *", res.StatusCode, res.Header.Get("Access-Control-Allow-Origin"))
	}

	res, err = http.Post(base+"/mcp", "application/json", strings.NewReader(`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`))
	if err != nil {
		t.Fatal(err)
	}
	var rpc struct {
		Error struct{ Code int } `json:"error"`
	}
	err = json.NewDecoder(res.Body).Decode(&rpc)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusBadRequest || rpc.Error.Code != -32600 {
		t.Errorf("batch POST /mcp: got %d, error %+v, %v; want 400 with JSON-RPC error -32600", res.StatusCode, rpc.Error, err)
	}
}

// TestLocalLimitHitIsTold: without a stream, the local server tells the
// business the first time its limits refuse a request in an hour, and not
// again that hour.
func TestLocalLimitHitIsTold(t *testing.T) {
	// The demo businesses, desert-cool-hvac taking one request an hour.
	base := startLocal(t, "--businesses", demoBusinessesWith(t, "desert-cool-hvac", "requests_per_hour", 1))
	var availability struct{ Windows []struct{ Start string } }
	getJSON(t, base+"/api/v1/businesses/desert-cool-hvac/availability?days=3", &availability)
	if len(availability.Windows) < 3 {
		t.Fatalf("got %d windows, want 3", len(availability.Windows))
	}
	startHour := time.Now().UTC().Truncate(time.Hour)
	for i, want := range []int{201, 429, 429} {
		body := fmt.Sprintf(`{"window_start":%q,"address":{"street":"1 A St","zip":"85004"},"contact":{"name":"Jo","phone":"602-555-010%d"}}`,
			availability.Windows[i].Start, i)
		res, err := http.Post(base+"/api/v1/businesses/desert-cool-hvac/requests", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("create %d: got %d, want %d", i+1, res.StatusCode, want)
		}
	}

	// The two refusals fall in one clock hour, unless the test ran across
	// the turn of an hour: then each hour is told once.
	wantTold := 1
	if !time.Now().UTC().Truncate(time.Hour).Equal(startHour) {
		wantTold = 2
	}
	var box struct {
		Messages []struct{ ID, Kind, To, Body string }
	}
	getJSON(t, base+"/dev/outbox", &box)
	var told []string
	for _, m := range box.Messages {
		if m.Kind == "limit_reached" {
			told = append(told, m.ID+" -> "+m.To)
			if !strings.Contains(m.Body, "at most 1 in any hour") || !strings.Contains(m.Body, base+"/inbox\n") {
				t.Errorf("got body\n%s\nwant the limit of 1 an hour and the inbox", m.Body)
			}
		}
	}
	if len(told) != wantTold {
		t.Fatalf("got %v, want %d limit_reached e-mail to desert-cool-hvac's inbox", told, wantTold)
	}
	for _, m := range told {
		if !strings.HasPrefix(m, "limit#desert-cool-hvac#") || !strings.HasSuffix(m, "/limit_reached/business/email -> inbox@desert-cool-hvac.example.com") {
			t.Errorf("got %s, want the limit_reached e-mail to desert-cool-hvac's inbox", m)
		}
	}
}

// demoBusinessesWith writes the demo businesses file with one field of the
// business slug set to value, and returns its path.
func demoBusinessesWith(t *testing.T, slug, field string, value any) string {
	t.Helper()
	data, err := os.ReadFile("businesses.json")
	if err != nil {
		t.Fatal(err)
	}
	var businesses []map[string]any
	if err := json.Unmarshal(data, &businesses); err != nil {
		t.Fatal(err)
	}
	for _, b := range businesses {
		if b["slug"] == slug {
			b[field] = value
		}
	}
	file := filepath.Join(t.TempDir(), "businesses.json")
	if data, err = json.Marshal(businesses); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestLocalCrews: a business of two crews (crews_per_window in its file)
// keeps a window listed, on the JSON API and to the MCP tool, until two
// requests hold it; the third is WINDOW_TAKEN.
func TestLocalCrews(t *testing.T) {
	const slug = "desert-cool-hvac"
	base := startLocal(t, "--businesses", demoBusinessesWith(t, slug, "crews_per_window", 2))
	var availability struct{ Windows []struct{ Start time.Time } }
	getJSON(t, base+"/api/v1/businesses/"+slug+"/availability?days=2", &availability)
	if len(availability.Windows) == 0 {
		t.Fatal("no window to ask for")
	}
	window := availability.Windows[0].Start

	// listed counts the window on the JSON API and through the MCP tool.
	listed := func() (api, mcp int) {
		t.Helper()
		var a struct{ Windows []struct{ Start time.Time } }
		getJSON(t, base+"/api/v1/businesses/"+slug+"/availability?days=2", &a)
		for _, w := range a.Windows {
			if w.Start.Equal(window) {
				api++
			}
		}
		call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_arrival_windows","arguments":{"business":"` + slug + `","days":2}}}`
		req, err := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(call))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var rpc struct {
			Result struct {
				StructuredContent struct{ Windows []struct{ Start time.Time } } `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.NewDecoder(res.Body).Decode(&rpc); err != nil {
			t.Fatal(err)
		}
		for _, w := range rpc.Result.StructuredContent.Windows {
			if w.Start.Equal(window) {
				mcp++
			}
		}
		return api, mcp
	}

	for i, want := range []struct {
		status   int
		api, mcp int // the window listed after
	}{{201, 1, 1}, {201, 0, 0}, {409, 0, 0}} {
		body := fmt.Sprintf(`{"window_start":%q,"address":{"street":"1 A St","zip":"85004"},"contact":{"name":"Jo","phone":"602-555-020%d"},"service_id":"ac-not-cooling"}`,
			window.Format(time.RFC3339), i)
		res, err := http.Post(base+"/api/v1/businesses/"+slug+"/requests", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want.status {
			t.Fatalf("create %d: got %d, want %d", i+1, res.StatusCode, want.status)
		}
		if api, mcp := listed(); api != want.api || mcp != want.mcp {
			t.Errorf("after create %d: the window listed %d times on the API and %d through MCP, want %d and %d", i+1, api, mcp, want.api, want.mcp)
		}
	}
}

// The start banner names the web inbox, the outbox its sign-in links land
// in, and each demo business's inbox address to sign in with.
func TestBanner(t *testing.T) {
	businesses, err := loadBusinesses("")
	if err != nil {
		t.Fatal(err)
	}
	const site = "http://127.0.0.1:8080"
	var out strings.Builder
	banner(&out, businesses, site, true)
	got := out.String()
	want := []string{site + "/inbox ", site + "/dev/outbox\n", site + "/api/v1/businesses/" + businesses[0].Slug}
	for _, b := range businesses {
		if b.InboxEmail == "" {
			t.Errorf("%s has no inbox_email to sign in with", b.Slug)
			continue
		}
		want = append(want, b.Slug+" ", " "+b.InboxEmail+"\n")
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("the banner lacks %q:\n%s", w, got)
		}
	}
}
