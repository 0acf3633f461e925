package secretenv_test

import (
	"context"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/secretenv"
	"github.com/doorstep/doorstep/pkg/stripepay/stripetest"
)

func TestRegion(t *testing.T) {
	tests := []struct {
		arn, want string
		wantOK    bool
	}{
		{"arn:aws:secretsmanager:eu-west-1:123456789012:secret:doorstep/form-key-AbCdEf", "eu-west-1", true},
		{"arn:aws:secretsmanager::123456789012:secret:x", "", false},
		{"arn:aws:s3:eu-west-1:123456789012:secret:x", "", false},
		{"doorstep/form-key", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.arn, func(t *testing.T) {
			got, ok := secretenv.Region(tt.arn)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("got %q %v, want %q %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// TestRead reads a secret from a local Secrets Manager, signed with the
// environment's credentials; another secret's ARN is an error.
func TestRead(t *testing.T) {
	const arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep/form-key-AbCdEf"
	env := map[string]string{
		"AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "doorstep", "AWS_SECRET_ACCESS_KEY": "doorstep",
		"SECRETS_MANAGER_ENDPOINT": stripetest.SecretsManager(t, arn, "the-secret"),
	}
	getenv := func(k string) string { return env[k] }
	got, err := secretenv.Read(context.Background(), getenv, arn)
	if err != nil || got != "the-secret" {
		t.Fatalf("got %q, %v; want the secret", got, err)
	}
	if _, err := secretenv.Read(context.Background(), getenv, strings.Replace(arn, "form-key", "other", 1)); err == nil {
		t.Error("another secret: got no error")
	}
	if _, err := secretenv.Read(context.Background(), getenv, "not-an-arn"); err == nil {
		t.Error("no ARN: got no error")
	}
}
