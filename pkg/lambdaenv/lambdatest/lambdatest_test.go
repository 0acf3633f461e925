package lambdatest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Every sample event names a function folder (events/<function>[-variant].json)
// and carries the route of that function, so sam local invoke -e finds its way.
func TestEveryEventBelongsToAFunction(t *testing.T) {
	root := RepoRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "events", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("got no events (%v)", err)
	}
	dirs, err := os.ReadDir(filepath.Join(root, "functions"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			owner := ""
			for _, d := range dirs {
				if (name == d.Name() || strings.HasPrefix(name, d.Name()+"-")) && len(d.Name()) > len(owner) {
					owner = d.Name()
				}
			}
			if owner == "" {
				t.Fatalf("got no functions/ folder for events/%s.json", name)
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var probe map[string]any
			if err := json.Unmarshal(data, &probe); err != nil {
				t.Fatalf("events/%s.json is not JSON: %v", name, err)
			}
			if _, isHTTP := probe["routeKey"]; !isHTTP {
				return
			}
			var e events.APIGatewayV2HTTPRequest
			if err := json.Unmarshal(data, &e); err != nil {
				t.Fatal(err)
			}
			if e.Version != "2.0" || e.RequestContext.HTTP.Method == "" || e.RawPath == "" || e.RouteKey != e.RequestContext.RouteKey {
				t.Errorf("got version %q method %q path %q routeKey %q/%q: want a complete payload 2.0 event",
					e.Version, e.RequestContext.HTTP.Method, e.RawPath, e.RouteKey, e.RequestContext.RouteKey)
			}
		})
	}
}

// A Scan recorded under Record is reported with the path that made it;
// every other call is not.
func TestRecordReportsScans(t *testing.T) {
	tests := []struct {
		name  string
		calls []recorded
		want  []string
	}{
		{"none", []recorded{
			{service: "DynamoDB", operation: "GetItem", path: "TestX", input: &dynamodb.GetItemInput{TableName: aws.String("doorstep")}},
			{service: "DynamoDB", operation: "Query", path: "TestX", input: &dynamodb.QueryInput{TableName: aws.String("doorstep"), IndexName: aws.String("sweep")}},
		}, nil},
		{"a scan", []recorded{
			{service: "DynamoDB", operation: "GetItem", path: "start", input: &dynamodb.GetItemInput{TableName: aws.String("doorstep")}},
			{service: "DynamoDB", operation: "Scan", path: "TestY/accept", input: &dynamodb.ScanInput{TableName: aws.String("doorstep")}},
			{service: "DynamoDB", operation: "Scan", path: "TestY/inbox", input: &dynamodb.ScanInput{TableName: aws.String("doorstep"), IndexName: aws.String("inbox")}},
		}, []string{"made a Scan of doorstep at TestY/accept", "made a Scan of doorstep index inbox at TestY/inbox"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{calls: tt.calls}
			if got := r.scans(); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
