package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/logjson"
)

// TestLocalLogsAreTheFunctions: the local server writes the functions'
// lines (pkg/logjson): one JSON object a line, the access line with its
// request id and the request's LogRef, and the create's EMF metric line
// (pkg/metrics) with the same request id, so that what the README says of
// the logs holds on both.
func TestLocalLogsAreTheFunctions(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	businesses, err := loadBusinesses("")
	if err != nil {
		t.Fatal(err)
	}
	var logs logBuffer
	srv := serveLocal(ctx, t, businesses, logjson.New(&logs), nil)

	res, err := http.Get(srv.URL + "/api/v1/businesses/desert-cool-hvac/availability?days=2")
	if err != nil {
		t.Fatal(err)
	}
	var availability struct{ Windows []struct{ Start string } }
	err = json.NewDecoder(res.Body).Decode(&availability)
	res.Body.Close()
	if err != nil || len(availability.Windows) == 0 {
		t.Fatalf("windows: %+v %v", availability, err)
	}
	before := len(logs.String())
	body := `{"window_start":"` + availability.Windows[0].Start + `","address":{"street":"1 A St","zip":"85004"},"contact":{"name":"Jo","phone":"602-555-0100"}}`
	res, err = http.Post(srv.URL+"/api/v1/businesses/desert-cool-hvac/requests", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ Code string }
	err = json.NewDecoder(res.Body).Decode(&created)
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != 201 {
		t.Fatalf("create: got %d %+v %v", res.StatusCode, created, err)
	}

	var access, metric map[string]any
	for text := range strings.Lines(logs.String()[before:]) {
		var line map[string]any
		if err := json.Unmarshal([]byte(text), &line); err != nil {
			t.Fatalf("got a line that is not JSON: %q", text)
		}
		for _, k := range []string{"time", "level", "msg"} {
			if _, ok := line[k]; !ok {
				t.Errorf("got no %s in %s", k, text)
			}
		}
		switch {
		case line["msg"] == "request":
			access = line
		case line["msg"] == "metric" && line["RequestsCreated"] == 1.0:
			metric = line
		}
		if strings.Contains(text, created.Code) || strings.Contains(text, "555-0100") {
			t.Errorf("got the code or the phone in %s", text)
		}
	}
	if access == nil || metric == nil {
		t.Fatalf("got access line %v and metric line %v, want both:\n%s", access, metric, logs.String()[before:])
	}
	if id, _ := access["request_id"].(string); id == "" || metric["request_id"] != id {
		t.Errorf("got request ids %v (access) and %v (metric), want the same one", access["request_id"], metric["request_id"])
	}
	if got, want := access["request"], booking.LogRef(created.Code); got != want {
		t.Errorf("got request %v, want the code's LogRef %s", got, want)
	}
	if _, ok := metric["_aws"].(map[string]any); !ok {
		t.Errorf("got no _aws metadata in the metric line %v", metric)
	}
}
