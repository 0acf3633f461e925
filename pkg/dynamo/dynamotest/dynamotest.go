// Package dynamotest gives tests a DynamoDB table on a real engine: minidyn,
// in process and always there, and DynamoDB Local, AWS's own engine, run
// once per test binary. Its use is in ../README.md, under Tests.
package dynamotest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/truora/minidyn/server"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

// Engine is a DynamoDB engine that tests can open a fresh table on.
type Engine struct {
	Name string
	// Open returns a client and the name of a new, empty table made with
	// dynamo.CreateTable. The table goes away when the test ends.
	Open func(t testing.TB) (*dynamodb.Client, string)
}

// Engines returns minidyn and DynamoDB Local, in that order.
func Engines() []Engine {
	return []Engine{
		{Name: "minidyn", Open: Minidyn},
		{Name: "dynamodb-local", Open: Local},
	}
}

// Minidyn starts a minidyn server for the test and returns a client of it
// and a new table on it. It needs nothing installed.
func Minidyn(t testing.TB) (*dynamodb.Client, string) {
	t.Helper()
	srv := httptest.NewServer(server.NewServer())
	t.Cleanup(srv.Close)
	client := NewClient(srv.URL)
	return client, newTable(t, client)
}

// Local returns a client of the test binary's DynamoDB Local and a new table
// on it. The package's TestMain must call Main. Without DynamoDB Local the
// test is skipped, or fails when the environment has CI=true.
//
// The table's TTL is off. DynamoDB Local deletes an item within a second of
// its expires_at by the wall clock, and test clocks are often in the past:
// with the TTL on, items would vanish at random, and a lapsed hold could be
// taken over because the TTL deleted it rather than because the store's
// conditions allowed it. The store never relies on the TTL.
func Local(t testing.TB) (*dynamodb.Client, string) {
	t.Helper()
	endpoint, err := localEndpoint()
	if err == errNoMain {
		t.Fatal(err)
	}
	if err != nil {
		if ci() {
			t.Fatalf("DynamoDB Local must run when CI=true, and it cannot: %v", err)
		}
		t.Skipf("DynamoDB Local not available: %v; run make test to install it", err)
	}
	client := NewClient(endpoint)
	table := newTable(t, client)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String("expires_at"),
			Enabled:       aws.Bool(false),
		},
	}); err != nil {
		t.Fatalf("turn the TTL of the test table off: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = client.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	})
	return client, table
}

// NewClient returns a client of the engine at endpoint with the fake
// credentials and the single region every test client uses (DynamoDB Local
// keeps the tables of each access key and region apart). It ignores the
// environment's AWS settings. Its retryer has no client-side retry quota,
// and it keeps enough idle connections for a race of a hundred goroutines.
func NewClient(endpoint string) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       dynamo.DefaultRegion,
		BaseEndpoint: aws.String(endpoint),
		Credentials:  dynamo.LocalCredentials(),
		Retryer:      dynamo.LocalRetryer(),
		HTTPClient: awshttp.NewBuildableClient().WithTransportOptions(func(tr *http.Transport) {
			tr.MaxIdleConnsPerHost = 128
		}),
	})
}

var tables atomic.Int64

// newTable creates a table named uniquely among the test binaries that
// share an engine (dynamolocal.SharedEnv).
func newTable(t testing.TB, client *dynamodb.Client) string {
	t.Helper()
	table := fmt.Sprintf("doorstep-test-%d-%d", os.Getpid(), tables.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := dynamo.CreateTable(ctx, client, table); err != nil {
		t.Fatalf("create test table: %v", err)
	}
	return table
}

// PutBusinesses stores the businesses of the business file at path
// (booking.LoadBusinesses) in store, each changed by edit first when edit is
// not nil (to give one an inbox token, say), and returns them.
func PutBusinesses(t testing.TB, store *dynamo.Store, path string, edit func(*booking.Business)) []*booking.Business {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bs, err := booking.LoadBusinesses(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, b := range bs {
		if edit != nil {
			edit(b)
		}
		if err := store.PutBusiness(context.Background(), b); err != nil {
			t.Fatal(err)
		}
	}
	return bs
}

// StreamJSON writes an item as a stream record's image spells it (DynamoDB
// JSON: {"S": ...}, {"N": ...}, {"M": {...}}).
func StreamJSON(item map[string]types.AttributeValue) map[string]any {
	out := make(map[string]any, len(item))
	for name, v := range item {
		out[name] = streamJSONValue(v)
	}
	return out
}

func streamJSONValue(v types.AttributeValue) map[string]any {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": true}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": base64.StdEncoding.EncodeToString(v.Value)}
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": v.Value}
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": v.Value}
	case *types.AttributeValueMemberBS:
		bs := make([]string, len(v.Value))
		for i, b := range v.Value {
			bs[i] = base64.StdEncoding.EncodeToString(b)
		}
		return map[string]any{"BS": bs}
	case *types.AttributeValueMemberL:
		l := make([]any, len(v.Value))
		for i, e := range v.Value {
			l[i] = streamJSONValue(e)
		}
		return map[string]any{"L": l}
	case *types.AttributeValueMemberM:
		return map[string]any{"M": StreamJSON(v.Value)}
	}
	panic(fmt.Sprintf("attribute of type %T", v))
}

// StreamRecord returns the stream record DynamoDB writes at the time at
// for a write of an item from old to item (either nil for an INSERT or a
// REMOVE), decoded from its JSON as the Lambda runtime decodes it.
func StreamRecord(t testing.TB, name string, old, item map[string]types.AttributeValue, at time.Time) events.DynamoDBEventRecord {
	t.Helper()
	keys := item
	if keys == nil {
		keys = old
	}
	change := map[string]any{
		"ApproximateCreationDateTime": at.Unix(),
		"Keys":                        StreamJSON(map[string]types.AttributeValue{"pk": keys["pk"], "sk": keys["sk"]}),
		"SequenceNumber":              "4421584500000000017450439091",
		"SizeBytes":                   1024,
		"StreamViewType":              "NEW_AND_OLD_IMAGES",
	}
	if item != nil {
		change["NewImage"] = StreamJSON(item)
	}
	if old != nil {
		change["OldImage"] = StreamJSON(old)
	}
	data, err := json.Marshal(map[string]any{
		"eventID": "c4ca4238a0b923820dcc509a6f75849b", "eventName": name, "eventVersion": "1.1",
		"eventSource": "aws:dynamodb", "awsRegion": "us-east-1", "dynamodb": change,
		"eventSourceARN": "arn:aws:dynamodb:us-east-1:123456789012:table/doorstep/stream/2026-11-01T00:00:00.000",
	})
	if err != nil {
		t.Fatal(err)
	}
	var rec events.DynamoDBEventRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// StreamImage is an item as a stream record carries it to a Lambda function
// (NewImage, OldImage), decoded as the Lambda runtime decodes it.
func StreamImage(t testing.TB, item map[string]types.AttributeValue) map[string]events.DynamoDBAttributeValue {
	t.Helper()
	data, err := json.Marshal(StreamJSON(item))
	if err != nil {
		t.Fatal(err)
	}
	var img map[string]events.DynamoDBAttributeValue
	if err := json.Unmarshal(data, &img); err != nil {
		t.Fatal(err)
	}
	return img
}
