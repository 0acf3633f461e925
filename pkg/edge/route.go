package edge

import (
	"net/http"
	"slices"
	"strings"
)

// Route is one row of an edge's route table. Each edge exports its table:
// its own mux is built from it, the local server (infra/local) mounts it,
// and infra/sam checks template.yaml's HttpApi events against it.
type Route struct {
	Method  string // "" is any method (API Gateway's ANY)
	Path    string // a ServeMux path; one ending in "/" is its subtree (API Gateway's {proxy+})
	Handler http.Handler
}

// Pattern is the route's ServeMux pattern: "GET /r/{code}", or the path
// alone for any method.
func (r Route) Pattern() string {
	if r.Method == "" {
		return r.Path
	}
	return r.Method + " " + r.Path
}

// APIRoute is the route as API Gateway writes it in template.yaml:
// "GET /r/{code}", "ANY /inbox/{proxy+}".
func (r Route) APIRoute() string {
	method, path := r.Method, r.Path
	if method == "" {
		method = "ANY"
	}
	if path != "/" && strings.HasSuffix(path, "/") {
		path += "{proxy+}"
	}
	return method + " " + path
}

// Mux returns a ServeMux serving routes.
func Mux(routes []Route) *http.ServeMux {
	mux := http.NewServeMux()
	for _, r := range routes {
		mux.Handle(r.Pattern(), r.Handler)
	}
	return mux
}

// Mount serves h, an edge's whole handler, at the path of each of its
// routes, for any method: h answers a wrong method itself, as it does
// behind API Gateway.
func Mount(mux *http.ServeMux, h http.Handler, routes []Route) {
	seen := map[string]bool{}
	for _, r := range routes {
		if !seen[r.Path] {
			seen[r.Path] = true
			mux.Handle(r.Path, h)
		}
	}
}

// Allow is the Allow header of r's path among the routes that name a
// method: the methods they serve it with, HEAD with GET, sorted ("GET,
// HEAD, POST"); "" when none serves the path. An HTML edge whose catch-all
// route gets r answers 405 with it when it is not "", its 404 page
// otherwise, as the JSON API answers 405 METHOD_NOT_ALLOWED.
func Allow(routes []Route, r *http.Request) string {
	mux := http.NewServeMux()
	var methods []string
	for _, rt := range routes {
		if rt.Method == "" {
			continue
		}
		mux.Handle(rt.Pattern(), http.NotFoundHandler())
		methods = append(methods, rt.Method)
		if rt.Method == http.MethodGet {
			methods = append(methods, http.MethodHead)
		}
	}
	slices.Sort(methods)
	var allow []string
	for _, m := range slices.Compact(methods) {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "" {
			allow = append(allow, m)
		}
	}
	return strings.Join(allow, ", ")
}
