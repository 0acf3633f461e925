package sam

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDashboardDoc: docs/deploy.md's table of the dashboard ("The
// dashboard") has a row for each graph the dashboard draws (its title, up
// to a parenthesis or a colon, in the row's first cell) and no row for a
// graph it does not draw; every queue of the template is drawn, and named
// in that section.
func TestDashboardDoc(t *testing.T) {
	tp := loadTemplate(t)
	body := field(tp.resources[tp.only(t, "AWS::CloudWatch::Dashboard")], "Properties", "DashboardBody").Value
	var dash struct {
		Widgets []struct {
			Type       string
			Properties struct{ Title string }
		}
	}
	if err := json.Unmarshal([]byte(body), &dash); err != nil {
		t.Fatalf("DashboardBody is not JSON: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(root, "docs", "deploy.md"))
	if err != nil {
		t.Fatal(err)
	}
	section := markdownSection(string(data), "The dashboard")
	var rows []string // each row's first cell
	for line := range strings.Lines(section) {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.TrimSpace(cells[1]) == "graph" {
			continue
		}
		rows = append(rows, strings.TrimSpace(cells[1]))
	}
	if len(rows) == 0 {
		t.Fatal(`got no table in docs/deploy.md, "The dashboard"`)
	}
	used := map[string]bool{}
	for _, w := range dash.Widgets {
		if w.Properties.Title == "" {
			continue // the heading's text
		}
		graph, _, _ := strings.Cut(w.Properties.Title, " (")
		graph, _, _ = strings.Cut(graph, ":")
		found := false
		for _, r := range rows {
			if strings.Contains(r, graph) {
				found, used[r] = true, true
			}
		}
		if !found {
			t.Errorf("got no row for the graph %q in docs/deploy.md's dashboard table, want one", graph)
		}
	}
	for _, r := range rows {
		if !used[r] {
			t.Errorf("got the row %q in docs/deploy.md's dashboard table, which names no graph the dashboard draws", r)
		}
	}
	for _, q := range tp.ofType("AWS::SQS::Queue") {
		if !strings.Contains(body, "${"+q+".QueueName}") {
			t.Errorf("got no graph of %s on the dashboard, want its messages waiting", q)
		}
		if !strings.Contains(section, "`"+q+"`") {
			t.Errorf("got no `%s` in docs/deploy.md, \"The dashboard\", want it named with the graph that draws it", q)
		}
	}
}

// markdownSection returns the text under the heading title (any level) up
// to the next heading of the same level or higher, outside fenced code.
func markdownSection(doc, title string) string {
	var out strings.Builder
	level := 0
	fenced := false
	for line := range strings.Lines(doc) {
		h, depth := markdownHeading(line, &fenced)
		switch {
		case h == title && level == 0:
			level = depth
			continue
		case h != "" && level > 0 && depth <= level:
			return out.String()
		}
		if level > 0 {
			out.WriteString(line)
		}
	}
	return out.String()
}
