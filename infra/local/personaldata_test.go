package main

import (
	"context"
	"io"
	"strings"
	"testing"
)

// --personal-data-days sets how long the sweep keeps personal details; a
// value below the minimum stops the server at start, saying why.
func TestPersonalDataDaysFlag(t *testing.T) {
	if o, err := parseFlags(nil); err != nil || o.personalDataDays != 365 {
		t.Errorf("default: got %d, %v; want 365", o.personalDataDays, err)
	}
	if o, err := parseFlags([]string{"--personal-data-days", "30"}); err != nil || o.personalDataDays != 30 {
		t.Errorf("30: got %d, %v; want 30", o.personalDataDays, err)
	}
	startLocal(t, "--personal-data-days", "45")
	err := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--personal-data-days", "29"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "at least 30 days") {
		t.Errorf("--personal-data-days 29: got %v, want an error saying at least 30 days", err)
	}
}
