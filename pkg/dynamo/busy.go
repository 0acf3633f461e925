package dynamo

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/doorstep/doorstep/pkg/booking"
)

// busyCodes are the error codes of a DynamoDB that is throttling or
// failing on its side: the SDK retries them, and one that still comes back
// after its last attempt is booking.ServerBusy, never SERVER_ERROR.
var busyCodes = map[string]bool{
	"ThrottlingException":                    true,
	"ProvisionedThroughputExceededException": true,
	"RequestLimitExceeded":                   true,
	// DynamoDB answers a TransactWriteItems sent again with its
	// ClientRequestToken while the first is still running with this; the
	// SDK retries it, and when it outlasts the retries the outcome is not
	// known yet. DynamoDB Local runs a transaction to its end before it
	// answers, so only DynamoDB shows it.
	"TransactionInProgressException": true,
	"InternalServerError":            true,
	"ServiceUnavailable":             true,
}

// busy reports whether err is a failure that outlived the SDK's retries
// because DynamoDB was throttling, answered a 5xx, or the connection was
// lost before an answer came (the write may or may not have been
// applied). A transaction cancelled for throttling is not one here:
// Store.attempts runs it again and exhausted answers it.
func busy(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var api smithy.APIError
	if errors.As(err, &api) && busyCodes[api.ErrorCode()] {
		return true
	}
	var resp *smithyhttp.ResponseError
	if errors.As(err, &resp) && resp.HTTPStatusCode() >= 500 {
		return true
	}
	var send *smithyhttp.RequestSendError
	return errors.As(err, &send)
}

// classified returns call with its busy failures (busy) as
// booking.Busy: the one place the store's calls are classified, so that
// every edge answers them 503 SERVER_BUSY with Retry-After.
func classified[I, O any](call func(context.Context, I, ...func(*dynamodb.Options)) (O, error)) func(context.Context, I, ...func(*dynamodb.Options)) (O, error) {
	return func(ctx context.Context, in I, opts ...func(*dynamodb.Options)) (O, error) {
		out, err := call(ctx, in, opts...)
		if err != nil && busy(err) {
			err = booking.Busy(err)
		}
		return out, err
	}
}
