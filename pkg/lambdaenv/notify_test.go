package lambdaenv

import (
	"strings"
	"testing"
)

func TestNotifyConfigFrom(t *testing.T) {
	valid := map[string]string{
		"TABLE_NAME": "doorstep", "SITE_URL": "https://book.example.com", "SENDER_EMAIL": "notify@book.example.com",
	}
	with := func(k, v string) map[string]string {
		env := map[string]string{}
		for key, value := range valid {
			env[key] = value
		}
		env[k] = v
		return env
	}
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string // "" when valid
	}{
		{"e-mail only", valid, ""},
		{"texts and a preview inbox", with("SMS_ORIGINATION_IDENTITY", "+18005550199"), ""},
		{"a preview inbox", with("PREVIEW_INBOX_EMAIL", "preview@book.example.com"), ""},
		{"no sender", with("SENDER_EMAIL", ""), "SENDER_EMAIL"},
		{"a sender with a display name", with("SENDER_EMAIL", "Doorstep <notify@book.example.com>"), "SENDER_EMAIL"},
		{"a preview inbox that is no address", with("PREVIEW_INBOX_EMAIL", "preview"), "PREVIEW_INBOX_EMAIL"},
		{"a configuration set", with("SES_CONFIGURATION_SET", "doorstep-mail_1"), ""},
		{"a configuration set SES would refuse", with("SES_CONFIGURATION_SET", "doorstep mail"), "SES_CONFIGURATION_SET"},
		{"no table", with("TABLE_NAME", ""), "TABLE_NAME"},
		{"no site", with("SITE_URL", ""), "SITE_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NotifyConfigFrom(func(k string) string { return tt.env[k] })
			if tt.wantErr == "" {
				if err != nil || c.SenderEmail != tt.env["SENDER_EMAIL"] || c.SMSOriginationIdentity != tt.env["SMS_ORIGINATION_IDENTITY"] ||
					c.PreviewInboxEmail != tt.env["PREVIEW_INBOX_EMAIL"] || c.ConfigurationSet != tt.env["SES_CONFIGURATION_SET"] || c.TableName != tt.env["TABLE_NAME"] {
					t.Fatalf("got %+v, %v, want the environment's values", c, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got %v, want an error naming %s", err, tt.wantErr)
			}
		})
	}
}
