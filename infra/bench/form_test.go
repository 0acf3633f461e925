package main

import (
	"context"
	"strings"
	"testing"
)

// TestFormBenchmarks runs the form's part of the table: every step weighs
// at most 20 KB (a target, checked here too), and the ratio is measured.
func TestFormBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("times the form: not in -short")
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := formBenchmarks(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("got %d rows, want 4", len(rows))
	}
	for _, r := range rows {
		t.Logf("%s: %s (%s %s)", r.name, r.result, r.target, r.verdict)
	}
	if w := rows[0]; !strings.HasPrefix(w.name, "booking form: the heaviest step") || w.verdict != "met" {
		t.Errorf("page weight: got %s, %s, want met", w.result, w.verdict)
	}
	if r := rows[3]; !strings.HasSuffix(r.result, "×") {
		t.Errorf("render ratio: got %q, want a ratio", r.result)
	}
}
