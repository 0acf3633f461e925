package smstext_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/pinpointsmsvoicev2"

	"github.com/doorstep/doorstep/pkg/awsenv"
	"github.com/doorstep/doorstep/pkg/awsenv/awsenvtest"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/smstext"
)

// jsonOne is how End User Messaging SMS answers: AWS JSON 1.0.
var jsonOne = map[string]string{"Content-Type": "application/x-amz-json-1.0"}

func sender(t *testing.T, endpoint string) *smstext.Sender {
	t.Helper()
	env := map[string]string{smstext.EndpointVariable: endpoint, "AWS_REGION": "us-east-1"}
	client, err := smstext.NewClient(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return smstext.New(client, "+18005550199")
}

var message = notify.Message{
	ID: "7K3M-Q9TD-2HXA#1/confirmed/person/sms", Kind: notify.KindConfirmed, Audience: notify.AudiencePerson,
	Channel: notify.ChannelSMS, To: "+13125550147", Language: "en",
	Body: "Lakeview Plumbing confirmed your visit: Mon, Nov 23, 10:00 AM-12:00 PM CST. Status: https://book.example.com/r/7K3M-Q9TD-2HXA Reply STOP to opt out",
}

func TestSendText(t *testing.T) {
	url, calls := awsenvtest.Endpoint(t, http.StatusOK, jsonOne, `{"MessageId":"6ad0d3b1-0000-4e6f-8f3a-000000000000"}`)
	if err := sender(t, url).SendText(context.Background(), message); err != nil {
		t.Fatal(err)
	}
	got := calls()
	if len(got) != 1 {
		t.Fatalf("got %d calls, want 1", len(got))
	}
	c := got[0]
	if c.Method != http.MethodPost || c.Path != "/" || c.Target != "PinpointSMSVoiceV2.SendTextMessage" || c.ContentType != "application/x-amz-json-1.0" {
		t.Errorf("got %s %s target %q (%s), want POST / PinpointSMSVoiceV2.SendTextMessage (application/x-amz-json-1.0)",
			c.Method, c.Path, c.Target, c.ContentType)
	}
	if !strings.Contains(c.Auth, "/us-east-1/sms-voice/aws4_request") {
		t.Errorf("got Authorization %q, want SigV4 for sms-voice in us-east-1", c.Auth)
	}
	want := map[string]any{
		"DestinationPhoneNumber": "+13125550147",
		"OriginationIdentity":    "+18005550199",
		"MessageBody":            message.Body,
		"MessageType":            "TRANSACTIONAL",
	}
	if !reflect.DeepEqual(c.Body, want) {
		g, _ := json.Marshal(c.Body)
		w, _ := json.Marshal(want)
		t.Errorf("got body\n\t%s\nwant\n\t%s", g, w)
	}
}

func TestSendTextErrors(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		body        string
		wantOptOut  bool
		wantInError string
	}{
		{
			"the number opted out", http.StatusBadRequest,
			`{"__type":"ConflictException","Message":"The destination phone number has opted out.","Reason":"DESTINATION_PHONE_NUMBER_OPTED_OUT","ResourceType":"opt-out-list","ResourceId":"Default"}`,
			true, "opted out",
		},
		{
			"another conflict", http.StatusBadRequest,
			`{"__type":"ConflictException","Message":"The destination is not verified.","Reason":"DESTINATION_PHONE_NUMBER_NOT_VERIFIED","ResourceType":"verified-destination-number","ResourceId":"+13125550147"}`,
			false, "ConflictException",
		},
		{
			"an invalid request", http.StatusBadRequest,
			`{"__type":"ValidationException","Message":"Invalid phone number","Reason":"INVALID_PARAMETER"}`,
			false, "ValidationException",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, calls := awsenvtest.Endpoint(t, tt.status, jsonOne, tt.body)
			err := sender(t, url).SendText(context.Background(), message)
			if err == nil || errors.Is(err, notify.ErrOptedOut) != tt.wantOptOut || !strings.Contains(err.Error(), tt.wantInError) {
				t.Fatalf("got %v, want an error with %q, opted out: %v", err, tt.wantInError, tt.wantOptOut)
			}
			if n := len(calls()); n != 1 {
				t.Errorf("got %d calls, want 1", n)
			}
		})
	}
}

func TestNewClient(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr bool
	}{
		{"Lambda's credentials", map[string]string{"AWS_REGION": "us-east-2", "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret"}, false},
		{"an endpoint without credentials", map[string]string{smstext.EndpointVariable: "http://127.0.0.1:4566"}, false},
		{"no credentials", map[string]string{"AWS_REGION": "us-east-2"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, err := smstext.NewClient(func(k string) string { return tt.env[k] })
			if (err != nil) != tt.wantErr || (client == nil) != tt.wantErr {
				t.Fatalf("got %v, %v, want an error: %v", client, err, tt.wantErr)
			}
		})
	}
}

// TestNewClientEndpoint checks that a client built from an environment that
// configures an endpoint, as the SDK's config package reads it, sends there.
func TestNewClientEndpoint(t *testing.T) {
	if got, want := smstext.EndpointVariable, awsenv.EndpointVariable(pinpointsmsvoicev2.ServiceID); got != want {
		t.Errorf("EndpointVariable = %q, the SDK's is %q", got, want)
	}
	const answer = `{"MessageId":"6ad0d3b1-0000-4e6f-8f3a-000000000000"}`
	sms, smsCalls := awsenvtest.Endpoint(t, http.StatusOK, jsonOne, answer)
	all, allCalls := awsenvtest.Endpoint(t, http.StatusOK, jsonOne, answer)
	keys := map[string]string{"AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret"}
	tests := []struct {
		name    string
		env     map[string]string
		want    string // "sms", "all", or "" for the service itself (nothing is sent)
		wantErr bool
	}{
		{"the service's variable", map[string]string{smstext.EndpointVariable: sms}, "sms", false},
		{"AWS_ENDPOINT_URL", map[string]string{"AWS_ENDPOINT_URL": all}, "all", false},
		{"the service's variable wins", map[string]string{smstext.EndpointVariable: sms, "AWS_ENDPOINT_URL": all}, "sms", false},
		{"ignored: the service itself", with(keys, map[string]string{smstext.EndpointVariable: sms,
			"AWS_ENDPOINT_URL": all, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}), "", false},
		{"ignored, without credentials: an error at start", map[string]string{smstext.EndpointVariable: sms,
			"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}, "", true},
		{"an invalid ignore flag: an error at start", map[string]string{smstext.EndpointVariable: sms,
			"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "1"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, err := smstext.NewClient(func(k string) string { return tt.env[k] })
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewClient() error %v, want one: %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if tt.want == "" {
				if e := client.Options().BaseEndpoint; e != nil {
					t.Errorf("BaseEndpoint = %q, want none (the service itself)", *e)
				}
				return
			}
			smsBefore, allBefore := len(smsCalls()), len(allCalls())
			if err := smstext.New(client, "+18005550199").SendText(context.Background(), message); err != nil {
				t.Fatal(err)
			}
			got := map[string]int{"sms": len(smsCalls()) - smsBefore, "all": len(allCalls()) - allBefore}
			if want := map[string]int{"sms": 0, "all": 0, tt.want: 1}; !reflect.DeepEqual(got, want) {
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
