// Package openapitest checks exchanges with the JSON API, the person's pages,
// the business's web inbox and the payment routes against their OpenAPI document,
// pkg/httpapi/openapi.yaml, with kin-openapi's openapi3filter (see Check).
package openapitest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/httpapi"
)

// checker is the loaded document and its router, built once per test binary.
type checker struct {
	doc    *openapi3.T
	router routers.Router
	opts   *openapi3filter.Options
	// pagePrefixes are the first segments of the pages' paths ("/r/",
	// "/pay/", and the web inbox's "/inbox/"): any other path under them
	// is the pages' 404 page.
	pagePrefixes []string
	// calendarPrefixes are the first segments of the calendars' paths
	// ("/calendar/"): any other path or method under them is the
	// calendar's plain 404 (CalendarNotFound).
	calendarPrefixes []string
}

// The tags of the routes outside the JSON API, whose answers to requests
// that match no operation differ from the API's.
const (
	tagPages       = "pages"
	tagBusinessWeb = "business-web"
	tagPayments    = "payments"
	tagCalendar    = "calendar"
)

var load = sync.OnceValues(func() (*checker, error) {
	doc, err := Load()
	if err != nil {
		return nil, err
	}
	// The paths are written in full (/api/v1/...); without servers the
	// router matches them against the request's path on any host.
	doc.Servers = nil
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: router: %w", err)
	}
	// The pages are HTML. openapi3filter decodes forms
	// (application/x-www-form-urlencoded) but has no decoder for text/html;
	// a page is checked as text against its schema (a string).
	if openapi3filter.RegisteredBodyDecoder("text/html") == nil {
		openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
	}
	// A calendar is text/calendar, read as the text it is (the tests
	// parse it with an iCalendar parser).
	if openapi3filter.RegisteredBodyDecoder("text/calendar") == nil {
		openapi3filter.RegisterBodyDecoder("text/calendar", openapi3filter.PlainBodyDecoder)
	}
	var prefixes, calendarPrefixes []string
	for path, item := range doc.Paths.Map() {
		first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
		p := "/" + first + "/"
		switch pathTag(item) {
		case tagPages, tagBusinessWeb:
			if !slices.Contains(prefixes, p) {
				prefixes = append(prefixes, p)
			}
		case tagCalendar:
			if !slices.Contains(calendarPrefixes, p) {
				calendarPrefixes = append(calendarPrefixes, p)
			}
		}
	}
	return &checker{
		doc:              doc,
		router:           router,
		pagePrefixes:     prefixes,
		calendarPrefixes: calendarPrefixes,
		opts: &openapi3filter.Options{
			IncludeResponseStatus: true,
			SkipSettingDefaults:   true, // validate the request as sent
			// The document can say only that a bearer token must be sent;
			// whether it is the right one is the API's to answer (401).
			AuthenticationFunc: func(_ context.Context, in *openapi3filter.AuthenticationInput) error {
				scheme, token, _ := strings.Cut(in.RequestValidationInput.Request.Header.Get("Authorization"), " ")
				if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
					return errors.New("no Authorization: Bearer header")
				}
				return nil
			},
			SchemaValidationOptions: []openapi3.SchemaValidationOption{
				// kin-openapi checks date and date-time itself; these two
				// formats are annotations unless given a validator.
				openapi3.WithStringFormatValidator("email", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail)),
				// kin-openapi's date-time pattern wants an upper-case T and Z,
				// which RFC 3339 (section 5.6, its note on case) does not, and
				// lets an offset such as +24:00 or +99:99 through, which it
				// does not either: read date-times as the API does.
				openapi3.WithStringFormatValidator("date-time", openapi3.NewCallbackValidator(func(s string) error {
					if _, ok := edge.ParseWindowStart(s); !ok {
						return fmt.Errorf("%s is not an RFC 3339 date-time", strconv.Quote(s))
					}
					return nil
				})),
				openapi3.WithStringFormatValidator("uri", openapi3.NewCallbackValidator(func(s string) error {
					if u, err := url.Parse(s); err != nil || !u.IsAbs() || u.Host == "" {
						return fmt.Errorf("%q is not an absolute URL", s)
					}
					return nil
				})),
			},
		},
	}, nil
})

