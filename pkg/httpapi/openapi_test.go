package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
)

// loadDocument parses and validates the OpenAPI document (doc.Validate).
func loadDocument(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestOpenAPIDocument(t *testing.T) {
	doc := loadDocument(t)
	checks := []struct {
		name, got, want string
	}{
		{"openapi", doc.OpenAPI, "3.1.0"},
		{"info.version", doc.Info.Version, "1.0.0"},
	}
	paths := map[string]bool{} // every path the list names
	for _, op := range []struct{ method, path, id string }{
		{"GET", "/api/v1/businesses/{slug}", "getBusiness"},
		{"GET", "/api/v1/businesses/{slug}/availability", "listArrivalWindows"},
		{"POST", "/api/v1/businesses/{slug}/requests", "createServiceRequest"},
		{"GET", "/api/v1/requests/{code}", "getServiceRequest"},
		{"GET", "/api/v1/openapi.json", "getOpenAPIJSON"},
		{"GET", "/api/v1/openapi.yaml", "getOpenAPIYAML"},
		{"GET", "/api/v1/inbox/requests", "listInboxRequests"},
		{"GET", "/api/v1/inbox/requests/{code}", "getInboxRequest"},
		{"POST", "/api/v1/inbox/requests/{code}/{action}", "moveInboxRequest"},
		{"POST", "/api/v1/inbox/spam", "markInboxSpam"},
		{"GET", "/api/v1/inbox/export", "exportInboxRequests"},
		{"GET", "/book/{slug}", "getBookingForm"},
		{"POST", "/book/{slug}", "sendBookingForm"},
		{"GET", "/r", "getLookupPage"},
		{"GET", "/r/{code}", "getStatusPage"},
		{"POST", "/r/{code}/contact", "addContactFromPage"},
		{"GET", "/r/{code}/cancel", "getCancelPage"},
		{"POST", "/r/{code}/cancel", "cancelFromPage"},
		{"GET", "/r/{code}/erase", "getErasePage"},
		{"POST", "/r/{code}/erase", "eraseFromPage"},
		{"GET", "/pay/{code}", "getPayPage"},
		{"POST", "/pay/{code}", "paySimulatedDeposit"},
		{"GET", "/pay/{code}/checkout", "startCheckout"},
		{"GET", "/pay/{code}/return", "returnFromCheckout"},
		{"POST", "/webhooks/stripe", "receiveStripeEvent"},
		{"GET", "/start", "getSignupForm"},
		{"POST", "/start", "startSignup"},
		{"GET", "/start/{token}", "getSignupLinkPage"},
		{"POST", "/start/{token}", "finishSignup"},
		{"GET", "/inbox", "getWebInbox"},
		{"POST", "/inbox/sign-in", "startWebInboxSignIn"},
		{"POST", "/inbox/sign-in-text", "startWebInboxTextSignIn"},
		{"POST", "/inbox/sign-in-code", "finishWebInboxTextSignIn"},
		{"GET", "/inbox/sign-in/{token}", "getWebInboxSignInPage"},
		{"POST", "/inbox/sign-in/{token}", "finishWebInboxSignIn"},
		{"POST", "/inbox/sign-out", "signOutOfWebInbox"},
		{"GET", "/inbox/requests/{code}", "getWebInboxRequest"},
		{"GET", "/inbox/requests/{code}/{action}", "getWebInboxMovePage"},
		{"POST", "/inbox/requests/{code}/{action}", "moveFromWebInbox"},
		{"GET", "/inbox/settings", "getWebInboxSettings"},
		{"POST", "/inbox/settings", "setWebInboxAcceptingRequests"},
		{"POST", "/inbox/settings/days-off", "addWebInboxDayOff"},
		{"POST", "/inbox/settings/remove-day-off", "removeWebInboxDayOff"},
		{"POST", "/inbox/settings/notice", "setWebInboxNotice"},
		{"POST", "/inbox/settings/crews", "setWebInboxCrews"},
		{"POST", "/inbox/settings/feed", "newWebInboxFeedAddress"},
		{"GET", "/inbox/settings/feed", "getWebInboxFeedAddress"},
		{"POST", "/inbox/settings/feed-stop", "stopWebInboxFeed"},
		{"GET", "/inbox/export", "getWebInboxExport"},
		{"GET", "/inbox/export.csv", "downloadWebInboxExport"},
		{"POST", "/inbox/settings/hours", "setWebInboxHours"},
		{"POST", "/inbox/settings/reminder", "setWebInboxReminderHour"},
		{"GET", "/inbox/settings/hours", "getWebInboxHours"},
		{"GET", "/inbox/settings/days-off", "getWebInboxDaysOff"},
		{"GET", "/inbox/settings/notice", "getWebInboxNoticeAndCrews"},
		{"GET", "/inbox/settings/calendar", "getWebInboxCalendar"},
		{"GET", "/inbox/settings/booking-form", "getWebInboxBookingForm"},
		{"GET", "/inbox/settings/texts", "getWebInboxTexts"},
		{"POST", "/inbox/settings/owner-phone", "startWebInboxOwnerPhone"},
		{"POST", "/inbox/settings/owner-phone-code", "confirmWebInboxOwnerPhone"},
		{"POST", "/inbox/settings/text-me", "setWebInboxTextMe"},
		{"POST", "/inbox/go-live", "goWebInboxLive"},
		{"POST", "/inbox/back-to-preview", "backWebInboxToPreview"},
		{"POST", "/inbox/accepting", "setWebInboxAcceptingNow"},
		{"GET", "/inbox/settings/history", "getWebInboxHistory"},
		{"GET", "/inbox/settings/details", "getWebInboxDetails"},
		{"POST", "/inbox/settings/details", "setWebInboxDetails"},
		{"GET", "/inbox/settings/services", "getWebInboxServices"},
		{"POST", "/inbox/settings/add-service", "addWebInboxService"},
		{"POST", "/inbox/settings/edit-service", "editWebInboxService"},
		{"POST", "/inbox/settings/move-service", "moveWebInboxService"},
		{"POST", "/inbox/settings/remove-service", "removeWebInboxService"},
		{"GET", "/inbox/settings/area", "getWebInboxArea"},
		{"POST", "/inbox/settings/area", "setWebInboxArea"},
		{"GET", "/inbox/settings/windows", "getWebInboxWindows"},
		{"POST", "/inbox/settings/windows", "setWebInboxWindows"},
		{"POST", "/inbox/settings/inbox-email", "startWebInboxEmailChange"},
		{"GET", "/inbox/email/{token}", "getWebInboxEmailPage"},
		{"POST", "/inbox/email/{token}", "confirmWebInboxEmail"},
		{"POST", "/inbox/go-live", "goWebInboxLive"},
		{"POST", "/inbox/back-to-preview", "backWebInboxToPreview"},
		{"POST", "/inbox/accepting", "setWebInboxAcceptingNow"},
		{"GET", "/inbox/settings/history", "getWebInboxHistory"},
		{"GET", "/r/{code}.ics", "getVisitCalendarEvent"},
		{"GET", "/calendar/{token}.ics", "getCalendarFeed"},
	} {
		paths[op.path] = true
		got := "no such path"
		if item := doc.Paths.Value(op.path); item != nil {
			got = "no " + op.method + " operation"
			if o := item.GetOperation(op.method); o != nil {
				got = o.OperationID
			}
		}
		checks = append(checks, struct{ name, got, want string }{"operationId of " + op.method + " " + op.path, got, op.id})
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
	if got, want := len(doc.Paths.Map()), len(paths); got != want {
		t.Errorf("got %d paths, want the %d above", got, want)
	}
	// openapitest picks the answer to a request no operation matches by the
	// tag of the path's operations: pages, business-web and payments
	// outside /api/v1, never inside; business-web exactly under /inbox
	// and /start (sign-up, served by the web inbox).
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			outside := slices.Contains(op.Tags, "pages") || slices.Contains(op.Tags, "payments") || slices.Contains(op.Tags, "business-web") || slices.Contains(op.Tags, "calendar")
			if len(op.Tags) != 1 || outside == strings.HasPrefix(path, "/api/v1/") {
				t.Errorf("%s %s: got tags %v, want one: pages, business-web, payments or calendar exactly outside /api/v1", method, path, op.Tags)
			}
			under := path == "/inbox" || strings.HasPrefix(path, "/inbox/") || path == "/start" || strings.HasPrefix(path, "/start/")
			if web := slices.Contains(op.Tags, "business-web"); web != under {
				t.Errorf("%s %s: got tags %v, want business-web exactly under /inbox and /start", method, path, op.Tags)
			}
		}
	}
}

