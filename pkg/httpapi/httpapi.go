// Package httpapi serves the public JSON API under /api/v1: getBusiness,
// listArrivalWindows, createServiceRequest and getServiceRequest, and the
// OpenAPI document that describes them (openapi.yaml). It is the only place
// where domain error codes become HTTP statuses.
package httpapi

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// Prefix is the path prefix of the JSON API.
const Prefix = "/api/v1"

type api struct {
	bookings *booking.Bookings
	log      *slog.Logger
	// businessBodies keeps getBusiness's last body and ETag by slug
	// (businessBody).
	businessBodies sync.Map
}

// New returns the JSON API handler: Routes and DocumentRoutes. Every
// response is JSON, CORS is open, and every error has the shape
// {"error": {"code", "message"}}.
func New(bookings *booking.Bookings, log *slog.Logger) http.Handler {
	a := &api{bookings: bookings, log: log}
	return a.serve(append(a.routes(), DocumentRoutes()...))
}

// Routes is the JSON API's route table, without the OpenAPI document's
// (DocumentRoutes).
func Routes(bookings *booking.Bookings, log *slog.Logger) []edge.Route {
	return (&api{bookings: bookings, log: log}).routes()
}

func (a *api) routes() []edge.Route {
	return []edge.Route{
		{Method: http.MethodGet, Path: Prefix + "/businesses/{slug}", Handler: http.HandlerFunc(a.getBusiness)},
		{Method: http.MethodGet, Path: Prefix + "/businesses/{slug}/availability", Handler: http.HandlerFunc(a.listArrivalWindows)},
		{Method: http.MethodPost, Path: Prefix + "/businesses/{slug}/requests", Handler: http.HandlerFunc(a.createServiceRequest)},
		{Method: http.MethodGet, Path: Prefix + "/requests/{code}", Handler: http.HandlerFunc(a.getServiceRequest)},
	}
}

// NewOpenAPI returns the handler of the OpenAPI document alone
// (DocumentRoutes), for a function that reads no table.
func NewOpenAPI(log *slog.Logger) http.Handler {
	a := &api{log: log}
	return a.serve(DocumentRoutes())
}

// DocumentRoutes is the route table of the OpenAPI document.
func DocumentRoutes() []edge.Route {
	jsonDoc, yamlDoc := openapiRoutes()
	return []edge.Route{
		{Method: http.MethodGet, Path: Prefix + "/openapi.json", Handler: jsonDoc},
		{Method: http.MethodGet, Path: Prefix + "/openapi.yaml", Handler: yamlDoc},
	}
}

// serve serves routes, answers any other route with a JSON 404, and opens
// CORS and logs each request.
func (a *api) serve(routes []edge.Route) http.Handler {
	mux := methodMux(routes)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		a.writeError(r.Context(), w, booking.Errorf(booking.NotFound, "no such route: %s", booking.Excerpt(r.Method+" "+r.URL.Path)))
	})
	return edge.AccessLog(a.log, apiCORS.Handler(mux))
}

// methodMux serves routes by path, so that a known path with another
// method is a JSON 405 (methods) rather than the ServeMux's own.
func methodMux(routes []edge.Route) *http.ServeMux {
	mux := http.NewServeMux()
	byPath := map[string]methods{}
	for _, r := range routes {
		m := byPath[r.Path]
		if m == nil {
			m = methods{}
			byPath[r.Path] = m
			mux.Handle(r.Path, m)
		}
		m[r.Method] = r.Handler.ServeHTTP
	}
	return mux
}

// apiCORS opens the JSON API to every origin: it is public and carries no
// cookies.
var apiCORS = edge.CORS{AllowHeaders: "Content-Type, Idempotency-Key", ExposeHeaders: "Idempotent-Replayed"}

func (a *api) getBusiness(w http.ResponseWriter, r *http.Request) {
	b, err := a.bookings.Business(r.Context(), r.PathValue("slug"))
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	body, etag, err := a.businessBody(b)
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	writeTagged(w, r, "application/json", body, etag)
}

// taggedBusiness is a getBusiness body, its ETag, and the record it was
// made of.
type taggedBusiness struct {
	b    *booking.Business
	body []byte
	etag string
}

