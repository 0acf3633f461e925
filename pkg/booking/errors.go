package booking

import (
	"errors"
	"fmt"
	"time"
)

// Code is a machine-readable error code from the spec's error table. It travels
// unchanged from the domain to the edge, where each edge maps it once (HTTP
// status, MCP result).
type Code string

// The spec's error codes, plus IDEMPOTENCY_KEY_REUSED from decisions.md.
const (
	NotFound             Code = "NOT_FOUND"
	InvalidRequest       Code = "INVALID_REQUEST"
	InvalidWindow        Code = "INVALID_WINDOW"
	InvalidDate          Code = "INVALID_DATE"
	InvalidName          Code = "INVALID_NAME"
	InvalidPhone         Code = "INVALID_PHONE"
	InvalidEmail         Code = "INVALID_EMAIL"
	InvalidAddress       Code = "INVALID_ADDRESS"
	InvalidZIP           Code = "INVALID_ZIP"
	OutOfArea            Code = "OUT_OF_AREA"
	ServiceUnavailable   Code = "SERVICE_UNAVAILABLE"
	DepositTerms         Code = "DEPOSIT_TERMS"
	TooLate              Code = "TOO_LATE"
	WindowTaken          Code = "WINDOW_TAKEN"
	TooManyOpen          Code = "TOO_MANY_OPEN"
	BookingPaused        Code = "BOOKING_PAUSED"
	IdempotencyKeyReused Code = "IDEMPOTENCY_KEY_REUSED"
	ServerError          Code = "SERVER_ERROR"
	// ServerBusy: the store stayed throttled or failing through all its
	// retries; nothing the call asked for may be assumed done or not
	// done. The caller retries after Error.RetryAfter (a create with the
	// same idempotency key, which then answers its first answer). The
	// spec's nearest code is SERVER_ERROR's "retry"; this one says it is
	// the service's load, not a fault, and when (Retry-After).
	ServerBusy Code = "SERVER_BUSY"
)

// The codes of the limits on what strangers can do (docs/design.md, "Security and
// abuse").
const (
	// RateLimited: the business has taken as many public requests as it
	// takes in an hour, or holds as many unanswered ones as it holds at
	// once. Error.RetryAfter says when to try again.
	RateLimited Code = "RATE_LIMITED"
	// RequestRefused: the business takes no online request from this
	// contact; the person should call it. It does not say why.
	RequestRefused Code = "REQUEST_REFUSED"
)

// The business side's codes.
const (
	// Unauthorized: no valid inbox token.
	Unauthorized Code = "UNAUTHORIZED"
	// InvalidTransition: the Lifecycle does not allow the move from the
	// request's current state, including a move that lost a race to another.
	InvalidTransition Code = "INVALID_TRANSITION"
)

// Error is a failure the caller can act on: a Code and a readable message.
// Any other error is an internal failure and reaches clients only as
// SERVER_ERROR with a generic message.
type Error struct {
	Code    Code
	Message string
	// RetryAfter, when not zero, is how long the caller should wait before
	// trying again (RATE_LIMITED).
	RetryAfter time.Duration
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err, or SERVER_ERROR when err carries none.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ServerError
}

// BusyRetryAfter is the Retry-After of a SERVER_BUSY answer.
const BusyRetryAfter = time.Second

// Busy returns err, a failure of the store that outlived its retries
// (throttling, a 5xx, a connection lost), as SERVER_BUSY: the one domain
// error every edge maps to 503 with Retry-After. err stays in the chain
// for the logs; its text never reaches a client.
func Busy(err error) error {
	return &busyError{busy: &Error{Code: ServerBusy, RetryAfter: BusyRetryAfter,
		Message: "the service is busy right now: retry in a second; a request_service or create retried with the same idempotency key is never made twice"}, cause: err}
}

type busyError struct {
	busy  *Error
	cause error
}

func (e *busyError) Error() string   { return e.busy.Error() + ": " + e.cause.Error() }
func (e *busyError) Unwrap() []error { return []error{e.busy, e.cause} }

// RetryAfter returns how long err says to wait before trying again; zero
// when it says nothing.
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// ErrorMessage returns the text safe to show a client: the message of an
// *Error, or a generic sentence for anything else, whose text may hold
// internal detail and never leaves the service.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Something went wrong on our side. Please retry."
}
