package sam

import (
	"slices"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/bookform"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/mcptools"
	"github.com/doorstep/doorstep/pkg/pages"
	"github.com/doorstep/doorstep/pkg/stripepay"
)

// routeTables are the edges' route tables, and tableOf says which one each
// function with HttpApi events serves (by logical ID). The handlers are
// built on nothing: only the methods and paths are read.
var routeTables = map[string][]edge.Route{
	"httpapi.Routes":         httpapi.Routes(nil, nil),
	"httpapi.DocumentRoutes": httpapi.DocumentRoutes(),
	"httpapi.InboxRoutes":    httpapi.InboxRoutes(nil, nil),
	"httpapi.CalendarRoutes": httpapi.CalendarRoutes(nil, nil),
	"mcptools.Routes":        mcptools.Routes(nil, nil),
	"bookform.Routes":        bookform.Routes(bookform.Config{}),
	"inboxweb.Routes":        inboxweb.Routes(inboxweb.Config{}),
	"pages.Routes":           pages.Routes(pages.Config{}),
	"stripepay.Routes":       stripepay.Routes(stripepay.CheckoutConfig{}, ""),
}

var tableOf = map[string]string{
	"GetBusinessFunction":          "httpapi.Routes",
	"ListArrivalWindowsFunction":   "httpapi.Routes",
	"CreateServiceRequestFunction": "httpapi.Routes",
	"GetServiceRequestFunction":    "httpapi.Routes",
	"GetOpenApiFunction":           "httpapi.DocumentRoutes",
	"McpFunction":                  "mcptools.Routes",
	"BusinessInboxFunction":        "httpapi.InboxRoutes",
	"CalendarFeedFunction":         "httpapi.CalendarRoutes",
	"BookFormFunction":             "bookform.Routes",
	"BusinessWebFunction":          "inboxweb.Routes",
	"PagesFunction":                "pages.Routes",
	"PaymentWebhookFunction":       "stripepay.Routes",
}

// TestRouteTables checks template.yaml's HttpApi events against the edges'
// route tables, both ways: each event of a function is a route of its
// edge's table, and each route of a table reaches one of the functions
// serving that table.
func TestRouteTables(t *testing.T) {
	tp := loadTemplate(t)
	apiID := tp.only(t, "AWS::Serverless::HttpApi")
	served := map[string][]string{} // table → the template routes of its functions
	for _, id := range tp.ofType("AWS::Serverless::Function") {
		routes, err := tp.routes(id, apiID)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		var api []string
		for _, r := range routes {
			if !strings.HasPrefix(r, "SCHEDULE ") && !strings.HasPrefix(r, "STREAM ") && !strings.HasPrefix(r, "EVENTBRIDGE ") {
				api = append(api, r)
			}
		}
		name, ok := tableOf[id]
		if !ok {
			if len(api) > 0 {
				t.Errorf("%s serves %v: add its edge's route table to tableOf", id, api)
			}
			continue
		}
		var table []string
		for _, r := range routeTables[name] {
			table = append(table, r.APIRoute())
		}
		for _, r := range api {
			if !slices.Contains(table, r) {
				t.Errorf("%s: template route %q is not in %s %v", id, r, name, table)
			}
		}
		served[name] = append(served[name], api...)
	}
	for name, table := range routeTables {
		for _, r := range table {
			if !slices.ContainsFunc(served[name], func(event string) bool { return reaches(event, r) }) {
				t.Errorf("%s: route %q reaches no function (template routes of its functions: %v)", name, r.APIRoute(), served[name])
			}
		}
	}
}

// reaches reports whether API Gateway sends a request of route r to the
// function of the template route event: "ANY" takes every method, and a
// path ending in {proxy+} every path below it.
func reaches(event string, r edge.Route) bool {
	method, path, _ := strings.Cut(event, " ")
	rmethod, rpath, _ := strings.Cut(r.APIRoute(), " ")
	if method != "ANY" && method != rmethod {
		return false
	}
	if prefix, ok := strings.CutSuffix(path, "{proxy+}"); ok {
		return strings.HasPrefix(r.Path, prefix)
	}
	return path == rpath
}

// TestReaches pins the matching TestRouteTables relies on.
func TestReaches(t *testing.T) {
	tests := []struct {
		event string
		route edge.Route
		want  bool
	}{
		{"GET /r/{code}", edge.Route{Method: "GET", Path: "/r/{code}"}, true},
		{"GET /r/{code}", edge.Route{Method: "POST", Path: "/r/{code}"}, false},
		{"GET /r/{code}", edge.Route{Method: "GET", Path: "/r/{id}"}, false},
		{"ANY /mcp", edge.Route{Path: "/mcp"}, true},
		{"GET /mcp", edge.Route{Path: "/mcp"}, false},
		{"ANY /inbox/{proxy+}", edge.Route{Method: "POST", Path: "/inbox/settings/{form}"}, true},
		{"ANY /inbox/{proxy+}", edge.Route{Path: "/inbox/"}, true},
		{"ANY /inbox/{proxy+}", edge.Route{Method: "GET", Path: "/inbox"}, false},
		{"ANY /inbox", edge.Route{Method: "GET", Path: "/inbox"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.event+" "+tt.route.APIRoute(), func(t *testing.T) {
			if got := reaches(tt.event, tt.route); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
