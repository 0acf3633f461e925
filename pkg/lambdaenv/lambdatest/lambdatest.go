// Package lambdatest feeds the sample events of events/ to a function's
// Lambda handler in process, through lambda.NewHandler(h).Invoke: the same
// JSON path lambda.Start takes. So the samples for sam local invoke cannot rot.
package lambdatest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
	"github.com/doorstep/doorstep/pkg/mcptools"
)

// SiteURL is the SITE_URL the environment gives functions under test.
const SiteURL = "https://book.example.com"

// SampleRequestCode is the code events/get-service-request.json asks for;
// NewEnv stores a request under it.
const SampleRequestCode = "DEM0-REQ0-0001"

// Env is a function's environment over an embedded DynamoDB that holds the
// demo businesses and the sample request.
type Env struct {
	Vars     map[string]string
	Store    *dynamo.Store
	Bookings *booking.Bookings
}

// Getenv reads the environment's variables, as os.Getenv would.
func (e *Env) Getenv(key string) string { return e.Vars[key] }

// NewEnv starts an embedded DynamoDB, loads the demo businesses
// (infra/local/businesses.json) and stores the sample request on the first
// open window of the first business that takes no deposit.
func NewEnv(t testing.TB) *Env {
	t.Helper()
	ctx := context.Background()
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	businesses := dynamotest.PutBusinesses(t, store, filepath.Join(RepoRoot(t), "infra", "local", "businesses.json"), nil)
	env := &Env{
		Vars: map[string]string{
			"TABLE_NAME":            table,
			"SITE_URL":              SiteURL,
			"DYNAMODB_ENDPOINT":     aws.ToString(client.Options().BaseEndpoint),
			"AWS_REGION":            "us-east-1",
			"AWS_ACCESS_KEY_ID":     "doorstep",
			"AWS_SECRET_ACCESS_KEY": "doorstep",
			// The template's MailConfigurationSet as Deployment names it:
			// every e-mail sent is judged with it.
			"SES_CONFIGURATION_SET": "doorstep-mail",
		},
		Store:    store,
		Bookings: bookingtest.New(t, booking.Config{Store: store, SiteURL: SiteURL, Now: time.Now}),
	}
	for _, b := range businesses {
		if b.BookingDeposit != nil || !b.AcceptingRequests {
			continue
		}
		w := env.FirstOpenWindow(t, b.Slug)
		r := booking.Request{
			Code: SampleRequestCode, BusinessSlug: b.Slug, Status: booking.StatusNew,
			ServiceID: b.Services[0].ID, ServiceName: b.Services[0].Name, Window: w,
			Address: booking.Address{Street: "1 Sample St", ZIP: b.ServiceArea.ZIPCodes[0]},
			Contact: booking.Contact{Name: "Sample Person", Phone: "2125550100"},
			Urgency: "soon", Language: "en", Created: time.Now().UTC().Truncate(time.Second),
		}
		if err := store.CreateRequest(ctx, r, nil, bookingtest.Unlimited, time.Now()); err != nil {
			t.Fatal(err)
		}
		Note(r.Code, r.Contact.Phone)
		return env
	}
	t.Fatal("no demo business takes requests without a deposit")
	return nil
}

// FirstOpenWindow returns the first window of a business open now.
func (e *Env) FirstOpenWindow(t testing.TB, slug string) booking.Window {
	t.Helper()
	ctx := context.Background()
	b, err := e.Bookings.Business(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.Bookings.ArrivalWindows(ctx, b, booking.WindowQuery{Days: booking.MaxDays})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Windows) == 0 {
		t.Fatalf("%s has no open window in 14 days", slug)
	}
	return a.Windows[0]
}

