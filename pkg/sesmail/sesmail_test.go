package sesmail_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/doorstep/doorstep/pkg/awsenv"
	"github.com/doorstep/doorstep/pkg/awsenv/awsenvtest"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/sesmail"
)

func sender(t *testing.T, endpoint string) *sesmail.Sender {
	t.Helper()
	env := map[string]string{sesmail.EndpointVariable: endpoint, "AWS_REGION": "us-west-2"}
	client, err := sesmail.NewClient(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return sesmail.New(client, "notify@book.example.com")
}

var message = notify.Message{
	ID: "7K3M-Q9TD-2HXA#1/confirmed/person/email", Kind: notify.KindConfirmed, Audience: notify.AudiencePerson,
	Channel: notify.ChannelEmail, To: "ana@example.com", Language: "es",
	Subject: "Confirmada: Lakeview Plumbing, lun 23 nov, 10:00-12:00 CST",
	Body:    "Hola, Ana Ruiz:\n\nLakeview Plumbing aceptó tu solicitud.\n",
}

func TestSendEmail(t *testing.T) {
	url, calls := awsenvtest.Endpoint(t, http.StatusOK, nil, `{"MessageId":"010001ef-0000-4e6f-8f3a-000000000000-000000"}`)
	if err := sender(t, url).SendEmail(context.Background(), message); err != nil {
		t.Fatal(err)
	}
	got := calls()
	if len(got) != 1 {
		t.Fatalf("got %d calls, want 1", len(got))
	}
	c := got[0]
	if c.Method != http.MethodPost || c.Path != "/v2/email/outbound-emails" || c.ContentType != "application/json" {
		t.Errorf("got %s %s (%s), want POST /v2/email/outbound-emails (application/json): SendEmail", c.Method, c.Path, c.ContentType)
	}
	if !strings.Contains(c.Auth, "/us-west-2/ses/aws4_request") {
		t.Errorf("got Authorization %q, want SigV4 for ses in us-west-2", c.Auth)
	}
	want := map[string]any{
		"FromEmailAddress": "notify@book.example.com",
		"Destination":      map[string]any{"ToAddresses": []any{"ana@example.com"}},
		"Content": map[string]any{"Simple": map[string]any{
			"Subject": map[string]any{"Data": message.Subject, "Charset": "UTF-8"},
			"Body":    map[string]any{"Text": map[string]any{"Data": message.Body, "Charset": "UTF-8"}},
		}},
	}
	if !reflect.DeepEqual(c.Body, want) {
		g, _ := json.Marshal(c.Body)
		w, _ := json.Marshal(want)
		t.Errorf("got body\n\t%s\nwant\n\t%s", g, w)
	}
}

func TestSendEmailRejected(t *testing.T) {
	url, calls := awsenvtest.Endpoint(t, http.StatusBadRequest, map[string]string{"X-Amzn-ErrorType": "MessageRejected"},
		`{"message":"Email address is not verified. The following identities failed the check in region US-WEST-2: ana@example.com"}`)
	err := sender(t, url).SendEmail(context.Background(), message)
	if err == nil || !strings.Contains(err.Error(), "MessageRejected") {
		t.Fatalf("got %v, want the MessageRejected error", err)
	}
	if errors.Is(err, notify.ErrOptedOut) {
		t.Errorf("got %v as an opt-out, want a plain failure", err)
	}
	if n := len(calls()); n != 1 {
		t.Errorf("got %d calls, want 1: a rejected message is not retried by the SDK", n)
	}
}

func TestNewClient(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr bool
	}{
		{"Lambda's credentials", map[string]string{"AWS_REGION": "us-east-2", "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "token"}, false},
		{"an endpoint without credentials", map[string]string{sesmail.EndpointVariable: "http://127.0.0.1:4566"}, false},
		{"no credentials", map[string]string{"AWS_REGION": "us-east-2"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, err := sesmail.NewClient(func(k string) string { return tt.env[k] })
			if (err != nil) != tt.wantErr || (client == nil) != tt.wantErr {
				t.Fatalf("got %v, %v, want an error: %v", client, err, tt.wantErr)
			}
		})
	}
}

// TestNewClientEndpoint checks that a client built from an environment that
// configures an endpoint, as the SDK's config package reads it, sends there.
func TestNewClientEndpoint(t *testing.T) {
	if got, want := sesmail.EndpointVariable, awsenv.EndpointVariable(sesv2.ServiceID); got != want {
		t.Errorf("EndpointVariable = %q, the SDK's is %q", got, want)
	}
	const answer = `{"MessageId":"010001ef-0000-4e6f-8f3a-000000000000-000000"}`
	ses, sesCalls := awsenvtest.Endpoint(t, http.StatusOK, nil, answer)
	all, allCalls := awsenvtest.Endpoint(t, http.StatusOK, nil, answer)
	keys := map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret"}
	tests := []struct {
		name    string
		env     map[string]string
		want    string // "ses", "all", or "" for SES itself (nothing is sent)
		wantErr bool
	}{
		{"SES's variable", map[string]string{sesmail.EndpointVariable: ses}, "ses", false},
		{"AWS_ENDPOINT_URL", map[string]string{"AWS_ENDPOINT_URL": all}, "all", false},
		{"SES's variable wins", map[string]string{sesmail.EndpointVariable: ses, "AWS_ENDPOINT_URL": all}, "ses", false},
		{"ignored: SES itself", with(keys, map[string]string{sesmail.EndpointVariable: ses,
			"AWS_ENDPOINT_URL": all, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}), "", false},
		{"ignored, without credentials: an error at start", map[string]string{sesmail.EndpointVariable: ses,
			"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}, "", true},
		{"an invalid ignore flag: an error at start", map[string]string{sesmail.EndpointVariable: ses,
			"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "1"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, err := sesmail.NewClient(func(k string) string { return tt.env[k] })
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewClient() error %v, want one: %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if tt.want == "" {
				if e := client.Options().BaseEndpoint; e != nil {
					t.Errorf("BaseEndpoint = %q, want none (SES itself)", *e)
				}
				return
			}
			sesBefore, allBefore := len(sesCalls()), len(allCalls())
			if err := sesmail.New(client, "notify@book.example.com").SendEmail(context.Background(), message); err != nil {
				t.Fatal(err)
			}
			got := map[string]int{"ses": len(sesCalls()) - sesBefore, "all": len(allCalls()) - allBefore}
			if want := map[string]int{"ses": 0, "all": 0, tt.want: 1}; !reflect.DeepEqual(got, want) {
				t.Errorf("calls per endpoint: got %v, want %v", got, want)
			}
		})
	}
}

// with returns the union of two environments.
func with(a, b map[string]string) map[string]string {
	env := map[string]string{}
	for k, v := range a {
		env[k] = v
	}
	for k, v := range b {
		env[k] = v
	}
	return env
}
