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

// The emulator's INIT REPORT and INVOKE RTDONE give the init and the
// invocation; its REPORT line's Init Duration (the hand-off, not the init)
// is not read.
func TestWaitReport(t *testing.T) {
	var out syncBuffer
	out.Write([]byte("27 Nov 2026 11:01:29,299 [INFO] (rapid) INIT START(type: on-demand, phase: init)\n" +
		"27 Nov 2026 11:01:29,309 [INFO] (rapid) INIT REPORT(durationMs: 9.940000)\n" +
		"27 Nov 2026 11:01:29,312 [INFO] (rapid) INVOKE RTDONE(status: success, produced bytes: 0, duration: 3.718000ms)\n" +
		"REPORT RequestId: d0\tInit Duration: 0.03 ms\tDuration: 13.90 ms\tBilled Duration: 14 ms\n"))
	got, err := waitReport(&out, time.Now())
	if err != nil || got.init != 9940*time.Microsecond || got.duration != 3718*time.Microsecond || got.failed {
		t.Errorf("waitReport = %+v, %v, want init 9.94 ms and invocation 3.718 ms, not failed", got, err)
	}
	var failed syncBuffer
	failed.Write([]byte("[INFO] (rapid) INIT REPORT(durationMs: 5.0)\n[INFO] (rapid) INVOKE RTDONE(status: error, produced bytes: 0, duration: 1.5ms)\n"))
	if got, err := waitReport(&failed, time.Now()); err != nil || !got.failed {
		t.Errorf("an invocation that failed: waitReport = %+v, %v, want it marked failed", got, err)
	}
	var none syncBuffer
	none.Write([]byte("REPORT RequestId: 2\tInit Duration: 0.03 ms\tDuration: 1.00 ms\t\n"))
	if _, err := waitReport(&none, time.Now()); err == nil || !strings.Contains(err.Error(), "INIT REPORT") {
		t.Errorf("waitReport without the emulator's reports = %v, want an error", err)
	}
	var initFailed syncBuffer
	initFailed.Write([]byte("[ERROR] (rapid) Init failed InvokeID= error=Runtime exited with error: exit status 1\n"))
	if _, err := waitReport(&initFailed, time.Now().Add(time.Minute)); err == nil || !strings.Contains(err.Error(), "failed to start") {
		t.Errorf("an init that failed: waitReport = %v, want an error at once", err)
	}
}

// The cold-start row of docs/performance.md names every function
// (coldStartEvents holds them all, TestColdStartEvents), so that a
// function added is measured and reported, not left out.
func TestColdStartRowNamesEveryFunction(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "performance.md"))
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for line := range strings.Lines(string(data)) {
		if strings.HasPrefix(line, "| Lambda |") && strings.Contains(line, "cold start in `aws-lambda-rie`") {
			row = line
		}
	}
	if row == "" {
		t.Fatal("got no cold-start row (| Lambda | ... cold start in `aws-lambda-rie`) in docs/performance.md")
	}
	for name := range coldStartEvents {
		if !strings.Contains(row, "| "+name+" ") && !strings.Contains(row, "· "+name+" ") {
			t.Errorf("got no %s in the cold-start row of docs/performance.md, want its figures", name)
		}
	}
}
