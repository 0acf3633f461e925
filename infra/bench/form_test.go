package main

import (
	"context"
	"strings"
	"testing"
)

// TestFormBenchmarks runs the form's part of the table: every step weighs
// at most 20 KB, every page takes at most 14 KB on the wire with gzip
// (targets, checked here too), and the ratio is measured.
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
	// The weight, the heaviest page on the wire, each of the 12 pages on
	// the wire, then the ratio's three.
	if len(rows) != 2+12+3 {
		t.Fatalf("got %d rows, want 17", len(rows))
	}
	for _, r := range rows {
		t.Logf("%s: %s (%s %s)", r.name, r.result, r.target, r.verdict)
	}
	if w := rows[0]; !strings.HasPrefix(w.name, "booking form: the heaviest step") || w.verdict != "met" {
		t.Errorf("page weight: got %s, %s, want met", w.result, w.verdict)
	}
	for _, w := range rows[1:14] {
		if !strings.Contains(w.name, "on the wire") || w.verdict != "met" {
			t.Errorf("%s: got %s, %s, want met (≤ 14 KB)", w.name, w.result, w.verdict)
		}
	}
	if r := rows[len(rows)-1]; !strings.HasSuffix(r.result, "×") {
		t.Errorf("render ratio: got %q, want a ratio", r.result)
	}
}
