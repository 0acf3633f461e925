package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The growth section: the same operations on an empty store and on stores
// holding 1,000, 10,000 and 100,000 requests, on make run's engine
// (DynamoDB Local with its data on disk) and on --memory's (minidyn in
// process), as far as that one gets within its budget. The measuring runs
// in this package's test binary (TestGrowthRun in growth_run_test.go),
// which fills the table by BatchWriteItem; this side runs it once per
// engine, reads its DOORSTEP_GROWTH lines and makes the rows.

// targetGrowth: at the last level, each operation's median within 2x of
// its median on the empty store.
const targetGrowth = 2.0

// growthEngines are the engines, in the table's order, with their names.
var growthEngines = []struct{ flag, name string }{
	{"disk", "DynamoDB Local on disk (make run)"},
	{"memory", "minidyn in process (make run ARGS=--memory)"},
}

// growthOperations are the operations timed at each level, in order.
var growthOperations = []string{"createServiceRequest", "listArrivalWindows", "getServiceRequest", "inboxFirstPage"}

// growthResult is one DOORSTEP_GROWTH line: an operation at a level, or
// (op "") the level the fill could not reach within the budget.
type growthResult struct {
	engine, op        string
	level, n, reached int
	medianUs, p90Us   float64
	fillSeconds       float64
}

var growthLinePattern = regexp.MustCompile(`(?m)^DOORSTEP_GROWTH (.*)$`)

// parseGrowth reads the DOORSTEP_GROWTH lines of the test binary's output.
func parseGrowth(out string) ([]growthResult, error) {
	var rs []growthResult
	for _, m := range growthLinePattern.FindAllStringSubmatch(out, -1) {
		r := growthResult{reached: -1}
		for _, kv := range strings.Fields(m[1]) {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("growth report %q: no =", kv)
			}
			switch k {
			case "engine":
				r.engine = v
				continue
			case "op":
				r.op = v
				continue
			}
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("growth report %q: %w", kv, err)
			}
			switch k {
			case "level":
				r.level = int(n)
			case "n":
				r.n = int(n)
			case "reached":
				r.reached = int(n)
			case "median_us":
				r.medianUs = n
			case "p90_us":
				r.p90Us = n
			case "fill_s":
				r.fillSeconds = n
			}
		}
		if r.engine == "" || (r.op == "" && r.reached < 0) || (r.op != "" && (r.n <= 0 || r.medianUs <= 0)) {
			return nil, fmt.Errorf("incomplete growth report %q", m[0])
		}
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return nil, errors.New("no DOORSTEP_GROWTH line in the output of the growth run")
	}
	return rs, nil
}

// levelName is 0, 1k, 10k, 100k.
func levelName(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

// growthRows makes one row per engine and operation: its median and p90 at
// each level, and whether the last level asked for is within targetGrowth
// of the empty store.
func growthRows(engine, engineName string, levels []int, rs []growthResult) []row {
	var rows []row
	var stopped *growthResult
	for i := range rs {
		if rs[i].engine == engine && rs[i].op == "" {
			stopped = &rs[i]
		}
	}
	for _, op := range growthOperations {
		var parts []string
		var empty, last float64
		lastLevel := -1
		for _, r := range rs {
			if r.engine != engine || r.op != op {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s: %s (p90 %s)", levelName(r.level), micros(r.medianUs), micros(r.p90Us)))
			if r.level == 0 {
				empty = r.medianUs
			}
			last, lastLevel = r.medianUs, r.level
		}
		if stopped != nil {
			parts = append(parts, fmt.Sprintf("%s: not reached (%s stored within the fill budget)", levelName(stopped.level), thousands(float64(stopped.reached))))
		}
		res := row{
			group:  "growth",
			name:   fmt.Sprintf("%s, %s, by stored requests", op, engineName),
			result: strings.Join(parts, "; "),
			target: fmt.Sprintf("at %s ≤ %.0fx empty (medians)", levelName(levels[len(levels)-1]), targetGrowth),
		}
		switch {
		case len(parts) == 0:
			res.result, res.verdict = "-", "not run"
		case empty <= 0 || lastLevel != levels[len(levels)-1]:
			res.verdict = "missed (level not reached)"
		default:
			res.result += fmt.Sprintf("; %.2fx empty", last/empty)
			res.verdict = verdict(last/empty <= targetGrowth)
		}
		rows = append(rows, res)
	}
	return rows
}

// growthBenchmarks runs TestGrowthRun on each engine and returns its rows.
func growthBenchmarks(ctx context.Context, root string, o options) ([]row, error) {
	var rows []row
	for _, e := range growthEngines {
		budget := o.growthBudget
		if e.flag == "memory" {
			budget = o.growthMemoryBudget
		}
		progress("growth: %s, filled to %v stored requests (fill budget %s; go test -run TestGrowthRun ./infra/bench/)", e.name, o.growthLevels, budget)
		levels := make([]string, len(o.growthLevels))
		for i, l := range o.growthLevels {
			levels[i] = strconv.Itoa(l)
		}
		args := []string{"test", "-count=1", "-v", "-timeout=60m", "-run=^TestGrowthRun$", "./infra/bench/",
			"-args", "-growth.engine=" + e.flag, "-growth.levels=" + strings.Join(levels, ","),
			"-growth.budget=" + budget.String(), "-growth.calls=" + strconv.Itoa(o.growthCalls)}
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = root
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, lastLines(string(out), 40))
		}
		if strings.Contains(string(out), "--- SKIP: TestGrowthRun") {
			rows = append(rows, row{group: "growth", name: e.name, result: "-", verdict: "not run: " + lastLines(string(out), 3)})
			continue
		}
		rs, err := parseGrowth(string(out))
		if err != nil {
			return nil, fmt.Errorf("%w:\n%s", err, lastLines(string(out), 40))
		}
		rows = append(rows, growthRows(e.flag, e.name, o.growthLevels, rs)...)
	}
	return rows, nil
}

// parseLevels reads --growth-levels: increasing counts from 0.
func parseLevels(s string) ([]int, error) {
	var levels []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || (len(levels) > 0 && n <= levels[len(levels)-1]) {
			return nil, fmt.Errorf("--growth-levels: want increasing counts from 0, such as 0,1000,10000,100000; got %q", s)
		}
		levels = append(levels, n)
	}
	if levels[0] != 0 {
		return nil, errors.New("--growth-levels: the first level is 0, the empty store the others are compared with")
	}
	return slices.Clip(levels), nil
}