// isJSONAPI reports whether path is the JSON API's: the person's pages and
// the payment routes are outside /api/v1, and answer no JSON errors.
func isJSONAPI(path string) bool { return strings.HasPrefix(path, "/api/v1/") }

// The person's pages and the web inbox answer HTML, never JSON: every answer but a redirect
// is a text/html page or, for a cross-site form or a page that failed,
// plain text (a calendar file, or the inbox's CSV download, besides); and
// every redirect says where to in Location.
func TestOpenAPIPages(t *testing.T) {
	doc := loadDocument(t)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if isJSONAPI(path) {
				continue
			}
			for status, ref := range op.Responses.Map() {
				r := ref.Value
				if status == "303" {
					if r.Headers["Location"] == nil || !r.Headers["Location"].Value.Required {
						t.Errorf("%s %s: the 303 response has no required Location header", method, path)
					}
					continue
				}
				if !slices.Contains(op.Tags, "pages") && !slices.Contains(op.Tags, "business-web") {
					continue
				}
				if len(r.Content) == 0 {
					t.Errorf("%s %s: the %s response has no body", method, path, status)
				}
				for mediaType := range r.Content {
					ics := mediaType == "text/calendar" && strings.HasSuffix(path, ".ics")
					csv := mediaType == "text/csv" && strings.HasSuffix(path, ".csv")
					if mediaType != "text/html" && mediaType != "text/plain" && !ics && !csv {
						t.Errorf("%s %s: the %s response is %s, want text/html (or text/plain; text/calendar for .ics, text/csv for .csv)", method, path, status, mediaType)
					}
				}
			}
		}
	}
}

