package dynamo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Transaction retries: a transaction cancelled because another one was
// writing the same items at the same moment is tried again, up to
// maxAttempts times in all, after a jittered pause that starts at
// firstBackoff and doubles up to maxBackoff.
const (
	maxAttempts  = 8
	firstBackoff = 5 * time.Millisecond
	maxBackoff   = 200 * time.Millisecond
)

// Cancellation reason codes of TransactWriteItems.
const (
	reasonNone                   = "None"
	reasonConditionalCheckFailed = "ConditionalCheckFailed"
	reasonTransactionConflict    = "TransactionConflict"
	reasonThrottling             = "ThrottlingError"
	reasonThroughputExceeded     = "ProvisionedThroughputExceeded"
)

// transact runs the TransactWriteItems that build makes until it passes.
// When it is cancelled, the first item that did not pass decides: a
// conflict with another transaction writing the same items at the same
// moment, or throttling, runs it again after a jittered pause (from
// firstBackoff doubling up to maxBackoff); a failed condition is for
// failed to explain, and it may say to run again too; anything else is an
// error. After maxAttempts cancelled runs, exhausted says what to answer.
// build runs before each attempt, so a transaction that depends on a read
// is built on a fresh one.
func (s *Store) transact(ctx context.Context, what string,
	build func() (*dynamodb.TransactWriteItemsInput, error),
	failed func(i int, reason types.CancellationReason, err error) (again bool, _ error),
	exhausted func(reasons []types.CancellationReason, err error) error) error {
	backoff := firstBackoff
	for attempt := 1; ; attempt++ {
		in, err := build()
		if err != nil {
			return err
		}
		_, err = s.client.TransactWriteItems(ctx, in)
		if err == nil {
			return nil
		}
		var canceled *types.TransactionCanceledException
		if !errors.As(err, &canceled) || len(canceled.CancellationReasons) != len(in.TransactItems) {
			return fmt.Errorf("%s: %w", what, err)
		}
		reasons := canceled.CancellationReasons
		switch i, code := firstFailure(reasons); {
		case i < 0:
			return fmt.Errorf("%s: %w", what, err)
		case retryable(code):
		case code != reasonConditionalCheckFailed:
			return fmt.Errorf("%s: item %d: %s: %w", what, i, code, err)
		default:
			var again bool
			if again, err = failed(i, reasons[i], err); !again {
				return err
			}
		}
		if attempt == maxAttempts {
			return exhausted(reasons, err)
		}
		if err := sleep(ctx, backoff/2+rand.N(backoff/2+1)); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// firstFailure returns the index and reason code of the first item of a
// cancelled transaction that did not pass; -1 when no item says why.
func firstFailure(reasons []types.CancellationReason) (int, string) {
	for i, r := range reasons {
		if code := aws.ToString(r.Code); code != "" && code != reasonNone {
			return i, code
		}
	}
	return -1, ""
}

// retryable reports whether a cancellation reason leaves the answer open:
// running the transaction again may pass.
func retryable(code string) bool {
	return code == reasonTransactionConflict || code == reasonThrottling || code == reasonThroughputExceeded
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
