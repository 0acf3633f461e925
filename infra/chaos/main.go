// Command chaos runs the local wiring (the store, the service, the JSON
// API's and the pages' edges, the notifier on the table's stream, the
// sweeper, the simulated payment) against DynamoDB Local through a proxy
// that injects DynamoDB's faults at a rate, drives a mixed workload, and
// then checks the service's invariants from the table, the messages sent
// and every answer. docs/reliability.md tells what it injects and checks.
//
//	go run ./infra/chaos [--ops 1000] [--fault-rate 0.1] [--seed N] [--workers 16]
//
// It exits 1 when it finds a violation; its last line is "N violations".
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

type options struct {
	ops       int
	faultRate float64
	seed      uint64
	workers   int
}

func parseFlags(args []string, now func() time.Time) (options, error) {
	o := options{}
	fs := flag.NewFlagSet("chaos", flag.ContinueOnError)
	fs.IntVar(&o.ops, "ops", 1000, "operations to run")
	fs.Float64Var(&o.faultRate, "fault-rate", 0.1, "share of DynamoDB calls that get a fault, 0 to 1")
	fs.Uint64Var(&o.seed, "seed", 0, "the random seed (0: a new one, printed); the same seed replays the workload and the faults drawn")
	fs.IntVar(&o.workers, "workers", 16, "operations run at once")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case o.ops < 1:
		return o, fmt.Errorf("--ops must be at least 1, got %d", o.ops)
	case o.faultRate < 0 || o.faultRate > 1:
		return o, fmt.Errorf("--fault-rate must be 0 to 1, got %g", o.faultRate)
	case o.workers < 1:
		return o, fmt.Errorf("--workers must be at least 1, got %d", o.workers)
	}
	if o.seed == 0 {
		o.seed = uint64(now().UnixNano())
	}
	return o, nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	violations, err := run(ctx, os.Args[1:], os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(2)
	}
	if violations > 0 {
		os.Exit(1)
	}
}

// run runs the harness with the command line's args, reports to out and
// returns the number of violations found.
func run(ctx context.Context, args []string, out io.Writer) (int, error) {
	o, err := parseFlags(args, time.Now)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(out, "chaos: seed %d (replay: --seed %d), %d operations, fault rate %g, %d workers\n", o.seed, o.seed, o.ops, o.faultRate, o.workers)
	h, err := start(ctx, o, out)
	if err != nil {
		return 0, err
	}
	defer h.stop()
	began := time.Now()
	h.workload(ctx)
	if err := h.drain(ctx); err != nil {
		return 0, err
	}
	r, err := h.check(ctx)
	if err != nil {
		return 0, err
	}
	r.elapsed = time.Since(began)
	r.print(out)
	return r.total(), nil
}
