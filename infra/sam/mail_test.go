package sam

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestMailConfigurationSet checks the SES configuration set every e-mail
// uses: published to EventBridge's default bus for the four kinds
// mail-events acts on, no suppression options of its own (the account's
// list stays the enforcer), no open or click tracking; and that every
// function that sends e-mail names it and may send through it.
func TestMailConfigurationSet(t *testing.T) {
	tp := loadTemplate(t)
	set := tp.only(t, "AWS::SES::ConfigurationSet")
	if set != "MailConfigurationSet" {
		t.Fatalf("configuration set %s, want MailConfigurationSet", set)
	}
	props := field(tp.resources[set], "Properties")
	for _, absent := range []string{"SuppressionOptions", "TrackingOptions"} {
		if field(props, absent) != nil {
			t.Errorf("MailConfigurationSet sets %s: want none (the account's suppression list decides; nothing is tracked)", absent)
		}
	}
	dest := tp.only(t, "AWS::SES::ConfigurationSetEventDestination")
	d := field(tp.resources[dest], "Properties")
	if ref(field(d, "ConfigurationSetName")) != set {
		t.Errorf("%s: ConfigurationSetName is not !Ref %s", dest, set)
	}
	if got, want := plains(field(d, "EventDestination", "MatchingEventTypes")), []string{"BOUNCE", "COMPLAINT", "REJECT", "DELIVERY_DELAY"}; !slices.Equal(got, want) {
		t.Errorf("%s: MatchingEventTypes %v, want %v", dest, got, want)
	}
	if plain(field(d, "EventDestination", "Enabled")) != "true" {
		t.Errorf("%s: not Enabled", dest)
	}
	bus := field(d, "EventDestination", "EventBridgeDestination", "EventBusArn")
	if bus == nil || bus.Tag != "!Sub" || !strings.HasSuffix(bus.Value, ":event-bus/default") {
		t.Errorf("%s: EventBusArn %v, want the default bus (SES publishes to no other)", dest, bus)
	}

	// Only notify sends: the web inbox writes its messages to the table
	// for notify to send (dynamo.Outgoing).
	for _, fn := range []string{"NotifyFunction"} {
		if got := ref(tp.envVar(tp.resources[fn], "SES_CONFIGURATION_SET")); got != set {
			t.Errorf("%s: SES_CONFIGURATION_SET is %q, want !Ref %s", fn, got, set)
		}
	}
	for _, fn := range tp.ofType("AWS::Serverless::Function") {
		stmts, err := statements(tp.resources[fn])
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range stmts {
			if !slices.Contains(plains(field(st.node, "Action")), "ses:SendEmail") {
				continue
			}
			if !slices.ContainsFunc(items(field(st.node, "Resource")), func(r *yaml.Node) bool {
				return r.Tag == "!Sub" && strings.HasSuffix(r.Value, ":configuration-set/${MailConfigurationSet}")
			}) {
				t.Errorf("%s %s: ses:SendEmail without the configuration set's ARN (SES authorises it too)", fn, st.where)
			}
			if got := ref(tp.envVar(tp.resources[fn], "SES_CONFIGURATION_SET")); got != set {
				t.Errorf("%s sends e-mail without SES_CONFIGURATION_SET", fn)
			}
		}
	}
}

