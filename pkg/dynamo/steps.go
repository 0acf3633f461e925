package dynamo

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// A transaction is the steps of one TransactWriteItems, in the order their
// failures take precedence: when DynamoDB cancels it, the first step that
// did not pass decides (resolve).
type transaction []step

// A step is one item of a transaction and what its failure means.
type step struct {
	item types.TransactWriteItem
	// failed answers the item's condition failing (ConditionalCheckFailed):
	// the error to return, or errAgain (wrapped to say why, if need be) to
	// run the transaction again on fresh reads (see staleOr). nil: no
	// condition of it is expected to fail; its failure is an error.
	failed func(context.Context, failure) error
	// stuck answers the item still failing after the last attempt (it
	// conflicted, or its condition failed and asked to run again); a nil
	// func or a nil answer: it has no answer of its own.
	stuck func(context.Context, failure) error
	// crowded is the answer to the item still conflicting
	// (TransactionConflict) after the last attempt, when no step's stuck
	// answer decides: too many callers at once.
	crowded error
}

// failure is how a step failed: its place in the transaction, DynamoDB's
// reason code, the item as it was when its condition failed (for a step
// that asks for it, on engines that return it), and the cancellation.
type failure struct {
	index int
	code  string
	old   map[string]types.AttributeValue
	err   error
}

// refuse is a step's answer that is always err.
func refuse(err error) func(context.Context, failure) error {
	return func(context.Context, failure) error { return err }
}

// staleOr is the answer to a failed condition on an item that a read chose:
// when the read found it free (fresh), another caller took it since, and
// the transaction runs again on a new read; otherwise err.
func staleOr(fresh bool, err error) func(context.Context, failure) error {
	return func(context.Context, failure) error {
		if fresh {
			return errAgain
		}
		return err
	}
}

// input is the TransactWriteItems of t.
func (t transaction) input() *dynamodb.TransactWriteItemsInput {
	items := make([]types.TransactWriteItem, len(t))
	for i, st := range t {
		items[i] = st.item
	}
	return &dynamodb.TransactWriteItemsInput{TransactItems: items}
}

// run sends t once, as one attempt of Store.attempts: nil when it passed,
// errAgain to run it again, or the answer that decides.
func (s *Store) run(ctx context.Context, what string, t transaction, last bool) error {
	c, err := s.transact(ctx, what, t.input())
	if c == nil {
		return err
	}
	return t.resolve(ctx, what, c, last)
}

// resolve answers a cancellation of t by its first step that did not pass:
// a conflict runs it again; a failed condition is answered by the step.
// After the last attempt, what still fails answers (exhausted).
func (t transaction) resolve(ctx context.Context, what string, c *cancellation, last bool) error {
	why := c.err
	if !retryable(c.code) {
		st := t[c.item]
		if st.failed == nil {
			return fmt.Errorf("%s: item %d: %w", what, c.item, c.err)
		}
		err := st.failed(ctx, failure{index: c.item, code: c.code, old: c.reasons[c.item].Item, err: c.err})
		if !errors.Is(err, errAgain) {
			return err
		}
		if err != errAgain {
			why = err
		}
	}
	if !last {
		return errAgain
	}
	return t.exhausted(ctx, what, c, why)
}

// exhausted answers a transaction that still failed at its last attempt:
// the first step, in order, that still fails and has a stuck answer
// decides; a crowded answer only when none does; else an error.
func (t transaction) exhausted(ctx context.Context, what string, c *cancellation, why error) error {
	for i, st := range t {
		code := aws.ToString(c.reasons[i].Code)
		if st.stuck == nil || code == "" || code == reasonNone {
			continue
		}
		if err := st.stuck(ctx, failure{index: i, code: code, old: c.reasons[i].Item, err: c.err}); err != nil {
			return err
		}
	}
	for i, st := range t {
		if st.crowded != nil && aws.ToString(c.reasons[i].Code) == reasonTransactionConflict {
			return st.crowded
		}
	}
	err := fmt.Errorf("%s: still conflicting after %d attempts: %w", what, maxAttempts, why)
	if c.code == reasonThrottling || c.code == reasonThroughputExceeded {
		return booking.Busy(err) // throttled to the end: busy, not a fault
	}
	return err
}
