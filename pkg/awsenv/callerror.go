package awsenv

import (
	"errors"
	"fmt"

	"github.com/aws/smithy-go"
)

// CallError wraps err, what an AWS call about a person returned, so that
// its text names the operation and the service's error code but not the
// service's message: SES's MessageRejected quotes the recipient's address
// ("The following identities failed the check ...: jo@example.com"), and
// the error is logged (docs/design.md: no contact detail in a log). The
// chain is kept, so errors.As still finds the service's error.
func CallError(what string, err error) error {
	if err == nil {
		return nil
	}
	var api smithy.APIError
	if !errors.As(err, &api) {
		return fmt.Errorf("%s: %w", what, err) // no answer from the service: a network error names no person
	}
	text := what + ": " + api.ErrorCode()
	var op *smithy.OperationError
	if errors.As(err, &op) {
		text = what + ": " + op.Service() + " " + op.Operation() + ": " + api.ErrorCode()
	}
	return callError{text: text, err: err}
}

type callError struct {
	text string
	err  error
}

func (e callError) Error() string { return e.text }
func (e callError) Unwrap() error { return e.err }
