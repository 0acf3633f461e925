package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The floor section: each API operation through the JSON API's handler
// (in process, httptest, no HTTP transport) next to the DynamoDB calls the
// operation cannot avoid, made with the bare SDK client on the same
// DynamoDB Local in the same run: its floor. The measuring runs in this
// package's test binary (TestFloorRun in floor_run_test.go), because
// dynamotest starts DynamoDB Local for test binaries only; this side runs
// it, reads its DOORSTEP_FLOOR lines and makes the rows.

// targetFloorRatio: every operation within 1.05x its floor (medians);
// 1.10x until issue 40.
const targetFloorRatio = 1.05

// maxFloorIterations keeps the creates (two per iteration, plus the
// warm-up's) within createSlots' windows.
const maxFloorIterations = 5000

// floorWarmup is how many untimed iterations come first: the JVM's JIT and
// both clients' connections settle in them.
func floorWarmup(iterations int) int { return 30 + iterations/5 }

// floorOperations are the measured operations, in the table's order, with
// the SDK calls of their floor.
var floorOperations = []struct{ name, floor string }{
	{"getBusiness", "GetItem business"},
	{"listArrivalWindows", "GetItem business + Query holds"},
	{"createServiceRequest", "GetItem business + Query RATE# slots + TransactWriteItems (block check, slot, open counts, hold, request)"},
	{"getServiceRequest", "GetItem request + GetItem business"},
}

// floorResult is one DOORSTEP_FLOOR line: the medians of n timed calls of
// an operation through the handler and of its floor.
type floorResult struct {
	op                   string
	n                    int
	handlerUs, floorUs   float64
	handlerP90, floorP90 float64
}

// ratio is the handler's median over the floor's.
func (r floorResult) ratio() float64 {
	if r.floorUs <= 0 {
		return 0
	}
	return r.handlerUs / r.floorUs
}

// withinTarget reports whether the handler is within targetFloorRatio of
// its floor.
func (r floorResult) withinTarget() bool {
	return r.floorUs > 0 && r.ratio() <= targetFloorRatio
}

// floorLine is how TestFloorRun prints a result; parseFloor reads it back.
func (r floorResult) line() string {
	return fmt.Sprintf("DOORSTEP_FLOOR op=%s n=%d handler_us=%.1f floor_us=%.1f handler_p90_us=%.1f floor_p90_us=%.1f",
		r.op, r.n, r.handlerUs, r.floorUs, r.handlerP90, r.floorP90)
}

var floorLinePattern = regexp.MustCompile(`(?m)^DOORSTEP_FLOOR (.*)$`)

// parseFloor reads the DOORSTEP_FLOOR lines of the test binary's output.
func parseFloor(out string) ([]floorResult, error) {
	var rs []floorResult
	for _, m := range floorLinePattern.FindAllStringSubmatch(out, -1) {
		var r floorResult
		for _, kv := range strings.Fields(m[1]) {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("floor report %q: no =", kv)
			}
			if k == "op" {
				r.op = v
				continue
			}
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("floor report %q: %w", kv, err)
			}
			switch k {
			case "n":
				r.n = int(n)
			case "handler_us":
				r.handlerUs = n
			case "floor_us":
				r.floorUs = n
			case "handler_p90_us":
				r.handlerP90 = n
			case "floor_p90_us":
				r.floorP90 = n
			}
		}
		if r.op == "" || r.n <= 0 || r.handlerUs <= 0 || r.floorUs <= 0 {
			return nil, fmt.Errorf("incomplete floor report %q", m[0])
		}
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return nil, errors.New("no DOORSTEP_FLOOR line in the output of the floor run")
	}
	return rs, nil
}

// median is the middle of ds, the mean of the two middle ones for an even
// count; 0 for none.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// floorRows makes one row per operation, in floorOperations' order.
func floorRows(rs []floorResult) ([]row, error) {
	var rows []row
	for _, op := range floorOperations {
		i := slices.IndexFunc(rs, func(r floorResult) bool { return r.op == op.name })
		if i < 0 {
			return nil, fmt.Errorf("the floor run did not report %s", op.name)
		}
		r := rs[i]
		rows = append(rows, row{
			group: "DynamoDB Local",
			name:  fmt.Sprintf("%s: handler (httptest) vs its floor, %s", op.name, op.floor),
			result: fmt.Sprintf("handler %s, floor %s: %.2fx (medians of %d each; p90 %s vs %s)",
				micros(r.handlerUs), micros(r.floorUs), r.ratio(), r.n, micros(r.handlerP90), micros(r.floorP90)),
			target:  fmt.Sprintf("≤ %.2fx floor", targetFloorRatio),
			verdict: verdict(r.withinTarget()),
		})
	}
	return rows, nil
}

// floorBenchmarks runs TestFloorRun with o.floorIterations iterations and
// returns its rows. Without DynamoDB Local (the test skips) it returns a
// "not run" row.
func floorBenchmarks(ctx context.Context, root string, o options) ([]row, error) {
	args := []string{"test", "-count=1", "-v", "-timeout=10m", "-run=^TestFloorRun$", "./infra/bench/",
		"-args", "-floor.iterations=" + strconv.Itoa(o.floorIterations)}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	if skip := skipReason(string(out)); skip != "" {
		return []row{{group: "DynamoDB Local", name: "handler vs floor", result: "-", verdict: "not run: " + skip}}, nil
	}
	rs, err := parseFloor(string(out))
	if err != nil {
		return nil, fmt.Errorf("%w:\n%s", err, out)
	}
	return floorRows(rs)
}

// skipReason is the message of a skipped TestFloorRun, "" when it ran.
func skipReason(out string) string {
	if !strings.Contains(out, "--- SKIP: TestFloorRun") {
		return ""
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "floor_run_test.go:") {
			_, msg, _ := strings.Cut(line, ": ")
			return msg
		}
	}
	return "TestFloorRun skipped"
}
