// Package logjson is the one log every Doorstep process writes, on AWS and
// on the local server alike: slog's JSON handler, one object a line, each
// line with the request id of the request or Lambda invocation it belongs
// to, so that an operator can gather an invocation's lines (and its EMF
// metric lines, pkg/metrics) with one filter.
//
// The request id comes from the context a line is logged with
// (WithRequestID: the access log's, or the Lambda request id the HTTP
// adapter puts there), else from the invocation the process is running
// (SetInvocation). A Lambda execution environment runs one invocation at a
// time, so the latter names the lines logged without a context too.
package logjson

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
)

// RequestIDKey is the key of the request id in each line.
const RequestIDKey = "request_id"

type requestIDKey struct{}

// WithRequestID returns ctx carrying id, the request id of the lines logged
// with it and of the access log's line.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id ctx carries, else the running
// invocation's (SetInvocation), else "".
func RequestID(ctx context.Context) string {
	if ctx != nil {
		if id, _ := ctx.Value(requestIDKey{}).(string); id != "" {
			return id
		}
	}
	if id := invocation.Load(); id != nil {
		return *id
	}
	return ""
}

// invocation is the id of the Lambda invocation the process is running.
var invocation atomic.Pointer[string]

// SetInvocation records id as the running invocation's ("" when none is
// running). Only a process that runs one invocation at a time, such as a
// Lambda function, may call it.
func SetInvocation(id string) {
	if id == "" {
		invocation.Store(nil)
		return
	}
	invocation.Store(&id)
}

// New returns the JSON logger writing to w, at Info and above.
func New(w io.Writer) *slog.Logger {
	return slog.New(handler{slog.NewJSONHandler(w, nil)})
}

// handler adds the request id to each record that has none.
type handler struct{ slog.Handler }

func (h handler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" && !hasAttr(r, RequestIDKey) {
		r = r.Clone()
		r.AddAttrs(slog.String(RequestIDKey, id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return handler{h.Handler.WithAttrs(attrs)}
}

func (h handler) WithGroup(name string) slog.Handler {
	return handler{h.Handler.WithGroup(name)}
}

func hasAttr(r slog.Record, key string) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == key
		return !found
	})
	return found
}
