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

// cancellation says why DynamoDB cancelled a transaction: the first item
// that did not pass decides.
type cancellation struct {
	item    int                        // the first item that did not pass
	code    string                     // its reason code
	reasons []types.CancellationReason // one for each item, in order
	err     error                      // the *types.TransactionCanceledException
}

// canceledBy returns why err cancelled the transaction in; nil when err is
// not a cancellation with a reason for each item, or no item says why.
func canceledBy(err error, in *dynamodb.TransactWriteItemsInput) *cancellation {
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) || len(canceled.CancellationReasons) != len(in.TransactItems) {
		return nil
	}
	i, code := firstFailure(canceled.CancellationReasons)
	if i < 0 {
		return nil
	}
	return &cancellation{item: i, code: code, reasons: canceled.CancellationReasons, err: err}
}

// transact runs the transaction in once. It returns nil, nil when it
// passed, and the cancellation when DynamoDB cancelled it for a reason that
// leaves the answer open (retryable: run it again after pause) or for a
// failed condition, which the caller explains; anything else is an error.
//
// Store.attempts runs the attempts, so that each builds afresh a
// transaction that depends on reads, and runs again when a failed
// condition says to.
func (s *Store) transact(ctx context.Context, what string, in *dynamodb.TransactWriteItemsInput) (*cancellation, error) {
	_, err := s.client.TransactWriteItems(ctx, in)
	if err == nil {
		return nil, nil
	}
	c := canceledBy(err, in)
	switch {
	case c == nil:
		return nil, fmt.Errorf("%s: %w", what, err)
	case !retryable(c.code) && c.code != reasonConditionalCheckFailed:
		return nil, fmt.Errorf("%s: item %d: %s: %w", what, c.item, c.code, err)
	}
	return c, nil
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

// errAgain is what one attempt of Store.attempts returns to run the
// transaction again.
var errAgain = errors.New("run the transaction again")

// attempts runs a transaction that is built afresh for each attempt, as it
// depends on reads, up to maxAttempts times, with a pause between attempts.
// try builds and runs one attempt and returns its answer, or errAgain when
// the transaction should run again (it conflicted, or a read it was built
// on changed). On the last attempt, last is true and try answers itself.
func (s *Store) attempts(ctx context.Context, what string, try func(last bool) error) error {
	for attempt := 1; ; attempt++ {
		err := try(attempt == maxAttempts)
		if !errors.Is(err, errAgain) {
			return err
		}
		if attempt == maxAttempts {
			return fmt.Errorf("%s: still conflicting after %d attempts", what, maxAttempts)
		}
		if err := pause(ctx, what, attempt); err != nil {
			return err
		}
	}
}

// pause waits before the attempt after the given one, by the backoff
// above; the jitter keeps transactions that collided from colliding again
// in step.
func pause(ctx context.Context, what string, attempt int) error {
	backoff := min(firstBackoff<<(attempt-1), maxBackoff)
	t := time.NewTimer(backoff/2 + rand.N(backoff/2+1))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", what, ctx.Err())
	case <-t.C:
		return nil
	}
}