// Load parses and validates the API's OpenAPI document (a fresh copy each
// call).
func Load() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(httpapi.OpenAPIYAML())
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: load: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("openapi.yaml: invalid: %w", err)
	}
	return doc, nil
}

// Serve serves req with h, checks the exchange with Check and returns the
// recorded response.
func Serve(t testing.TB, h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			t.Fatalf("openapitest: reading the request body: %v", err)
		}
	}
	sent := req.Clone(req.Context())
	req.Body = io.NopCloser(bytes.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := rec.Result()
	Check(t, sent, body, res.StatusCode, res.Header, rec.Body.Bytes())
	return rec
}

// Check checks one exchange with the JSON API, a page or a payment route
// against the document: req as sent, with body reqBody (req.Body is not
// read), and the response's status, header and body. Failures are reported
// with t.Errorf, so Check may be called from several goroutines.
//
// The pages answer text/html and their forms post
// application/x-www-form-urlencoded: openapi3filter decodes the forms
// itself, and reads text/html here as the plain text it is.
//
// For a request that matches an operation of the document:
//   - the response must match the operation's response for its status
//     (status, headers, Content-Type and body; an undocumented status fails);
//   - a request the document refuses must be refused with a 4xx: the API may
//     accept more than the document promises, never what it rules out.
//
// A request that matches no operation gets the document's answers that
// belong to no operation, by the tag of the path's operations:
//   - a known path of the JSON API with another method is 405
//     (components/responses/MethodNotAllowed); of the pages (tags pages and
//     business-web), the 405 page (PageMethodNotAllowed); of the payment routes
//     (tag payments), 405 (PaymentMethodNotAllowed); of the calendars (tag
//     calendar), the plain 404 (CalendarNotFound);
//   - any other path is 404: the 404 page (PageNotFound) under the pages'
//     first segments (/r/, /pay/, /inbox/), CalendarNotFound under the
//     calendars' (/calendar/), else the JSON API's NotFound.
//
// OPTIONS (the CORS preflight) is not in the document and is not checked.
// Callers leave out the MCP tool server's exchanges (/mcp), which the
// document does not describe.
func Check(t testing.TB, req *http.Request, reqBody []byte, status int, header http.Header, respBody []byte) {
	t.Helper()
	c, err := load()
	if err != nil {
		t.Errorf("openapitest: %v", err)
		return
	}
	if req.Method == http.MethodOptions {
		return // the CORS preflight is no operation of the document
	}
	where := req.Method + " " + req.URL.RequestURI()
	ctx := context.Background()
	r := req.Clone(ctx)
	r.Body = io.NopCloser(bytes.NewReader(reqBody))
	r.ContentLength = int64(len(reqBody))
	if len(reqBody) > 0 && r.Header.Get("Content-Type") == "" {
		// The JSON API reads every body as JSON, whatever its Content-Type
		// (the pages' forms and Stripe's events say theirs).
		r.Header.Set("Content-Type", "application/json")
	}

	route, pathParams, err := c.router.FindRoute(r)
	if err != nil {
		c.checkNoRoute(t, where, r, err, status, header, respBody)
		return
	}
	dropLoneEmptyRows(r, reqBody, route.Operation)
	in := &openapi3filter.RequestValidationInput{Request: r, PathParams: pathParams, Route: route, Options: c.opts}
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil && (status < 400 || status > 499) {
		t.Errorf("%s: the document refuses this request, yet the API answered %d, not a 4xx: %v", where, status, err)
	}
	c.checkResponse(t, where, in, status, header, respBody)
}

