// Command withdynamodb runs a command with DynamoDB Local running beside
// it, in memory, and the engine's address in DOORSTEP_DYNAMODB_LOCAL
// (dynamolocal.SharedEnv). make test runs go test under it, so that the
// test binaries of the run share one engine, each on tables of its own,
// instead of starting a JVM each. When DynamoDB Local cannot start (no
// Java, not installed), it says why and runs the command alone: each test
// binary then tries its own, and skips or fails as it would (CI=true).
//
//	go run ./infra/withdynamodb go test ./...
//
// It exits with the command's status, after stopping the engine.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/doorstep/doorstep/pkg/dynamo/dynamolocal"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./infra/withdynamodb command [argument ...]")
		os.Exit(2)
	}
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run runs args with the engine and returns the command's exit status.
func run(args []string, log io.Writer) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = os.Environ()
	engine, err := dynamolocal.Start(dynamolocal.Options{})
	if err != nil {
		fmt.Fprintf(log, "withdynamodb: no shared DynamoDB Local (%v); each test binary tries its own\n", err)
	} else {
		defer engine.Stop()
		cmd.Env = append(cmd.Env, dynamolocal.SharedEnv+"="+engine.Endpoint)
	}
	// Ctrl-C reaches the command too (one process group): wait for it to
	// end, then stop the engine. Notify, not Ignore, so that the command
	// does not inherit an ignored signal.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(log, "withdynamodb: %v\n", err)
		return 1
	}
	go func() {
		for s := range signals {
			_ = cmd.Process.Signal(s)
		}
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return max(exit.ExitCode(), 1)
	case err != nil:
		fmt.Fprintf(log, "withdynamodb: %v\n", err)
		return 1
	}
	return 0
}