// businessBody returns b's getBusiness body (as edge.WriteJSON writes it)
// and ETag. The public read hands out the store's shared record, never
// changed (booking.Store.PublicBusiness): while it is the record the last
// body was made of, the same pointer, the body is that one, not encoded
// and hashed again. One per slug that exists, so it cannot grow past the
// number of businesses.
func (a *api) businessBody(b *booking.Business) ([]byte, string, error) {
	if last, ok := a.businessBodies.Load(b.Slug); ok && last.(*taggedBusiness).b == b {
		t := last.(*taggedBusiness)
		return t.body, t.etag, nil
	}
	body, err := encodeJSON(b)
	if err != nil {
		return nil, "", err
	}
	t := &taggedBusiness{b: b, body: body, etag: etagOf(body)}
	a.businessBodies.Store(b.Slug, t)
	return t.body, t.etag, nil
}

func (a *api) listArrivalWindows(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", noStore) // holds decide bookings: never a kept copy
	b, err := a.bookings.Business(r.Context(), r.PathValue("slug"))
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	q, err := windowQuery(r.URL.Query())
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	av, err := a.bookings.ArrivalWindows(r.Context(), b, q)
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	writeAvailability(w, av)
}

// windowQuery decodes listArrivalWindows' parameters: from (YYYY-MM-DD,
// default today) and days (default booking.DefaultDays).
func windowQuery(v url.Values) (booking.WindowQuery, error) {
	var q booking.WindowQuery
	var err error
	if from := v.Get("from"); from != "" {
		if q.From, err = edge.ParseDate("from", from); err != nil {
			return q, err
		}
	}
	q.Days, err = edge.ParseDays(v.Get("days"))
	return q, err
}

func (a *api) createServiceRequest(w http.ResponseWriter, r *http.Request) {
	b, err := a.bookings.Business(r.Context(), r.PathValue("slug"))
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	// One byte past the cap is enough to refuse the body.
	body, err := io.ReadAll(io.LimitReader(r.Body, booking.MaxBodyBytes+1))
	if err != nil {
		a.writeError(r.Context(), w, booking.Errorf(booking.InvalidRequest, "the body could not be read"))
		return
	}
	in, err := decodeCreateBody(body, r.Header.Get("Idempotency-Key"))
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	created, replayed, err := a.bookings.CreateRequest(r.Context(), b, in)
	if replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	if err == nil {
		edge.NoteRequestCode(w, created.Code)
	}
	a.respond(w, r, http.StatusCreated, created, err)
}

func (a *api) getServiceRequest(w http.ResponseWriter, r *http.Request) {
	st, err := a.bookings.RequestStatus(r.Context(), r.PathValue("code"))
	a.respond(w, r, http.StatusOK, st, err)
}

func (a *api) respond(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	edge.WriteJSON(w, status, v)
}

// writeError answers with err's code and HTTP status. An error without a code
// is logged and answered as SERVER_ERROR; its text never reaches the client.
func (a *api) writeError(ctx context.Context, w http.ResponseWriter, err error) {
	body := edge.ErrorBodyOf(err)
	edge.NoteErrorCode(w, body.Error.Code)
	edge.SetRetryAfter(w, booking.RetryAfter(err))
	if body.Error.Code == booking.ServerError {
		a.log.ErrorContext(ctx, "request failed", "error", err.Error())
	}
	edge.WriteJSON(w, edge.Status(body.Error.Code), body)
}

// methods routes one path by method, answering OPTIONS (CORS preflight) and
// any other method with a JSON 405.
type methods map[string]http.HandlerFunc

func (m methods) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h, ok := m[r.Method]; ok {
		h(w, r)
		return
	}
	allowed := []string{http.MethodOptions}
	for method := range m {
		allowed = append(allowed, method)
	}
	sort.Strings(allowed)
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	edge.NoteErrorCode(w, edge.MethodNotAllowed)
	edge.WriteJSON(w, http.StatusMethodNotAllowed, edge.ErrorBody{Error: edge.ErrorDetail{
		Code:    edge.MethodNotAllowed,
		Message: r.Method + " is not allowed here; use " + strings.Join(allowed, " or "),
	}})
}
