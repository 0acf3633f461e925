package awsenv_test

import (
	"context"
	"testing"

	"github.com/doorstep/doorstep/pkg/awsenv"
)

func TestConfig(t *testing.T) {
	tests := []struct {
		name       string
		env        map[string]string
		local      bool
		wantRegion string
		wantKey    string
		wantErr    bool
	}{
		{"as Lambda sets it", map[string]string{"AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "ASIAROLE",
			"AWS_SECRET_ACCESS_KEY": "s", "AWS_SESSION_TOKEN": "t"}, false, "eu-west-1", "ASIAROLE", false},
		{"AWS_DEFAULT_REGION", map[string]string{"AWS_DEFAULT_REGION": "ap-south-1", "AWS_ACCESS_KEY_ID": "A",
			"AWS_SECRET_ACCESS_KEY": "s"}, false, "ap-south-1", "A", false},
		{"no region", map[string]string{"AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "s"}, false, "us-east-1", "A", false},
		{"local, no credentials: fake ones", nil, true, "us-east-1", "doorstep", false},
		{"local, credentials set: those", map[string]string{"AWS_ACCESS_KEY_ID": "mine", "AWS_SECRET_ACCESS_KEY": "s"}, true, "us-east-1", "mine", false},
		{"AWS without credentials fails at start", nil, false, "", "", true},
		{"a key without its secret fails too", map[string]string{"AWS_ACCESS_KEY_ID": "A"}, false, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := awsenv.Config(context.Background(), func(k string) string { return tt.env[k] }, "test", tt.local)
			if tt.wantErr {
				if err == nil {
					t.Fatal("got nil error, want one")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			creds, err := cfg.Credentials.Retrieve(context.Background())
			if cfg.Region != tt.wantRegion || err != nil || creds.AccessKeyID != tt.wantKey {
				t.Errorf("got region %q, key %q (%v); want %q, %q", cfg.Region, creds.AccessKeyID, err, tt.wantRegion, tt.wantKey)
			}
		})
	}
}
