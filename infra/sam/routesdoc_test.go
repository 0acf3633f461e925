package sam

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// docs/deploy.md's routes table is derived from the edges' route tables
// and template.yaml, between two markers: each route, the functions whose
// HttpApi events reach it, and the table it is in. Run with
// DOORSTEP_UPDATE_README=1 to rewrite it.
func TestDocsRoutesTable(t *testing.T) {
	const path = "../../docs/deploy.md"
	const begin, end = "<!-- routes table: begin -->\n", "<!-- routes table: end -->"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", path, begin, end)
	}
	got, want := text[i+len(begin):j], routesMarkdown(t)
	if got == want {
		return
	}
	if os.Getenv("DOORSTEP_UPDATE_README") != "" {
		if err := os.WriteFile(path, []byte(text[:i+len(begin)]+want+text[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's routes table is not the route tables':\ngot\n%s\nwant\n%s\n(DOORSTEP_UPDATE_README=1 go test ./infra/sam rewrites it)", path, got, want)
}

// routesMarkdown writes every route of every edge's table, in path order,
// with the functions that serve it.
func routesMarkdown(t *testing.T) string {
	tp := loadTemplate(t)
	apiID := tp.only(t, "AWS::Serverless::HttpApi")
	events := map[string][]string{} // function → its template routes
	for _, id := range tp.ofType("AWS::Serverless::Function") {
		routes, err := tp.routes(id, apiID)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		events[id] = routes
	}
	type row struct{ path, method, functions, table string }
	var rows []row
	for name, table := range routeTables {
		for _, r := range table {
			var functions []string
			for id, routes := range events {
				if tableOf[id] == name && slices.ContainsFunc(routes, func(event string) bool { return reaches(event, r) }) {
					functions = append(functions, id)
				}
			}
			slices.Sort(functions)
			method, path, _ := strings.Cut(r.APIRoute(), " ")
			rows = append(rows, row{path, method, strings.Join(functions, ", "), name})
		}
	}
	slices.SortFunc(rows, func(a, b row) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return strings.Compare(a.method, b.method)
	})
	var b strings.Builder
	b.WriteString("| method | path | function | route table |\n|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | `%s` | %s | `%s` |\n", r.method, r.path, r.functions, r.table)
	}
	return b.String()
}
