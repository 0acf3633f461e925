package dynamo_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/truora/minidyn/server"

	"github.com/doorstep/doorstep/pkg/dynamo"
)

// hermetic clears the AWS settings of the environment for the test.
func hermetic(t *testing.T) {
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/none")
	for _, v := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION",
		"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"} {
		t.Setenv(v, "")
	}
}

func TestNewClient(t *testing.T) {
	tests := []struct {
		name         string
		endpoint     string
		env          map[string]string
		wantRegion   string
		wantEndpoint string
		wantKey      string // "" when the credentials are not looked at
		wantErr      bool
	}{
		{name: "AWS, as Lambda sets it", env: map[string]string{"AWS_REGION": "eu-west-1",
			"AWS_ACCESS_KEY_ID": "ASIAROLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "token"},
			wantRegion: "eu-west-1", wantKey: "ASIAROLE"},
		{name: "AWS, default region", env: map[string]string{"AWS_ACCESS_KEY_ID": "ASIAROLE", "AWS_SECRET_ACCESS_KEY": "secret"},
			wantRegion: "us-east-1", wantKey: "ASIAROLE"},
		{name: "AWS, AWS_DEFAULT_REGION", env: map[string]string{"AWS_DEFAULT_REGION": "ap-south-1",
			"AWS_ACCESS_KEY_ID": "ASIAROLE", "AWS_SECRET_ACCESS_KEY": "secret"}, wantRegion: "ap-south-1", wantKey: "ASIAROLE"},
		{name: "AWS without credentials fails at start", wantErr: true},
		{name: "local engine", endpoint: "http://127.0.0.1:8000",
			wantRegion: "us-east-1", wantEndpoint: "http://127.0.0.1:8000", wantKey: "doorstep"},
		{name: "local engine, keys set", endpoint: "http://127.0.0.1:8000",
			env:        map[string]string{"AWS_ACCESS_KEY_ID": "mykey", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "us-west-2"},
			wantRegion: "us-west-2", wantEndpoint: "http://127.0.0.1:8000", wantKey: "mykey"},
		// Without an endpoint in code, the environment's, as the SDK's
		// config package reads it (awsenv.Endpoint).
		{name: "AWS_ENDPOINT_URL_DYNAMODB", env: map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8001"},
			wantRegion: "us-east-1", wantEndpoint: "http://127.0.0.1:8001", wantKey: "doorstep"},
		{name: "AWS_ENDPOINT_URL", env: map[string]string{"AWS_ENDPOINT_URL": "http://127.0.0.1:8002"},
			wantRegion: "us-east-1", wantEndpoint: "http://127.0.0.1:8002", wantKey: "doorstep"},
		{name: "DynamoDB's variable wins over AWS_ENDPOINT_URL",
			env:        map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8001", "AWS_ENDPOINT_URL": "http://127.0.0.1:8002"},
			wantRegion: "us-east-1", wantEndpoint: "http://127.0.0.1:8001", wantKey: "doorstep"},
		{name: "the endpoint in code (DYNAMODB_ENDPOINT) wins over the environment's", endpoint: "http://127.0.0.1:8000",
			env:        map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8001", "AWS_ENDPOINT_URL": "http://127.0.0.1:8002"},
			wantRegion: "us-east-1", wantEndpoint: "http://127.0.0.1:8000", wantKey: "doorstep"},
		{name: "the environment's ignored: AWS, so credentials are needed",
			env:     map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8001", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"},
			wantErr: true},
		{name: "the environment's ignored, with credentials", env: map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8001",
			"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true", "AWS_ACCESS_KEY_ID": "ASIAROLE", "AWS_SECRET_ACCESS_KEY": "secret"},
			wantRegion: "us-east-1", wantKey: "ASIAROLE"},
		{name: "an invalid ignore flag fails at start",
			env:     map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8001", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "yes"},
			wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hermetic(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			client, err := dynamo.NewClient(context.Background(), tt.endpoint)
			if tt.wantErr {
				if err == nil {
					t.Fatal("NewClient() = nil error, want one")
				}
				return
			}
			if err != nil {
				t.Fatalf("NewClient() = %v", err)
			}
			o := client.Options()
			if o.Region != tt.wantRegion {
				t.Errorf("Region = %q, want %q", o.Region, tt.wantRegion)
			}
			if got := aws.ToString(o.BaseEndpoint); got != tt.wantEndpoint {
				t.Errorf("BaseEndpoint = %q, want %q", got, tt.wantEndpoint)
			}
			if got, want := o.DisableValidateResponseChecksum, tt.wantEndpoint != ""; got != want {
				t.Errorf("DisableValidateResponseChecksum = %v, want %v", got, want)
			}
			if tt.wantKey != "" {
				creds, err := o.Credentials.Retrieve(context.Background())
				if err != nil || creds.AccessKeyID != tt.wantKey {
					t.Errorf("credentials = %q, %v, want %q", creds.AccessKeyID, err, tt.wantKey)
				}
			}
		})
	}
}

// TestNewClientLocal uses a client from NewClient on minidyn, and checks that
// CreateTable accepts an existing table.
func TestNewClientLocal(t *testing.T) {
	hermetic(t)
	srv := httptest.NewServer(server.NewServer())
	t.Cleanup(srv.Close)
	ctx := context.Background()
	client, err := dynamo.NewClient(ctx, srv.URL)
	if err != nil {
		t.Fatalf("NewClient() = %v", err)
	}
	for range 2 {
		if err := dynamo.CreateTable(ctx, client, "doorstep"); err != nil {
			t.Fatalf("CreateTable() = %v", err)
		}
	}
	if _, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("doorstep")}); err != nil {
		t.Errorf("DescribeTable() = %v", err)
	}
	if err := dynamo.New(client, "doorstep").PutBusiness(ctx, loadBusiness(t)); err != nil {
		t.Errorf("PutBusiness() = %v", err)
	}
}

// TestNewClientEndpointVariable checks that a client built from an
// environment that sets AWS_ENDPOINT_URL_DYNAMODB, and no endpoint in code,
// really talks to that address.
func TestNewClientEndpointVariable(t *testing.T) {
	hermetic(t)
	srv := httptest.NewServer(server.NewServer())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", srv.URL)
	ctx := context.Background()
	client, err := dynamo.NewClient(ctx, "")
	if err != nil {
		t.Fatalf("NewClient() = %v", err)
	}
	if err := dynamo.CreateTable(ctx, client, "doorstep"); err != nil {
		t.Fatalf("CreateTable() = %v", err)
	}
	if _, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("doorstep")}); err != nil {
		t.Errorf("DescribeTable() = %v", err)
	}
}

func TestCreateTableTwice(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		if err := dynamo.CreateTable(context.Background(), e.client, e.table); err != nil {
			t.Errorf("CreateTable(existing table) = %v, want nil", err)
		}
	})
}
