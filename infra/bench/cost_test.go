package main

import (
	"strings"
	"testing"
)

func TestSMSSegments(t *testing.T) {
	tests := []struct {
		name string
		body string
		want int
	}{
		{"empty", "", 1},
		{"160 GSM-7", strings.Repeat("a", 160), 1},
		{"161 GSM-7", strings.Repeat("a", 161), 2},
		{"306 GSM-7", strings.Repeat("a", 306), 2},
		{"307 GSM-7", strings.Repeat("a", 307), 3},
		{"extension characters take two", strings.Repeat("€", 80), 1},
		{"81 euros", strings.Repeat("€", 81), 2},
		{"70 UCS-2", strings.Repeat("á", 70), 1}, // á is not in GSM-7
		{"71 UCS-2", strings.Repeat("á", 71), 2},
		{"Spanish with ñ and é stays GSM-7", "Mañana, café a las 9", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := smsSegments(tt.body); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

// The cost rows: one per step, the journey's total priced per 1,000
// journeys, and the idle sweep's month; the billed time rounds each
// invocation up to the millisecond.
func TestCostRows(t *testing.T) {
	out := `noise
DOORSTEP_COST {"step":1,"name":"getBusiness","rru":1,"wru":0,"rule_rru":0.5,"rule_wru":0,"calls":{"GetItem (eventual)":1},"api":1,"invocations":1,"handler_ms":[1.2],"emails":0,"texts":0,"segments":0}
DOORSTEP_COST {"step":2,"name":"messages","rru":1,"wru":2,"rule_rru":1,"rule_wru":2,"calls":{"PutItem":2},"api":0,"invocations":1,"handler_ms":[0.3],"emails":2,"texts":1,"segments":2}
DOORSTEP_COST {"step":3,"name":"idle","rru":0,"wru":0,"rule_rru":12,"rule_wru":0,"calls":{"Query sweep (eventual)":24},"api":0,"invocations":1,"handler_ms":[4.5],"emails":0,"texts":0,"segments":0}
`
	steps, err := parseCost(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := steps[0].billedMS(); got != 2 {
		t.Errorf("billed ms of 1.2 ms: got %v, want 2", got)
	}
	rows := costRows(steps)
	if len(rows) != 4 {
		t.Fatalf("got %d rows, want 4 (2 steps, the total, the idle sweep)", len(rows))
	}
	// Total: 1.5 RRU, 2 WRU, 3 ms billed at 256 MB, 2 invocations, 1 API
	// request, 2 e-mails; per 1,000 journeys.
	want := 1000 * (1.5*0.125/1e6 + 2*0.625/1e6 + 0.003*0.25*0.0000133334 + 2*0.20/1e6 + 1*1.00/1e6 + 2*0.10/1e3)
	if got := rows[2].result; !strings.Contains(got, "per 1,000 journeys $"+fmtDollars(want)+" ") {
		t.Errorf("total row: got %q, want $%s per 1,000 journeys", got, fmtDollars(want))
	}
	if !strings.Contains(rows[2].result, "2,000 text segments apart") {
		t.Errorf("total row: got %q, want the texts' 2,000 segments apart", rows[2].result)
	}
	if !strings.Contains(rows[3].result, "43,200 runs") {
		t.Errorf("idle sweep row: got %q, want its month of runs", rows[3].result)
	}
}

// A step measured under the emulator is billed the emulator's figures,
// not its handler times in process, and its row says by what.
func TestCostRowsBilledUnderTheEmulator(t *testing.T) {
	out := `DOORSTEP_COST {"step":1,"name":"create","rule_rru":1.5,"rule_wru":18,"api":1,"invocations":1,"handler_ms":[135.9],"billed_ms":[59],"billed_by":"aws-lambda-rie, 256 MB"}
DOORSTEP_COST {"step":2,"name":"idle","rule_rru":12,"invocations":1,"handler_ms":[108.8],"billed_ms":[145],"billed_by":"aws-lambda-rie, 256 MB"}
`
	steps, err := parseCost(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := steps[0].billedMS(); got != 59 {
		t.Errorf("billed ms: got %v, want the emulator's 59", got)
	}
	rows := costRows(steps)
	if got := rows[0].result; !strings.Contains(got, "59 ms billed (aws-lambda-rie, 256 MB; the handler in process took 135.9 ms)") {
		t.Errorf("step row: got %q, want the emulator's billed time and the handler's", got)
	}
	want := 1000 * (1.5*0.125/1e6 + 18*0.625/1e6 + 0.059*0.25*0.0000133334 + 0.20/1e6 + 1.00/1e6)
	if got := rows[1].result; !strings.Contains(got, "per 1,000 journeys $"+fmtDollars(want)+" ") {
		t.Errorf("total row: got %q, want $%s per 1,000 journeys", got, fmtDollars(want))
	}
}

// An invocation's billed duration is read from its own REPORT line, the
// first invocation's (with its Init Duration) as well as a warm one's.
func TestBilledDuration(t *testing.T) {
	out := "START RequestId: a Version: $LATEST\n" +
		"REPORT RequestId: a\tInit Duration: 0.06 ms\tDuration: 207.75 ms\tBilled Duration: 208 ms\tMemory Size: 256 MB\tMax Memory Used: 256 MB\t\n" +
		"REPORT RequestId: b\tDuration: 11.63 ms\tBilled Duration: 12 ms\tMemory Size: 256 MB\tMax Memory Used: 256 MB\t\n"
	tests := []struct {
		id   string
		want float64
		ok   bool
	}{
		{"a", 208, true},
		{"b", 12, true},
		{"c", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got, ok := billedDuration(out, tt.id)
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %v, %v, want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
