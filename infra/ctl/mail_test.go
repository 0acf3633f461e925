package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fakeSES is a stand-in for SES v2's endpoint: GetEmailIdentity of one
// identity, and GetAccount, answering the JSON SES would.
func fakeSES(t *testing.T, identity string, id, account map[string]any) (url string, calls *[]string) {
	t.Helper()
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Method+" "+r.URL.Path)
		if !strings.Contains(r.Header.Get("Authorization"), "/ses/aws4_request") {
			t.Errorf("%s: Authorization %q, want SigV4 for ses", r.URL.Path, r.Header.Get("Authorization"))
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v2/email/identities/" + identity:
			json.NewEncoder(w).Encode(id)
		case "/v2/email/account":
			json.NewEncoder(w).Encode(account)
		default:
			w.Header().Set("X-Amzn-ErrorType", "NotFoundException")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message":"Email identity ` + strings.TrimPrefix(r.URL.Path, "/v2/email/identities/") + ` does not exist."}`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &seen
}

// A domain set up as the stack's SenderDomain makes it, in production.
func readyIdentity() map[string]any {
	return map[string]any{
		"IdentityType": "DOMAIN", "VerifiedForSendingStatus": true, "VerificationStatus": "SUCCESS",
		"ConfigurationSetName": "doorstep-mail",
		"DkimAttributes": map[string]any{"SigningEnabled": true, "Status": "SUCCESS", "CurrentSigningKeyLength": "RSA_2048_BIT",
			"SigningAttributesOrigin": "AWS_SES", "Tokens": []string{"a", "b", "c"}},
		"MailFromAttributes": map[string]any{"MailFromDomain": "mail.book.example.com", "MailFromDomainStatus": "SUCCESS", "BehaviorOnMxFailure": "USE_DEFAULT_VALUE"},
	}
}

func readyAccount() map[string]any {
	return map[string]any{
		"SendingEnabled": true, "ProductionAccessEnabled": true, "EnforcementStatus": "HEALTHY",
		"SuppressionAttributes": map[string]any{"SuppressedReasons": []string{"BOUNCE", "COMPLAINT"}},
	}
}

func TestMailCheck(t *testing.T) {
	const domain = "book.example.com"
	dmarc := func(_ context.Context, name string) ([]string, error) {
		if name != "_dmarc."+domain {
			return nil, errors.New("no such host")
		}
		return []string{"v=DMARC1; p=none; rua=mailto:dmarc@book.example.com"}, nil
	}
	noDMARC := func(context.Context, string) ([]string, error) { return nil, errors.New("no such host") }
	tests := []struct {
		name     string
		identity func(map[string]any)
		account  func(map[string]any)
		txt      func(context.Context, string) ([]string, error)
		wantCode int
		missing  []string // the checks reported MISSING
	}{
		{"all set", nil, nil, dmarc, 0, nil},
		{"DNS not yet added", func(id map[string]any) {
			id["VerifiedForSendingStatus"], id["VerificationStatus"] = false, "PENDING"
			id["DkimAttributes"].(map[string]any)["Status"] = "PENDING"
			id["MailFromAttributes"].(map[string]any)["MailFromDomainStatus"] = "PENDING"
		}, nil, noDMARC, 1, []string{"verified (PENDING)", "DKIM signing (PENDING)", "custom MAIL FROM mail.book.example.com (PENDING)", "DMARC record (lookup: no such host)"}},
		{"in the sandbox, sending paused, no suppression list", nil, func(a map[string]any) {
			a["ProductionAccessEnabled"], a["SendingEnabled"] = false, false
			delete(a, "SuppressionAttributes")
		}, dmarc, 1, []string{"sending enabled", "production access", "account-level suppression list on bounces and complaints (none)"}},
		{"a 1024-bit key, no MAIL FROM", func(id map[string]any) {
			id["DkimAttributes"].(map[string]any)["CurrentSigningKeyLength"] = "RSA_1024_BIT"
			delete(id, "MailFromAttributes")
		}, nil, dmarc, 1, []string{"DKIM key of 2048 bits (RSA_1024_BIT)", "custom MAIL FROM none (none)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, account := readyIdentity(), readyAccount()
			if tt.identity != nil {
				tt.identity(id)
			}
			if tt.account != nil {
				tt.account(account)
			}
			url, calls := fakeSES(t, domain, id, account)
			var out, errOut strings.Builder
			c := &ctl{stdout: &out, stderr: &errOut, now: func() time.Time { return now }, getenv: func(string) string { return "" }, txt: tt.txt}
			code := c.run(context.Background(), []string{"--region", "us-west-2", "mail", "check", domain, "--ses-endpoint", url})
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.wantCode, out.String(), errOut.String())
			}
			var got []string
			for _, line := range strings.Split(out.String(), "\n") {
				if rest, ok := strings.CutPrefix(line, "MISSING  "); ok {
					got = append(got, rest)
				}
			}
			if len(got) != len(tt.missing) {
				t.Fatalf("missing %q, want %d: %q\n%s", got, len(tt.missing), tt.missing, out.String())
			}
			for i, want := range tt.missing {
				if !strings.Contains(got[i], want) {
					t.Errorf("missing[%d] = %q, want it to say %q", i, got[i], want)
				}
			}
			if tt.wantCode == 0 && !strings.Contains(out.String(), "Sending is set up") {
				t.Errorf("no all-clear line:\n%s", out.String())
			}
			if want := []string{"GET /v2/email/identities/" + domain, "GET /v2/email/account"}; strings.Join(*calls, ",") != strings.Join(want, ",") {
				t.Errorf("calls %v, want %v", *calls, want)
			}
		})
	}
	t.Run("an identity SES does not have", func(t *testing.T) {
		url, _ := fakeSES(t, domain, readyIdentity(), readyAccount())
		var out, errOut strings.Builder
		c := &ctl{stdout: &out, stderr: &errOut, now: func() time.Time { return now }, getenv: func(string) string { return "" }}
		if code := c.run(context.Background(), []string{"mail", "check", "other.example.com", "--ses-endpoint", url}); code != 1 || !strings.Contains(errOut.String(), "NotFoundException") {
			t.Errorf("exit %d, %s; want 1 and SES's NotFoundException", code, errOut.String())
		}
	})
	t.Run("no identity named", func(t *testing.T) {
		var out, errOut strings.Builder
		c := &ctl{stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
		if code := c.run(context.Background(), []string{"mail", "check"}); code != 2 {
			t.Errorf("exit %d, want 2 (usage)", code)
		}
	})
}