// RepoRoot is the folder that holds go.mod.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Event reads events/<name>.
func Event(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(RepoRoot(t), "events", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// InvokeHTTP passes an API Gateway HTTP API event through handler as the
// Lambda runtime would, and decodes the response. An exchange with the JSON
// API is checked against its OpenAPI document (openapitest).
func InvokeHTTP(t testing.TB, handler any, event []byte) events.APIGatewayV2HTTPResponse {
	t.Helper()
	var e events.APIGatewayV2HTTPRequest
	_ = json.Unmarshal(event, &e) // checkAPI says what is wrong with it
	path := fmt.Sprintf("%s (%s %s)", t.Name(), e.RequestContext.HTTP.Method, e.RawPath)
	out, err := lambda.NewHandler(handler).Invoke(WithPath(context.Background(), path), event)
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	var res events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("response is not an API Gateway HTTP API response: %v: %s", err, out)
	}
	checkAPI(t, event, res)
	noteResponse(res)
	return res
}

// checkAPI checks an event and the response to it against the JSON API's
// OpenAPI document, as the HTTP request and response they stand for: the
// request as the functions' adapter builds it from the event. The tool
// server's exchanges (/mcp) are not the JSON API's and are left out.
func checkAPI(t testing.TB, event []byte, res events.APIGatewayV2HTTPResponse) {
	t.Helper()
	var e events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(event, &e); err != nil {
		t.Fatalf("event is not an API Gateway HTTP API event: %v", err)
	}
	req, err := new(core.RequestAccessorV2).EventToRequest(e)
	if err != nil {
		t.Fatalf("event to HTTP request: %v", err)
	}
	if req.URL.Path == mcptools.Path {
		return
	}
	reqBody, err := io.ReadAll(req.Body)
	if err != nil {
		t.Fatal(err)
	}
	header := make(http.Header, len(res.Headers))
	for k, v := range res.Headers {
		header.Set(k, v)
	}
	for k, vs := range res.MultiValueHeaders {
		for _, v := range vs {
			header.Add(k, v)
		}
	}
	for _, c := range res.Cookies { // payload 2.0 answers Set-Cookie here
		header.Add("Set-Cookie", c)
	}
	body := []byte(res.Body)
	if res.IsBase64Encoded {
		if body, err = base64.StdEncoding.DecodeString(res.Body); err != nil {
			t.Fatalf("response body: %v", err)
		}
	}
	openapitest.Check(t, req, reqBody, res.StatusCode, header, body)
}

// Edit returns an HTTP API event changed by edit: how a test makes a
// variation of a sample event (another path, header or body).
func Edit(t testing.TB, event []byte, edit func(e *events.APIGatewayV2HTTPRequest)) []byte {
	t.Helper()
	var e events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(event, &e); err != nil {
		t.Fatal(err)
	}
	edit(&e)
	out, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// WithHeader returns an HTTP API event with one header set (name in lower
// case, as API Gateway sends it).
func WithHeader(t testing.TB, event []byte, name, value string) []byte {
	t.Helper()
	return Edit(t, event, func(e *events.APIGatewayV2HTTPRequest) { e.Headers[name] = value })
}

// WithBody returns an HTTP API event with its body's JSON fields replaced.
func WithBody(t testing.TB, event []byte, fields map[string]any) []byte {
	t.Helper()
	return Edit(t, event, func(e *events.APIGatewayV2HTTPRequest) {
		var body map[string]any
		if err := json.Unmarshal([]byte(e.Body), &body); err != nil {
			t.Fatal(err)
		}
		for k, v := range fields {
			body[k] = v
		}
		data, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		e.Body = string(data)
	})
}

// Case is one event and what the function must answer to it.
type Case struct {
	Name       string
	Event      []byte
	WantStatus int
	WantBody   string // a piece of the body
}

// RunHTTP invokes handler with each case's event and checks the answer.
func RunHTTP(t *testing.T, handler any, cases []Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res := InvokeHTTP(t, handler, c.Event)
			if res.StatusCode != c.WantStatus || !strings.Contains(res.Body, c.WantBody) {
				t.Fatalf("got %d %s, want %d with %s", res.StatusCode, res.Body, c.WantStatus, c.WantBody)
			}
			if got := res.Headers["Content-Type"]; got != "application/json" {
				t.Errorf("got Content-Type %q, want application/json", got)
			}
		})
	}
}

// InvokeStream feeds a DynamoDB stream event to handler as the Lambda
// runtime does and returns the batch item failures it reported: the
// sequence numbers of the records to retry, empty when none.
func InvokeStream(t testing.TB, handler any, event []byte) []string {
	t.Helper()
	out, err := lambda.NewHandler(handler).Invoke(WithPath(context.Background(), t.Name()), event)
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	var res events.DynamoDBEventResponse
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("response is not a DynamoDB event response: %v: %s", err, out)
	}
	ids := []string{}
	for _, f := range res.BatchItemFailures {
		ids = append(ids, f.ItemIdentifier)
	}
	return ids
}

// Crews sets how many crews a business sends per window (CrewsPerWindow):
// with more than one, a window holds several requests, and a move finds
// the slot a request's hold is on with a Query of the window's holds.
func (e *Env) Crews(t testing.TB, slug string, crews int) {
	t.Helper()
	err := e.Store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
		changed := *stored
		changed.CrewsPerWindow = crews
		return &changed, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Send creates a request of the business through the service, as a
// person would, on its first open window (a free crew's place in it), from
// the given phone: status new, or pending_payment holding the window when
// the business takes a deposit (simulated: the environment has no payment
// provider). It returns the request's code.
func (e *Env) Send(t testing.TB, slug, phone string) string {
	t.Helper()
	ctx := context.Background()
	b, err := e.Bookings.Business(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	service := b.Services[0].ID
	c, _, err := e.Bookings.CreateRequest(ctx, b, booking.CreateInput{
		WindowStart:     e.FirstOpenWindow(t, slug).Start,
		Address:         booking.Address{Street: "1 Sample St", ZIP: b.ServiceArea.ZIPCodes[0]},
		Contact:         booking.Contact{Name: "Sample Person", Phone: phone},
		ServiceID:       &service,
		DepositAccepted: true,
	})
	if err != nil {
		t.Fatalf("create a request of %s: %v", slug, err)
	}
	Note(c.Code, phone)
	return c.Code
}

// Route returns an HTTP API event sent to another route: method, route
// key path, the path itself, and its path parameters; a POST carries form,
// an HTML form's body.
func Route(t testing.TB, event []byte, method, route, path string, params map[string]string, form string) []byte {
	t.Helper()
	return Edit(t, event, func(e *events.APIGatewayV2HTTPRequest) {
		e.RouteKey, e.RequestContext.RouteKey = method+" "+route, method+" "+route
		e.RawPath, e.RequestContext.HTTP.Path, e.RequestContext.HTTP.Method = path, path, method
		e.PathParameters = params
		if method == "POST" {
			if e.Headers == nil {
				e.Headers = map[string]string{}
			}
			e.Headers["content-type"] = "application/x-www-form-urlencoded"
			e.Body, e.IsBase64Encoded = form, false
		}
	})
}