// 3.1 spells a nullable type as type: [T, "null"]; nullable is no keyword
// of it.
func TestOpenAPINoNullable(t *testing.T) {
	var root yaml.Node
	if err := yaml.Unmarshal(httpapi.OpenAPIYAML(), &root); err != nil {
		t.Fatal(err)
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == "nullable" {
					t.Errorf("line %d: got the nullable keyword, want type: [T, \"null\"]", n.Content[i].Line)
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&root)
}

// errorCodes lists the error codes the HTTP API can answer with: every Code
// declared in pkg/booking/errors.go (httpapi maps each to a status) and
// METHOD_NOT_ALLOWED.
func errorCodes(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../booking/errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if typ, ok := v.Type.(*ast.Ident); !ok || typ.Name != "Code" {
				continue
			}
			for _, value := range v.Values {
				lit, ok := value.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("errors.go: a Code constant that is not a string literal")
				}
				code, _ := strconv.Unquote(lit.Value)
				codes = append(codes, code)
			}
		}
	}
	if len(codes) < 17 {
		t.Fatalf("found %d codes in errors.go, want the spec's 17 and more", len(codes))
	}
	return append(codes, string(edge.MethodNotAllowed))
}

// listedCodes returns the codes an error response lists: the enum on
// error.code next to the shared Error schema.
func listedCodes(r *openapi3.Response) []string {
	mt := r.Content.Get("application/json")
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil
	}
	var codes []string
	for _, branch := range mt.Schema.Value.AllOf {
		if branch.Ref != "" || branch.Value == nil { // the shared Error schema lists every code
			continue
		}
		e := branch.Value.Properties["error"]
		if e == nil || e.Value == nil || e.Value.Properties["code"] == nil {
			continue
		}
		for _, v := range e.Value.Properties["code"].Value.Enum {
			codes = append(codes, fmt.Sprint(v))
		}
	}
	return codes
}

