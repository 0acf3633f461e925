package sam

import (
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// isLogsFence reports whether a statement is the Deny that fences a
// function's logs to its own group: logs:* denied on every resource but
// the group (NotResource).
func isLogsFence(st *yaml.Node) bool {
	return plain(field(st, "Effect")) == "Deny" && slices.Equal(plains(field(st, "Action")), []string{"logs:*"}) &&
		field(st, "NotResource") != nil && field(st, "Resource") == nil
}

// TestLogsOwnGroupOnly checks that each function's role may write logs to
// its own log group only (the one its LoggingConfig names): its Policies
// allow logs:CreateLogStream and logs:PutLogEvents on that group alone, and
// deny every logs: action on every other resource, which fences the
// managed AWSLambdaBasicExecutionRole SAM attaches to a role it makes
// (logs writes on "*"). lambdatest.Record checks the log calls Lambda
// makes against the same policies (iamcheck.LogCalls).
func TestLogsOwnGroupOnly(t *testing.T) {
	tp := loadTemplate(t)
	for _, id := range tp.ofType("AWS::Serverless::Function") {
		t.Run(id, func(t *testing.T) {
			group := field(tp.resources[id], "Properties", "LoggingConfig", "LogGroup")
			if group == nil || group.Tag != "!Ref" {
				t.Fatal("no LoggingConfig.LogGroup: !Ref <its group>")
			}
			own := func(rs []*yaml.Node) bool {
				var got []string
				for _, r := range rs {
					got = append(got, r.Tag+" "+r.Value)
				}
				want := []string{
					"!Sub arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:${" + group.Value + "}",
					"!GetAtt " + group.Value + ".Arn",
				}
				return slices.Equal(got, want)
			}
			stmts, err := statements(tp.resources[id])
			if err != nil {
				t.Fatal(err)
			}
			allowed, fenced := false, false
			for _, st := range stmts {
				actions := plains(field(st.node, "Action"))
				logs := slices.ContainsFunc(actions, func(a string) bool { return strings.HasPrefix(a, "logs:") })
				switch {
				case isLogsFence(st.node):
					if fenced || !own(items(field(st.node, "NotResource"))) || st.condition != "" {
						t.Errorf("%s: want one Deny of logs:* on every resource but %s, unconditional", st.where, group.Value)
					}
					fenced = true
				case logs:
					if allowed || !slices.Equal(actions, []string{"logs:CreateLogStream", "logs:PutLogEvents"}) ||
						!own(items(field(st.node, "Resource"))) || st.condition != "" {
						t.Errorf("%s: want one Allow of logs:CreateLogStream and logs:PutLogEvents on %s alone, unconditional", st.where, group.Value)
					}
					allowed = true
				}
			}
			if !allowed || !fenced {
				t.Errorf("got its group allowed %v, the rest denied %v; want both", allowed, fenced)
			}
		})
	}
}
