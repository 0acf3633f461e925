// Package awsenvtest stands in for an AWS JSON endpoint in tests: the AWS
// adapters (SES, SMS) are pointed at it through the SDK's BaseEndpoint, and
// the test asserts the exact calls they made.
package awsenvtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Call is one request the stand-in received.
type Call struct {
	Method, Path, ContentType, Auth string
	Target                          string // X-Amz-Target, for the JSON 1.0 and 1.1 protocols
	Body                            map[string]any
}

// Endpoint starts a stand-in that records each call and answers every one
// with status, header and body (Content-Type application/json unless
// header says otherwise). It returns its URL and a function
// that returns the calls so far.
func Endpoint(t *testing.T, status int, header map[string]string, body string) (url string, calls func() []Call) {
	t.Helper()
	var (
		mu  sync.Mutex
		got []Call
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		c := Call{Method: r.Method, Path: r.URL.Path, ContentType: r.Header.Get("Content-Type"),
			Auth: r.Header.Get("Authorization"), Target: r.Header.Get("X-Amz-Target")}
		if err := json.Unmarshal(data, &c.Body); err != nil {
			t.Errorf("request body is not JSON: %v: %s", err, data)
		}
		mu.Lock()
		got = append(got, c)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []Call {
		mu.Lock()
		defer mu.Unlock()
		return append([]Call(nil), got...)
	}
}