// Every error response lists its codes, each code is listed under the
// status httpapi answers it with, and every code the API can answer with is
// listed somewhere.
func TestOpenAPIErrorCodes(t *testing.T) {
	doc := loadDocument(t)
	type response struct {
		where  string
		status int
		value  *openapi3.Response
	}
	var responses []response
	for path, item := range doc.Paths.Map() {
		if !isJSONAPI(path) {
			continue // HTML pages and Stripe's webhook: no JSON error codes (TestOpenAPIPages)
		}
		for method, op := range item.Operations() {
			for status, ref := range op.Responses.Map() {
				n, err := strconv.Atoi(status)
				if err != nil {
					t.Errorf("%s %s: got response %q, want a status code", method, path, status)
					continue
				}
				responses = append(responses, response{method + " " + path, n, ref.Value})
			}
		}
	}
	// The answer to a known path with another method belongs to no operation.
	responses = append(responses, response{"components/responses/MethodNotAllowed", 405, doc.Components.Responses["MethodNotAllowed"].Value})

	listed := map[string]bool{}
	for _, r := range responses {
		if r.status < 400 {
			continue
		}
		codes := listedCodes(r.value)
		if len(codes) == 0 {
			t.Errorf("%s: the %d response lists no error codes", r.where, r.status)
		}
		for _, code := range codes {
			listed[code] = true
			if got := edge.Status(booking.Code(code)); got != r.status {
				t.Errorf("%s: %s is listed under %d, but httpapi answers it with %d", r.where, code, r.status, got)
			}
		}
	}
	all := errorCodes(t)
	for _, code := range all {
		if !listed[code] {
			t.Errorf("%s is listed under no response", code)
		}
	}
	var enum []string
	for _, v := range doc.Components.Schemas["ErrorCode"].Value.Enum {
		enum = append(enum, fmt.Sprint(v))
	}
	slices.Sort(enum)
	slices.Sort(all)
	if !slices.Equal(enum, all) {
		t.Errorf("got ErrorCode enum %v, want the codes %v", enum, all)
	}
}

// The schemas name exactly the JSON fields of the Go types the handlers
// send (and read), with matching kinds; response fields are all required,
// and null only where the Go field is a pointer.
func TestOpenAPISchemasMatchGoTypes(t *testing.T) {
	doc := loadDocument(t)
	tests := []struct {
		schema   string
		value    any
		response bool
	}{
		{"Business", booking.Business{}, true},
		{"Availability", booking.Availability{}, true},
		{"Created", booking.Created{}, true},
		{"RequestStatus", booking.RequestStatus{}, true},
		{"InboxPage", booking.InboxPage{}, true},
		{"InboxRequest", booking.InboxRequest{}, true},
		{"Event", booking.Event{}, true},
		{"CreateServiceRequest", httpapi.CreateBody{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.schema, func(t *testing.T) {
			compareSchema(t, tt.schema, doc.Components.Schemas[tt.schema].Value, reflect.TypeOf(tt.value), tt.response)
		})
	}
	t.Run("requests may carry unknown fields", func(t *testing.T) {
		if ap := doc.Components.Schemas["CreateServiceRequest"].Value.AdditionalProperties; ap.Has != nil && !*ap.Has {
			t.Errorf("got additionalProperties: false, want unknown fields allowed (they are ignored)")
		}
	})
}

var timeType = reflect.TypeOf(time.Time{})

// compareSchema compares schema s, at path, with Go type typ.
func compareSchema(t *testing.T, path string, s *openapi3.Schema, typ reflect.Type, response bool) {
	t.Helper()
	if s == nil {
		t.Errorf("%s: no schema", path)
		return
	}
	types := schemaTypes(s)
	nullable := typ.Kind() == reflect.Pointer
	if nullable {
		typ = typ.Elem()
	}
	if response && slices.Contains(types, "null") != nullable {
		t.Errorf("%s: got types %v for Go type %s: want null allowed exactly when the field is a pointer", path, types, typ)
	}
	want := ""
	switch {
	case typ == timeType:
		want = "string"
	case typ.Kind() == reflect.String:
		want = "string"
	case typ.Kind() == reflect.Bool:
		want = "boolean"
	case typ.Kind() == reflect.Int:
		want = "integer"
	case typ.Kind() == reflect.Slice:
		want = "array"
	case typ.Kind() == reflect.Struct:
		want = "object"
	default:
		t.Errorf("%s: Go type %s has no case here", path, typ)
		return
	}
	if !slices.Contains(types, want) {
		t.Errorf("%s: got types %v for Go type %s, want %s", path, types, typ, want)
		return
	}
	switch want {
	case "array":
		if s.Items == nil {
			t.Errorf("%s: an array without items", path)
			return
		}
		compareSchema(t, path+"[]", s.Items.Value, typ.Elem(), response)
	case "object":
		var fields, always []string
		for f := range typ.Fields() {
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			fields = append(fields, name)
			// A field the encoder may leave out is not required.
			if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
				always = append(always, name)
			}
			p := s.Properties[name]
			if p == nil {
				t.Errorf("%s: Go field %s (%q) has no property", path, f.Name, name)
				continue
			}
			compareSchema(t, path+"."+name, p.Value, f.Type, response)
		}
		for name := range s.Properties {
			if !slices.Contains(fields, name) {
				t.Errorf("%s: property %q has no field in Go type %s", path, name, typ)
			}
		}
		if response {
			required := slices.Sorted(slices.Values(s.Required))
			slices.Sort(always)
			if !slices.Equal(required, always) {
				t.Errorf("%s: got required %v, want every field the handler always sends %v", path, required, always)
			}
		}
	}
}

