package awsenv

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/smithy-go"
)

// TestCallError: an AWS call's error keeps its operation and code but not
// the service's message, which may quote the recipient; the chain is kept.
func TestCallError(t *testing.T) {
	rejected := &smithy.OperationError{ServiceID: "SESv2", OperationName: "SendEmail", Err: &smithy.GenericAPIError{
		Code:    "MessageRejected",
		Message: "Email address is not verified. The following identities failed the check in region US-EAST-1: jo@example.com",
	}}
	tests := []struct {
		name     string
		err      error
		want     string // the text, "" for no error
		wantCode string // the APIError the chain still holds
	}{
		{"no error", nil, "", ""},
		{"the service refused", rejected, "ses: send e-mail: SESv2 SendEmail: MessageRejected", "MessageRejected"},
		{"an API error alone", &smithy.GenericAPIError{Code: "Throttling", Message: "+12125550100"}, "ses: send e-mail: Throttling", "Throttling"},
		{"no answer", errors.New("dial tcp: connection refused"), "ses: send e-mail: dial tcp: connection refused", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CallError("ses: send e-mail", tt.err)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("got %v, want nil", err)
				}
				return
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if strings.Contains(err.Error(), "example.com") || strings.Contains(err.Error(), "2125550100") {
				t.Errorf("got the recipient in %q", err)
			}
			var api smithy.APIError
			if got := errors.As(err, &api); got != (tt.wantCode != "") || (got && api.ErrorCode() != tt.wantCode) {
				t.Errorf("got APIError %v in the chain, want code %q", api, tt.wantCode)
			}
		})
	}
}
