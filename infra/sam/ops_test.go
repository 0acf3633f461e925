package sam

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/doorstep/doorstep/pkg/metrics"
)

// retentionDays are the values CloudWatch Logs takes for a log group's
// retention (the CloudWatch Logs API Reference, PutRetentionPolicy,
// retentionInDays; AWS::Logs::LogGroup's RetentionInDays takes the same).
// Leaving it out means "never expire", which LogRetentionDays does not offer.
var retentionDays = []string{"1", "3", "5", "7", "14", "30", "60", "90", "120", "150", "180", "365", "400", "545",
	"731", "1096", "1827", "2192", "2557", "2922", "3288", "3653"}

// TestLogGroups: each function writes to a log group of its own, declared
// in the template with LogRetentionDays of retention and deleted with the
// stack, instead of the /aws/lambda/<function name> group Lambda would make
// and keep forever.
func TestLogGroups(t *testing.T) {
	tp := loadTemplate(t)

	t.Run("LogRetentionDays", func(t *testing.T) {
		param := field(tp.top, "Parameters", "LogRetentionDays")
		checks := []struct{ name, got, want string }{
			{"Type", plain(field(param, "Type")), "Number"},
			{"Default", plain(field(param, "Default")), "30"},
			{"AllowedValues", strings.Join(plains(field(param, "AllowedValues")), " "), strings.Join(retentionDays, " ")},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
			}
		}
	})

	groups := tp.ofType("AWS::Logs::LogGroup")
	usedBy := map[string][]string{} // log group → the functions that write to it
	for _, fn := range tp.ofType("AWS::Serverless::Function") {
		t.Run(fn, func(t *testing.T) {
			group := ref(field(tp.resources[fn], "Properties", "LoggingConfig", "LogGroup"))
			if !slices.Contains(groups, group) {
				t.Fatalf("LoggingConfig.LogGroup: got %q, want !Ref of an AWS::Logs::LogGroup of the template %v", group, groups)
			}
			usedBy[group] = append(usedBy[group], fn)
			res := tp.resources[group]
			props := field(res, "Properties")
			name := field(props, "LogGroupName")
			checks := []struct{ name, got, want string }{
				// Named after the stack and the function, so that no two
				// stacks, and no two functions, share one.
				{"LogGroupName", value(name), "!Sub /aws/lambda/${AWS::StackName}-" + fn},
				{"RetentionInDays", ref(field(props, "RetentionInDays")), "LogRetentionDays"},
				// Deleted with the stack: kept, it would outlive the
				// stack, and its fixed name would make the next deploy of
				// a stack of the same name fail with "already exists".
				{"DeletionPolicy", plain(field(res, "DeletionPolicy")), "Delete"},
				{"UpdateReplacePolicy", plain(field(res, "UpdateReplacePolicy")), "Delete"},
				{"no KMS key (CloudWatch Logs' own encryption)", fmt.Sprint(field(props, "KmsKeyId") == nil), "true"},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s %s: got %q, want %q", group, c.name, c.got, c.want)
				}
			}
		})
	}
	t.Run("one group per function", func(t *testing.T) {
		for _, g := range groups {
			if len(usedBy[g]) != 1 {
				t.Errorf("log group %s: written by %v, want exactly one function", g, usedBy[g])
			}
		}
	})
}

