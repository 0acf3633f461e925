// Package edge holds what Doorstep's HTTP edges share: the spec's error
// body, JSON answers, open CORS, the access log, and the parsers of wire
// strings (dates, days, inbox filters, window starts) that the tool server
// and the operator's tool use too.
package edge

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// ErrorBody is the spec's error shape, {"error": {"code", "message"}}: the
// JSON API's error answers and the tool server's failed tool results.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the inside of ErrorBody.
type ErrorDetail struct {
	Code    booking.Code `json:"code"`
	Message string       `json:"message"`
}

// ErrorBodyOf is err as a client sees it: its code, SERVER_ERROR when it
// carries none, and a message safe to show (booking.ErrorMessage).
func ErrorBodyOf(err error) ErrorBody {
	return ErrorBody{ErrorDetail{Code: booking.ErrorCode(err), Message: booking.ErrorMessage(err)}}
}

// WriteJSON answers status with v as JSON, HTML characters as they are,
// and X-Content-Type-Options: nosniff, so that no browser reads the answer
// as HTML or script whatever it holds.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the status is sent; a broken connection has nobody left to tell
}

// CORS opens an edge to every origin: what it serves is public, and it
// reads no cookie. A preflight may ask for GET and POST with AllowHeaders;
// a browser script may read ExposeHeaders of the answers.
type CORS struct {
	AllowHeaders  string
	ExposeHeaders string // "" for none
}

// Handler answers next's requests with c's headers.
func (c CORS) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		if c.ExposeHeaders != "" {
			h.Set("Access-Control-Expose-Headers", c.ExposeHeaders)
		}
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			h.Set("Access-Control-Allow-Headers", c.AllowHeaders)
			h.Set("Access-Control-Max-Age", "600")
		}
		next.ServeHTTP(w, r)
	})
}

// Status maps an error code to its HTTP status, for every HTTP edge (the
// JSON API, the booking form): the one place that does.
func Status(code booking.Code) int {
	switch code {
	case booking.NotFound:
		return http.StatusNotFound
	case booking.InvalidRequest, booking.InvalidWindow, booking.InvalidDate, booking.InvalidName,
		booking.InvalidPhone, booking.InvalidEmail, booking.InvalidAddress, booking.InvalidZIP,
		booking.OutOfArea, booking.ServiceUnavailable, booking.DepositTerms, booking.TooLate:
		return http.StatusBadRequest
	case booking.WindowTaken, booking.InvalidTransition:
		return http.StatusConflict
	case booking.Unauthorized:
		return http.StatusUnauthorized
	case booking.IdempotencyKeyReused:
		return http.StatusUnprocessableEntity
	case booking.TooManyOpen, booking.RateLimited:
		return http.StatusTooManyRequests
	case booking.RequestRefused:
		return http.StatusForbidden
	case booking.BookingPaused, booking.ServerBusy:
		return http.StatusServiceUnavailable
	case MethodNotAllowed:
		return http.StatusMethodNotAllowed
	}
	return http.StatusInternalServerError
}

// MethodNotAllowed is the code of a request whose route exists but not for
// its method. It belongs to the HTTP edges, not to the domain.
const MethodNotAllowed booking.Code = "METHOD_NOT_ALLOWED"

// SetRetryAfter says, in whole seconds rounded up (never too early), when
// to try again: the Retry-After of every 429 and 503 an edge answers. A
// wait of zero or less sets nothing.
func SetRetryAfter(w http.ResponseWriter, wait time.Duration) {
	if wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
	}
}

// PageFailure is the status of a page's error page for err, which is not
// NOT_FOUND: 503 with Retry-After while the service is busy
// (booking.ServerBusy), so that a person or a crawler tries again, and 500
// for any other failure.
func PageFailure(w http.ResponseWriter, err error) int {
	if booking.ErrorCode(err) == booking.ServerBusy {
		SetRetryAfter(w, booking.RetryAfter(err))
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}