// TestMailEventRules checks the two rules that feed MailEventsFunction:
// the e-mail events of this stack's configuration set only, and SES's
// sending status; and that a failed event ends in a queue with an alarm.
func TestMailEventRules(t *testing.T) {
	tp := loadTemplate(t)
	fn := tp.resources["MailEventsFunction"]
	tests := []struct {
		event       string
		detailTypes []string
		bySet       bool
	}{
		{"MailEvents", []string{"Email Bounced", "Email Complaint Received", "Email Rejected", "Email Delivery Delayed"}, true},
		{"SendingStatus", []string{"Sending Status Disabled", "Sending Status Enabled"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.event, func(t *testing.T) {
			ev := field(fn, "Properties", "Events", tt.event)
			if plain(field(ev, "Type")) != "EventBridgeRule" {
				t.Fatalf("no EventBridgeRule event %s", tt.event)
			}
			p := field(ev, "Properties", "Pattern")
			if got := plains(field(p, "source")); !slices.Equal(got, []string{"aws.ses"}) {
				t.Errorf("source %v, want [aws.ses]", got)
			}
			if got := plains(field(p, "detail-type")); !slices.Equal(got, tt.detailTypes) {
				t.Errorf("detail-type %v, want %v", got, tt.detailTypes)
			}
			set := items(field(p, "detail", "mail", "tags", "ses:configuration-set"))
			if tt.bySet != (len(set) == 1 && ref(set[0]) == "MailConfigurationSet") {
				t.Errorf("detail.mail.tags.ses:configuration-set %v: want [!Ref MailConfigurationSet] %v", set, tt.bySet)
			}
		})
	}
	if got := getAtt(field(fn, "Properties", "EventInvokeConfig", "DestinationConfig", "OnFailure", "Destination")); got != "MailEventsDeadLetterQueue.Arn" {
		t.Errorf("failed events go to %q, want MailEventsDeadLetterQueue.Arn", got)
	}
	alarm := field(tp.resources["MailEventsDeadLetterAlarm"], "Properties")
	if getAtt(field(items(field(alarm, "Dimensions"))[0], "Value")) != "MailEventsDeadLetterQueue.QueueName" {
		t.Error("MailEventsDeadLetterAlarm does not watch MailEventsDeadLetterQueue")
	}
}

// TestSenderIdentity checks the sending domain's identity: only with
// SenderDomain, Easy DKIM with a 2048-bit key, the MAIL FROM domain
// mail.<domain>, and outputs, under the same condition, that give every
// DNS record it needs.
func TestSenderIdentity(t *testing.T) {
	tp := loadTemplate(t)
	if got := notEmpty(field(tp.top, "Conditions", "HasSenderDomain")); got != "SenderDomain" {
		t.Errorf("condition HasSenderDomain: a test of %q, want SenderDomain not empty", got)
	}
	if d := field(tp.top, "Parameters", "SenderDomain", "Default"); d == nil || plain(d) != "" {
		t.Error(`SenderDomain: want Default "" (no identity made)`)
	}
	id := tp.only(t, "AWS::SES::EmailIdentity")
	r := tp.resources[id]
	if plain(field(r, "Condition")) != "HasSenderDomain" {
		t.Errorf("%s: Condition %q, want HasSenderDomain", id, plain(field(r, "Condition")))
	}
	p := field(r, "Properties")
	checks := []struct {
		what string
		ok   bool
	}{
		{"EmailIdentity !Ref SenderDomain", ref(field(p, "EmailIdentity")) == "SenderDomain"},
		{"DKIM signing on", plain(field(p, "DkimAttributes", "SigningEnabled")) == "true"},
		{"a 2048-bit DKIM key", plain(field(p, "DkimSigningAttributes", "NextSigningKeyLength")) == "RSA_2048_BIT"},
		{"MAIL FROM mail.${SenderDomain}", field(p, "MailFromAttributes", "MailFromDomain").Value == "mail.${SenderDomain}"},
		{"the configuration set by default", ref(field(p, "ConfigurationSetAttributes", "ConfigurationSetName")) == "MailConfigurationSet"},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: want %s", id, c.what)
		}
	}
	outputs := map[string]string{
		"DkimRecord1":       "${" + id + ".DkimDNSTokenName1} CNAME ${" + id + ".DkimDNSTokenValue1}",
		"DkimRecord2":       "${" + id + ".DkimDNSTokenName2} CNAME ${" + id + ".DkimDNSTokenValue2}",
		"DkimRecord3":       "${" + id + ".DkimDNSTokenName3} CNAME ${" + id + ".DkimDNSTokenValue3}",
		"MailFromMxRecord":  "mail.${SenderDomain} MX 10 feedback-smtp.${AWS::Region}.amazonses.com",
		"MailFromSpfRecord": `mail.${SenderDomain} TXT "v=spf1 include:amazonses.com ~all"`,
	}
	for name, want := range outputs {
		o := field(tp.top, "Outputs", name)
		if plain(field(o, "Condition")) != "HasSenderDomain" {
			t.Errorf("output %s: want Condition HasSenderDomain", name)
		}
		if v := field(o, "Value"); v == nil || v.Tag != "!Sub" || v.Value != want {
			t.Errorf("output %s: %v, want !Sub %q", name, v, want)
		}
	}
}

// TestTracing: every function runs with X-Ray's active tracing (Globals),
// none turns it off.
func TestTracing(t *testing.T) {
	tp := loadTemplate(t)
	if got := plain(field(tp.globals, "Tracing")); got != "Active" {
		t.Errorf("Globals.Function.Tracing %q, want Active", got)
	}
	for _, fn := range tp.ofType("AWS::Serverless::Function") {
		if got := plain(tp.property(tp.resources[fn], "Tracing")); got != "Active" {
			t.Errorf("%s: Tracing %q, want Active", fn, got)
		}
	}
}

// TestTracingPolicyName: the managed policy the template and the docs say
// SAM attaches for Tracing: Active is the one SAM 1.110 attaches in the
// aws partition, AWSXrayWriteOnlyAccess (samtranslator's
// get_xray_managed_policy_name), not the older AWSXRayDaemonWriteAccess.
func TestTracingPolicyName(t *testing.T) {
	const want = "AWSXrayWriteOnlyAccess"
	name := regexp.MustCompile(`AWSX[Rr]ay[A-Za-z]*Access`)
	for _, file := range []string{"template.yaml", "docs/design.md"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(root, file))
			if err != nil {
				t.Fatal(err)
			}
			got := name.FindAllString(string(data), -1)
			if len(got) == 0 {
				t.Fatalf("got no X-Ray policy named, want %s", want)
			}
			for _, g := range got {
				if g != want {
					t.Errorf("got %s, want %s", g, want)
				}
			}
		})
	}
}

