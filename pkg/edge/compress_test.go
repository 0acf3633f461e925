package edge_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/edge"
)

// tagged answers body as contentType with the ETag "abc", or 304 when
// If-None-Match names "abc" as it is.
func tagged(contentType, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"abc"`)
		if r.Header.Get("If-None-Match") == `"abc"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Length", "999999") // dropped when compressed
		io.WriteString(w, body)
	})
}

func TestCompress(t *testing.T) {
	big := strings.Repeat("<p>Arrival window: Mon, Nov 23, 10:00 AM-12:00 PM</p>\n", 60)
	small := `{"ok":true}`
	tests := []struct {
		name, contentType, body, acceptEncoding, ifNoneMatch string
		wantStatus                                           int
		wantGzip                                             bool
		wantETag                                             string
	}{
		{"a page, gzip accepted", "text/html; charset=utf-8", big, "gzip, deflate, br", "", 200, true, `"abc-gzip"`},
		{"JSON over 1 KB", "application/json", big, "gzip", "", 200, true, `"abc-gzip"`},
		{"the OpenAPI document in YAML", "application/yaml", big, "gzip", "", 200, true, `"abc-gzip"`},
		{"JSON under 1 KB", "application/json", small, "gzip", "", 200, false, `"abc"`},
		{"no Accept-Encoding", "text/html; charset=utf-8", big, "", "", 200, false, `"abc"`},
		{"gzip refused (q=0)", "text/html; charset=utf-8", big, "gzip;q=0, br", "", 200, false, `"abc"`},
		{"any coding", "text/html; charset=utf-8", big, "*", "", 200, true, `"abc-gzip"`},
		{"an image", "image/png", big, "gzip", "", 200, false, `"abc"`},
		{"304 for the compressed tag", "application/yaml", big, "gzip", `"abc-gzip"`, 304, false, `"abc-gzip"`},
		{"304 for the compressed tag, weak", "application/yaml", big, "gzip", `W/"abc-gzip"`, 200, true, `"abc-gzip"`},
		{"304 for the plain tag", "application/yaml", big, "", `"abc"`, 304, false, `"abc"`},
		{"304 for the compressed tag, without gzip now", "application/yaml", big, "", `"abc-gzip"`, 304, false, `"abc-gzip"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/", nil)
			if tt.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tt.acceptEncoding)
			}
			if tt.ifNoneMatch != "" {
				req.Header.Set("If-None-Match", tt.ifNoneMatch)
			}
			rec := httptest.NewRecorder()
			edge.Compress(tagged(tt.contentType, tt.body)).ServeHTTP(rec, req)
			res := rec.Result()
			if res.StatusCode != tt.wantStatus {
				t.Fatalf("got %d, want %d", res.StatusCode, tt.wantStatus)
			}
			if got := res.Header.Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("got Vary %q, want Accept-Encoding", got)
			}
			if got := res.Header.Get("ETag"); got != tt.wantETag {
				t.Errorf("got ETag %s, want %s", got, tt.wantETag)
			}
			if tt.ifNoneMatch != "" && req.Header.Get("If-None-Match") != tt.ifNoneMatch {
				t.Errorf("the caller's request was changed: If-None-Match %q", req.Header.Get("If-None-Match"))
			}
			if tt.wantStatus == 304 {
				if rec.Body.Len() != 0 {
					t.Errorf("a 304 with %d bytes of body", rec.Body.Len())
				}
				return
			}
			body := rec.Body.Bytes()
			if got := res.Header.Get("Content-Encoding") == "gzip"; got != tt.wantGzip {
				t.Fatalf("got gzip %v, want %v", got, tt.wantGzip)
			}
			if tt.wantGzip {
				if res.Header.Get("Content-Length") != "" {
					t.Errorf("a compressed answer keeps the plain Content-Length %s", res.Header.Get("Content-Length"))
				}
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
				if rec.Body.Len() >= len(tt.body)/2 {
					t.Errorf("compressed to %d of %d bytes", rec.Body.Len(), len(tt.body))
				}
			}
			if string(body) != tt.body {
				t.Errorf("got body %.80q..., want %.80q...", body, tt.body)
			}
		})
	}
}

// A streamed answer (an event stream, flushed as it goes) passes as it
// is, each flush reaching the client.
func TestCompressPassesAStream(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: 1\n\n")
		w.(http.Flusher).Flush()
	})
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	edge.Compress(h).ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != "data: 1\n\n" || !rec.Flushed {
		t.Errorf("got %q %q flushed %v, want the stream as it is, flushed", rec.Header().Get("Content-Encoding"), rec.Body.String(), rec.Flushed)
	}
}
