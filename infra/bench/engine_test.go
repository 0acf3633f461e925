package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// engineLoop counts the calls that succeeded per second and those that
// failed, across its workers.
func TestEngineLoop(t *testing.T) {
	r := engineLoop(context.Background(), 4, 200*time.Millisecond, func(_ context.Context, w, i int) error {
		time.Sleep(time.Millisecond)
		if i%2 == 1 {
			return errors.New("refused")
		}
		return nil
	})
	if r.rps <= 0 || r.errors == 0 {
		t.Errorf("got %+v, want calls per second and failures", r)
	}
}

// The local server's line that gives its DynamoDB Local's address is the
// one the bench reads.
func TestEngineLine(t *testing.T) {
	line := "DynamoDB Local: http://127.0.0.1:41235 (table doorstep; aws dynamodb --endpoint-url http://127.0.0.1:41235 describe-table --table-name doorstep)"
	m := engineLine.FindStringSubmatch(line)
	if m == nil || m[1] != "http://127.0.0.1:41235" {
		t.Fatalf("got %q, want the address", m)
	}
	// The operation's row against the engine: its ratio and verdict.
	row := engineRow("listing", wrkResult{"requests": 500, "duration_us": 1e6}, engineRun{rps: 800}, 0.5)
	if !strings.Contains(row.result, "62% of it") || row.verdict != "met" {
		t.Errorf("got %+v, want 62%% and met", row)
	}
}
