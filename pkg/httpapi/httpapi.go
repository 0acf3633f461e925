// Package httpapi serves the public JSON API under /api/v1: getBusiness,
// listArrivalWindows, createServiceRequest and getServiceRequest, and the
// OpenAPI document that describes them (openapi.yaml). It is the only place
// where domain error codes become HTTP statuses.
package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strings"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Prefix is the path prefix of the JSON API.
const Prefix = "/api/v1"

type api struct {
	desk *booking.Desk
	log  *slog.Logger
}

// New returns the JSON API handler. Every response is JSON, CORS is open, and
// every error has the shape {"error": {"code", "message"}}.
func New(desk *booking.Desk, log *slog.Logger) http.Handler {
	a := &api{desk: desk, log: log}
	mux := http.NewServeMux()
	mux.Handle(Prefix+"/businesses/{slug}", methods{http.MethodGet: a.getBusiness})
	mux.Handle(Prefix+"/businesses/{slug}/availability", methods{http.MethodGet: a.listArrivalWindows})
	mux.Handle(Prefix+"/businesses/{slug}/requests", methods{http.MethodPost: a.createServiceRequest})
	mux.Handle(Prefix+"/requests/{code}", methods{http.MethodGet: a.getServiceRequest})
	jsonDoc, yamlDoc := openapiRoutes()
	mux.Handle(Prefix+"/openapi.json", methods{http.MethodGet: jsonDoc})
	mux.Handle(Prefix+"/openapi.yaml", methods{http.MethodGet: yamlDoc})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		a.writeError(r.Context(), w, booking.Errorf(booking.NotFound, "no such route: %s %s", r.Method, r.URL.Path))
	})
	return accessLog(log, cors(mux))
}

func (a *api) getBusiness(w http.ResponseWriter, r *http.Request) {
	b, err := a.desk.Business(r.Context(), r.PathValue("slug"))
	a.respond(w, r, http.StatusOK, b, err)
}

func (a *api) listArrivalWindows(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	av, err := a.desk.ArrivalWindows(r.Context(), r.PathValue("slug"), q.Get("from"), q.Get("days"))
	a.respond(w, r, http.StatusOK, av, err)
}

func (a *api) createServiceRequest(w http.ResponseWriter, r *http.Request) {
	// One byte past the cap is enough for the domain to refuse the body.
	body, err := io.ReadAll(io.LimitReader(r.Body, booking.MaxBodyBytes+1))
	if err != nil {
		a.writeError(r.Context(), w, booking.Errorf(booking.InvalidRequest, "the body could not be read"))
		return
	}
	created, replayed, err := a.desk.CreateRequest(r.Context(), r.PathValue("slug"), body, r.Header.Get("Idempotency-Key"))
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	a.respond(w, r, http.StatusCreated, created, err)
}

func (a *api) getServiceRequest(w http.ResponseWriter, r *http.Request) {
	st, err := a.desk.Request(r.Context(), r.PathValue("code"))
	a.respond(w, r, http.StatusOK, st, err)
}

func (a *api) respond(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	writeJSON(w, status, v)
}

// errorBody is the spec's error shape.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    booking.Code `json:"code"`
	Message string       `json:"message"`
}

// writeError answers with err's code and HTTP status. An error without a code
// is logged and answered as SERVER_ERROR; its text never reaches the client.
func (a *api) writeError(ctx context.Context, w http.ResponseWriter, err error) {
	code := booking.ErrorCode(err)
	noteErrorCode(w, code)
	if code == booking.ServerError {
		a.log.ErrorContext(ctx, "request failed", "error", err.Error())
	}
	writeJSON(w, Status(code), errorBody{errorDetail{Code: code, Message: booking.ErrorMessage(err)}})
}

// Status maps an error code to its HTTP status: the one place that does.
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
	case booking.TooManyOpen:
		return http.StatusTooManyRequests
	case booking.BookingPaused:
		return http.StatusServiceUnavailable
	case MethodNotAllowed:
		return http.StatusMethodNotAllowed
	}
	return http.StatusInternalServerError
}

// MethodNotAllowed is the code of a request whose route exists but not for
// its method. It belongs to the HTTP edge, not to the domain.
const MethodNotAllowed booking.Code = "METHOD_NOT_ALLOWED"

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the status is sent; a broken connection has nobody left to tell
}

// methods routes one path by method, answering OPTIONS (CORS preflight) and
// any other method with a JSON 405.
type methods map[string]http.HandlerFunc

func (m methods) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h, ok := m[r.Method]; ok {
		h(w, r)
		return
	}
	allowed := []string{http.MethodOptions}
	for method := range m {
		allowed = append(allowed, method)
	}
	sort.Strings(allowed)
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	noteErrorCode(w, MethodNotAllowed)
	writeJSON(w, http.StatusMethodNotAllowed, errorBody{errorDetail{
		Code:    MethodNotAllowed,
		Message: r.Method + " is not allowed here; use " + strings.Join(allowed, " or "),
	}})
}

// cors opens the API to every origin: it is public and carries no cookies.
func cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Expose-Headers", "Idempotent-Replayed")
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Content-Type, Idempotency-Key")
			h.Set("Access-Control-Max-Age", "600")
		}
		next.ServeHTTP(w, r)
	})
}
