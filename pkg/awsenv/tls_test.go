package awsenv_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/awsenv"
)

// The Lambda binaries are built without net/http's HTTP/2 (the Makefile's
// nethttpomithttp2 tag), and make test runs with the same tags. A call over
// TLS to an endpoint that offers HTTP/2, as AWS's do, then goes over
// HTTP/1.1 and works.
func TestCallOverTLS(t *testing.T) {
	var mu sync.Mutex
	var protos []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		protos = append(protos, r.Proto)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Write([]byte(`{}`))
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)

	cfg, err := awsenv.Config(context.Background(), func(string) string { return "" }, "dynamodb", true)
	if err != nil {
		t.Fatal(err)
	}
	cfg.HTTPClient = awshttp.NewBuildableClient().WithTransportOptions(func(tr *http.Transport) {
		tr.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	})
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.BaseEndpoint = &srv.URL })
	if _, err := client.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String("doorstep"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "x"}}}); err != nil {
		t.Fatalf("GetItem over TLS: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := "HTTP/2.0"
	if lambdaBuild {
		want = "HTTP/1.1"
	}
	if len(protos) != 1 || protos[0] != want {
		t.Errorf("got %v, want one call over %s", protos, want)
	}
}
