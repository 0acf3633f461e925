package inboxweb_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
	"github.com/doorstep/doorstep/pkg/inboxweb"
)

// maxWireBytes is the target of each page of the owner's day on the wire:
// the first flight of a new connection (TCP's initial window of 10
// segments, about 14 KB).
const maxWireBytes = 14 << 10

// TestOwnersDayOnTheWire: each page of the owner's day (the list of a busy
// inbox, a request, its confirm and move pages, the settings, the export)
// is gzip-compressed for a browser that accepts it, as lambdaenv.HTTP
// serves the function (edge.Compress), and takes at most 14 KB on the wire:
// status line, headers and body. It logs each page's bytes before (no
// gzip) and after.
func TestOwnersDayOnTheWire(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "mile-high-electric"
	f.noDeposit(t, slug)
	a, _ := f.signIn(t, slug)
	var code string
	for i := range 8 { // under the business's 10 an hour
		code = f.createFor(t, slug, "", "", 1+i%4, i/4, nil)
	}
	f.h = edge.Compress(f.h)
	gz := agent{session: a.session, header: []string{"Accept-Encoding", "gzip, deflate, br"}}
	wire := func(res response) int {
		var head strings.Builder
		fmt.Fprintf(&head, "HTTP/1.1 %d %s\r\n", res.status, http.StatusText(res.status))
		res.header.Write(&head)
		head.WriteString("\r\n")
		return head.Len() + len(res.body)
	}
	for _, path := range []string{"/inbox", "/inbox/requests/" + code, "/inbox/requests/" + code + "/decline",
		"/inbox/requests/" + code + "/move", "/inbox/settings", "/inbox/export"} {
		t.Run(path, func(t *testing.T) {
			before, after := f.do(t, a, "GET", path, nil), f.raw(t, gz, path)
			if after.status != http.StatusOK {
				t.Fatalf("got %d, want 200", after.status)
			}
			if len(before.body) >= edge.MinCompressBytes && after.header.Get("Content-Encoding") != "gzip" {
				t.Errorf("a %d-byte page was not compressed", len(before.body))
			}
			t.Logf("%s: %d bytes on the wire before, %d after", path, wire(before), wire(after))
			if n := wire(after); n > maxWireBytes {
				t.Errorf("got %d bytes on the wire, want at most %d", n, maxWireBytes)
			}
		})
	}
}

// raw sends GET path as a, without checking the answer against the API's
// document (which describes the bytes before any Content-Encoding).
func (f *fixture) raw(t *testing.T, a agent, path string) response {
	t.Helper()
	req := pagetest.NewRequest("GET", path, nil, a.header...)
	req.AddCookie(&http.Cookie{Name: inboxweb.CookieName, Value: a.session})
	for i := 0; i+1 < len(a.header); i += 2 {
		req.Header.Set(a.header[i], a.header[i+1])
	}
	rec := httptest.NewRecorder()
	f.h.ServeHTTP(rec, req)
	return response{status: rec.Code, header: rec.Result().Header, body: rec.Body.String()}
}
