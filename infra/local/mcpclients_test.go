package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The official MCP clients, pinned in infra/mcpclients/package.json and
// installed by make mcp-clients, each drive the local server as an
// assistant's host would (infra/mcpclients/drive.mjs): list the tools,
// call each tool successfully, and get every refusal as a result with
// isError true and its code, never as something thrown. The TypeScript SDK
// v1 and the Inspector check structuredContent against the tool's
// outputSchema, so a refusal that carried {"error": ...} failed there.

// mcpClients are the clients drive.mjs knows, with the package each is.
var mcpClients = []struct{ kind, pkg string }{
	{"sdk-v1", "@modelcontextprotocol/sdk"},
	{"client-v2", "@modelcontextprotocol/client"},
	{"inspector", "@modelcontextprotocol/inspector"},
}

// mcpClientCall is one call of the plan drive.mjs makes, and what it must
// come to: a success, or a refusal with code want.
type mcpClientCall struct {
	Name      string         `json:"name"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	want      string
}

// mcpClientAnswer is what the client handed back for one call.
type mcpClientAnswer struct {
	Name       string   `json:"name"`
	Threw      *string  `json:"threw"`
	IsError    bool     `json:"isError"`
	Text       string   `json:"text"`
	Structured bool     `json:"structured"`
	Exit       *int     `json:"exit"`
	Tools      []string `json:"tools"`
}

func TestOfficialMCPClients(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "mcpclients"))
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node not found: the official MCP clients run on Node.js 20 or later. Install it (apt-get install nodejs npm), then run make mcp-clients.")
	}
	for _, c := range mcpClients {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", c.pkg, "package.json")); err != nil {
			t.Fatalf("%s is not installed in infra/mcpclients: run make mcp-clients (npm ci --prefix infra/mcpclients)", c.pkg)
		}
	}
	table := make([][]string, len(mcpClients))
	t.Run("clients", func(t *testing.T) {
		for i, c := range mcpClients {
			t.Run(c.kind, func(t *testing.T) {
				t.Parallel()
				base := startLocal(t)
				plan := mcpClientPlan(t, base)
				answers := driveMCPClient(t, node, dir, c.kind, base, plan)
				table[i] = checkMCPClientAnswers(t, c.kind, plan, answers)
			})
		}
	})
	// The client × call table, for the record (go test -v).
	for _, col := range table {
		if col == nil {
			return
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-28s", "call")
	for _, c := range mcpClients {
		fmt.Fprintf(&b, " %-26s", c.kind)
	}
	for row := range table[0] {
		fmt.Fprintf(&b, "\n")
		for col, outcomes := range table {
			if col == 0 {
				name, _, _ := strings.Cut(outcomes[row], "|")
				fmt.Fprintf(&b, "%-28s", name)
			}
			_, outcome, _ := strings.Cut(outcomes[row], "|")
			fmt.Fprintf(&b, " %-26s", outcome)
		}
	}
	t.Logf("what each official client handed back:\n%s", b.String())
}

// mcpClientPlan is the calls each client makes against the server at
// base: a request is already waiting on desert-cool-hvac's first window.
func mcpClientPlan(t *testing.T, base string) []mcpClientCall {
	t.Helper()
	var availability struct{ Windows []struct{ Start time.Time } }
	getJSON(t, base+"/api/v1/businesses/desert-cool-hvac/availability?days=3", &availability)
	if len(availability.Windows) < 2 {
		t.Fatalf("got %d windows, want 2 or more", len(availability.Windows))
	}
	first, second := availability.Windows[0].Start, availability.Windows[1].Start
	address := map[string]any{"street": "1820 N 7th St", "zip": "85006"}
	contact := func(phone string) map[string]any {
		return map[string]any{"name": "Jordan Lee", "phone": phone, "sms_consent": false}
	}
	request := func(window string, edit func(map[string]any)) map[string]any {
		args := map[string]any{"business": "desert-cool-hvac", "window_start": window, "address": address, "contact": contact("6025550147"), "service_id": "ac-not-cooling"}
		if edit != nil {
			edit(args)
		}
		return args
	}
	set := func(key string, value any) func(map[string]any) { return func(a map[string]any) { a[key] = value } }
	waiting := createOverHTTP(t, base, request(first.Format(time.RFC3339), set("contact", contact("6025550100"))))

	return []mcpClientCall{
		{Name: "get_business", Tool: "get_business", Arguments: map[string]any{"business": "desert-cool-hvac"}},
		{Name: "list_arrival_windows", Tool: "list_arrival_windows", Arguments: map[string]any{"business": "desert-cool-hvac", "days": 2}},
		{Name: "request_service", Tool: "request_service", Arguments: request(second.Format(time.RFC3339), nil)},
		{Name: "get_request_status", Tool: "get_request_status", Arguments: map[string]any{"code": waiting}},
		{Name: "unknown business (get)", Tool: "get_business", Arguments: map[string]any{"business": "nobody"}, want: "NOT_FOUND"},
		{Name: "unknown business (list)", Tool: "list_arrival_windows", Arguments: map[string]any{"business": "nobody"}, want: "NOT_FOUND"},
		{Name: "unknown business (request)", Tool: "request_service", Arguments: request(second.Format(time.RFC3339), set("business", "nobody")), want: "NOT_FOUND"},
		{Name: "unknown request code", Tool: "get_request_status", Arguments: map[string]any{"code": "0000-0000-0000"}, want: "NOT_FOUND"},
		{Name: "window just taken", Tool: "request_service", Arguments: request(first.Format(time.RFC3339), nil), want: "WINDOW_TAKEN"},
		{Name: "window in the past", Tool: "request_service", Arguments: request(first.Add(-48*time.Hour).Format(time.RFC3339), nil), want: "TOO_LATE"},
		{Name: "garbage window", Tool: "request_service", Arguments: request("next tuesday", nil), want: "INVALID_WINDOW"},
		{Name: "phone 555-12", Tool: "request_service", Arguments: request(second.Format(time.RFC3339), set("contact", contact("555-12"))), want: "INVALID_PHONE"},
		{Name: "ZIP outside the area", Tool: "request_service", Arguments: request(second.Format(time.RFC3339), set("address", map[string]any{"street": "1 A St", "zip": "90210"})), want: "OUT_OF_AREA"},
		{Name: "paused business", Tool: "request_service", Arguments: request(second.Format(time.RFC3339), func(a map[string]any) { a["business"] = "hudson-heights-electric"; delete(a, "service_id") }), want: "BOOKING_PAUSED"},
		{Name: "bad e-mail", Tool: "request_service", Arguments: request(second.Format(time.RFC3339), set("contact", map[string]any{"name": "Jordan Lee", "phone": "6025550147", "email": "jordan@"})), want: "INVALID_EMAIL"},
		{Name: "days 30", Tool: "list_arrival_windows", Arguments: map[string]any{"business": "desert-cool-hvac", "days": 30}, want: "INVALID_REQUEST"},
		{Name: "contact missing", Tool: "request_service", Arguments: request(second.Format(time.RFC3339), func(a map[string]any) { delete(a, "contact") }), want: "INVALID_REQUEST"},
	}
}

// createOverHTTP sends a request through the JSON API and returns its code.
func createOverHTTP(t *testing.T, base string, args map[string]any) string {
	t.Helper()
	body := map[string]any{}
	for k, v := range args {
		if k != "business" {
			body[k] = v
		}
	}
	data, _ := json.Marshal(body)
	res, err := http.Post(base+"/api/v1/businesses/"+args["business"].(string)+"/requests", "application/json", strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var created struct{ Code string }
	if err := json.NewDecoder(res.Body).Decode(&created); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create: got %d %v", res.StatusCode, err)
	}
	return created.Code
}

// driveMCPClient runs drive.mjs with one client over plan.
func driveMCPClient(t *testing.T, node, dir, kind, base string, plan []mcpClientCall) []mcpClientAnswer {
	t.Helper()
	data, _ := json.Marshal(plan)
	planFile := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(planFile, data, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "drive.mjs"), kind, base+"/mcp", planFile)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node drive.mjs %s: %v\n%s", kind, err, stderr.String())
	}
	var answers []mcpClientAnswer
	if err := json.Unmarshal(out, &answers); err != nil {
		t.Fatalf("drive.mjs %s: %v: %s", kind, err, out)
	}
	return answers
}

// checkMCPClientAnswers checks each answer against its call and returns
// one "call|outcome" line per call.
func checkMCPClientAnswers(t *testing.T, kind string, plan []mcpClientCall, answers []mcpClientAnswer) []string {
	t.Helper()
	if len(answers) != len(plan)+1 {
		t.Fatalf("got %d answers, want tools/list and %d calls", len(answers), len(plan))
	}
	if got := answers[0].Tools; len(got) != 4 || answers[0].Threw != nil {
		t.Errorf("tools/list: got %v (threw %v), want the four tools", got, answers[0].Threw)
	}
	var lines []string
	for i, call := range plan {
		a := answers[i+1]
		outcome := "result"
		switch {
		case a.Threw != nil:
			outcome = "THREW"
			t.Errorf("%s: %s threw %q, want a result", call.Name, kind, *a.Threw)
		case call.want == "" && (a.IsError || !a.Structured):
			t.Errorf("%s: got isError %t, structured %t (%q), want a success with structuredContent", call.Name, a.IsError, a.Structured, a.Text)
		case call.want != "":
			code, _, _ := strings.Cut(a.Text, ":")
			outcome = "isError " + code
			if !a.IsError || code != call.want || a.Structured {
				t.Errorf("%s: got isError %t, structured %t, text %q, want isError with %s and no structuredContent", call.Name, a.IsError, a.Structured, a.Text, call.want)
			}
		}
		if a.Exit != nil {
			outcome += fmt.Sprintf(", exit %d", *a.Exit)
		}
		lines = append(lines, call.Name+"|"+outcome)
	}
	return lines
}
