package lambdaenv

import (
	"strings"
	"testing"
)

func TestConfigFrom(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string // "" when valid
	}{
		{"valid", map[string]string{"TABLE_NAME": "doorstep", "SITE_URL": "https://book.example.com"}, ""},
		{"valid with an endpoint", map[string]string{"TABLE_NAME": "t", "SITE_URL": "http://127.0.0.1:8080", "DYNAMODB_ENDPOINT": "http://127.0.0.1:8000"}, ""},
		{"nothing set", map[string]string{}, "TABLE_NAME"},
		{"no table", map[string]string{"SITE_URL": "https://book.example.com"}, "TABLE_NAME"},
		{"no site", map[string]string{"TABLE_NAME": "t"}, "SITE_URL"},
		{"site with a trailing slash", map[string]string{"TABLE_NAME": "t", "SITE_URL": "https://book.example.com/"}, "SITE_URL"},
		{"site without scheme", map[string]string{"TABLE_NAME": "t", "SITE_URL": "book.example.com"}, "SITE_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ConfigFrom(func(k string) string { return tt.env[k] })
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got %v, want an error naming %s", err, tt.wantErr)
			}
		})
	}
}

// TestConfigPayments: PAYMENTS=simulated (a stack without Stripe) has
// every deposit simulated; stripe or unset leaves them as the businesses
// file says; anything else stops the function at start.
func TestConfigPayments(t *testing.T) {
	tests := []struct {
		payments string
		want     bool
		wantErr  bool
	}{
		{"", false, false},
		{"stripe", false, false},
		{"simulated", true, false},
		{" simulated ", true, false},
		{"off", false, true},
		{"Simulated", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.payments, func(t *testing.T) {
			env := map[string]string{"TABLE_NAME": "t", "SITE_URL": "https://book.example.com", "PAYMENTS": tt.payments}
			c, err := ConfigFrom(func(k string) string { return env[k] })
			if (err != nil) != tt.wantErr || (err == nil && c.SimulateDeposits != tt.want) {
				t.Errorf("got %v, %v; want simulate %v, error %v", c.SimulateDeposits, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestTableConfigFrom: a function that builds no URLs needs TABLE_NAME
// only; SITE_URL is neither required nor checked.
// TestConfigTextsOff: without SMS_ORIGINATION_IDENTITY the stack sends no
// texts, and the functions that say who is written to know it.
func TestConfigTextsOff(t *testing.T) {
	tests := []struct {
		name, identity string
		want           bool
	}{
		{"unset", "", true},
		{"spaces", "  ", true},
		{"a phone number", "+18005550199", false},
		{"a pool", "pool-0123456789abcdef", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"TABLE_NAME": "t", "SITE_URL": "https://book.example.com", "SMS_ORIGINATION_IDENTITY": tt.identity}
			c, err := ConfigFrom(func(k string) string { return env[k] })
			if err != nil || c.TextsOff != tt.want {
				t.Errorf("got TextsOff %v, %v; want %v, nil", c.TextsOff, err, tt.want)
			}
		})
	}
}

func TestTableConfigFrom(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Config
		wantErr string // "" when valid
	}{
		{"table", map[string]string{"TABLE_NAME": "doorstep"}, Config{TableName: "doorstep"}, ""},
		{"table and endpoint", map[string]string{"TABLE_NAME": " t ", "DYNAMODB_ENDPOINT": " http://127.0.0.1:8000 "},
			Config{TableName: "t", DynamoDBEndpoint: "http://127.0.0.1:8000"}, ""},
		{"a bad site is not read", map[string]string{"TABLE_NAME": "t", "SITE_URL": "book.example.com/"}, Config{TableName: "t"}, ""},
		{"nothing set", map[string]string{}, Config{}, "TABLE_NAME"},
		{"table of spaces", map[string]string{"TABLE_NAME": "  ", "SITE_URL": "https://book.example.com"}, Config{}, "TABLE_NAME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := TableConfigFrom(func(k string) string { return tt.env[k] })
			if tt.wantErr == "" {
				if err != nil || c != tt.want {
					t.Fatalf("got %+v, %v; want %+v", c, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got %v, want an error naming %s", err, tt.wantErr)
			}
		})
	}
}
