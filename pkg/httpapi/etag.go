package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Public reads that an HTTP client can keep: getBusiness and the OpenAPI
// document answer with an ETag (a hash of the body) and Cache-Control:
// no-cache, so a client keeps the answer but asks again each time, with
// If-None-Match, and gets a bodiless 304 when nothing changed. The
// availability is never kept (no-store): holds decide bookings.
const (
	revalidate = "no-cache"
	noStore    = "no-store"
)

// etagOf is a strong entity tag of body: 128 bits of its SHA-256.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
}

// unchanged reports whether r's If-None-Match names etag, or is *. The
// comparison is the weak one RFC 9110 asks of If-None-Match: W/ is ignored.
func unchanged(r *http.Request, etag string) bool {
	for _, header := range r.Header.Values("If-None-Match") {
		for _, tag := range strings.Split(header, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == "*" || tag == etag {
				return true
			}
		}
	}
	return false
}

// writeTagged answers body (of contentType) with its ETag, or 304 Not
// Modified with no body when the client already holds it.
func writeTagged(w http.ResponseWriter, r *http.Request, contentType string, body []byte, etag string) {
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", revalidate)
	if unchanged(r, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body) // the status is sent; a broken connection has nobody left to tell
}

// encodeJSON is v as edge.WriteJSON writes it: HTML characters as they
// are, and a newline.
func encodeJSON(v any) ([]byte, error) {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return body.Bytes(), nil
}
