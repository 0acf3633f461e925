// Package lambdaenv builds what a Lambda function needs from its
// environment: configuration, the DynamoDB store and the domain desk. Bad
// configuration fails here, at start, never on the first request.
package lambdaenv

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/httpapi"
)

// Config is what every function reads from its environment.
type Config struct {
	TableName string // TABLE_NAME, required
	SiteURL   string // SITE_URL, required: absolute http(s) URL without trailing slash
	// DynamoDBEndpoint (DYNAMODB_ENDPOINT, optional) points the store at
	// another engine, such as DynamoDB Local under sam local invoke.
	DynamoDBEndpoint string
}

// ConfigFrom reads and checks the configuration.
func ConfigFrom(getenv func(string) string) (Config, error) {
	c := Config{
		TableName:        strings.TrimSpace(getenv("TABLE_NAME")),
		SiteURL:          strings.TrimSpace(getenv("SITE_URL")),
		DynamoDBEndpoint: strings.TrimSpace(getenv("DYNAMODB_ENDPOINT")),
	}
	var errs []error
	if c.TableName == "" {
		errs = append(errs, errors.New("TABLE_NAME is not set"))
	}
	if u, err := url.Parse(c.SiteURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.HasSuffix(c.SiteURL, "/") {
		errs = append(errs, fmt.Errorf("SITE_URL must be an absolute http(s) URL without a trailing slash, got %q", c.SiteURL))
	}
	return c, errors.Join(errs...)
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

// Desk builds the domain desk over the DynamoDB store the configuration names.
func Desk(ctx context.Context, c Config, opts ...booking.DeskOption) (*booking.Desk, error) {
	store, err := Store(ctx, c)
	if err != nil {
		return nil, err
	}
	return booking.NewDesk(store, c.SiteURL, time.Now, opts...), nil
}

// HTTPHandler is the Lambda handler of the functions behind the HTTP API:
// API Gateway HTTP API (payload 2.0) events through a net/http handler.
type HTTPHandler = func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// NewAPIHandler builds the JSON API's Lambda handler from the environment.
func NewAPIHandler(ctx context.Context, getenv func(string) string) (HTTPHandler, error) {
	return NewHTTPHandler(ctx, getenv, httpapi.New)
}

// NewHTTPHandler builds the Lambda handler of the net/http handler that build
// makes over the desk. The tool server's function passes mcptools.New: this
// package does not import it, so that the JSON API's binaries do not carry
// the MCP SDK.
//
// A function that creates requests passes paymentenv.DeskOptions: with
// STRIPE_SECRET_ARN set, deposits that are not simulated then get a Stripe
// Checkout Session as payment_url.
func NewHTTPHandler(ctx context.Context, getenv func(string) string, build func(*booking.Desk, *slog.Logger) http.Handler, options ...DeskOptionsFunc) (HTTPHandler, error) {
	c, err := ConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	var opts []booking.DeskOption
	for _, o := range options {
		more, err := o(ctx, getenv, c)
		if err != nil {
			return nil, err
		}
		opts = append(opts, more...)
	}
	desk, err := Desk(ctx, c, opts...)
	if err != nil {
		return nil, err
	}
	return HTTP(build(desk, Logger())), nil
}

// DeskOptionsFunc gives a function's desk options from its environment,
// such as the payment provider of the functions that create requests
// (paymentenv.DeskOptions). It lives outside this package so that the
// functions that take no payments link no Stripe or Secrets Manager code.
type DeskOptionsFunc func(ctx context.Context, getenv func(string) string, c Config) ([]booking.DeskOption, error)

// HTTP adapts a net/http handler to API Gateway HTTP API (payload 2.0)
// events, handing the Lambda request id to the access log.
func HTTP(h http.Handler) HTTPHandler {
	return httpadapter.NewV2(withLambdaRequestID(h)).ProxyWithContext
}

// withLambdaRequestID hands the Lambda request id to the access log, so that
// a log line and the invocation's CloudWatch entries can be matched.
func withLambdaRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if lc, ok := lambdacontext.FromContext(r.Context()); ok && lc.AwsRequestID != "" {
			r = r.WithContext(httpapi.WithRequestID(r.Context(), lc.AwsRequestID))
		}
		next.ServeHTTP(w, r)
	})
}

// Logger is the JSON logger every function writes to CloudWatch with.
func Logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(os.Stderr, nil))
}
