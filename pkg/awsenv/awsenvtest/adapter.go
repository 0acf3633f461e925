package awsenvtest

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/doorstep/doorstep/pkg/awsenv"
)

// Adapter describes an AWS adapter's client for the checks every adapter
// shares: how NewClient reads its environment and where the client sends.
type Adapter[C any] struct {
	Service   string // how the cases name the service: "SES"
	ServiceID string // the SDK's ServiceID, of which Variable is the endpoint variable
	Variable  string // the adapter's EndpointVariable
	NewClient func(getenv func(string) string) (*C, error)
	// BaseEndpoint is the client's configured endpoint, nil for the service itself.
	BaseEndpoint func(*C) *string
	// Send sends one message with the client.
	Send func(*C) error
	// Header and Answer are how the service answers Send.
	Header map[string]string
	Answer string
}

// CheckNewClient checks that NewClient builds a client from Lambda's
// credentials or from an endpoint alone, and refuses to without either.
func CheckNewClient[C any](t *testing.T, a Adapter[C]) {
	t.Helper()
	tests := []struct {
		name    string
		env     map[string]string
		wantErr bool
	}{
		{"Lambda's credentials", map[string]string{"AWS_REGION": "us-east-2", "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "token"}, false},
		{"an endpoint without credentials", map[string]string{a.Variable: "http://127.0.0.1:4566"}, false},
		{"no credentials", map[string]string{"AWS_REGION": "us-east-2"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, err := a.NewClient(func(k string) string { return tt.env[k] })
			if (err != nil) != tt.wantErr || (client == nil) != tt.wantErr {
				t.Fatalf("got %v, %v, want an error: %v", client, err, tt.wantErr)
			}
		})
	}
}

// CheckEndpoints checks that a client built from an environment that
// configures an endpoint, as the SDK's config package reads it, sends there:
// the adapter's own variable before AWS_ENDPOINT_URL, neither when
// AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is set.
func CheckEndpoints[C any](t *testing.T, a Adapter[C]) {
	t.Helper()
	if got, want := a.Variable, awsenv.EndpointVariable(a.ServiceID); got != want {
		t.Errorf("EndpointVariable = %q, the SDK's is %q", got, want)
	}
	own, ownCalls := Endpoint(t, http.StatusOK, a.Header, a.Answer)
	all, allCalls := Endpoint(t, http.StatusOK, a.Header, a.Answer)
	keys := map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret"}
	s := a.Service
	tests := []struct {
		name    string
		env     map[string]string
		want    string // "own", "all", or "" for the service itself (nothing is sent)
		wantErr bool
	}{
		{s + "'s variable", map[string]string{a.Variable: own}, "own", false},
		{"AWS_ENDPOINT_URL", map[string]string{"AWS_ENDPOINT_URL": all}, "all", false},
		{s + "'s variable wins", map[string]string{a.Variable: own, "AWS_ENDPOINT_URL": all}, "own", false},
		{"ignored: " + s + " itself", union(keys, map[string]string{a.Variable: own,
			"AWS_ENDPOINT_URL": all, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}), "", false},
		{"ignored, without credentials: an error at start", map[string]string{a.Variable: own,
			"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}, "", true},
		{"an invalid ignore flag: an error at start", map[string]string{a.Variable: own,
			"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "1"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, err := a.NewClient(func(k string) string { return tt.env[k] })
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewClient() error %v, want one: %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if tt.want == "" {
				if e := a.BaseEndpoint(client); e != nil {
					t.Errorf("BaseEndpoint = %q, want none (%s itself)", *e, s)
				}
				return
			}
			ownBefore, allBefore := len(ownCalls()), len(allCalls())
			if err := a.Send(client); err != nil {
				t.Fatal(err)
			}
			got := map[string]int{"own": len(ownCalls()) - ownBefore, "all": len(allCalls()) - allBefore}
			if want := map[string]int{"own": 0, "all": 0, tt.want: 1}; !reflect.DeepEqual(got, want) {
				t.Errorf("calls per endpoint: got %v, want %v", got, want)
			}
		})
	}
}

// Only returns the one call the stand-in received, and stops the test
// where it received none or more.
func Only(t *testing.T, calls func() []Call) Call {
	t.Helper()
	got := calls()
	if len(got) != 1 {
		t.Fatalf("got %d calls, want 1", len(got))
	}
	return got[0]
}

// CheckBody reports a call's JSON body that is not want, both as JSON.
func CheckBody(t *testing.T, c Call, want map[string]any) {
	t.Helper()
	if !reflect.DeepEqual(c.Body, want) {
		g, _ := json.Marshal(c.Body)
		w, _ := json.Marshal(want)
		t.Errorf("got body\n\t%s\nwant\n\t%s", g, w)
	}
}

// union returns the union of two environments, b's value where both set one.
func union(a, b map[string]string) map[string]string {
	env := map[string]string{}
	for k, v := range a {
		env[k] = v
	}
	for k, v := range b {
		env[k] = v
	}
	return env
}