// schemaTypes lists the types a schema allows, its own or, without one,
// those of its anyOf branches.
func schemaTypes(s *openapi3.Schema) []string {
	if s.Type != nil && len(s.Type.Slice()) > 0 {
		return s.Type.Slice()
	}
	var types []string
	for _, b := range s.AnyOf {
		types = append(types, schemaTypes(b.Value)...)
	}
	return types
}

// The phone pattern lets through exactly the numbers the API accepts.
func TestOpenAPIPhonePattern(t *testing.T) {
	doc := loadDocument(t)
	contact := doc.Components.Schemas["CreateServiceRequest"].Value.Properties["contact"].Value
	re := regexp.MustCompile(contact.Properties["phone"].Value.Pattern)
	for _, phone := range []string{
		"(512) 555-0142", "512.555.0142", "+1 512 555 0142", "5125550142", "15125550142",
		"1-512-555-0142", "+15125550142", " 512 555 0142 ", "+1-(512)-555-0142", "(1) 512 555 0142",
		"+ 1 512 555 0142", "2125550100", "(323) 555-0142", "+1 323 555 0150",
		"555-0142", "+5125550142", "1125550142", "5121550142", "+1 112 555 0142", "+44 20 7946 0958",
		"512-555-01423", "512/555/0142", "", "+", "1", "++15125550142", "512 555 0142 ext 5",
		"25125550142", "+2 512 555 0142", "1 1 512 555 0142", "(512) 555-014",
	} {
		_, want := booking.NormalizePhone(phone)
		if got := re.MatchString(phone); got != want {
			t.Errorf("%q: got pattern match %v, want %v as the API", phone, got, want)
		}
	}
}

func TestOpenAPIRoutes(t *testing.T) {
	h, _ := newAPI(t)
	var fromYAML any
	if err := yaml.Unmarshal(httpapi.OpenAPIYAML(), &fromYAML); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, path string
		wantStatus         int
		wantType           string
		check              func(t *testing.T, body []byte)
	}{
		{"JSON", "GET", "/api/v1/openapi.json", 200, "application/json", func(t *testing.T, body []byte) {
			var got any
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, normalize(t, fromYAML)) {
				t.Errorf("got a JSON document that differs from the YAML one")
			}
			if !bytes.HasPrefix(body, []byte(`{"openapi":"3.1.0","info":{"title":`)) {
				t.Errorf("got %.40s..., want the YAML's key order", body)
			}
		}},
		{"YAML", "GET", "/api/v1/openapi.yaml", 200, "application/yaml", func(t *testing.T, body []byte) {
			if !bytes.Equal(body, httpapi.OpenAPIYAML()) {
				t.Errorf("got a YAML document other than openapi.yaml")
			}
		}},
		{"another method", "POST", "/api/v1/openapi.json", 405, "application/json", func(t *testing.T, body []byte) {
			if !bytes.Contains(body, []byte(`"code":"METHOD_NOT_ALLOWED"`)) {
				t.Errorf("got %s, want METHOD_NOT_ALLOWED", body)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := openapitest.Serve(t, h, httptest.NewRequest(tt.method, tt.path, nil))
			if rec.Code != tt.wantStatus {
				t.Fatalf("got %d %s, want %d", rec.Code, rec.Body, tt.wantStatus)
			}
			for header, want := range map[string]string{"Content-Type": tt.wantType, "Access-Control-Allow-Origin": "*"} {
				if got := rec.Header().Get(header); got != want {
					t.Errorf("got %s %q, want %q", header, got, want)
				}
			}
			tt.check(t, rec.Body.Bytes())
		})
	}
}

// normalize returns v as it reads after a trip through JSON.
func normalize(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
