package lambdaenv

import (
	"bytes"
	"context"
	"encoding/json"
	"log"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/doorstep/doorstep/pkg/logjson"
)

// TestInvocation: a line logged while a handler runs, even without its
// context, carries the invocation's request id; none after it returned.
func TestInvocation(t *testing.T) {
	var buf bytes.Buffer
	log := logjson.New(&buf)
	h := Invocation(func(_ context.Context, e string) (string, error) {
		log.Info("handling", "event", e) // no context, as the stream handlers log
		return e, nil
	})
	ctx := lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{AwsRequestID: "8476a536-e9f4-11e8-9739-2dfe598c3fcd"})
	if got, err := h(ctx, "sweep"); got != "sweep" || err != nil {
		t.Fatalf("got %q, %v; want the handler's answer", got, err)
	}
	if !strings.Contains(buf.String(), `"request_id":"8476a536-e9f4-11e8-9739-2dfe598c3fcd"`) {
		t.Errorf("got %s, want the invocation's request id", buf.String())
	}
	buf.Reset()
	log.Info("between invocations")
	if strings.Contains(buf.String(), "request_id") {
		t.Errorf("got %s, want no request id between invocations", buf.String())
	}
}

// TestStdLog: a failed start, logged with log.Fatalf by each function's
// main, is a JSON line at ERROR like the others.
func TestStdLog(t *testing.T) {
	var buf bytes.Buffer
	routeStdLog(&buf)
	t.Cleanup(func() { routeStdLog(os.Stderr) })
	log.Printf("pages: %v", "TABLE_NAME is not set")
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("got %q, want a JSON line", buf.String())
	}
	if line["level"] != "ERROR" || line["msg"] != "pages: TABLE_NAME is not set" {
		t.Errorf("got %v, want level ERROR and the message", line)
	}
}
