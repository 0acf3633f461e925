package sam

import (
	"slices"
	"testing"
)

// TestDeletionPolicies checks that every stateful resource (the types
// cfn-lint's I3011 notes concern) says explicitly what a stack deletion,
// or a replacement, does to it, and that it is what docs/deploy.md says:
// the table, the dead-letter queues and the SES identity (its DKIM keys,
// which the DNS records name) are kept (Retain); the form key and the log
// groups are deleted.
func TestDeletionPolicies(t *testing.T) {
	tp := loadTemplate(t)
	want := map[string]string{
		"AWS::DynamoDB::Table":        "Retain",
		"AWS::SQS::Queue":             "Retain",
		"AWS::SES::EmailIdentity":     "Retain",
		"AWS::SecretsManager::Secret": "Delete",
		"AWS::Logs::LogGroup":         "Delete",
	}
	types := make([]string, 0, len(want))
	for typ := range want {
		types = append(types, typ)
	}
	slices.Sort(types)
	for _, typ := range types {
		ids := tp.ofType(typ)
		if len(ids) == 0 {
			t.Errorf("no %s in the template", typ)
		}
		for _, id := range ids {
			t.Run(id, func(t *testing.T) {
				res := tp.resources[id]
				for _, policy := range []string{"DeletionPolicy", "UpdateReplacePolicy"} {
					if got := plain(field(res, policy)); got != want[typ] {
						t.Errorf("%s: got %q, want %q", policy, got, want[typ])
					}
				}
			})
		}
	}
}
