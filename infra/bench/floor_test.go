package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name string
		in   []time.Duration
		want time.Duration
	}{
		{"none", nil, 0},
		{"one", []time.Duration{3 * ms}, 3 * ms},
		{"odd, unsorted", []time.Duration{9 * ms, 1 * ms, 4 * ms}, 4 * ms},
		{"even: mean of the middle two", []time.Duration{4 * ms, 1 * ms, 2 * ms, 100 * ms}, 3 * ms},
		{"ties", []time.Duration{2 * ms, 2 * ms, 2 * ms, 7 * ms}, 2 * ms},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.in)
			if got := median(tt.in); got != tt.want {
				t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
			}
			if !slices.Equal(in, tt.in) {
				t.Errorf("median reordered its argument: %v", tt.in)
			}
		})
	}
}

func TestFloorRatioAndVerdict(t *testing.T) {
	tests := []struct {
		handlerUs, floorUs float64
		wantRatio          float64
		wantWithin         bool
	}{
		{1000, 1000, 1, true},
		{1050, 1000, 1.05, true}, // the target itself is met
		{1051, 1000, 1.051, false},
		{1080, 1000, 1.08, false}, // getBusiness before issue 40
		{900, 1000, 0.9, true},    // noise can put the handler under its floor
		{1000, 0, 0, false},       // no floor: not met
	}
	for _, tt := range tests {
		r := floorResult{op: "getBusiness", n: 10, handlerUs: tt.handlerUs, floorUs: tt.floorUs}
		if got := r.ratio(); got != tt.wantRatio {
			t.Errorf("ratio of %v over %v = %v, want %v", tt.handlerUs, tt.floorUs, got, tt.wantRatio)
		}
		if got := r.withinTarget(); got != tt.wantWithin {
			t.Errorf("withinTarget of %v over %v = %v, want %v", tt.handlerUs, tt.floorUs, got, tt.wantWithin)
		}
	}
}

// TestFloorRun's lines parse back to what it printed.
func TestParseFloor(t *testing.T) {
	printed := []floorResult{
		{op: "getBusiness", n: 300, handlerUs: 1585.3, floorUs: 1369.4, handlerP90: 2000, floorP90: 1800.5},
		{op: "createServiceRequest", n: 300, handlerUs: 11365.2, floorUs: 12578.6, handlerP90: 30000, floorP90: 31000},
	}
	out := "=== RUN   TestFloorRun\n" + printed[0].line() + "\n" + printed[1].line() + "\n--- PASS: TestFloorRun (13.13s)\nPASS\n"
	got, err := parseFloor(out)
	if err != nil || !slices.Equal(got, printed) {
		t.Fatalf("parseFloor = %+v, %v, want %+v", got, err, printed)
	}

	bad := []struct{ name, out string }{
		{"no line", "PASS\n"},
		{"no number", "DOORSTEP_FLOOR op=getBusiness n=3 handler_us=x floor_us=1\n"},
		{"no floor", "DOORSTEP_FLOOR op=getBusiness n=3 handler_us=1\n"},
		{"no op", "DOORSTEP_FLOOR n=3 handler_us=1 floor_us=1\n"},
		{"not key=value", "DOORSTEP_FLOOR op=getBusiness n=3 handler_us=1 floor_us=1 oops\n"},
	}
	for _, tt := range bad {
		if got, err := parseFloor(tt.out); err == nil {
			t.Errorf("%s: parseFloor = %+v, want an error", tt.name, got)
		}
	}
}

func TestFloorRows(t *testing.T) {
	var rs []floorResult
	for i, op := range floorOperations {
		rs = append(rs, floorResult{op: op.name, n: 300, handlerUs: 1000 + 20*float64(i), floorUs: 1000})
	}
	rows, err := floorRows(rs)
	if err != nil {
		t.Fatal(err)
	}
	wantVerdicts := []string{"met", "met", "met", "missed"} // 1.0x, 1.02x, 1.04x, 1.06x
	for i, r := range rows {
		if !strings.HasPrefix(r.name, floorOperations[i].name+":") || r.verdict != wantVerdicts[i] || r.target != "≤ 1.05x floor" {
			t.Errorf("row %d = %+v, want %s, %s", i, r, floorOperations[i].name, wantVerdicts[i])
		}
	}
	if !strings.Contains(rows[3].result, "1.06x") {
		t.Errorf("row 3's result %q does not say 1.06x", rows[3].result)
	}
	if _, err := floorRows(rs[:3]); err == nil {
		t.Error("floorRows without getServiceRequest: want an error")
	}
}

