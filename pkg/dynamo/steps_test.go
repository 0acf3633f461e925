package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestTransactionResolve checks which step of a cancelled transaction
// decides, for lists of reasons: the first that did not pass, by its
// failed answer; after the last attempt, the first still failing with a
// stuck answer, then a crowded one, then an error.
func TestTransactionResolve(t *testing.T) {
	var (
		errA       = errors.New("a refuses")
		errB       = errors.New("b refuses")
		errStuckB  = errors.New("b is stuck")
		errStuckC  = errors.New("c is stuck")
		errCrowdA  = errors.New("a is crowded")
		errGone    = fmt.Errorf("%w: b is gone", errAgain)
		oldOfA     = map[string]types.AttributeValue{"pk": str("A")}
		gotOld     map[string]types.AttributeValue
		gotFailure failure
	)
	stuckIf := func(code string, err error) func(context.Context, failure) error {
		return func(_ context.Context, f failure) error {
			if f.code == code {
				return err
			}
			return nil
		}
	}
	steps := transaction{
		{failed: func(_ context.Context, f failure) error { gotOld, gotFailure = f.old, f; return errA }, crowded: errCrowdA},
		{failed: staleOr(true, errB), stuck: stuckIf(reasonConditionalCheckFailed, errStuckB)},
		{failed: staleOr(false, errB), stuck: stuckIf(reasonTransactionConflict, errStuckC)},
		{failed: func(context.Context, failure) error { return errGone }},
		{}, // no condition expected to fail
	}
	const (
		n        = reasonNone
		conflict = reasonTransactionConflict
		failed   = reasonConditionalCheckFailed
	)
	tests := []struct {
		name    string
		reasons []string
		last    bool
		want    error  // errors.Is
		wantMsg string // or its message, when want is nil
	}{
		{name: "the first failed condition decides", reasons: []string{failed, failed, failed, n, n}, want: errA},
		{name: "a conflict before a failed condition runs again", reasons: []string{conflict, n, failed, n, n}, want: errAgain},
		{name: "throttled runs again", reasons: []string{n, n, reasonThrottling, n, n}, want: errAgain},
		{name: "a stale read runs again", reasons: []string{n, failed, failed, n, n}, want: errAgain},
		{name: "a fresh read refuses", reasons: []string{n, n, failed, failed, n}, want: errB},
		{name: "no failed answer: an error naming the item", reasons: []string{n, n, n, n, failed},
			wantMsg: "try: item 4: operation error: TransactionCanceledException"},
		{name: "last: the first stuck answer decides", reasons: []string{n, failed, conflict, n, n}, last: true, want: errStuckB},
		{name: "last: a nil stuck answer lets later steps answer", reasons: []string{conflict, conflict, conflict, n, n}, last: true, want: errStuckC},
		{name: "last: crowded when no step is stuck", reasons: []string{conflict, conflict, n, n, n}, last: true, want: errCrowdA},
		// Crowded only on a conflict: throttled through every attempt is
		// SERVER_BUSY (503 with Retry-After), its cause kept for the logs.
		{name: "last: throttled to the end is busy, not crowded", reasons: []string{reasonThrottling, n, n, n, n}, last: true,
			wantMsg: "SERVER_BUSY: the service is busy right now"},
		{name: "last: throughput exceeded to the end is busy", reasons: []string{n, reasonThroughputExceeded, n, n, n}, last: true,
			wantMsg: "SERVER_BUSY: the service is busy right now"},
		{name: "last: the error says why it ran again", reasons: []string{n, n, n, failed, n}, last: true,
			wantMsg: "try: still conflicting after 8 attempts: run the transaction again: b is gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reasons := make([]types.CancellationReason, len(tt.reasons))
			for i, code := range tt.reasons {
				reasons[i].Code = aws.String(code)
			}
			reasons[0].Item = oldOfA
			canceled := fmt.Errorf("operation error: %w", &types.TransactionCanceledException{CancellationReasons: reasons})
			c := canceledBy(canceled, steps.input())
			if c == nil {
				t.Fatal("canceledBy() = nil")
			}
			got := steps.resolve(context.Background(), "try", c, tt.last)
			switch {
			case tt.want != nil && !errors.Is(got, tt.want):
				t.Errorf("resolve() = %v, want %v", got, tt.want)
			case tt.want == nil && (got == nil || !strings.HasPrefix(got.Error(), tt.wantMsg)):
				t.Errorf("resolve() = %v, want it to start %q", got, tt.wantMsg)
			}
		})
	}
	if gotOld["pk"] != oldOfA["pk"] || gotFailure.index != 0 || gotFailure.code != reasonConditionalCheckFailed {
		t.Errorf("step a's failure = %+v, want index 0, %s and its old item", gotFailure, reasonConditionalCheckFailed)
	}
}
