package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Every function (functions/<name>/main.go) has the event of its first
// invocation, and the event is in events/.
func TestColdStartEvents(t *testing.T) {
	mains, err := filepath.Glob(filepath.Join("..", "..", "functions", "*", "main.go"))
	if err != nil || len(mains) == 0 {
		t.Fatalf("no functions/*/main.go: %v", err)
	}
	seen := map[string]bool{}
	for _, m := range mains {
		name := filepath.Base(filepath.Dir(m))
		seen[name] = true
		event, ok := coldStartEvents[name]
		if !ok {
			t.Errorf("%s has no cold start event in coldStartEvents", name)
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "..", "events", event)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name := range coldStartEvents {
		if !seen[name] {
			t.Errorf("coldStartEvents names %s, which is no function", name)
		}
	}
}

// The emulator's REPORT line gives the Init Duration and the Duration.
func TestWaitReport(t *testing.T) {
	var out syncBuffer
	out.Write([]byte("START RequestId: 1 Version: $LATEST\nEND RequestId: 1\n" +
		"REPORT RequestId: 1\tInit Duration: 6.84 ms\tDuration: 2.31 ms\tBilled Duration: 3 ms\tMemory Size: 128 MB\tMax Memory Used: 128 MB\t\n"))
	got, err := waitReport(&out, time.Now())
	if err != nil || got.init != 6840*time.Microsecond || got.duration != 2310*time.Microsecond {
		t.Errorf("waitReport = %+v, %v, want init 6.84 ms and duration 2.31 ms", got, err)
	}
	var none syncBuffer
	none.Write([]byte("REPORT RequestId: 2\tDuration: 1.00 ms\t\n")) // a warm invocation: no Init Duration
	if _, err := waitReport(&none, time.Now()); err == nil || !strings.Contains(err.Error(), "Init Duration") {
		t.Errorf("waitReport without an Init Duration = %v, want an error", err)
	}
}