// TestConcurrency: the reserved concurrency parameters take "none
// reserved" or a number from 1 (0 would throttle every invocation) up to
// what the account's default quota allows for all the functions at once:
// Lambda keeps 100 of it unreserved. The functions a stranger can make
// write without any secret (a flood's target) take PublicWriteConcurrency,
// falling back to ReservedConcurrency; the others ReservedConcurrency.
func TestConcurrency(t *testing.T) {
	const quota, unreserved = 1000, 100
	tp := loadTemplate(t)

	// maxOf is the largest value a parameter accepts.
	maxOf := map[string]int{}
	for _, name := range []string{"ReservedConcurrency", "PublicWriteConcurrency"} {
		t.Run(name, func(t *testing.T) {
			param := field(tp.top, "Parameters", name)
			if d := field(param, "Default"); d == nil || plain(d) != "" {
				t.Errorf(`want Default "" (none reserved: new accounts cannot reserve any)`)
			}
			if got := notEmpty(field(tp.top, "Conditions", "Has"+name)); got != name {
				t.Errorf("condition Has%s: got a test of %q, want %s not empty", name, got, name)
			}
			pattern, err := regexp.Compile(plain(field(param, "AllowedPattern")))
			if err != nil {
				t.Fatalf("AllowedPattern: %v", err)
			}
			for _, v := range []string{"0", "00", "01", "-1", " 1", "1 ", "1.5", "x"} {
				if pattern.MatchString(v) {
					t.Errorf("AllowedPattern accepts %q", v)
				}
			}
			if !pattern.MatchString("") {
				t.Error(`AllowedPattern refuses "" (none reserved)`)
			}
			for n := 1; n <= quota; n++ {
				if !pattern.MatchString(strconv.Itoa(n)) {
					break
				}
				maxOf[name] = n
			}
			for n := maxOf[name] + 1; n <= quota; n++ {
				if pattern.MatchString(strconv.Itoa(n)) {
					t.Errorf("AllowedPattern accepts 1 to %d, then %d: want one range from 1", maxOf[name], n)
					break
				}
			}
			if maxOf[name] == 0 {
				t.Error("AllowedPattern accepts no number from 1")
			}
		})
	}

	// The public write functions: the booking form, the JSON API's create
	// and MCP (its request_service tool) store requests for anyone who
	// knows a business's public slug. The pages' and Stripe's POSTs need a
	// request's secret code, so a flood of them finds nothing to write:
	// they stay with the rest.
	publicWrite := []string{"BookFormFunction", "CreateServiceRequestFunction", "McpFunction"}
	total := 0
	for _, fn := range tp.ofType("AWS::Serverless::Function") {
		got := concurrencyOf(tp.property(tp.resources[fn], "ReservedConcurrentExecutions"))
		want := "HasReservedConcurrency ReservedConcurrency none"
		if slices.Contains(publicWrite, fn) {
			want = "HasPublicWriteConcurrency PublicWriteConcurrency HasReservedConcurrency ReservedConcurrency none"
		}
		if got != want {
			t.Errorf("%s: ReservedConcurrentExecutions is %q, want %q", fn, got, want)
		}
		most := 0
		for _, name := range strings.Fields(got) {
			most = max(most, maxOf[name])
		}
		total += most
	}
	if total > quota-unreserved {
		t.Errorf("the functions may reserve %d together, want at most %d: Lambda keeps %d of the default quota of %d unreserved, and the deploy would fail",
			total, quota-unreserved, unreserved, quota)
	}
}

// concurrencyOf spells out a ReservedConcurrentExecutions of nested
// !If [condition, !Ref parameter, ...], ending in !Ref AWS::NoValue, as
// "condition parameter ... none".
func concurrencyOf(n *yaml.Node) string {
	var s []string
	for {
		a := intrinsic(n, "Fn::If")
		if a == nil || len(a.Content) != 3 {
			break
		}
		s = append(s, a.Content[0].Value, ref(a.Content[1]))
		n = a.Content[2]
	}
	if ref(n) == "AWS::NoValue" {
		s = append(s, "none")
	} else {
		s = append(s, "?"+value(n))
	}
	return strings.Join(s, " ")
}

