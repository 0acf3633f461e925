package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/mcptools"
	"github.com/doorstep/doorstep/pkg/pages"
)

// scanRecorder keeps the DynamoDB operations a client made, each with the
// HTTP route (method and path) whose request made it.
type scanRecorder struct {
	mu    sync.Mutex
	calls []recordedOp
}

type recordedOp struct{ route, operation string }

type routeKey struct{}

// client is a client of base's engine that records every call.
func (r *scanRecorder) client(base *dynamodb.Client) *dynamodb.Client {
	record := middleware.InitializeMiddlewareFunc("DoorstepRecordOperations",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			route, _ := ctx.Value(routeKey{}).(string)
			if route == "" {
				route = "(no route: the server's own work)"
			}
			r.mu.Lock()
			r.calls = append(r.calls, recordedOp{route, awsmiddleware.GetOperationName(ctx)})
			r.mu.Unlock()
			return next.HandleInitialize(ctx, in)
		})
	return dynamodb.New(base.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error { return s.Initialize.Add(record, middleware.Before) })
	})
}

// label puts each request's method and path on its context, which the
// store's calls carry.
func (r *scanRecorder) label(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		h.ServeHTTP(w, req.WithContext(context.WithValue(req.Context(), routeKey{}, req.Method+" "+req.URL.Path)))
	})
}

