package edge

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRouteForms(t *testing.T) {
	tests := []struct {
		route             Route
		pattern, apiRoute string
	}{
		{Route{Method: http.MethodGet, Path: "/r/{code}"}, "GET /r/{code}", "GET /r/{code}"},
		{Route{Path: "/mcp"}, "/mcp", "ANY /mcp"},
		{Route{Path: "/inbox/"}, "/inbox/", "ANY /inbox/{proxy+}"},
		{Route{Method: http.MethodPost, Path: "/"}, "POST /", "POST /"},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			if got := tt.route.Pattern(); got != tt.pattern {
				t.Errorf("Pattern: got %q, want %q", got, tt.pattern)
			}
			if got := tt.route.APIRoute(); got != tt.apiRoute {
				t.Errorf("APIRoute: got %q, want %q", got, tt.apiRoute)
			}
		})
	}
}

// TestMuxAndMount: Mux serves each route on its method; Mount serves the
// edge's whole handler on each route's path, any method, once per path.
func TestMuxAndMount(t *testing.T) {
	named := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(name)) })
	}
	routes := []Route{
		{Method: http.MethodGet, Path: "/r/{code}", Handler: named("status")},
		{Method: http.MethodPost, Path: "/r/{code}", Handler: named("post")},
		{Path: "/inbox/", Handler: named("inbox")},
	}
	mux := Mux(routes)
	mounted := http.NewServeMux()
	Mount(mounted, named("edge"), routes) // a path twice must not panic
	tests := []struct {
		method, path       string
		wantMux, wantMount string
	}{
		{http.MethodGet, "/r/AB", "status", "edge"},
		{http.MethodPost, "/r/AB", "post", "edge"},
		{http.MethodDelete, "/r/AB", "Method Not Allowed\n", "edge"},
		{http.MethodPut, "/inbox/x/y", "inbox", "edge"},
		{http.MethodGet, "/other", "404 page not found\n", "404 page not found\n"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			for _, c := range []struct {
				name string
				h    http.Handler
				want string
			}{{"Mux", mux, tt.wantMux}, {"Mount", mounted, tt.wantMount}} {
				rec := httptest.NewRecorder()
				c.h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.path, nil))
				if got := rec.Body.String(); got != c.want {
					t.Errorf("%s: got %q, want %q", c.name, got, c.want)
				}
			}
		})
	}
}

// TestAllow: the methods of the routes that serve r's path, whatever r's
// method; none for a path only a catch-all (no method) serves.
func TestAllow(t *testing.T) {
	routes := []Route{
		{Method: http.MethodGet, Path: "/r/{code}"},
		{Method: http.MethodPost, Path: "/r/{code}/cancel"},
		{Method: http.MethodGet, Path: "/r/{code}/cancel"},
		{Method: http.MethodPost, Path: "/inbox/settings/{form}"},
		{Method: http.MethodPost, Path: "/inbox/settings/feed"},
		{Method: http.MethodGet, Path: "/inbox/settings/feed"},
		{Path: "/inbox/"},
	}
	tests := []struct {
		method, path, want string
	}{
		{http.MethodPut, "/r/AB", "GET, HEAD"},
		{http.MethodDelete, "/r/AB/cancel", "GET, HEAD, POST"},
		{http.MethodPut, "/inbox/settings/hours", "POST"},
		{http.MethodPut, "/inbox/settings/feed", "GET, HEAD, POST"},
		{http.MethodPut, "/inbox/other", ""},
		{http.MethodGet, "/r/AB/other", ""},
		{http.MethodPut, "/other", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			if got := Allow(routes, httptest.NewRequest(tt.method, tt.path, nil)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