// TestMailConfigurationSetName: the configuration set's name, as
// CloudFormation computes it, is one SES takes (letters, digits, "_" and
// "-", 64 at most) for any stack name CloudFormation takes (up to 128
// characters), and two stacks of one name in one region (one deleted,
// one deployed again) get two names.
func TestMailConfigurationSetName(t *testing.T) {
	tp := loadTemplate(t)
	name := field(tp.resources["MailConfigurationSet"], "Properties", "Name")
	if name == nil {
		t.Fatal("MailConfigurationSet has no Name")
	}
	sesName := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	tests := []struct {
		name, stack, id string
	}{
		{"a short name", "doorstep", "6c1f2a40-5b7e-11ef-9f3a-0a1b2c3d4e5f"},
		{"59 characters", strings.Repeat("d", 59), "6c1f2a40-5b7e-11ef-9f3a-0a1b2c3d4e5f"},
		{"60 characters", strings.Repeat("d", 60), "6c1f2a40-5b7e-11ef-9f3a-0a1b2c3d4e5f"},
		{"128 characters, the most", "d" + strings.Repeat("-0", 63) + "x", "6c1f2a40-5b7e-11ef-9f3a-0a1b2c3d4e5f"},
	}
	seen := map[string]string{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pseudo := map[string]string{
				"AWS::StackName": tt.stack,
				"AWS::StackId":   "arn:aws:cloudformation:us-east-1:123456789012:stack/" + tt.stack + "/" + tt.id,
				"AWS::Region":    "us-east-1",
			}
			got, err := evalString(name, pseudo)
			if err != nil {
				t.Fatal(err)
			}
			if !sesName.MatchString(got) {
				t.Errorf("got %q (%d characters), want 1 to 64 letters, digits, _ or -", got, len(got))
			}
			seen[got] = tt.stack
		})
	}
	pseudo := map[string]string{
		"AWS::StackName": "doorstep",
		"AWS::StackId":   "arn:aws:cloudformation:us-east-1:123456789012:stack/doorstep/0d9e8f70-5b7f-11ef-8a21-0f1e2d3c4b5a",
	}
	if again, err := evalString(name, pseudo); err != nil || seen[again] != "" {
		t.Errorf("got %q (%v) for doorstep deployed again, want a name of its own", again, err)
	}
}

// evalString evaluates the intrinsic functions a resource's name is made
// with (Ref of a pseudo parameter, Sub, Join, Select, Split) as
// CloudFormation would, given the pseudo parameters' values.
func evalString(n *yaml.Node, pseudo map[string]string) (string, error) {
	switch {
	case n.Kind == yaml.ScalarNode && strings.HasPrefix(n.ShortTag(), "!!"):
		return n.Value, nil
	case n.Tag == "!Ref":
		if v, ok := pseudo[n.Value]; ok {
			return v, nil
		}
		return "", fmt.Errorf("!Ref %s: not a pseudo parameter given", n.Value)
	case n.Tag == "!Sub" && n.Kind == yaml.ScalarNode:
		var err error
		out := regexp.MustCompile(`\$\{([^}]*)\}`).ReplaceAllStringFunc(n.Value, func(m string) string {
			v, ok := pseudo[m[2:len(m)-1]]
			if !ok {
				err = fmt.Errorf("!Sub %s: not a pseudo parameter given", m)
			}
			return v
		})
		return out, err
	case n.Tag == "!Join" && len(n.Content) == 2:
		parts, err := evalList(n.Content[1], pseudo)
		return strings.Join(parts, n.Content[0].Value), err
	case n.Tag == "!Select" && len(n.Content) == 2:
		list, err := evalList(n.Content[1], pseudo)
		if err != nil {
			return "", err
		}
		i, err := strconv.Atoi(n.Content[0].Value)
		if err != nil || i < 0 || i >= len(list) {
			return "", fmt.Errorf("!Select %s of %d", n.Content[0].Value, len(list))
		}
		return list[i], nil
	}
	return "", fmt.Errorf("line %d: %s is not evaluated here", n.Line, n.Tag)
}

// evalList evaluates a list: a YAML sequence or a !Split.
func evalList(n *yaml.Node, pseudo map[string]string) ([]string, error) {
	if n.Tag == "!Split" && len(n.Content) == 2 {
		s, err := evalString(n.Content[1], pseudo)
		return strings.Split(s, n.Content[0].Value), err
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: not a list", n.Line)
	}
	var out []string
	for _, it := range n.Content {
		s, err := evalString(it, pseudo)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