// TestSecretsKmsKey: with SecretsKmsKeyArn (and Stripe), exactly the roles
// that read the Stripe secret may decrypt with that key, through Secrets
// Manager and for that secret only; without it, nothing is granted.
func TestSecretsKmsKey(t *testing.T) {
	tp := loadTemplate(t)
	param := field(tp.top, "Parameters", "SecretsKmsKeyArn")
	pattern, err := regexp.Compile(plain(field(param, "AllowedPattern")))
	if err != nil {
		t.Fatalf("SecretsKmsKeyArn's AllowedPattern: %v", err)
	}
	for v, want := range map[string]bool{
		"": true,
		"arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab":            true,
		"arn:aws:kms:us-east-1:123456789012:key/mrk-1234abcd12ab34cd56ef1234567890ab":            true,
		"arn:aws-us-gov:kms:us-gov-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab": true,
		// An alias names no key in IAM: a grant on it grants nothing.
		"arn:aws:kms:us-east-1:123456789012:alias/doorstep": false,
		"1234abcd-12ab-34cd-56ef-1234567890ab":              false,
		"alias/aws/secretsmanager":                          false,
	} {
		if got := pattern.MatchString(v); got != want {
			t.Errorf("SecretsKmsKeyArn's AllowedPattern on %q: got %v, want %v", v, got, want)
		}
	}
	if d := field(param, "Default"); d == nil || plain(d) != "" {
		t.Error(`SecretsKmsKeyArn: want Default ""`)
	}
	// HasSecretsKmsKey: !And [!Condition HasStripe, SecretsKmsKeyArn not empty].
	cond := "?"
	if a := intrinsic(field(tp.top, "Conditions", "HasSecretsKmsKey"), "Fn::And"); a != nil && len(a.Content) == 2 {
		if c := intrinsic(a.Content[0], "Condition"); c != nil {
			cond = c.Value + " and " + notEmpty(a.Content[1]) + " not empty"
		}
	}
	if want := "HasStripe and SecretsKmsKeyArn not empty"; cond != want {
		t.Errorf("condition HasSecretsKmsKey: got %q, want %q", cond, want)
	}

	// The roles that read the Stripe secret, from the functions' Policies.
	var readers []string
	for _, fn := range tp.ofType("AWS::Serverless::Function") {
		stmts, err := statements(tp.resources[fn])
		if err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		for _, st := range stmts {
			actions := plains(field(st.node, "Action"))
			if slices.ContainsFunc(actions, func(a string) bool { return strings.HasPrefix(a, "kms:") }) {
				t.Errorf("%s %s: grants %v in its Policies; want KMS granted by SecretsKmsKeyPolicy only", fn, st.where, actions)
			}
			reads := slices.Contains(actions, "secretsmanager:GetSecretValue") &&
				slices.ContainsFunc(items(field(st.node, "Resource")), func(r *yaml.Node) bool { return ref(r) == "StripeSecretArn" })
			if reads && !slices.Contains(readers, fn+"Role") {
				readers = append(readers, fn+"Role")
			}
		}
	}
	if len(readers) == 0 {
		t.Fatal("no function reads the Stripe secret")
	}

	// Every IAM policy outside the functions' Policies, which the
	// permission test (lambdatest.Record) does not see: this one alone.
	var policies []string
	for _, typ := range []string{"AWS::IAM::Policy", "AWS::IAM::ManagedPolicy", "AWS::IAM::RolePolicy"} {
		policies = append(policies, tp.ofType(typ)...)
	}
	if !slices.Equal(policies, []string{"SecretsKmsKeyPolicy"}) {
		t.Fatalf("IAM policies outside the functions' Policies: %v, want SecretsKmsKeyPolicy alone", policies)
	}
	res := tp.resources["SecretsKmsKeyPolicy"]
	props := field(res, "Properties")
	var roles []string
	for _, r := range items(field(props, "Roles")) {
		roles = append(roles, ref(r))
	}
	slices.Sort(roles)
	stmts := items(field(props, "PolicyDocument", "Statement"))
	if len(stmts) != 1 {
		t.Fatalf("SecretsKmsKeyPolicy: %d statements, want 1", len(stmts))
	}
	st := stmts[0]
	var secret []string
	for _, r := range items(field(st, "Condition", "StringLike", "kms:EncryptionContext:SecretARN")) {
		secret = append(secret, value(r))
	}
	checks := []struct{ name, got, want string }{
		{"Type", plain(field(res, "Type")), "AWS::IAM::Policy"},
		{"Condition", plain(field(res, "Condition")), "HasSecretsKmsKey"},
		{"Roles", strings.Join(roles, " "), strings.Join(readers, " ")},
		{"Effect", plain(field(st, "Effect")), "Allow"},
		{"Action", strings.Join(plains(field(st, "Action")), " "), "kms:Decrypt"},
		{"Resource", strings.Join(func() []string {
			var s []string
			for _, r := range items(field(st, "Resource")) {
				s = append(s, value(r))
			}
			return s
		}(), " "), "!Ref SecretsKmsKeyArn"},
		{"through Secrets Manager only", value(field(st, "Condition", "StringEquals", "kms:ViaService")), "!Sub secretsmanager.${AWS::Region}.amazonaws.com"},
		{"for the Stripe secret only", strings.Join(secret, ", "), "!Ref StripeSecretArn, !Sub ${StripeSecretArn}-??????"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("SecretsKmsKeyPolicy %s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}

// awsMetric is a metric AWS publishes for a resource of the template:
// its dimension sets (sorted names), the first of each naming the
// resource.
type awsMetric struct {
	resourceType string     // the template's type of the resource the first dimension names
	dimensions   [][]string // each set the metric is published under, its resource's dimension first
}

// awsMetrics are the metrics AWS publishes for the stack's resource types,
// by namespace and name (AWS Lambda Developer Guide, "Types of metrics for
// Lambda functions"; API Gateway Developer Guide, "Monitor CloudWatch
// metrics for HTTP APIs", the detailed per-route metrics being under
// ApiId, Method, Resource and Stage; DynamoDB Developer Guide, "DynamoDB
// Metrics and dimensions"; SQS Developer Guide, "Available CloudWatch
// metrics for Amazon SQS"). Only what the dashboard and the alarms draw
// on, and its neighbours.
var awsMetrics = func() map[string]map[string]awsMetric {
	lambda := awsMetric{"AWS::Serverless::Function", [][]string{{"FunctionName"}}}
	api := awsMetric{"AWS::Serverless::HttpApi", [][]string{{"ApiId"}, {"ApiId", "Stage"}, {"ApiId", "Method", "Resource", "Stage"}}}
	table := awsMetric{"AWS::DynamoDB::Table", [][]string{{"TableName"}, {"TableName", "GlobalSecondaryIndexName"}}}
	tableOperation := awsMetric{"AWS::DynamoDB::Table", [][]string{{"TableName", "Operation"}}}
	queue := awsMetric{"AWS::SQS::Queue", [][]string{{"QueueName"}}}
	account := awsMetric{"", [][]string{{}}}
	return map[string]map[string]awsMetric{
		"AWS/Lambda": {"Invocations": lambda, "Errors": lambda, "Throttles": lambda, "Duration": lambda,
			"ConcurrentExecutions": lambda, "IteratorAge": lambda},
		"AWS/ApiGateway": {"Count": api, "4xx": api, "5xx": api, "Latency": api, "IntegrationLatency": api, "DataProcessed": api},
		"AWS/DynamoDB": {"ConsumedReadCapacityUnits": table, "ConsumedWriteCapacityUnits": table,
			"ReadThrottleEvents": table, "WriteThrottleEvents": table,
			"SystemErrors": tableOperation, "ThrottledRequests": tableOperation, "SuccessfulRequestLatency": tableOperation},
		"AWS/SQS": {"ApproximateNumberOfMessagesVisible": queue, "ApproximateAgeOfOldestMessage": queue},
		// The account's sending reputation: no dimension, no resource.
		"AWS/SES": {"Reputation.BounceRate": account, "Reputation.ComplaintRate": account},
	}
}()

// emittedMetrics are the EMF metrics the functions write, as
// "namespace metric [dimension,...]": each method of pkg/metrics' Metrics
// (but Count, which they all go through) run once, in the namespace the
// template gives the functions (METRICS_NAMESPACE), its lines read back.
func emittedMetrics(t *testing.T, namespace string) []string {
	t.Helper()
	var buf bytes.Buffer
	m := metrics.New(slog.New(slog.NewJSONHandler(&buf, nil)), namespace, time.Now)
	v := reflect.ValueOf(m)
	for i := range v.NumMethod() {
		method := v.Type().Method(i)
		if method.Name == "Count" {
			continue
		}
		args := []reflect.Value{reflect.ValueOf(context.Background())}
		for j := 2; j < method.Type.NumIn(); j++ { // after the receiver and ctx
			typ := method.Type.In(j)
			if typ.Kind() != reflect.String {
				t.Fatalf("metrics.%s takes a %s: teach emittedMetrics a value of it", method.Name, typ)
			}
			args = append(args, reflect.ValueOf("value").Convert(typ))
		}
		v.Method(i).Call(args)
	}
	// The mail-events function writes its two through Count itself.
	m.Count(context.Background(), metrics.UndeliverableRecorded, metrics.DimensionReason, "bounce")
	m.Count(context.Background(), metrics.SendingDisabled, "", "")
	var emitted []string
	for line := range strings.Lines(buf.String()) {
		var l struct {
			AWS struct {
				CloudWatchMetrics []struct {
					Namespace  string
					Dimensions [][]string
					Metrics    []struct{ Name string }
				}
			} `json:"_aws"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("metrics wrote %q: %v", line, err)
		}
		for _, d := range l.AWS.CloudWatchMetrics {
			for _, metric := range d.Metrics {
				for _, dims := range d.Dimensions {
					dims = slices.Sorted(slices.Values(dims))
					if s := d.Namespace + " " + metric.Name + " [" + strings.Join(dims, ",") + "]"; !slices.Contains(emitted, s) {
						emitted = append(emitted, s)
					}
				}
			}
		}
	}
	if len(emitted) == 0 {
		t.Fatal("pkg/metrics wrote no metric")
	}
	return emitted
}

// drawn is one metric a widget or an alarm draws: its namespace, name and
// dimensions (value "" for any: a SEARCH's dimension it does not fix), and
// the statistic.
type drawn struct {
	namespace, name string
	dims            map[string]string
	stat            string
}

func (d drawn) String() string {
	var s []string
	for _, k := range slices.Sorted(maps.Keys(d.dims)) {
		s = append(s, k+"="+d.dims[k])
	}
	return d.namespace + " " + d.name + " " + strings.Join(s, " ") + " (" + d.stat + ")"
}

// known says why a drawn metric is neither one the stack emits nor one AWS
// publishes for a resource of the template, or nil.
func (tp template) known(d drawn, emitted []string) error {
	dims := slices.Sorted(maps.Keys(d.dims))
	if byName, ok := awsMetrics[d.namespace]; ok {
		m, ok := byName[d.name]
		if !ok {
			return fmt.Errorf("AWS publishes no %s in %s (or the test's table lacks it)", d.name, d.namespace)
		}
		if !slices.ContainsFunc(m.dimensions, func(set []string) bool { return slices.Equal(slices.Sorted(slices.Values(set)), dims) }) {
			return fmt.Errorf("%s %s is published under %v, not %v", d.namespace, d.name, m.dimensions, dims)
		}
		if m.resourceType == "" { // the account's: no resource to name
			return nil
		}
		// The dimension that names the resource must name one of the
		// template's, of the right type, as ${LogicalId} or
		// ${LogicalId.QueueName}.
		id := m.dimensions[0][0]
		v, ok := strings.CutPrefix(d.dims[id], "${")
		v, ok2 := strings.CutSuffix(v, "}")
		logical, attr, _ := strings.Cut(v, ".")
		switch {
		case !ok || !ok2:
			return fmt.Errorf("%s=%q: want a ${...} of the template's %s", id, d.dims[id], m.resourceType)
		case plain(field(tp.resources[logical], "Type")) != m.resourceType:
			return fmt.Errorf("%s=%q: %s is not a %s of the template", id, d.dims[id], logical, m.resourceType)
		case m.resourceType == "AWS::SQS::Queue" && attr != "QueueName", m.resourceType != "AWS::SQS::Queue" && attr != "":
			return fmt.Errorf("%s=%q: not the resource's name", id, d.dims[id])
		}
		return nil
	}
	if s := d.namespace + " " + d.name + " [" + strings.Join(dims, ",") + "]"; !slices.Contains(emitted, s) {
		return fmt.Errorf("not a metric the stack emits (pkg/metrics writes %v)", emitted)
	}
	return nil
}

// searchExpr is a SEARCH over one schema: SEARCH('{namespace,dims...}
// MetricName="name" Dim="value"...', 'stat', period), where the namespace
// may be in double quotes.
var searchExpr = regexp.MustCompile(`^SEARCH\('\{(.+?)\}((?: [A-Za-z]+="[^"]*")+)', '(\w+)', (\d+)\)$`)
var searchTerm = regexp.MustCompile(` ([A-Za-z]+)="([^"]*)"`)

// dashboardMetrics reads the metrics a dashboard body's widgets draw.
func dashboardMetrics(t *testing.T, body string) []drawn {
	t.Helper()
	var dash struct {
		Widgets []struct {
			Type       string
			Properties struct {
				Title, Region, Stat string
				Metrics             [][]any
			}
		}
	}
	if err := json.Unmarshal([]byte(body), &dash); err != nil {
		t.Fatalf("DashboardBody is not JSON: %v", err)
	}
	var all []drawn
	for _, w := range dash.Widgets {
		p := w.Properties
		if w.Type != "metric" {
			continue
		}
		if p.Region != "${AWS::Region}" {
			t.Errorf("widget %q: region %q, want ${AWS::Region}", p.Title, p.Region)
		}
		if len(p.Metrics) == 0 {
			t.Errorf("widget %q draws nothing", p.Title)
		}
		for _, row := range p.Metrics {
			d := drawn{dims: map[string]string{}, stat: p.Stat}
			var opts map[string]any
			var names []string
			for _, e := range row {
				switch e := e.(type) {
				case string:
					names = append(names, e)
				case map[string]any:
					opts = e
				}
			}
			if s, ok := opts["stat"].(string); ok {
				d.stat = s
			}
			if e, ok := opts["expression"].(string); ok {
				m := searchExpr.FindStringSubmatch(e)
				if m == nil || len(names) > 0 {
					t.Errorf("widget %q: expression %q, want SEARCH('{namespace,dims} MetricName=\"...\" ...', 'stat', period) alone", p.Title, e)
					continue
				}
				schema := strings.Split(m[1], ",")
				d.namespace, d.stat = strings.Trim(schema[0], `"`), m[3]
				for _, dim := range schema[1:] {
					d.dims[dim] = ""
				}
				for _, term := range searchTerm.FindAllStringSubmatch(m[2], -1) {
					if term[1] == "MetricName" {
						d.name = term[2]
					} else if _, ok := d.dims[term[1]]; ok {
						d.dims[term[1]] = term[2]
					} else {
						t.Errorf("widget %q: %s=%q is not a dimension of the schema %v", p.Title, term[1], term[2], schema)
					}
				}
				all = append(all, d)
				continue
			}
			// [namespace, name, dim, value, ..., {options}], written out:
			// no "." or "..." repeating the row above.
			if len(names) < 2 || len(names)%2 != 0 || slices.ContainsFunc(names, func(s string) bool { return s == "." || s == "..." }) {
				t.Errorf("widget %q: metric %v, want [namespace, name, dimension, value, ...] in full", p.Title, row)
				continue
			}
			d.namespace, d.name = names[0], names[1]
			for i := 2; i+1 < len(names); i += 2 {
				d.dims[names[i]] = names[i+1]
			}
			all = append(all, d)
		}
	}
	return all
}

// TestDashboard: the stack's CloudWatch dashboard draws what the operator
// needs (the business events, the API per route, every function, the
// table, the notifications, the sweeper and the queues), and every metric
// it draws is one the stack emits (pkg/metrics, in the namespace the
// functions are given) or one AWS publishes for a resource of the template:
// a misspelt name or dimension would draw an empty graph and fail no
// deploy. The alarms' metrics are held to the same, and every alarm's
// state is shown.
func TestDashboard(t *testing.T) {
	tp := loadTemplate(t)
	ns := tp.envVar(nil, "METRICS_NAMESPACE")
	if ns == nil || ns.Tag != "!Sub" {
		t.Fatal("Globals: want METRICS_NAMESPACE, a !Sub")
	}
	emitted := emittedMetrics(t, ns.Value)

	id := tp.only(t, "AWS::CloudWatch::Dashboard")
	props := field(tp.resources[id], "Properties")
	// Dashboards are per account: the region in the name keeps two
	// regions' stacks of the same name apart.
	if got := value(field(props, "DashboardName")); got != "!Sub ${AWS::StackName}-${AWS::Region}" {
		t.Errorf("DashboardName: got %q, want !Sub ${AWS::StackName}-${AWS::Region}", got)
	}
	if url := field(tp.top, "Outputs", "DashboardUrl", "Value"); url == nil || url.Tag != "!Sub" || !strings.Contains(url.Value, "#dashboards/dashboard/${"+id+"}") {
		t.Errorf("output DashboardUrl: want a !Sub of the console's address of ${%s}", id)
	}
	bodyNode := field(props, "DashboardBody")
	if bodyNode == nil || bodyNode.Tag != "!Sub" {
		t.Fatal("DashboardBody: want a !Sub of the JSON")
	}
	body := bodyNode.Value
	// Every ${...} names a parameter, a pseudo parameter, a resource or a
	// resource's attribute.
	for _, m := range regexp.MustCompile(`\$\{([^}]*)\}`).FindAllStringSubmatch(body, -1) {
		name, _, _ := strings.Cut(m[1], ".")
		if tp.resources[name] == nil && field(tp.top, "Parameters", name) == nil && !slices.Contains([]string{"AWS::Region", "AWS::StackName", "AWS::AccountId", "AWS::Partition"}, name) {
			t.Errorf("DashboardBody: ${%s} names nothing of the template", m[1])
		}
	}
	// The per-route graphs need API Gateway's detailed metrics: on every
	// route, unless RouteMetrics turns them off.
	apiProps := field(tp.resources[tp.only(t, "AWS::Serverless::HttpApi")], "Properties")
	if d := plain(field(tp.top, "Parameters", "RouteMetrics", "Default")); d != "true" {
		t.Errorf("RouteMetrics: Default %q, want true", d)
	}
	settings := map[string]*yaml.Node{"DefaultRouteSettings": field(apiProps, "DefaultRouteSettings")}
	if rs := field(apiProps, "RouteSettings"); rs != nil {
		for i := 0; i+1 < len(rs.Content); i += 2 {
			settings["RouteSettings "+rs.Content[i].Value] = rs.Content[i+1]
		}
	}
	for where, s := range settings {
		if got := ref(field(s, "DetailedMetricsEnabled")); got != "RouteMetrics" {
			t.Errorf("%s: DetailedMetricsEnabled %q, want !Ref RouteMetrics", where, got)
		}
	}

	all := dashboardMetrics(t, body)
	for _, d := range all {
		if err := tp.known(d, emitted); err != nil {
			t.Errorf("dashboard draws %s: %v", d, err)
		}
	}

	// draws says whether the dashboard draws a metric of that namespace
	// and name, with exactly those dimensions (a SEARCH's free ones ""),
	// with the statistic ("" for any).
	draws := func(namespace, name, stat string, dims ...string) bool {
		return slices.ContainsFunc(all, func(d drawn) bool {
			if d.namespace != namespace || d.name != name || (stat != "" && d.stat != stat) || len(d.dims) != len(dims)/2 {
				return false
			}
			for i := 0; i+1 < len(dims); i += 2 {
				if v, ok := d.dims[dims[i]]; !ok || v != dims[i+1] {
					return false
				}
			}
			return true
		})
	}
	var wants []struct {
		what string
		ok   bool
	}
	want := func(what string, ok bool) {
		wants = append(wants, struct {
			what string
			ok   bool
		}{what, ok})
	}
	want("requests created", draws(ns.Value, metrics.RequestsCreated, "Sum"))
	want("requests refused", draws(ns.Value, metrics.RequestsRefused, "Sum"))
	want("requests refused by code", draws(ns.Value, metrics.RequestsRefused, "Sum", metrics.DimensionCode, ""))
	want("notifications sent by channel", draws(ns.Value, metrics.NotificationsSent, "Sum", metrics.DimensionChannel, ""))
	want("notifications failed by channel", draws(ns.Value, metrics.NotificationsFailed, "Sum", metrics.DimensionChannel, ""))
	want("the account's SES bounce rate", draws("AWS/SES", "Reputation.BounceRate", "Maximum"))
	want("the account's SES complaint rate", draws("AWS/SES", "Reputation.ComplaintRate", "Maximum"))
	want("undeliverable addresses recorded per day", draws(ns.Value, metrics.UndeliverableRecorded, "Sum"))
	want("undeliverable addresses recorded per day, by reason", draws(ns.Value, metrics.UndeliverableRecorded, "Sum", metrics.DimensionReason, ""))
	apiID := tp.only(t, "AWS::Serverless::HttpApi")
	api := "${" + apiID + "}"
	route := []string{"ApiId", api, "Method", "", "Resource", "", "Stage", ""}
	for _, stat := range []string{"p50", "p95", "p99"} {
		want("latency "+stat+" by route", draws("AWS/ApiGateway", "Latency", stat, route...))
	}
	want("5xx by route", draws("AWS/ApiGateway", "5xx", "Sum", route...))
	for _, fn := range tp.ofType("AWS::Serverless::Function") {
		want(fn+" errors", draws("AWS/Lambda", "Errors", "Sum", "FunctionName", "${"+fn+"}"))
		want(fn+" throttles", draws("AWS/Lambda", "Throttles", "Sum", "FunctionName", "${"+fn+"}"))
		routes, _ := tp.routes(fn, apiID)
		if slices.ContainsFunc(routes, func(r string) bool { return strings.HasPrefix(r, "SCHEDULE ") }) {
			want(fn+" runs (the sweeper)", draws("AWS/Lambda", "Invocations", "Sum", "FunctionName", "${"+fn+"}"))
		}
	}
	table := "${" + tp.only(t, "AWS::DynamoDB::Table") + "}"
	for _, m := range []string{"ConsumedReadCapacityUnits", "ConsumedWriteCapacityUnits", "ReadThrottleEvents", "WriteThrottleEvents"} {
		want("the table's "+m, draws("AWS/DynamoDB", m, "Sum", "TableName", table))
	}
	for _, q := range tp.ofType("AWS::SQS::Queue") {
		want(q+"'s depth", draws("AWS/SQS", "ApproximateNumberOfMessagesVisible", "", "QueueName", "${"+q+".QueueName}"))
	}
	for _, w := range wants {
		if !w.ok {
			t.Errorf("the dashboard does not draw %s", w.what)
		}
	}

	t.Run("the alarms' states", func(t *testing.T) {
		var dash struct {
			Widgets []struct {
				Type       string
				Properties struct{ Alarms []string }
			}
		}
		if err := json.Unmarshal([]byte(body), &dash); err != nil {
			t.Fatal(err)
		}
		var shown []string
		for _, w := range dash.Widgets {
			if w.Type == "alarm" {
				shown = append(shown, w.Properties.Alarms...)
			}
		}
		var want []string
		for _, id := range tp.ofType("AWS::CloudWatch::Alarm") {
			want = append(want, "${"+id+".Arn}")
		}
		slices.Sort(shown)
		if !slices.Equal(shown, want) {
			t.Errorf("alarm widgets show %v, want every alarm of the template, as ${<LogicalId>.Arn}: %v", shown, want)
		}
	})

	t.Run("the alarms' metrics", func(t *testing.T) {
		for _, id := range tp.ofType("AWS::CloudWatch::Alarm") {
			props := field(tp.resources[id], "Properties")
			var nodes []*yaml.Node
			if field(props, "MetricName") != nil {
				nodes = append(nodes, props)
			}
			for _, q := range items(field(props, "Metrics")) {
				if m := field(q, "MetricStat", "Metric"); m != nil {
					nodes = append(nodes, m)
				}
			}
			for _, m := range nodes {
				d := drawn{namespace: subText(field(m, "Namespace")), name: plain(field(m, "MetricName")), dims: map[string]string{}}
				for _, dim := range items(field(m, "Dimensions")) {
					d.dims[plain(field(dim, "Name"))] = subText(field(dim, "Value"))
				}
				if err := tp.known(d, emitted); err != nil {
					t.Errorf("%s watches %s: %v", id, d, err)
				}
			}
		}
	})
}

// subText renders a value as it reads inside a !Sub: !Ref X as ${X},
// !GetAtt X.Y as ${X.Y}, a !Sub as its text.
func subText(n *yaml.Node) string {
	switch {
	case ref(n) != "":
		return "${" + ref(n) + "}"
	case getAtt(n) != "":
		return "${" + getAtt(n) + "}"
	case n != nil && n.Tag == "!Sub":
		return n.Value
	}
	return plain(n)
}

// TestTemplateLints runs cfn-lint, what `sam validate --lint`
// (samconfig.toml) runs: the SAM transform, then every resource against
// CloudFormation's schemas (property names and types, allowed values,
// !Ref and !Sub targets, a parameter's AllowedValues against the property
// it feeds). Without cfn-lint it is skipped, and fails under CI=true.
func TestTemplateLints(t *testing.T) {
	lint, err := exec.LookPath("cfn-lint")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("cfn-lint is not installed (pip install cfn-lint)")
		}
		t.Skip("cfn-lint is not installed (pip install cfn-lint)")
	}
	cmd := exec.Command(lint, "--format", "parseable", "--non-zero-exit-code", "warning", "template.yaml")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("cfn-lint template.yaml: %v\n%s", err, out)
	}
}
