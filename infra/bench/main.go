// Command bench measures Doorstep on this machine and prints one table:
//
//   - the Go benchmarks of pkg/booking (go test -bench -benchmem),
//   - HTTP throughput with wrk on loopback: the local server (infra/local,
//     on its default engine, DynamoDB Local with its data on disk) next to
//     a bare net/http handler answering a fixed 1 KiB JSON body, the
//     ceiling of this machine,
//   - each API operation's median latency through the JSON API handler on
//     DynamoDB Local next to its floor, the median of the bare SDK calls the
//     operation cannot avoid, on the same engine in the same run (floor.go),
//   - growth: a create, a listing, a status and an inbox's first page on
//     stores of 0 to 100,000 requests, on DynamoDB Local on disk and on
//     minidyn (growth.go),
//   - the size of each Lambda bootstrap binary (arm64 and amd64, built as
//     the Makefile's build target does), and
//   - the cold start of get-business (amd64): process start to the first
//     answered invocation, against a Lambda Runtime API stand-in and an
//     in-process minidyn holding the demo businesses, and
//   - the warm path of a create and of a web accept: the files, functions
//     and AWS calls one call runs once its function is warm (warmpath.go),
//   - the cost of one standard journey, step by step: DynamoDB read and
//     write units, Lambda time, API Gateway requests, e-mails and texts,
//     priced per 1,000 journeys (cost.go).
//
// make bench runs it; from the repository root:
//
//	go run ./infra/bench [--duration 5s] [--threads 2] [--connections 32] [--runs 20] [--floor-iterations 1000]
//	    [--growth-levels 0,1000,10000,100000] [--growth-budget 20m] [--growth-memory-budget 3m] [--growth-calls 60]
//	    [--skip gobench,form,http,floor,growth,lambda,path,chaos,cost]
//
// Everything listens on 127.0.0.1 only, and every child process is ended
// when its part is done.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// parts are the sections of the table, in its order; --skip leaves some out.
var parts = []string{"gobench", "form", "http", "floor", "growth", "lambda", "path", "chaos", "cost"}

type options struct {
	duration    time.Duration
	threads     int
	connections int
	runs        int
	// floorIterations is how many timed calls of each operation, and of
	// its floor, the floor section makes.
	floorIterations int
	// growthLevels are the stored requests the growth section measures
	// at; growthBudget and growthMemoryBudget bound the time its fills
	// take on each engine; growthCalls is the timed calls of each
	// operation at each level.
	growthLevels                     []int
	growthBudget, growthMemoryBudget time.Duration
	growthCalls                      int
	skip                             map[string]bool
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (options, error) {
	var o options
	var skip string
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "length of each wrk run")
	fs.IntVar(&o.threads, "threads", 2, "wrk threads")
	fs.IntVar(&o.connections, "connections", 32, "wrk connections")
	fs.IntVar(&o.runs, "runs", 20, "cold starts to time")
	fs.IntVar(&o.floorIterations, "floor-iterations", 1000, "timed calls of each operation and of its floor on DynamoDB Local")
	var levels string
	fs.StringVar(&levels, "growth-levels", "0,1000,10000,100000", "stored requests the growth section measures at")
	fs.DurationVar(&o.growthBudget, "growth-budget", 20*time.Minute, "time the growth section's fills may take on DynamoDB Local")
	fs.DurationVar(&o.growthMemoryBudget, "growth-memory-budget", 3*time.Minute, "time the growth section's fills may take on minidyn (--memory)")
	fs.IntVar(&o.growthCalls, "growth-calls", 60, "timed calls of each operation at each growth level")
	fs.StringVar(&skip, "skip", "", "parts to leave out, comma-separated: gobench, form, http, floor, growth, lambda, path, chaos, cost")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	var err error
	if o.growthLevels, err = parseLevels(levels); err != nil {
		return o, err
	}
	o.skip = map[string]bool{}
	for _, s := range strings.Split(skip, ",") {
		if s = strings.TrimSpace(s); s != "" {
			if !slices.Contains(parts, s) {
				return o, fmt.Errorf("--skip: unknown part %q (%s)", s, strings.Join(parts, ", "))
			}
			o.skip[s] = true
		}
	}
	switch {
	case o.duration < time.Second || o.duration > time.Minute:
		return o, errors.New("--duration: want 1s to 1m")
	case o.threads < 1 || o.connections < o.threads:
		return o, errors.New("--threads and --connections: want 1 thread or more and at least one connection per thread")
	case o.runs < 1 || o.runs > 200:
		return o, errors.New("--runs: want 1 to 200")
	case o.floorIterations < 10 || o.floorIterations > maxFloorIterations:
		return o, fmt.Errorf("--floor-iterations: want 10 to %d", maxFloorIterations)
	}
	return o, nil
}

func run(ctx context.Context, args []string) error {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "doorstep-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	started, loadBefore := time.Now(), loadAverage()
	var rows []row
	if !o.skip["gobench"] {
		progress("Go benchmarks (pkg/booking)")
		r, err := goBenchmarks(ctx, root)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if !o.skip["form"] {
		progress("the booking form: each step's weight, and a week of windows vs listArrivalWindows (minidyn, in process)")
		r, err := formBenchmarks(ctx, root)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if !o.skip["http"] {
		r, err := httpBenchmarks(ctx, root, tmp, o)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if !o.skip["floor"] {
		progress("DynamoDB Local: each operation through the handler vs its floor, %d iterations (go test -run TestFloorRun ./infra/bench/)", o.floorIterations)
		r, err := floorBenchmarks(ctx, root, o)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if !o.skip["growth"] {
		r, err := growthBenchmarks(ctx, root, o)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if !o.skip["lambda"] {
		r, err := lambdaBenchmarks(ctx, root, tmp, o)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if !o.skip["path"] {
		progress("the warm path: what one call runs once its function is warm (go test -covermode=count -run TestWarmPath, twice)")
		r, err := warmPathBenchmarks(ctx, root, tmp)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if !o.skip["chaos"] {
		progress("the fault harness: %d operations with %s of the DynamoDB calls faulted (go run ./infra/chaos)", chaosOps, chaosFaultRate)
		r, err := chaosBenchmarks(ctx, root)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}

	if !o.skip["cost"] {
		progress("the cost of one journey on DynamoDB Local (go test -run TestCostRun ./infra/bench/ -args -cost.run)")
		r, err := costBenchmarks(ctx, root, tmp)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}

	fmt.Printf("\nDoorstep benchmarks: %s/%s, %d CPUs, %s, %s, took %s; 1-minute load average %s before, %s after\n\n",
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), time.Now().Format("2006-01-02"),
		time.Since(started).Round(time.Second), loadBefore, loadAverage())
	printTable(os.Stdout, rows)
	if over := overBudget(rows); len(over) > 0 {
		return fmt.Errorf("arm64 bootstrap over the %s-byte budget: %s", thousands(targetBinaryBytes), strings.Join(over, ", "))
	}
	return nil
}

// progress notes on stderr what runs now; the table goes to stdout.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// repoRoot is the folder above the working directory that holds go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory; run from the repository")
		}
		dir = parent
	}
}

// loadAverage is the 1-minute load average (Linux), "?" elsewhere: other
// work on the machine shows in every figure, so the table says how busy it
// was.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}
