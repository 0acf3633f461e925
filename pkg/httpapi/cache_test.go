package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
)

// getBusiness and the OpenAPI document answer with an ETag and
// Cache-Control: no-cache; a request whose If-None-Match names the ETag
// (or *) gets a 304 with no body, and any other a 200 with the body.
func TestPublicReadsHaveETags(t *testing.T) {
	h, _ := newAPI(t)
	for _, path := range []string{"/api/v1/businesses/split-day-plumbing", "/api/v1/openapi.json", "/api/v1/openapi.yaml"} {
		t.Run(path, func(t *testing.T) {
			first := openapitest.Serve(t, h, httptest.NewRequest("GET", path, nil))
			etag := first.Header().Get("ETag")
			if first.Code != 200 || etag == "" || first.Header().Get("Cache-Control") != "no-cache" {
				t.Fatalf("got %d with ETag %q and Cache-Control %q, want 200 with an ETag and no-cache",
					first.Code, etag, first.Header().Get("Cache-Control"))
			}
			tests := []struct {
				name        string
				ifNoneMatch string
				wantStatus  int
			}{
				{"same tag", etag, 304},
				{"weak form of the tag", "W/" + etag, 304},
				{"one of a list", `"other", ` + etag, 304},
				{"any", "*", 304},
				{"another tag", `"other"`, 200},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					req := httptest.NewRequest("GET", path, nil)
					req.Header.Set("If-None-Match", tt.ifNoneMatch)
					rec := openapitest.Serve(t, h, req)
					if rec.Code != tt.wantStatus || rec.Header().Get("ETag") != etag {
						t.Fatalf("got %d with ETag %q, want %d with %q", rec.Code, rec.Header().Get("ETag"), tt.wantStatus, etag)
					}
					switch {
					case tt.wantStatus == 304 && rec.Body.Len() != 0:
						t.Errorf("304 with a body: %s", rec.Body)
					case tt.wantStatus == 200 && rec.Body.String() != first.Body.String():
						t.Errorf("200 with another body than the first answer's")
					}
				})
			}
		})
	}
}

// A changed business has another ETag: the client's copy is not answered
// with a 304.
func TestBusinessETagChangesWithTheBusiness(t *testing.T) {
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	dynamotest.PutBusinesses(t, store, "../booking/testdata/businesses.json", nil)
	h := httpapi.New(bookingtest.New(t, booking.Config{Store: store, SiteURL: siteURL, Now: bookingtest.NewClock(start).Now}), slog.New(slog.NewTextHandler(io.Discard, nil)))
	const path = "/api/v1/businesses/split-day-plumbing"
	before := openapitest.Serve(t, h, httptest.NewRequest("GET", path, nil)).Header().Get("ETag")

	err := store.UpdateBusiness(context.Background(), "split-day-plumbing", func(stored *booking.Business) (*booking.Business, error) {
		changed := *stored
		changed.AcceptingRequests = !stored.AcceptingRequests
		return &changed, nil
	})
	if err != nil {
		t.Fatal(err)
	}

	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("If-None-Match", before)
	rec := openapitest.Serve(t, h, req)
	if after := rec.Header().Get("ETag"); rec.Code != 200 || after == before || after == "" {
		t.Errorf("after a change: got %d with ETag %q, want 200 with another ETag than %q", rec.Code, after, before)
	}
}

// The availability is never kept: holds decide bookings.
func TestAvailabilityIsNotStored(t *testing.T) {
	h, _ := newAPI(t)
	for _, path := range []string{
		"/api/v1/businesses/split-day-plumbing/availability",
		"/api/v1/businesses/split-day-plumbing/availability?days=99",
	} {
		res := call(t, h, "GET", path, "")
		if got := res.header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("GET %s: got %d with Cache-Control %q, want no-store", path, res.status, got)
		}
		if res.header.Get("ETag") != "" {
			t.Errorf("GET %s: got an ETag, want none", path)
		}
	}
}

// The public reads compressed as the functions serve them (edge.Compress,
// in lambdaenv.HTTP): a client that accepts gzip gets the OpenAPI document
// (about 160 KB as YAML) and getBusiness gzip-compressed, with Vary:
// Accept-Encoding and a tag of their own ("...-gzip"), and that tag in
// If-None-Match (weak or strong) gets a bodiless 304 that names it.
func TestPublicReadsCompressed(t *testing.T) {
	api, _ := newAPI(t)
	h := edge.Compress(api)
	for _, path := range []string{"/api/v1/businesses/split-day-plumbing", "/api/v1/openapi.json", "/api/v1/openapi.yaml"} {
		t.Run(path, func(t *testing.T) {
			plain := httptest.NewRecorder()
			h.ServeHTTP(plain, httptest.NewRequest("GET", path, nil))
			req := httptest.NewRequest("GET", path, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			etag := rec.Header().Get("ETag")
			if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Vary") != "Accept-Encoding" ||
				etag != strings.TrimSuffix(plain.Header().Get("ETag"), `"`)+edge.GzipETagSuffix+`"` {
				t.Fatalf("got %d, Content-Encoding %q, Vary %q, ETag %s (plain %s); want 200, gzip, Accept-Encoding, the plain tag -gzip",
					rec.Code, rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"), etag, plain.Header().Get("ETag"))
			}
			t.Logf("%s: %d bytes, %d compressed", path, plain.Body.Len(), rec.Body.Len())
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(body, plain.Body.Bytes()) {
				t.Fatalf("the compressed body is not the plain one (%v)", err)
			}
			for _, tag := range []string{etag, "W/" + etag} {
				req := httptest.NewRequest("GET", path, nil)
				req.Header.Set("Accept-Encoding", "gzip")
				req.Header.Set("If-None-Match", tag)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != 304 || rec.Body.Len() != 0 || rec.Header().Get("ETag") != etag {
					t.Errorf("If-None-Match %s: got %d, %d bytes, ETag %s; want a bodiless 304 naming %s", tag, rec.Code, rec.Body.Len(), rec.Header().Get("ETag"), etag)
				}
			}
		})
	}
}