// TestNoScanOnAnyRoute drives every route of every edge the local server
// mounts (the JSON API, MCP, the booking form, the person's pages, the
// inbox's JSON, the web inbox, the calendar feed: the same tables API
// Gateway's routes are checked against), as a person, an assistant and a
// business use them, through the local wiring (handlerOn) on a client that
// records every DynamoDB operation with the route that made it, and fails
// on any Scan, naming its route. A route of the tables that this test does
// not drive fails it too. The notifications run in the same calls (the
// local server's store tells the notifier of each write); the functions on
// the stream, the payment webhook and the sweeper are checked by
// lambdatest.Record in their functions' tests, and every function by
// pkg/dynamo's TestNoScanOutsideCtl.
func TestNoScanOnAnyRoute(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	businesses, err := loadBusinesses("")
	if err != nil {
		t.Fatal(err)
	}
	st, err := memoryStore(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	if err := putBusinesses(ctx, st.client, businesses); err != nil {
		t.Fatal(err)
	}
	rec := &scanRecorder{}
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	defer srv.Close()
	h, err := handlerOn(ctx, rec.client(st.client), srv.URL, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	handler = rec.label(h)

	const slug, email = "desert-cool-hvac", "inbox@desert-cool-hvac.example.com"
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	driven := map[string]bool{}
	send := func(pattern, method, path, contentType, body string, header map[string]string) (int, string) {
		t.Helper()
		driven[pattern] = true
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if method == http.MethodPost {
			req.Header.Set("Origin", srv.URL) // as a browser sends it
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 500 {
			t.Errorf("%s %s (%s): got %d %s", method, path, pattern, res.StatusCode, data)
		}
		return res.StatusCode, string(data)
	}
	get := func(pattern, path string) (int, string) { return send(pattern, http.MethodGet, path, "", "", nil) }
	postForm := func(pattern, path string, form url.Values) (int, string) {
		return send(pattern, http.MethodPost, path, "application/x-www-form-urlencoded", form.Encode(), nil)
	}
	postJSON := func(pattern, path, body string, header map[string]string) (int, string) {
		return send(pattern, http.MethodPost, path, "application/json", body, header)
	}

	// The person's and the assistant's calls: the JSON API and MCP.
	get("GET /api/v1/businesses/{slug}", "/api/v1/businesses/"+slug)
	status, body := get("GET /api/v1/businesses/{slug}/availability", "/api/v1/businesses/"+slug+"/availability?days=3")
	var avail struct{ Windows []struct{ Start string } }
	if err := json.Unmarshal([]byte(body), &avail); status != 200 || err != nil || len(avail.Windows) < 4 {
		t.Fatalf("availability: got %d %s", status, body)
	}
	create := func(window int, phone string) string {
		t.Helper()
		status, body := postJSON("POST /api/v1/businesses/{slug}/requests", "/api/v1/businesses/"+slug+"/requests",
			`{"window_start":"`+avail.Windows[window].Start+`","address":{"street":"1 A St","zip":"85004"},"contact":{"name":"Jo","phone":"`+phone+`","email":"jo`+phone+`@example.com"}}`, nil)
		var created struct{ Code string }
		if err := json.Unmarshal([]byte(body), &created); status != 201 || err != nil || created.Code == "" {
			t.Fatalf("createServiceRequest: got %d %s", status, body)
		}
		return created.Code
	}
	accepted, webAccepted, cancelled := create(0, "602-555-0100"), create(1, "602-555-0101"), create(2, "602-555-0102")
	get("GET /api/v1/requests/{code}", "/api/v1/requests/"+accepted)
	get("GET /api/v1/openapi.json", "/api/v1/openapi.json")
	get("GET /api/v1/openapi.yaml", "/api/v1/openapi.yaml")
	tool := func(name, args string) {
		t.Helper()
		if status, body := postJSON("/mcp", "/mcp", fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, name, args),
			map[string]string{"Accept": "application/json, text/event-stream"}); status != 200 || strings.Contains(body, `"isError":true`) {
			t.Errorf("MCP %s: got %d %s", name, status, body)
		}
	}
	tool("get_business", `{"business":"`+slug+`"}`)
	tool("list_arrival_windows", `{"business":"`+slug+`","days":2}`)
	tool("get_request_status", `{"code":"`+accepted+`"}`)
	tool("request_service", `{"business":"`+slug+`","window_start":"`+avail.Windows[3].Start+`","address":{"street":"1 A St","zip":"85004"},"contact":{"name":"Jo","phone":"6025550103"}}`)

	// The business's JSON inbox, with the demo's token.
	bearer := map[string]string{"Authorization": "Bearer " + slug + demoTokenSuffix}
	send("GET /api/v1/inbox/requests", http.MethodGet, "/api/v1/inbox/requests", "", "", bearer)
	send("GET /api/v1/inbox/requests/{code}", http.MethodGet, "/api/v1/inbox/requests/"+accepted, "", "", bearer)
	if status, body := postJSON("POST /api/v1/inbox/requests/{code}/{action}", "/api/v1/inbox/requests/"+accepted+"/accept", `{}`, bearer); status != 200 {
		t.Errorf("inbox accept: got %d %s", status, body)
	}
	send("GET /api/v1/inbox/export", http.MethodGet, "/api/v1/inbox/export", "", "", bearer)
	get("GET /calendar/{token}", "/calendar/"+slug+demoFeedSuffix+".ics")

	// The person's pages.
	get("GET /r", "/r/?code="+url.QueryEscape(cancelled))
	get("GET /r/{code}", "/r/"+cancelled)
	postForm("POST /r/{code}/contact", "/r/"+cancelled+"/contact", url.Values{"email": {"jo@example.com"}})
	get("GET /pay/{code}", "/pay/"+cancelled)
	postForm("POST /pay/{code}", "/pay/"+cancelled, url.Values{})
	get("GET /r/{code}/cancel", "/r/"+cancelled+"/cancel")
	postForm("POST /r/{code}/cancel", "/r/"+cancelled+"/cancel", url.Values{})
	get("GET /r/{code}/erase", "/r/"+cancelled+"/erase")
	postForm("POST /r/{code}/erase", "/r/"+cancelled+"/erase", url.Values{})

	// The visitor's booking form.
	get("GET /book/{slug}", "/book/"+slug)
	postForm("POST /book/{slug}", "/book/"+slug, url.Values{"step": {"where"}, "zip": {"85004"}})
	send("/book/{slug}", http.MethodPut, "/book/"+slug, "", "", nil)
	get("/book/", "/book/"+slug+"/nothing")
	get("/book", "/book")

	// The web inbox: signed out, the sign-in, then every page and form.
	get("GET /inbox", "/inbox")
	if status, body := postForm("POST /inbox/sign-in", "/inbox/sign-in", url.Values{"email": {email}}); status != 200 {
		t.Fatalf("sign-in form: got %d %s", status, body)
	}
	link := ""
	for _, m := range outboxLinks(t, srv.URL) {
		link = m
	}
	if link == "" {
		t.Fatal("/dev/outbox: no sign-in link")
	}
	get("GET /inbox/sign-in/{token}", link)
	if status, body := postForm("POST /inbox/sign-in/{token}", link, url.Values{}); status != 200 && status != 303 {
		t.Fatalf("sign-in link: got %d %s", status, body)
	}
	_, page := get("GET /inbox/settings", "/inbox/settings")
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page)
	if csrf == nil {
		t.Fatalf("settings: no csrf field in %s", page)
	}
	with := func(v url.Values) url.Values { v.Set("csrf", csrf[1]); return v }
	get("GET /inbox", "/inbox")
	get("GET /inbox/requests/{code}", "/inbox/requests/"+webAccepted)
	get("GET /inbox/requests/{code}/{action}", "/inbox/requests/"+webAccepted+"/decline")
	if status, body := postForm("POST /inbox/requests/{code}/{action}", "/inbox/requests/"+webAccepted+"/accept", with(url.Values{})); status != 200 && status != 303 {
		t.Errorf("web accept: got %d %s", status, body)
	}
	postForm("POST /inbox/settings", "/inbox/settings", with(url.Values{"accepting_requests": {"on"}}))
	get("GET /inbox/settings/{form}", "/inbox/settings/notice")
	postForm("POST /inbox/settings/{form}", "/inbox/settings/notice", with(url.Values{"min_notice_minutes": {"60"}}))
	postForm("POST /inbox/settings/feed", "/inbox/settings/feed", with(url.Values{}))
	get("GET /inbox/settings/feed", "/inbox/settings/feed")
	postForm("POST /inbox/settings/feed-stop", "/inbox/settings/feed-stop", with(url.Values{}))
	get("GET /inbox/export", "/inbox/export")
	get("GET /inbox/export.csv", "/inbox/export.csv")
	postForm("POST /inbox/settings/owner-phone", "/inbox/settings/owner-phone", with(url.Values{"phone": {"602-555-0199"}}))
	postForm("POST /inbox/settings/owner-phone-code", "/inbox/settings/owner-phone-code", with(url.Values{"code": {"000000"}}))
	postForm("POST /inbox/settings/text-me", "/inbox/settings/text-me", with(url.Values{"text_me": {"on"}}))
	// Going live and back, and pausing in one tap (a demo business is
	// live: back to preview first).
	postForm("POST /inbox/back-to-preview", "/inbox/back-to-preview", with(url.Values{}))
	postForm("POST /inbox/go-live", "/inbox/go-live", with(url.Values{}))
	postForm("POST /inbox/accepting", "/inbox/accepting", with(url.Values{"accepting_requests": {"on"}}))
	// A new inbox address, confirmed by the link e-mailed to it.
	postForm("POST /inbox/settings/inbox-email", "/inbox/settings/inbox-email", with(url.Values{"inbox_email": {"new-inbox@desert-cool-hvac.example.com"}}))
	if change := outboxPaths(t, srv.URL, `/inbox/email/[A-Za-z0-9_-]+`); len(change) > 0 {
		get("GET /inbox/email/{token}", change[len(change)-1])
		postForm("POST /inbox/email/{token}", change[len(change)-1], url.Values{})
	} else {
		t.Error("/dev/outbox: no link to confirm the new inbox address")
	}
	send("/inbox", http.MethodPut, "/inbox", "", "", nil)
	get("/inbox/", "/inbox/nothing")
	// Signed out: a sign-in by a texted code, and a sign-up.
	postForm("POST /inbox/sign-in-text", "/inbox/sign-in-text", url.Values{"email": {email}})
	postForm("POST /inbox/sign-in-code", "/inbox/sign-in-code", url.Values{"email": {email}, "code": {"000000"}})
	get("GET /start", "/start")
	postForm("POST /start", "/start", url.Values{"name": {"Scan Free Plumbing"}, "trade": {"plumbing"}, "email": {"owner@scan-free.example.com"}, "terms": {"yes"}})
	if start := outboxPaths(t, srv.URL, `/start/[A-Za-z0-9_-]+`); len(start) > 0 {
		get("GET /start/{token}", start[0])
		postForm("POST /start/{token}", start[0], url.Values{})
	} else {
		t.Error("/dev/outbox: no sign-up link")
	}
	send("/start", http.MethodPut, "/start", "", "", nil)
	get("/start/", "/start/nothing/more")
	// Last, as it marks every request since then not genuine.
	postJSON("POST /api/v1/inbox/spam", "/api/v1/inbox/spam", `{"since":"`+time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)+`"}`, bearer)
	postForm("POST /inbox/sign-out", "/inbox/sign-out", with(url.Values{}))

	// Every route of the tables was driven.
	log := slog.New(slog.DiscardHandler)
	for _, routes := range [][]edge.Route{
		mcptools.Routes(nil, log), httpapi.InboxRoutes(nil, log), httpapi.CalendarRoutes(nil, log),
		inboxweb.Routes(inboxweb.Config{}), pages.Routes(pages.Config{}), bookform.Routes(bookform.Config{}),
		httpapi.Routes(nil, log), httpapi.DocumentRoutes(),
	} {
		for _, r := range routes {
			if !driven[r.Pattern()] {
				t.Errorf("route %s: not driven by this test; add it", r.Pattern())
			}
		}
	}

	rec.mu.Lock()
	defer rec.mu.Unlock()
	ops := map[string]int{}
	for _, c := range rec.calls {
		ops[c.operation]++
		if c.operation == "Scan" {
			t.Errorf("Scan made by %s: no route a person or a business triggers may read the whole table", c.route)
		}
	}
	if ops["GetItem"] == 0 || ops["TransactWriteItems"] == 0 || ops["Query"] == 0 {
		t.Fatalf("the recorder saw %v: it does not see the store's calls", ops)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range ops {
			if !yield(k) {
				return
			}
		}
	})
	var summary []string
	for _, n := range names {
		summary = append(summary, fmt.Sprintf("%s %d", n, ops[n]))
	}
	t.Logf("%d routes driven, %d DynamoDB calls: %s", len(driven), len(rec.calls), strings.Join(summary, ", "))
}

// outboxLinks are the web inbox's sign-in links in the local outbox, oldest
// first.
func outboxLinks(t *testing.T, base string) []string {
	t.Helper()
	return outboxPaths(t, base, `/inbox/sign-in/[A-Za-z0-9_-]+`)
}

// outboxPaths returns the paths matching pattern in the local outbox's
// messages, oldest first.
func outboxPaths(t *testing.T, base, pattern string) []string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/dev/outbox", nil)
	req.Header.Set("Accept", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return regexp.MustCompile(pattern).FindAllString(string(data), -1)
}