func TestSkipReason(t *testing.T) {
	tests := []struct{ out, want string }{
		{"=== RUN   TestFloorRun\n    floor_run_test.go:61: DynamoDB Local not available: no java\n--- SKIP: TestFloorRun (0.00s)\n",
			"DynamoDB Local not available: no java"},
		{"=== RUN   TestFloorRun\n--- PASS: TestFloorRun (9.00s)\n", ""},
	}
	for _, tt := range tests {
		if got := skipReason(tt.out); got != tt.want {
			t.Errorf("skipReason(%q) = %q, want %q", tt.out, got, tt.want)
		}
	}
}

func TestParseFlagsFloor(t *testing.T) {
	tests := []struct {
		args     []string
		wantN    int
		wantSkip bool
		wantErr  bool
	}{
		{nil, 1000, false, false},
		{[]string{"--floor-iterations", "50", "--skip", "gobench,http,lambda"}, 50, false, false},
		{[]string{"--skip", "floor"}, 1000, true, false},
		{[]string{"--floor-iterations", "5"}, 0, false, true},
		{[]string{"--floor-iterations", "5001"}, 0, false, true},
		{[]string{"--skip", "flor"}, 0, false, true},
	}
	for _, tt := range tests {
		o, err := parseFlags(tt.args)
		if tt.wantErr {
			if err == nil {
				t.Errorf("parseFlags(%q): want an error", tt.args)
			}
			continue
		}
		if err != nil || o.floorIterations != tt.wantN || o.skip["floor"] != tt.wantSkip {
			t.Errorf("parseFlags(%q) = %d iterations, skip floor %v, %v; want %d, %v",
				tt.args, o.floorIterations, o.skip["floor"], err, tt.wantN, tt.wantSkip)
		}
	}
}

// TestGrowthRun's lines parse back, and make one row per engine and
// operation, met when the last level is within 2x of the empty store and
// missed when the fill did not reach it.
func TestGrowthRows(t *testing.T) {
	out := "=== RUN   TestGrowthRun\n" +
		"DOORSTEP_GROWTH engine=disk level=0 op=createServiceRequest n=60 median_us=10000.0 p90_us=12000.0 fill_s=0.0\n" +
		"DOORSTEP_GROWTH engine=disk level=100000 op=createServiceRequest n=60 median_us=19000.0 p90_us=30000.0 fill_s=300.0\n" +
		"DOORSTEP_GROWTH engine=disk level=0 op=listArrivalWindows n=60 median_us=1000.0 p90_us=1200.0 fill_s=0.0\n" +
		"DOORSTEP_GROWTH engine=disk level=100000 op=listArrivalWindows n=60 median_us=2500.0 p90_us=3000.0 fill_s=300.0\n" +
		"DOORSTEP_GROWTH engine=memory level=0 op=createServiceRequest n=60 median_us=1000.0 p90_us=1200.0 fill_s=0.0\n" +
		"DOORSTEP_GROWTH engine=memory level=100000 reached=20000 budget_s=180\n" +
		"--- PASS: TestGrowthRun (13.13s)\n"
	rs, err := parseGrowth(out)
	if err != nil || len(rs) != 6 {
		t.Fatalf("parseGrowth = %+v, %v, want 6 results", rs, err)
	}
	levels := []int{0, 100000}
	tests := []struct {
		engine, op, want string
		wantIn           string
	}{
		{"disk", "createServiceRequest", "met", "1.90x empty"},
		{"disk", "listArrivalWindows", "missed", "2.50x empty"},
		{"memory", "createServiceRequest", "missed (level not reached)", "100k: not reached (20,000 stored"},
	}
	for _, tt := range tests {
		rows := growthRows(tt.engine, tt.engine, levels, rs)
		i := slices.Index(growthOperations, tt.op)
		if got := rows[i]; got.verdict != tt.want || !strings.Contains(got.result, tt.wantIn) {
			t.Errorf("%s %s: got %q, %q; want %q with %q", tt.engine, tt.op, got.verdict, got.result, tt.want, tt.wantIn)
		}
	}
	if _, err := parseGrowth("DOORSTEP_GROWTH engine=disk level=0 op=x n=0\n"); err == nil {
		t.Error("an incomplete line: want an error")
	}
	for _, bad := range []string{"1000,10000", "0,10,5", "0,x"} {
		if _, err := parseLevels(bad); err == nil {
			t.Errorf("parseLevels(%q): want an error", bad)
		}
	}
}
