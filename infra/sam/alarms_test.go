package sam

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/doorstep/doorstep/pkg/metrics"
)

// TestAlarms: the template has the alarms docs/deploy.md's "Operating it"
// explains, each telling the operator through the topic OperatorEmail
// makes, and the functions log JSON.
func TestAlarms(t *testing.T) {
	tp := loadTemplate(t)

	t.Run("OperatorEmail and its topic", func(t *testing.T) {
		param := field(tp.top, "Parameters", "OperatorEmail")
		if d := field(param, "Default"); d == nil || plain(d) != "" {
			t.Error(`OperatorEmail: want Default ""`)
		}
		pattern, err := regexp.Compile(plain(field(param, "AllowedPattern")))
		if err != nil {
			t.Fatalf("OperatorEmail's AllowedPattern: %v", err)
		}
		for v, want := range map[string]bool{"": true, "ops@example.com": true, "ops": false, "Ops <ops@example.com>": false} {
			if got := pattern.MatchString(v); got != want {
				t.Errorf("OperatorEmail's AllowedPattern on %q: got %v, want %v", v, got, want)
			}
		}
		if got := notEmpty(field(tp.top, "Conditions", "HasOperatorEmail")); got != "OperatorEmail" {
			t.Errorf("condition HasOperatorEmail: got a test of %q, want OperatorEmail not empty", got)
		}
		topic := tp.resources["OperatorTopic"]
		if plain(field(topic, "Type")) != "AWS::SNS::Topic" || plain(field(topic, "Condition")) != "HasOperatorEmail" {
			t.Fatal("want OperatorTopic, an AWS::SNS::Topic under the condition HasOperatorEmail")
		}
		subs := items(field(topic, "Properties", "Subscription"))
		if len(subs) != 1 || plain(field(subs[0], "Protocol")) != "email" || ref(field(subs[0], "Endpoint")) != "OperatorEmail" {
			t.Error("OperatorTopic: want one subscription, email to !Ref OperatorEmail")
		}
		if got := plain(field(tp.top, "Outputs", "OperatorTopicArn", "Condition")); got != "HasOperatorEmail" {
			t.Errorf("output OperatorTopicArn: condition %q, want HasOperatorEmail", got)
		}
	})

	alarms := tp.ofType("AWS::CloudWatch::Alarm")
	// watched is each alarm's metrics as "Namespace MetricName Dim=value ...".
	watched := map[string][]string{}
	for _, id := range alarms {
		props := field(tp.resources[id], "Properties")
		for _, action := range []string{"AlarmActions", "OKActions"} {
			a := intrinsic(field(props, action), "Fn::If")
			if a == nil || len(a.Content) != 3 || a.Content[0].Value != "HasOperatorEmail" ||
				len(items(a.Content[1])) != 1 || ref(items(a.Content[1])[0]) != "OperatorTopic" || ref(a.Content[2]) != "AWS::NoValue" {
				t.Errorf("%s: %s, want !If [HasOperatorEmail, [!Ref OperatorTopic], !Ref AWS::NoValue]", id, action)
			}
		}
		if plain(field(props, "TreatMissingData")) == "" {
			t.Errorf("%s: want TreatMissingData said", id)
		}
		if field(props, "MetricName") != nil {
			watched[id] = append(watched[id], metricOf(props))
		}
		for _, q := range items(field(props, "Metrics")) {
			if m := field(q, "MetricStat", "Metric"); m != nil {
				watched[id] = append(watched[id], metricOf(m))
			}
		}
	}
	// watching returns the alarms that watch a metric.
	watching := func(metric string) []string {
		var ids []string
		for _, id := range alarms {
			if slices.Contains(watched[id], metric) {
				ids = append(ids, id)
			}
		}
		return ids
	}

	var wants []string
	for _, q := range tp.ofType("AWS::SQS::Queue") {
		wants = append(wants, "AWS/SQS ApproximateNumberOfMessagesVisible QueueName=!GetAtt "+q+".QueueName")
	}
	for _, fn := range tp.ofType("AWS::Serverless::Function") {
		wants = append(wants, "AWS/Lambda Errors FunctionName=!Ref "+fn)
	}
	wants = append(wants,
		"AWS/ApiGateway 5xx ApiId=!Ref DoorstepApi",
		"AWS/ApiGateway Count ApiId=!Ref DoorstepApi",
		"AWS/DynamoDB ReadThrottleEvents TableName=!Ref DoorstepTable",
		"AWS/DynamoDB WriteThrottleEvents TableName=!Ref DoorstepTable",
		"AWS/Lambda Invocations FunctionName=!Ref ExpireHoldsFunction",
		"!Sub Doorstep/${AWS::StackName} "+metrics.NotificationsFailed,
		"AWS/SES Reputation.BounceRate",
		"AWS/SES Reputation.ComplaintRate",
		"!Sub Doorstep/${AWS::StackName} "+metrics.SendingDisabled,
	)
	// DynamoDB's system errors, on each operation the functions make.
	for _, op := range []string{"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "TransactWriteItems"} {
		wants = append(wants, "AWS/DynamoDB SystemErrors TableName=!Ref DoorstepTable Operation="+op)
	}
	for _, want := range wants {
		t.Run(want, func(t *testing.T) {
			if ids := watching(want); len(ids) != 1 {
				t.Errorf("got alarms %v on it, want one; the alarms watch %v", ids, watched)
			}
		})
	}

	t.Run("the sweeper stopped", func(t *testing.T) {
		ids := watching("AWS/Lambda Invocations FunctionName=!Ref ExpireHoldsFunction")
		if len(ids) != 1 {
			t.Fatalf("got %v", ids)
		}
		props := field(tp.resources[ids[0]], "Properties")
		got := strings.Join([]string{plain(field(props, "Statistic")), plain(field(props, "Period")), plain(field(props, "EvaluationPeriods")),
			plain(field(props, "ComparisonOperator")), plain(field(props, "Threshold")), plain(field(props, "TreatMissingData"))}, " ")
		// No invocation in 10 minutes, missing data included, since a
		// function that never runs writes no data point.
		if want := "Sum 600 1 LessThanThreshold 1 breaching"; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	})

	// SES reviews an account at a 5% bounce rate or a 0.1% complaint rate
	// (issue 34); one Sending Status Disabled event is enough.
	for metric, want := range map[string]string{
		"AWS/SES Reputation.BounceRate":                              "Maximum 3600 1 GreaterThanOrEqualToThreshold 0.05 notBreaching",
		"AWS/SES Reputation.ComplaintRate":                           "Maximum 3600 1 GreaterThanOrEqualToThreshold 0.001 notBreaching",
		"!Sub Doorstep/${AWS::StackName} " + metrics.SendingDisabled: "Sum 300 1 GreaterThanOrEqualToThreshold 1 notBreaching",
	} {
		t.Run("the mail alarm on "+metric, func(t *testing.T) {
			ids := watching(metric)
			if len(ids) != 1 {
				t.Fatalf("got %v", ids)
			}
			props := field(tp.resources[ids[0]], "Properties")
			got := strings.Join([]string{plain(field(props, "Statistic")), plain(field(props, "Period")), plain(field(props, "EvaluationPeriods")),
				plain(field(props, "ComparisonOperator")), plain(field(props, "Threshold")), plain(field(props, "TreatMissingData"))}, " ")
			if got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}

	t.Run("the namespace the functions write", func(t *testing.T) {
		ns := tp.envVar(nil, "METRICS_NAMESPACE")
		if ns == nil || ns.Tag != "!Sub" || ns.Value != "Doorstep/${AWS::StackName}" {
			t.Errorf("Globals: METRICS_NAMESPACE, want !Sub Doorstep/${AWS::StackName}, the namespace the alarm reads")
		}
	})

	t.Run("JSON logs", func(t *testing.T) {
		if got := plain(field(tp.globals, "LoggingConfig", "LogFormat")); got != "JSON" {
			t.Errorf("Globals: LoggingConfig.LogFormat %q, want JSON", got)
		}
		// A function's own LoggingConfig names its log group alone
		// (TestLogGroups); SAM merges it with the Globals' LogFormat.
		for _, fn := range tp.ofType("AWS::Serverless::Function") {
			if f := field(tp.resources[fn], "Properties", "LoggingConfig", "LogFormat"); f != nil {
				t.Errorf("%s: sets its own LogFormat; want the Globals' JSON", fn)
			}
		}
	})
}

// metricOf renders a metric as "Namespace MetricName Dim=value ...", an
// intrinsic value as "!Ref X", "!GetAtt X.Y" or "!Sub text".
func metricOf(m *yaml.Node) string {
	s := []string{value(field(m, "Namespace")), value(field(m, "MetricName"))}
	for _, d := range items(field(m, "Dimensions")) {
		s = append(s, plain(field(d, "Name"))+"="+value(field(d, "Value")))
	}
	return strings.Join(s, " ")
}

func value(n *yaml.Node) string {
	switch {
	case ref(n) != "":
		return "!Ref " + ref(n)
	case getAtt(n) != "":
		return "!GetAtt " + getAtt(n)
	case n != nil && n.Tag == "!Sub":
		return "!Sub " + n.Value
	}
	return plain(n)
}