// dropLoneEmptyRows leaves out of r's form (body, as sent) each list
// field of op's form sent once and empty: a browser sends a form's one
// empty row so (the hours of a closed day), and kin-openapi decodes it as
// null, not as a list, which the document's list of strings refuses.
// Without it, the list is absent, as the inbox reads it.
func dropLoneEmptyRows(r *http.Request, body []byte, op *openapi3.Operation) {
	if op == nil || op.RequestBody == nil || op.RequestBody.Value == nil || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		return
	}
	media := op.RequestBody.Value.Content.Get("application/x-www-form-urlencoded")
	if media == nil || media.Schema == nil || media.Schema.Value == nil {
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return
	}
	dropped := false
	for name, values := range form {
		prop := media.Schema.Value.Properties[name]
		if len(values) == 1 && values[0] == "" && prop != nil && prop.Value != nil && prop.Value.Type.Is("array") {
			delete(form, name)
			dropped = true
		}
	}
	if dropped {
		encoded := form.Encode()
		r.Body = io.NopCloser(strings.NewReader(encoded))
		r.ContentLength = int64(len(encoded))
	}
}

// pathTag returns the tag of a path's operations (the first tag of the
// first), "" when it has none.
func pathTag(item *openapi3.PathItem) string {
	for _, op := range item.Operations() {
		if len(op.Tags) > 0 {
			return op.Tags[0]
		}
	}
	return ""
}

// pathItem returns the document's path that r's path matches with another
// method, nil when none does.
func (c *checker) pathItem(r *http.Request) *openapi3.PathItem {
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead} {
		other := r.Clone(r.Context())
		other.Method = method
		if route, _, err := c.router.FindRoute(other); err == nil {
			return route.PathItem
		}
	}
	return nil
}

// checkNoRoute checks the answer to a request that matches no operation.
func (c *checker) checkNoRoute(t testing.TB, where string, r *http.Request, routeErr error, status int, header http.Header, body []byte) {
	t.Helper()
	var want int
	var name string
	switch {
	case errors.Is(routeErr, routers.ErrMethodNotAllowed):
		var tag string
		if item := c.pathItem(r); item != nil {
			tag = pathTag(item)
		}
		switch tag {
		case tagPages, tagBusinessWeb:
			want, name = http.StatusMethodNotAllowed, "PageMethodNotAllowed"
		case tagPayments:
			want, name = http.StatusMethodNotAllowed, "PaymentMethodNotAllowed"
		case tagCalendar:
			want, name = http.StatusNotFound, "CalendarNotFound"
		default:
			want, name = http.StatusMethodNotAllowed, "MethodNotAllowed"
		}
	case errors.Is(routeErr, routers.ErrPathNotFound):
		want, name = http.StatusNotFound, "NotFound"
		for _, p := range c.pagePrefixes {
			if strings.HasPrefix(r.URL.Path, p) {
				name = "PageNotFound"
			}
		}
		for _, p := range c.calendarPrefixes {
			if strings.HasPrefix(r.URL.Path, p) {
				name = "CalendarNotFound"
			}
		}
	default:
		t.Errorf("%s: finding the document's operation: %v", where, routeErr)
		return
	}
	if status != want {
		t.Errorf("%s: no operation of the document matches (%v), so want %d, got %d: %s", where, routeErr, want, status, body)
		return
	}
	ref := c.doc.Components.Responses[name]
	if ref == nil || ref.Value == nil {
		t.Errorf("openapitest: the document has no components/responses/%s", name)
		return
	}
	// An operation of one response: the document's answer to any request
	// outside its operations.
	route := &routers.Route{
		Spec:      c.doc,
		Path:      r.URL.Path,
		Method:    r.Method,
		Operation: &openapi3.Operation{Responses: openapi3.NewResponses(openapi3.WithStatus(want, ref))},
	}
	in := &openapi3filter.RequestValidationInput{Request: r, Route: route, Options: c.opts}
	c.checkResponse(t, where, in, status, header, body)
}

func (c *checker) checkResponse(t testing.TB, where string, in *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte) {
	t.Helper()
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header, Options: c.opts}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("%s: the %d response does not match the document: %v\nbody: %s", where, status, err, body)
	}
}
