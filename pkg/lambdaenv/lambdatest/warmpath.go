package lambdatest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/smithy-go/middleware"

	"github.com/doorstep/doorstep/pkg/awsenv"
)

// WarmPathVariable runs a TestWarmPath: "warm" makes only the calls that
// warm a function, "measure" makes them and then the one call measured.
// go run ./infra/bench (its path part) runs the test both ways with
// coverage counters (-covermode=count): the counts that differ are the
// code the measured call ran. Without the variable the test skips.
const WarmPathVariable = "DOORSTEP_WARM_PATH"

// WarmPathCalls starts the line a measured call prints: the AWS operations
// it made, in order.
const WarmPathCalls = "DOORSTEP_WARM_PATH_CALLS"

// WarmPath is one function's TestWarmPath.
type WarmPath struct {
	measure bool
	mu      sync.Mutex
	on      bool
	calls   []string
}

// NewWarmPath returns the warm path of a TestWarmPath, or skips the test
// when WarmPathVariable is not set.
func NewWarmPath(t testing.TB) *WarmPath {
	switch mode := os.Getenv(WarmPathVariable); mode {
	case "":
		t.Skip("run by go run ./infra/bench (its path part), which sets " + WarmPathVariable)
	case "warm", "measure":
		return &WarmPath{measure: mode == "measure"}
	default:
		t.Fatalf("%s: got %q, want warm or measure", WarmPathVariable, mode)
	}
	return nil
}

// Context returns ctx under which the AWS clients a function builds note
// each call made during the measured call (awsenv.WithAPIOptions).
func (p *WarmPath) Context(ctx context.Context) context.Context {
	return awsenv.WithAPIOptions(ctx, func(stack *middleware.Stack) error {
		return onCall(stack, "DoorstepWarmPathCalls", func(ctx context.Context, _ any) {
			p.mu.Lock()
			if p.on {
				p.calls = append(p.calls, awsmiddleware.GetOperationName(ctx))
			}
			p.mu.Unlock()
		})
	})
}

// Measure runs call when the test measures, and prints the AWS calls it
// made on a WarmPathCalls line; when the test only warms, it does nothing.
func (p *WarmPath) Measure(name string, call func()) {
	if !p.measure {
		return
	}
	p.mu.Lock()
	p.on, p.calls = true, nil
	p.mu.Unlock()
	call()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.on = false
	fmt.Printf("%s %s: %s\n", WarmPathCalls, name, strings.Join(p.calls, " "))
}
