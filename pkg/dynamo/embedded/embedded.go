// Package embedded runs the store on minidyn, an in-process DynamoDB
// engine, with no network between them: the SDK client hands each request
// to minidyn's HTTP handler in the same goroutine. The local server (make
// run) and the benchmarks use it; nothing here is deployed.
package embedded

import (
	"context"
	"net/http"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/truora/minidyn/server"

	"github.com/doorstep/doorstep/pkg/dynamo"
)

// Endpoint is the address the client is configured with. Nothing listens
// there: requests never leave the process.
const Endpoint = "http://minidyn.embedded"

// NewClient returns a client of a new, empty minidyn engine.
func NewClient() *dynamodb.Client {
	return dynamo.NewClientFromConfig(aws.Config{
		Credentials: dynamo.LocalCredentials(),
		HTTPClient:  handlerClient{server.NewServer()},
	}, Endpoint)
}

// NewTable returns a client of a new minidyn engine holding the store's
// table, created with dynamo.CreateTable.
func NewTable(ctx context.Context, table string) (*dynamodb.Client, error) {
	client := NewClient()
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		return nil, err
	}
	return client, nil
}

// handlerClient is an aws.HTTPClient that serves each request with an
// http.Handler in the calling goroutine.
type handlerClient struct{ h http.Handler }

func (c handlerClient) Do(r *http.Request) (*http.Response, error) {
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}
