package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// The chaos part: the fault harness (infra/chaos) at 10% of the DynamoDB
// calls faulted over chaosOps operations, as docs/reliability.md reports.
const (
	chaosOps       = 20000
	chaosFaultRate = "0.1"
)

var (
	chaosOpsLine        = regexp.MustCompile(`(?m)^Operations run: (\d+)$`)
	chaosFaultsLine     = regexp.MustCompile(`(?m)^DynamoDB calls: (\d+); faults injected: (\d+) \(([\d.]+)%\)$`)
	chaosViolationsLine = regexp.MustCompile(`(?m)^(\d+) violations$`)
)

// chaosBenchmarks runs go run ./infra/chaos and makes its figures rows.
// Violations make the harness exit 1: they are a row's verdict, not an
// error of the bench.
func chaosBenchmarks(ctx context.Context, root string) ([]row, error) {
	args := []string{"run", "-tags", "lambda.norpc,nethttpomithttp2", "./infra/chaos", "--ops", strconv.Itoa(chaosOps), "--fault-rate", chaosFaultRate}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, lastLines(string(out), 40))
	}
	return parseChaos(string(out))
}

// parseChaos reads the harness's last lines into rows.
func parseChaos(out string) ([]row, error) {
	ops, faults, violations := chaosOpsLine.FindStringSubmatch(out), chaosFaultsLine.FindStringSubmatch(out), chaosViolationsLine.FindStringSubmatch(out)
	if ops == nil || faults == nil || violations == nil {
		return nil, fmt.Errorf("chaos: no operations, faults or violations line in:\n%s", lastLines(out, 40))
	}
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "missed"
	}
	n, _ := strconv.Atoi(ops[1])
	v, _ := strconv.Atoi(violations[1])
	return []row{
		{group: "chaos", name: "operations, " + chaosFaultRate + " of DynamoDB calls faulted (go run ./infra/chaos)", result: thousands(float64(n)), target: "≥ 20,000", verdict: verdict(n >= 20000)},
		{group: "chaos", name: "DynamoDB calls faulted", result: faults[2] + " of " + faults[1] + " (" + faults[3] + "%)"},
		{group: "chaos", name: "violations of the invariants (docs/reliability.md)", result: violations[1], target: "0", verdict: verdict(v == 0)},
	}, nil
}
