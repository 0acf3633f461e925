// Package lambdaenv reads a Lambda function's configuration from its
// environment and builds its clients. Bad configuration fails here, at
// start, never on the first request.
package lambdaenv

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/logjson"
	"github.com/doorstep/doorstep/pkg/metrics"
)

// Config is what the functions that serve the table read from their
// environment.
type Config struct {
	TableName string // TABLE_NAME, required
	// SiteURL (SITE_URL) is the public address, an absolute http(s) URL
	// without trailing slash; required by the functions that build URLs.
	SiteURL string
	// DynamoDBEndpoint (DYNAMODB_ENDPOINT, optional) points the store at
	// another engine, such as DynamoDB Local under sam local invoke.
	DynamoDBEndpoint string
	// SimulateDeposits (PAYMENTS=simulated) says the stack takes no real
	// payment (deployed without Stripe): every deposit is simulated
	// (booking.Bookings.SimulateDeposits). PAYMENTS=stripe, or unset, is
	// deposits as the business file says.
	SimulateDeposits bool
	// TextsOff says the stack sends no texts: SMS_ORIGINATION_IDENTITY is
	// unset (the notify function logs each text instead). The functions
	// that tell who is written to (booking.PersonReach) pass it on as
	// booking.Config.TextsOff; template.yaml gives them the variable.
	TextsOff bool
}

// ConfigFrom reads and checks the configuration of a function that builds
// URLs: TABLE_NAME and SITE_URL are required.
func ConfigFrom(getenv func(string) string) (Config, error) {
	c, err := TableConfigFrom(getenv)
	c.SiteURL = strings.TrimSpace(getenv("SITE_URL"))
	c.TextsOff = strings.TrimSpace(getenv("SMS_ORIGINATION_IDENTITY")) == ""
	errs := []error{err}
	if u, err := url.Parse(c.SiteURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.HasSuffix(c.SiteURL, "/") {
		errs = append(errs, fmt.Errorf("SITE_URL must be an absolute http(s) URL without a trailing slash, got %q", c.SiteURL))
	}
	switch p := strings.TrimSpace(getenv("PAYMENTS")); p {
	case "", "stripe":
	case "simulated":
		c.SimulateDeposits = true
	default:
		errs = append(errs, fmt.Errorf("PAYMENTS must be stripe or simulated, got %q", p))
	}
	return c, errors.Join(errs...)
}

// TableConfigFrom reads and checks the configuration of a function that
// builds no URLs, such as the hold sweeper: TABLE_NAME is required.
func TableConfigFrom(getenv func(string) string) (Config, error) {
	c := Config{
		TableName:        strings.TrimSpace(getenv("TABLE_NAME")),
		DynamoDBEndpoint: strings.TrimSpace(getenv("DYNAMODB_ENDPOINT")),
	}
	if c.TableName == "" {
		return c, errors.New("TABLE_NAME is not set")
	}
	return c, nil
}

// Store builds the DynamoDB store the configuration names, keeping business
// records BusinessCacheTTL in a warm function.
func Store(ctx context.Context, c Config) (*dynamo.Store, error) {
	client, err := dynamo.NewClient(ctx, c.DynamoDBEndpoint)
	if err != nil {
		return nil, err
	}
	return dynamo.New(client, c.TableName, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, time.Now)), nil
}

// HTTPHandler is the Lambda handler of the functions behind the HTTP API:
// API Gateway HTTP API (payload 2.0) events through a net/http handler.
type HTTPHandler = func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// HTTP adapts a net/http handler to API Gateway HTTP API (payload 2.0)
// events, handing the Lambda request id to the access log and to every
// line the invocation logs (Invocation). Answers are gzip-compressed for
// clients that accept it (edge.Compress); the adapter sends a compressed
// body base64-encoded, as API Gateway expects binary bodies, and API
// Gateway hands the client the bytes.
func HTTP(h http.Handler) HTTPHandler {
	return Invocation(httpadapter.NewV2(withLambdaRequestID(edge.Compress(h))).ProxyWithContext)
}

// withLambdaRequestID hands the Lambda request id to the access log, so that
// a log line and the invocation's CloudWatch entries can be matched.
func withLambdaRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if lc, ok := lambdacontext.FromContext(r.Context()); ok && lc.AwsRequestID != "" {
			r = r.WithContext(edge.WithRequestID(r.Context(), lc.AwsRequestID))
		}
		next.ServeHTTP(w, r)
	})
}

// Invocation wraps a Lambda handler so that every line logged while it
// runs, with a context or without, carries the invocation's request id
// (logjson.SetInvocation): an execution environment runs one invocation at
// a time.
func Invocation[E, R any](h func(context.Context, E) (R, error)) func(context.Context, E) (R, error) {
	return func(ctx context.Context, e E) (R, error) {
		if lc, ok := lambdacontext.FromContext(ctx); ok {
			logjson.SetInvocation(lc.AwsRequestID)
			defer logjson.SetInvocation("")
		}
		return h(ctx, e)
	}
}

// Every function's main logs a failed start with the standard library's
// log.Fatalf: that line is JSON too, at ERROR, as every other line.
func init() {
	routeStdLog(os.Stderr)
}

// routeStdLog makes the standard library's log write its lines to w as the
// JSON logger's, at ERROR.
func routeStdLog(w io.Writer) {
	log.SetFlags(0)
	log.SetOutput(slog.NewLogLogger(logjson.New(w).Handler(), slog.LevelError).Writer())
}

// Logger is the JSON logger every function writes to CloudWatch with: the
// local server's (pkg/logjson), on stderr.
func Logger() *slog.Logger {
	return logjson.New(os.Stderr)
}

// Metrics writes the business events as CloudWatch EMF lines on the
// function's log (pkg/metrics), in the namespace METRICS_NAMESPACE names
// (the template sets Doorstep/<stack>; empty: metrics.DefaultNamespace).
func Metrics(getenv func(string) string) *metrics.Metrics {
	return metrics.New(Logger(), strings.TrimSpace(getenv("METRICS_NAMESPACE")), time.Now)
}
