package edge

import (
	"bytes"
	"compress/gzip"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// MinCompressBytes is the least body Compress compresses: below it, gzip's
// header and the CPU cost more than they save.
const MinCompressBytes = 1024

// GzipETagSuffix marks the entity tag of a gzip-compressed answer: the
// compressed bytes are another representation, so their tag differs from
// the plain one's ("abc" becomes "abc-gzip").
const GzipETagSuffix = "-gzip"

// compressible are the media types Compress compresses: HTML pages, JSON
// answers, the OpenAPI document in YAML, CSV exports, calendars and plain
// text. Anything else (an event stream, an image) passes as it is.
var compressible = []string{"text/html", "application/json", "application/problem+json", "application/yaml", "text/csv", "text/calendar", "text/plain"}

// Compress wraps h so that its answers of MinCompressBytes or more, of the
// types above, are sent gzip-compressed to a client that accepts gzip,
// with Vary: Accept-Encoding on every answer. A compressed answer's ETag
// gets GzipETagSuffix; If-None-Match reaches h without it, so that h
// compares with its own tags, and a 304 for a compressed tag names that
// tag again (RFC 9110: the tag of the representation the client holds).
//
// The standard library's compress/gzip, not klauspost/compress's gzhttp:
// net/http links compress/gzip's reader already, and its writer added
// about 130 KB to each HTTP function, where gzhttp (with the zstd encoder
// it imports) added about 520 KB to each and 330 KB to notify, which
// serves no HTTP (it imports lambdaenv): half the room left under the
// 12,000,000-byte budget (docs/performance.md).
func Compress(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(w.Header().Values("Vary"), "Accept-Encoding") {
			w.Header().Add("Vary", "Accept-Encoding")
		}
		tags := slices.Clone(r.Header.Values("If-None-Match"))
		suffixed := false
		for i, v := range tags {
			if s := strings.ReplaceAll(v, GzipETagSuffix+`"`, `"`); s != v {
				tags[i], suffixed = s, true
			}
		}
		if suffixed {
			r = r.Clone(r.Context())
			r.Header["If-None-Match"] = tags
		}
		if !acceptsGzip(r) || r.Method == http.MethodHead {
			h.ServeHTTP(&plainWriter{ResponseWriter: w, suffixed: suffixed}, r)
			return
		}
		cw := &compressWriter{ResponseWriter: w, suffixed: suffixed, code: http.StatusOK}
		defer cw.finish()
		h.ServeHTTP(cw, r)
	})
}

// acceptsGzip reports whether r's Accept-Encoding takes gzip (or *) with
// a quality above zero.
func acceptsGzip(r *http.Request) bool {
	for _, header := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(header, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if c := strings.ToLower(strings.TrimSpace(coding)); c != "gzip" && c != "x-gzip" && c != "*" {
				continue
			}
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
					if f, err := strconv.ParseFloat(v, 64); err == nil {
						q = f
					}
				}
			}
			if q > 0 {
				return true
			}
		}
	}
	return false
}

// suffixTag adds GzipETagSuffix to the answer's ETag, if it has one.
func suffixTag(h http.Header) {
	if etag := h.Get("ETag"); etag != "" && !strings.Contains(etag, GzipETagSuffix) {
		if i := strings.LastIndex(etag, `"`); i > 0 {
			h.Set("ETag", etag[:i]+GzipETagSuffix+etag[i:])
		}
	}
}

// plainWriter passes an answer as it is, giving a 304 the suffixed tag
// the client sent.
type plainWriter struct {
	http.ResponseWriter
	suffixed bool
}

func (w *plainWriter) WriteHeader(code int) {
	if code == http.StatusNotModified && w.suffixed {
		suffixTag(w.Header())
	}
	w.ResponseWriter.WriteHeader(code)
}

// Flush passes a flush on, for streamed answers.
func (w *plainWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *plainWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// compressWriter holds an answer back until it knows whether to compress
// it: not of a compressible type, or a status without a body, it passes
// as it is at once; otherwise its first MinCompressBytes are kept, and it
// is compressed once it reaches them, or sent as it is if it ends before.
type compressWriter struct {
	http.ResponseWriter
	suffixed    bool
	code        int
	wroteHeader bool // WriteHeader was called
	state       int  // undecided, plain or gzipped
	buf         bytes.Buffer
	gz          *gzip.Writer
}

const (
	undecided = iota
	plain
	gzipped
)

var gzipWriters = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

func (w *compressWriter) WriteHeader(code int) {
	if w.wroteHeader || w.state != undecided {
		return
	}
	w.code, w.wroteHeader = code, true
	if code < 200 || code == http.StatusNoContent || code == http.StatusNotModified || !w.compressible() {
		w.startPlain()
	}
}

// compressible reports whether the answer, as its headers stand, may be
// compressed.
func (w *compressWriter) compressible() bool {
	h := w.Header()
	if h.Get("Content-Encoding") != "" {
		return false
	}
	media, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && slices.Contains(compressible, media)
}

func (w *compressWriter) Write(p []byte) (int, error) {
	switch w.state {
	case plain:
		return w.ResponseWriter.Write(p)
	case gzipped:
		return w.gz.Write(p)
	}
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
		if w.state == plain {
			return w.ResponseWriter.Write(p)
		}
	}
	w.buf.Write(p)
	if w.buf.Len() >= MinCompressBytes {
		w.startGzip()
	}
	return len(p), nil
}

// startPlain sends the header and what was held back, as they are.
func (w *compressWriter) startPlain() {
	w.state = plain
	if w.code == http.StatusNotModified && w.suffixed {
		suffixTag(w.Header())
	}
	w.ResponseWriter.WriteHeader(w.code)
	if w.buf.Len() > 0 {
		_, _ = w.ResponseWriter.Write(w.buf.Bytes()) // a broken connection has nobody left to tell
		w.buf.Reset()
	}
}

// startGzip sends the header of a compressed answer and compresses what
// was held back.
func (w *compressWriter) startGzip() {
	w.state = gzipped
	h := w.Header()
	h.Set("Content-Encoding", "gzip")
	h.Del("Content-Length")
	suffixTag(h)
	w.ResponseWriter.WriteHeader(w.code)
	w.gz = gzipWriters.Get().(*gzip.Writer)
	w.gz.Reset(w.ResponseWriter)
	_, _ = w.gz.Write(w.buf.Bytes())
	w.buf.Reset()
}

// Flush sends what is held back: an answer flushed before it reached
// MinCompressBytes is sent as it is.
func (w *compressWriter) Flush() {
	switch w.state {
	case undecided:
		w.startPlain()
	case gzipped:
		_ = w.gz.Flush()
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// finish ends the answer: a short one is sent as it is, a compressed one's
// stream is closed.
func (w *compressWriter) finish() {
	switch w.state {
	case undecided:
		w.startPlain()
	case gzipped:
		_ = w.gz.Close()
		w.gz.Reset(nil)
		gzipWriters.Put(w.gz)
	}
}

func (w *compressWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
