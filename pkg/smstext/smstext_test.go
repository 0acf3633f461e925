package smstext_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/pinpointsmsvoicev2"

	"github.com/doorstep/doorstep/pkg/awsenv/awsenvtest"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/smstext"
)

// jsonOne is how End User Messaging SMS answers: AWS JSON 1.0.
var jsonOne = map[string]string{"Content-Type": "application/x-amz-json-1.0"}

func sender(t *testing.T, endpoint string) *smstext.Sender {
	t.Helper()
	env := map[string]string{smstext.EndpointVariable: endpoint, "AWS_REGION": "us-east-1"}
	client, err := smstext.NewClient(context.Background(), func(k string) string { return env[k] })
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
	c := awsenvtest.Only(t, calls)
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
	awsenvtest.CheckBody(t, c, want)
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

var adapter = awsenvtest.Adapter[pinpointsmsvoicev2.Client]{
	Service: "the service", ServiceID: pinpointsmsvoicev2.ServiceID, Variable: smstext.EndpointVariable,
	NewClient: func(getenv func(string) string) (*pinpointsmsvoicev2.Client, error) {
		return smstext.NewClient(context.Background(), getenv)
	},
	BaseEndpoint: func(c *pinpointsmsvoicev2.Client) *string { return c.Options().BaseEndpoint },
	Send: func(c *pinpointsmsvoicev2.Client) error {
		return smstext.New(c, "+18005550199").SendText(context.Background(), message)
	},
	Header: jsonOne, Answer: `{"MessageId":"6ad0d3b1-0000-4e6f-8f3a-000000000000"}`,
}

func TestNewClient(t *testing.T) { awsenvtest.CheckNewClient(t, adapter) }

// TestNewClientEndpoint checks that a client built from an environment that
// configures an endpoint, as the SDK's config package reads it, sends there.
func TestNewClientEndpoint(t *testing.T) { awsenvtest.CheckEndpoints(t, adapter) }
