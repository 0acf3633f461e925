package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/dynamo/dynamolocal"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

// needLocal skips a test without DynamoDB Local (Java and the jar), except
// on CI, where it must run.
func needLocal(t *testing.T) {
	t.Helper()
	_, javaErr := dynamolocal.FindJava()
	_, _, jarErr := dynamolocal.FindJar()
	if err := errors.Join(javaErr, jarErr); err != nil {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			t.Fatalf("DynamoDB Local must run when CI=true: %v", err)
		}
		t.Skipf("DynamoDB Local not available: %v; make test installs it", err)
	}
}

// The short run of make test: about 1,000 operations with 10% of the
// DynamoDB calls faulted, and not one violation. make chaos runs more.
func TestShortRun(t *testing.T) {
	needLocal(t)
	var out bytes.Buffer
	violations, err := run(context.Background(), []string{"--ops", "1000", "--fault-rate", "0.1", "--seed", "35"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if got, want := lines[len(lines)-1], fmt.Sprintf("%d violations", violations); got != want {
		t.Errorf("last line: got %q, want %q", got, want)
	}
	if violations != 0 || !strings.Contains(out.String(), "faults injected") {
		t.Errorf("got %d violations, want 0:\n%s", violations, out.String())
	}
}

// DynamoDB honours TransactWriteItems' ClientRequestToken: the same call
// sent again with the same token within 10 minutes succeeds and is not
// applied again. So does DynamoDB Local (3.3), the harness's engine: a
// finding of the harness about a lost answer is DynamoDB's too.
func TestLocalHonoursClientRequestToken(t *testing.T) {
	client, table := dynamotest.Local(t)
	honoured, err := probeClientRequestToken(context.Background(), client, table)
	if err != nil {
		t.Fatal(err)
	}
	if !honoured {
		t.Error("DynamoDB Local applied a TransactWriteItems sent again with its ClientRequestToken; the harness's lost answers of transactions are then DynamoDB Local's only (docs/reliability.md)")
	}
}

// A TransactWriteItems whose answer is lost after DynamoDB Local applied
// it is retried by the SDK with the same ClientRequestToken (its
// idempotency-token middleware fills it once per call, before the retry
// loop), and the retry is not applied again: one increment, and success.
func TestLostTransactionAnswerAppliedOnce(t *testing.T) {
	client, table := dynamotest.Local(t)
	p := newProxy(aws.ToString(client.Options().BaseEndpoint), 0, 1)
	p.script = []fault{faultLostAnswer}
	p.on.Store(true)
	srv := httptest.NewServer(p)
	defer srv.Close()
	faulty := faultyClient(srv.URL)
	key := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "CHAOS#lost"}, "sk": &types.AttributeValueMemberS{Value: "N"}}
	ctx := context.Background()
	_, err := faulty.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{Update: &types.Update{
		TableName: aws.String(table), Key: key, UpdateExpression: aws.String("ADD n :one"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
	}}}})
	if err != nil {
		t.Fatalf("the call whose first answer was lost: %v", err)
	}
	if got := p.counts[faultLostAnswer].Load(); got != 1 {
		t.Fatalf("lost answers: got %d, want 1", got)
	}
	out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := out.Item["n"].(*types.AttributeValueMemberN); n == nil || n.Value != "1" {
		t.Errorf("n: got %v, want 1 (applied once)", out.Item["n"])
	}
}

// Each fault is DynamoDB's own answer: the status, x-amzn-ErrorType and a
// JSON body whose __type names the error; a lost answer reaches the engine
// and closes the connection with no answer.
func TestProxyFaults(t *testing.T) {
	var reached int
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached++
		io.WriteString(w, `{}`)
	}))
	defer upstream.Close()
	tests := []struct {
		fault       fault
		wantStatus  int
		wantType    string
		wantReached int
	}{
		{faultThrottling, 400, "ThrottlingException", 0},
		{faultThroughput, 400, "ProvisionedThroughputExceededException", 0},
		{fault500, 500, "InternalServerError", 0},
		{fault503, 503, "ServiceUnavailable", 0},
		{faultLatency, 200, "", 1},
		{faultNone, 200, "", 1},
		{faultLostAnswer, 0, "", 1},
	}
	for _, tt := range tests {
		t.Run(faultNames[tt.fault], func(t *testing.T) {
			reached = 0
			p := newProxy(upstream.URL, 0, 1)
			p.script = []fault{tt.fault}
			p.on.Store(true)
			srv := httptest.NewServer(p)
			defer srv.Close()
			req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{}`))
			req.Header.Set("X-Amz-Target", "DynamoDB_20120810.PutItem")
			began := time.Now()
			resp, err := http.DefaultClient.Do(req)
			if tt.fault == faultLostAnswer {
				if err == nil {
					resp.Body.Close()
					t.Fatalf("got an answer %d, want the connection closed", resp.StatusCode)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tt.wantStatus || resp.Header.Get("x-amzn-ErrorType") != tt.wantType {
					t.Errorf("got %d %q, want %d %q", resp.StatusCode, resp.Header.Get("x-amzn-ErrorType"), tt.wantStatus, tt.wantType)
				}
				if tt.wantType != "" && !bytes.Contains(body, []byte(`"__type":"com.amazonaws.dynamodb.v20120810#`+tt.wantType+`"`)) {
					t.Errorf("body %s, want __type %s", body, tt.wantType)
				}
			}
			if reached != tt.wantReached {
				t.Errorf("reached the engine %d times, want %d", reached, tt.wantReached)
			}
			if tt.fault == faultLatency && time.Since(began) < 100*time.Millisecond {
				t.Errorf("answered in %s, want a spike of 100 ms at least", time.Since(began))
			}
		})
	}
}

func TestParseFlags(t *testing.T) {
	now := func() time.Time { return time.Unix(0, 42) }
	tests := []struct {
		args    []string
		want    options
		wantErr bool
	}{
		{nil, options{ops: 1000, faultRate: 0.1, seed: 42, workers: 16}, false},
		{[]string{"--ops", "20000", "--fault-rate", "0.2", "--seed", "7"}, options{ops: 20000, faultRate: 0.2, seed: 7, workers: 16}, false},
		{[]string{"--fault-rate", "1.5"}, options{}, true},
		{[]string{"--ops", "0"}, options{}, true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got, err := parseFlags(tt.args, now)
			if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
				t.Errorf("got %+v, %v; want %+v, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
