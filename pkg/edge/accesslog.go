package edge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

type requestIDKey struct{}

// WithRequestID returns ctx carrying the id the access log records for the
// request, such as the Lambda request id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// AccessLog logs one line per request: request id, method, route pattern
// (never the path itself, which may hold a slug or a request's code, nor a
// body or any contact detail), status, duration and error code.
func AccessLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		id, _ := r.Context().Value(requestIDKey{}).(string)
		if id == "" {
			id = newRequestID()
		}
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
		log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
	})
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
	status int
	code   booking.Code
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
