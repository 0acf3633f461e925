package lambdaenv

import (
	"fmt"
	"strings"

	"github.com/doorstep/doorstep/pkg/booking"
)

// ApprovalConfig is how the stack approves a business's going live:
// business-web reads NEW_BUSINESS_APPROVAL, and notify OPERATOR_TOPIC_ARN
// (it publishes the ask that business-web writes to the table).
type ApprovalConfig struct {
	// NewBusinessApproval (NEW_BUSINESS_APPROVAL, the template's
	// NewBusinessApproval: operator or auto; unset is operator).
	NewBusinessApproval string
	// OperatorTopicARN (OPERATOR_TOPIC_ARN, optional: the template's
	// OperatorTopic, which exists when OperatorEmail is set) is where a
	// business waiting for approval is announced. Without it nobody is
	// told, and ctl businesses list --pending still lists it.
	OperatorTopicARN string
}

// ApprovalConfigFrom reads and checks it.
func ApprovalConfigFrom(getenv func(string) string) (ApprovalConfig, error) {
	c := ApprovalConfig{
		NewBusinessApproval: strings.TrimSpace(getenv("NEW_BUSINESS_APPROVAL")),
		OperatorTopicARN:    strings.TrimSpace(getenv("OPERATOR_TOPIC_ARN")),
	}
	if c.NewBusinessApproval == "" {
		c.NewBusinessApproval = booking.ApprovalOperator
	}
	if c.NewBusinessApproval != booking.ApprovalOperator && c.NewBusinessApproval != booking.ApprovalAuto {
		return c, fmt.Errorf("NEW_BUSINESS_APPROVAL must be %s or %s, got %q", booking.ApprovalOperator, booking.ApprovalAuto, c.NewBusinessApproval)
	}
	if c.OperatorTopicARN != "" && !strings.HasPrefix(c.OperatorTopicARN, "arn:") {
		return c, fmt.Errorf("OPERATOR_TOPIC_ARN must be an SNS topic ARN, got %q", c.OperatorTopicARN)
	}
	return c, nil
}
