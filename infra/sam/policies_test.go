package sam

import (
	"path/filepath"
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest/iamcheck"
)

// TestPoliciesResolve resolves every function's Policies as the SAM
// transform and CloudFormation would grant them, with the optional
// parameters set and empty (the conditions both ways): each must resolve
// to inline statements that name actions and resources (no intrinsic left
// over, no policy template), which is what the functions' tests check
// their recorded AWS calls against (lambdatest.Record).
func TestPoliciesResolve(t *testing.T) {
	tp := loadTemplate(t)
	// Each deployment is a function's environment, as lambdatest.Deployment
	// reads the template's parameters from it.
	deployments := map[string]map[string]string{
		"optional parameters empty": {"SENDER_EMAIL": "notify@book.example.com"},
		"optional parameters set": {"SENDER_EMAIL": "notify@book.example.com", "TABLE_NAME": "doorstep",
			"STRIPE_SECRET_ARN":        "arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep/stripe",
			"SMS_ORIGINATION_IDENTITY": "+15555550100", "PREVIEW_INBOX_EMAIL": "preview@book.example.com"},
	}
	for name, env := range deployments {
		d := lambdatest.Deployment(func(k string) string { return env[k] })
		for _, id := range tp.ofType("AWS::Serverless::Function") {
			t.Run(name+"/"+id, func(t *testing.T) {
				p, err := iamcheck.Load(filepath.Join(root, "template.yaml"), id, d)
				if err != nil {
					t.Fatal(err)
				}
				for _, st := range p.Statements {
					for _, s := range append(append([]string{}, st.Actions...), st.Resources...) {
						if s == "" {
							t.Errorf("%s: an action or resource did not resolve to a string", st.Where)
						}
					}
				}
				if _, err := iamcheck.PollerCalls(filepath.Join(root, "template.yaml"), id, d); err != nil {
					t.Errorf("event source mappings: %v", err)
				}
			})
		}
	}
}
