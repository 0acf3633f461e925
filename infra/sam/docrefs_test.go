package sam

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docReference is how template.yaml sends its reader (an operator reading
// an alarm's e-mail, a parameter's description) to the documentation: a
// Markdown file by its path from the repository's root, and, after a
// comma, the exact heading of a section in quotes, e.g. docs/deploy.md,
// "The dashboard". A heading split over folded YAML lines, or inside a
// JSON string (\"), reads the same.
var docReference = regexp.MustCompile(`([A-Za-z0-9_./-]*(?:README|[a-z0-9-]+)\.md|README)(?:, "([^"]+)")?`)

// TestTemplateDocReferences: every document template.yaml names exists,
// and every section it names is a heading of that document, so that an
// alarm never sends an operator to a section that moved.
func TestTemplateDocReferences(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), `\"`, `"`)
	text = regexp.MustCompile(`\s*\n\s*(#\s*)?`).ReplaceAllString(text, " ") // folded lines and comments read as one
	refs := docReference.FindAllStringSubmatch(text, -1)
	if len(refs) < 30 {
		t.Fatalf("got %d references to the docs, want the alarms' and the parameters' (30 or more)", len(refs))
	}
	headings := map[string][]string{}
	for _, ref := range refs {
		doc, section := ref[1], ref[2]
		t.Run(doc+" "+section, func(t *testing.T) {
			if !strings.Contains(doc, "/") && doc != "README.md" || !strings.HasSuffix(doc, ".md") {
				t.Fatalf("got %q, want a Markdown file by its path from the repository's root (docs/deploy.md, README.md)", doc)
			}
			if _, ok := headings[doc]; !ok {
				data, err := os.ReadFile(filepath.Join(root, doc))
				if err != nil {
					t.Fatalf("got %v, want the document", err)
				}
				headings[doc] = markdownHeadings(string(data))
			}
			if section == "" {
				return
			}
			for _, h := range headings[doc] {
				if h == section {
					return
				}
			}
			t.Errorf("got no heading %q in %s, want one; its headings:\n%s", section, doc, strings.Join(headings[doc], "\n"))
		})
	}
}

// markdownHeadings returns the text of each ATX heading of a Markdown
// document, outside its fenced code blocks (where "# " begins a shell
// comment).
func markdownHeadings(doc string) []string {
	var headings []string
	fenced := false
	for line := range strings.Lines(doc) {
		if title, _ := markdownHeading(line, &fenced); title != "" {
			headings = append(headings, title)
		}
	}
	return headings
}

// markdownHeading returns the title and level of line when it is an ATX
// heading, "" and 0 when not; fenced, kept by the caller across a
// document's lines, is whether line is in fenced code.
func markdownHeading(line string, fenced *bool) (title string, depth int) {
	if strings.HasPrefix(line, "```") {
		*fenced = !*fenced
		return "", 0
	}
	h := strings.TrimLeft(line, "#")
	depth = len(line) - len(h)
	if *fenced || depth == 0 || depth > 6 || !strings.HasPrefix(h, " ") {
		return "", 0
	}
	return strings.TrimSpace(h), depth
}
