package awsenv_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/pinpointsmsvoicev2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/doorstep/doorstep/pkg/awsenv"
)

func TestEndpointVariable(t *testing.T) {
	tests := []struct{ serviceID, want string }{
		{sesv2.ServiceID, "AWS_ENDPOINT_URL_SESV2"},
		{pinpointsmsvoicev2.ServiceID, "AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2"},
		{dynamodb.ServiceID, "AWS_ENDPOINT_URL_DYNAMODB"},
	}
	for _, tt := range tests {
		if got := awsenv.EndpointVariable(tt.serviceID); got != tt.want {
			t.Errorf("EndpointVariable(%q) = %q, want %q", tt.serviceID, got, tt.want)
		}
	}
}

const (
	sms    = "AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2"
	global = "AWS_ENDPOINT_URL"
	ignore = "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"
)

// endpointTests are the rules of Endpoint, for End User Messaging SMS (a
// ServiceID with spaces).
var endpointTests = []struct {
	name    string
	env     map[string]string
	want    string
	wantErr bool
}{
	{"nothing set: the service's own", nil, "", false},
	{"the service's variable", map[string]string{sms: "http://sms:1"}, "http://sms:1", false},
	{"the global variable", map[string]string{global: "http://all:2"}, "http://all:2", false},
	{"the service's wins over the global", map[string]string{sms: "http://sms:1", global: "http://all:2"}, "http://sms:1", false},
	{"an empty service variable is unset", map[string]string{sms: "", global: "http://all:2"}, "http://all:2", false},
	{"another service's variable is not read", map[string]string{"AWS_ENDPOINT_URL_SESV2": "http://ses:3"}, "", false},
	{"ignored", map[string]string{sms: "http://sms:1", global: "http://all:2", ignore: "true"}, "", false},
	{"ignored, any case", map[string]string{sms: "http://sms:1", ignore: "TRUE"}, "", false},
	{"not ignored", map[string]string{sms: "http://sms:1", ignore: "false"}, "http://sms:1", false},
	{"an invalid ignore flag fails", map[string]string{sms: "http://sms:1", ignore: "yes"}, "", true},
}

func TestEndpoint(t *testing.T) {
	for _, tt := range endpointTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := awsenv.Endpoint(func(k string) string { return tt.env[k] }, pinpointsmsvoicev2.ServiceID)
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("Endpoint() = %q, %v; want %q (an error: %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestEndpointAsTheSDK checks Endpoint against the SDK's own resolution:
// the endpoint a client built by the config package from the same
// environment gets.
func TestEndpointAsTheSDK(t *testing.T) {
	for _, tt := range endpointTests {
		t.Run(tt.name, func(t *testing.T) {
			none := filepath.Join(t.TempDir(), "none")
			t.Setenv("AWS_CONFIG_FILE", none)
			t.Setenv("AWS_SHARED_CREDENTIALS_FILE", none)
			for _, k := range []string{sms, global, ignore, "AWS_ENDPOINT_URL_SESV2"} {
				t.Setenv(k, tt.env[k])
				if _, set := tt.env[k]; !set {
					os.Unsetenv(k) // t.Setenv restores it after the test
				}
			}
			cfg, sdkErr := config.LoadDefaultConfig(context.Background(), config.WithRegion("us-east-1"))
			got, err := awsenv.Endpoint(os.Getenv, pinpointsmsvoicev2.ServiceID)
			if (err != nil) != (sdkErr != nil) {
				t.Fatalf("Endpoint() error %v, the SDK's %v", err, sdkErr)
			}
			if sdkErr != nil {
				return
			}
			want := aws.ToString(pinpointsmsvoicev2.NewFromConfig(cfg).Options().BaseEndpoint)
			if got != want {
				t.Errorf("Endpoint() = %q, the SDK's %q", got, want)
			}
		})
	}
}
