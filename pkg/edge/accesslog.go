package edge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/logjson"
)

// WithRequestID returns ctx carrying the id the access log records for the
// request, such as the Lambda request id (logjson.WithRequestID).
func WithRequestID(ctx context.Context, id string) context.Context {
	return logjson.WithRequestID(ctx, id)
}

// AccessLog logs one line per request: request id, method, route pattern
// (never the path itself, which may hold a slug or a request's code, nor a
// body or any contact detail), status, duration, error code, and the
// request's booking.LogRef when the route names one or the response made
// one (NoteRequestCode). The request id is in the context next gets, so
// every line logged with it carries the same id (pkg/logjson).
func AccessLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		id := logjson.RequestID(r.Context())
		if id == "" {
			id = newRequestID()
		}
		r = r.WithContext(logjson.WithRequestID(r.Context(), id))
		next.ServeHTTP(rec, r)
		attrs := []slog.Attr{
			slog.String("request_id", id),
			slog.String("method", r.Method),
			slog.String("route", route(r)),
			slog.Int("status", rec.status),
			slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
		}
		if rec.code != "" {
			attrs = append(attrs, slog.String("error_code", string(rec.code)))
		}
		if ref := requestRef(r, rec); ref != "" {
			attrs = append(attrs, slog.String("request", ref))
		}
		log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
	})
}

// requestRef is the booking.LogRef of the request the route names in its
// {code} (a status page's ".ics" left off), or of the one the response made;
// "" when there is none, or the path's value cannot be a code.
func requestRef(r *http.Request, rec *recorder) string {
	code := rec.requestCode
	if code == "" {
		code, _ = booking.CanonicalCode(strings.TrimSuffix(r.PathValue("code"), ".ics"))
	}
	if code == "" {
		return ""
	}
	return booking.LogRef(code)
}

// route is the pattern that matched ("GET /api/v1/requests/{code}"), so that
// slugs and request codes stay out of the log.
func route(r *http.Request) string {
	if r.Pattern == "" || r.Pattern == "/" {
		return "unmatched"
	}
	return r.Pattern
}

func newRequestID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// recorder remembers the status and error code of a response.
type recorder struct {
	http.ResponseWriter
	status      int
	code        booking.Code
	requestCode string
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

// NoteErrorCode tells the access log which error code a response carries.
func NoteErrorCode(w http.ResponseWriter, code booking.Code) {
	if rec, ok := w.(*recorder); ok {
		rec.code = code
	}
}

// NoteRequestCode tells the access log which request a response made (a
// create), which it logs as its booking.LogRef.
func NoteRequestCode(w http.ResponseWriter, code string) {
	if rec, ok := w.(*recorder); ok {
		rec.requestCode = code
	}
}
