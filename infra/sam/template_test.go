package sam

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest/iamcheck"
)

// root is the repository root, seen from this package's folder.
const root = "../.."

// wantFunctions says, for each folder functions/<folder>/ with a main.go, the
// HTTP API routes its function serves ("METHOD path", sorted; a schedule is
// "SCHEDULE <expression>", the table's stream "STREAM DoorstepTable.StreamArn")
// and the only DynamoDB actions (sorted) it may use on the table, its indexes
// and its stream: none for a function that reads nothing from them.
var wantFunctions = map[string]struct {
	routes  []string
	actions []string
}{
	"get-business":           {[]string{"GET /api/v1/businesses/{slug}"}, []string{"dynamodb:GetItem"}},
	"list-arrival-windows":   {[]string{"GET /api/v1/businesses/{slug}/availability"}, []string{"dynamodb:GetItem", "dynamodb:Query"}},
	"create-service-request": {[]string{"POST /api/v1/businesses/{slug}/requests"}, createActions},
	"get-service-request":    {[]string{"GET /api/v1/requests/{code}"}, []string{"dynamodb:GetItem"}},
	"get-openapi":            {[]string{"GET /api/v1/openapi.json", "GET /api/v1/openapi.yaml"}, nil},
	"mcp":                    {[]string{"ANY /mcp"}, createActions},
	"business-inbox": {
		[]string{"GET /api/v1/inbox/export", "GET /api/v1/inbox/requests", "GET /api/v1/inbox/requests/{code}", "POST /api/v1/inbox/requests/{code}/{action}", "POST /api/v1/inbox/spam"},
		[]string{"dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
	},
	"business-web": {
		[]string{"ANY /inbox", "ANY /inbox/{proxy+}", "ANY /start", "ANY /start/{proxy+}"},
		[]string{"dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
	},
	"calendar-feed": {[]string{"GET /calendar/{token}"}, []string{"dynamodb:GetItem", "dynamodb:Query"}},
	"book-form":     {[]string{"ANY /book", "ANY /book/{proxy+}", "ANY /book/{slug}", "GET /book/{slug}", "POST /book/{slug}"}, createActions},
	"notify": {
		[]string{"STREAM DoorstepTable.StreamArn"},
		append([]string{"dynamodb:DeleteItem"}, withStream("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem")...),
	},
	"pages": {
		// GET /r/{code} also serves /r/{code}.ics (a path variable takes a
		// whole segment); GET /r also /r/.
		[]string{"GET /pay/{code}", "GET /r", "GET /r/{code}", "GET /r/{code}/cancel", "GET /r/{code}/erase", "POST /pay/{code}", "POST /r/{code}/cancel", "POST /r/{code}/contact", "POST /r/{code}/erase"},
		// ConditionCheckItem: an address added on the status page is not blocked.
		[]string{"dynamodb:ConditionCheckItem", "dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
	},
	"payment-webhook": {
		[]string{"GET /pay/{code}/checkout", "GET /pay/{code}/return", "POST /webhooks/stripe"},
		[]string{"dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
	},
	"refund-deposits": {[]string{"STREAM DoorstepTable.StreamArn"}, withStream()},
	"mail-events": {
		// SES's e-mail events (its configuration set's) and sending status.
		// GetItem: the business whose inbox address it is, and its owner's
		// number's opt-out, when the owner is texted.
		[]string{"EVENTBRIDGE MailEvents", "EVENTBRIDGE SendingStatus"},
		[]string{"dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
	},
	"expire-holds": {
		[]string{"SCHEDULE rate(1 minute)"},
		[]string{"dynamodb:DeleteItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"},
	},
}

// createActions are what a function that creates requests needs: the
// business (GetItem), its hourly slots (Query), and in the create's
// transaction the blocked-contact checks (ConditionCheckItem), the puts and
// the counters (UpdateItem); PutItem also records a limit hit.
var createActions = []string{"dynamodb:ConditionCheckItem", "dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query", "dynamodb:UpdateItem"}

// streamActions are what a function fed by the table's stream needs: Lambda
// reads the stream with the function's role.
var streamActions = []string{"dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams"}

// withStream returns actions and streamActions, sorted.
func withStream(actions ...string) []string {
	all := append(slices.Clone(streamActions), actions...)
	slices.Sort(all)
	return all
}

// TestFunctions checks that sam build and sam deploy turn every
// functions/<folder>/ into exactly one Lambda function, built by the
// Makefile's build-<LogicalId> target, on the right routes and runtime, with
// inline policies on the table alone (or none, for a function that reads
// nothing from it).
func TestFunctions(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed, so the Makefile's build targets cannot be checked")
	}
	tp := loadTemplate(t)
	tableID := tp.only(t, "AWS::DynamoDB::Table")
	apiID := tp.only(t, "AWS::Serverless::HttpApi")

	mains, err := filepath.Glob(filepath.Join(root, "functions", "*", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, m := range mains {
		folders = append(folders, filepath.Base(filepath.Dir(m)))
	}
	if len(folders) == 0 {
		t.Fatal("no functions/*/main.go found")
	}

	builds, err := makeGoBuilds("build")
	if err != nil {
		t.Fatalf("make -n build: %v", err)
	}
	buildOf := map[string]goBuild{} // folder → what make build runs for it
	for _, b := range builds {
		buildOf[strings.TrimPrefix(b.pkg, "./functions/")] = b
	}

	// sam build runs `make build-<LogicalId>` with ARTIFACTS_DIR set and
	// deploys $ARTIFACTS_DIR/bootstrap. Each must build a function folder
	// with the flags make build uses.
	folderOf := map[string]string{} // logical ID → folder it is built from
	for _, id := range tp.ofType("AWS::Serverless::Function") {
		t.Run("build-"+id, func(t *testing.T) {
			artifacts := "/sam-artifacts/" + id
			bs, err := makeGoBuilds("build-"+id, "ARTIFACTS_DIR="+artifacts)
			if err != nil {
				t.Fatalf("make -n build-%s (what sam build runs): %v", id, err)
			}
			if len(bs) != 1 {
				t.Fatalf("make build-%s runs %d go build commands, want 1", id, len(bs))
			}
			b := bs[0]
			folder := strings.TrimPrefix(b.pkg, "./functions/")
			if !slices.Contains(folders, folder) {
				t.Fatalf("make build-%s builds %q, want ./functions/<folder> of a folder with a main.go", id, b.pkg)
			}
			folderOf[id] = folder
			if got, want := b.out, artifacts+"/bootstrap"; got != want {
				t.Errorf("make build-%s writes %q, want %q", id, got, want)
			}
			mb, ok := buildOf[folder]
			if !ok {
				t.Fatalf("make build does not build functions/%s", folder)
			}
			if got, want := b.cmd, mb.cmd; got != want {
				t.Errorf("make build-%s runs\n\t%s\nwant the same command as make build:\n\t%s", id, got, want)
			}
		})
	}

	for _, folder := range folders {
		t.Run(folder, func(t *testing.T) {
			want, ok := wantFunctions[folder]
			if !ok {
				t.Fatalf("functions/%s has no expected route: add it to wantFunctions", folder)
			}
			var ids []string
			for id, f := range folderOf {
				if f == folder {
					ids = append(ids, id)
				}
			}
			if len(ids) != 1 {
				t.Fatalf("got %d AWS::Serverless::Function resources built from functions/%s %v, want 1", len(ids), folder, ids)
			}
			fn := tp.resources[ids[0]]

			gotRoutes, err := tp.routes(ids[0], apiID)
			if err != nil {
				gotRoutes = []string{err.Error()}
			}
			gotActions, err := tableActions(fn, tableID)
			if err != nil {
				gotActions = []string{err.Error()}
			}
			b := buildOf[folder]
			checks := []struct {
				name, got, want string
			}{
				{"routes", strings.Join(gotRoutes, ", "), strings.Join(want.routes, ", ")},
				{"DynamoDB actions on the table", strings.Join(gotActions, " "), strings.Join(want.actions, " ")},
				{"CodeUri", plain(field(fn, "Properties", "CodeUri")), "."},
				{"Metadata.BuildMethod", plain(field(fn, "Metadata", "BuildMethod")), "makefile"},
				{"Handler", plain(tp.property(fn, "Handler")), "bootstrap"},
				{"Runtime", plain(tp.property(fn, "Runtime")), "provided.al2023"},
				{"Architectures", strings.Join(plains(tp.property(fn, "Architectures")), " "), "arm64"},
				{"TABLE_NAME", ref(tp.envVar(fn, "TABLE_NAME")), tableID},
				{"SITE_URL", ref(tp.envVar(fn, "SITE_URL")), "SiteUrl"},
				{"binary for linux", fmt.Sprint(strings.Contains(b.cmd, "GOOS=linux ")), "true"},
				{"binary for arm64", fmt.Sprint(strings.Contains(b.cmd, "GOARCH=arm64 ")), "true"},
				{"binary without cgo", fmt.Sprint(strings.Contains(b.cmd, "CGO_ENABLED=0 ")), "true"},
				{"binary without RPC and HTTP/2", fmt.Sprint(strings.Contains(b.cmd, "-tags lambda.norpc,nethttpomithttp2 ")), "true"},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s (%s): got %q, want %q", c.name, ids[0], c.got, c.want)
				}
			}
		})
	}

	t.Run("wantFunctions", func(t *testing.T) {
		for folder := range wantFunctions {
			if !slices.Contains(folders, folder) {
				t.Errorf("wantFunctions has functions/%s, which has no main.go", folder)
			}
		}
	})
}

// TestTable checks the table settings the code and its data rely on.
func TestTable(t *testing.T) {
	tp := loadTemplate(t)
	table := tp.resources[tp.only(t, "AWS::DynamoDB::Table")]
	props := field(table, "Properties")
	// A name of CloudFormation's making unless TableName says one: the
	// table is kept when the stack is deleted, and a fixed name would make
	// the next deploy of the stack fail with "already exists".
	name := "?"
	if a := intrinsic(field(props, "TableName"), "Fn::If"); a != nil && len(a.Content) == 3 {
		name = a.Content[0].Value + " " + ref(a.Content[1]) + " " + ref(a.Content[2])
	}
	tableNameDefault := "none"
	if d := field(tp.top, "Parameters", "TableName", "Default"); d != nil {
		tableNameDefault = fmt.Sprintf("%q", plain(d))
	}
	tests := []struct {
		name, got, want string
	}{
		{"table name", name, "HasTableName TableName AWS::NoValue"},
		{"condition HasTableName", notEmpty(field(tp.top, "Conditions", "HasTableName")), "TableName"},
		{"TableName's default", tableNameDefault, `""`},
		{"key schema", pairs(field(props, "KeySchema"), "AttributeName", "KeyType"), "pk HASH, sk RANGE"},
		{"key types", pairs(field(props, "AttributeDefinitions"), "AttributeName", "AttributeType"),
			"pk S, sk S, inbox_slug S, created S, sweep_shard S, sweep_at N, remind_shard S, remind_at N, erase_shard S, erase_at N"},
		{"indexes", indexes(field(props, "GlobalSecondaryIndexes")),
			"inbox (inbox_slug HASH, created RANGE) ALL; sweep (sweep_shard HASH, sweep_at RANGE) KEYS_ONLY; remind (remind_shard HASH, remind_at RANGE) KEYS_ONLY; erase (erase_shard HASH, erase_at RANGE) KEYS_ONLY"},
		{"billing mode", plain(field(props, "BillingMode")), "PAY_PER_REQUEST"},
		{"TTL attribute", plain(field(props, "TimeToLiveSpecification", "AttributeName")), "expires_at"},
		{"TTL enabled", plain(field(props, "TimeToLiveSpecification", "Enabled")), "true"},
		{"point-in-time recovery", plain(field(props, "PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled")), "true"},
		{"deletion protection", plain(field(props, "DeletionProtectionEnabled")), "true"},
		{"DeletionPolicy", plain(field(table, "DeletionPolicy")), "Retain"},
		{"UpdateReplacePolicy", plain(field(table, "UpdateReplacePolicy")), "Retain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

// TestStreams checks the mappings that feed functions from the table's
// stream: explicit ones (a SAM DynamoDB event would give the function's role
// stream reads on "*"), each under the logical ID SAM gave the mapping it
// generated before, so that a deployed stack keeps its mapping and the
// mapping's place in the stream.
func TestStreams(t *testing.T) {
	tp := loadTemplate(t)
	tableID := tp.only(t, "AWS::DynamoDB::Table")
	mappings := tp.ofType("AWS::Lambda::EventSourceMapping")
	if len(mappings) == 0 {
		t.Fatal("no AWS::Lambda::EventSourceMapping")
	}
	for _, id := range mappings {
		t.Run(id, func(t *testing.T) {
			props := field(tp.resources[id], "Properties")
			fn := ref(field(props, "FunctionName"))
			queue, _ := strings.CutSuffix(getAtt(field(props, "DestinationConfig", "OnFailure", "Destination")), ".Arn")
			tests := []struct {
				name, got, want string
			}{
				{"function", plain(field(tp.resources[fn], "Type")), "AWS::Serverless::Function"},
				{"logical ID", id, fn + "Stream"},
				{"stream", getAtt(field(props, "EventSourceArn")), tableID + ".StreamArn"},
				{"starting position", plain(field(props, "StartingPosition")), "LATEST"},
				{"partial batch failures", strings.Join(plains(field(props, "FunctionResponseTypes")), " "), "ReportBatchItemFailures"},
				{"bisect a failing batch", plain(field(props, "BisectBatchOnFunctionError")), "true"},
				{"filtered", fmt.Sprint(len(items(field(props, "FilterCriteria", "Filters"))) > 0), "true"},
				{"dead-letter queue", plain(field(tp.resources[queue], "Type")), "AWS::SQS::Queue"},
			}
			for _, tt := range tests {
				if tt.got != tt.want {
					t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
				}
			}
		})
	}
}

// TestTexts checks that only NotifyFunction may send texts (every
// message's, the web inbox's phone codes among them: business-web writes
// them to the table, dynamo.Outgoing), only when they are on, with
// SendTextMessage alone, on the resource types it is authorised against in
// the stack's account and region; and that only it may call SES.
func TestTexts(t *testing.T) {
	tp := loadTemplate(t)
	if got := notEmpty(field(tp.top, "Conditions", "HasSms")); got != "SmsOriginationIdentity" {
		t.Errorf("condition HasSms: got a test of %q, want SmsOriginationIdentity not empty", got)
	}
	types := []string{"phone-number", "sender-id", "pool", "opt-out-list", "configuration-set"}
	sent := false
	for _, id := range tp.ofType("AWS::Serverless::Function") {
		stmts, err := statements(tp.resources[id])
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for _, st := range stmts {
			actions := plains(field(st.node, "Action"))
			if id != "NotifyFunction" && slices.ContainsFunc(actions, func(a string) bool { return strings.HasPrefix(a, "ses:") }) {
				t.Errorf("%s %s: only NotifyFunction sends e-mail", id, st.where)
			}
			if !slices.ContainsFunc(actions, func(a string) bool { return strings.HasPrefix(a, "sms-voice:") }) {
				continue
			}
			sent = true
			where := id + " " + st.where
			if id != "NotifyFunction" {
				t.Errorf("%s: only NotifyFunction sends texts", where)
			}
			if st.condition != "HasSms" {
				t.Errorf("%s: granted under condition %q, want HasSms (no texts, no permission)", where, st.condition)
			}
			if got := strings.Join(actions, " "); got != "sms-voice:SendTextMessage" {
				t.Errorf("%s: actions %q, want sms-voice:SendTextMessage alone", where, got)
			}
			var got []string
			for _, r := range items(field(st.node, "Resource")) {
				arn, ok := strings.CutPrefix(r.Value, "arn:${AWS::Partition}:sms-voice:${AWS::Region}:${AWS::AccountId}:")
				typ, star := strings.CutSuffix(arn, "/*")
				if r.Tag != "!Sub" || !ok || !star || !slices.Contains(types, typ) {
					t.Errorf("%s: Resource %q, want !Sub \"arn:${AWS::Partition}:sms-voice:${AWS::Region}:${AWS::AccountId}:<type>/*\" of a type in %v", where, r.Value, types)
				}
				got = append(got, typ)
			}
			if !slices.Equal(got, types) {
				t.Errorf("%s: resource types %v, want %v", where, got, types)
			}
		}
	}
	if !sent {
		t.Error("no function may send texts; want NotifyFunction, when HasSms")
	}
}

// TestStripe checks that a stack deploys without Stripe (StripeSecretArn
// empty): then no function gets STRIPE_SECRET_ARN, nor may read a secret.
// With Stripe, the functions that take payments may read that secret alone,
// named by its ARN with or without Secrets Manager's random suffix.
func TestStripe(t *testing.T) {
	tp := loadTemplate(t)
	param := field(tp.top, "Parameters", "StripeSecretArn")
	pattern, err := regexp.Compile(plain(field(param, "AllowedPattern")))
	if err != nil {
		t.Fatalf("StripeSecretArn's AllowedPattern: %v", err)
	}
	const arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep/stripe"
	for _, v := range []string{"", arn, arn + "-AbC123"} {
		if !pattern.MatchString(v) {
			t.Errorf("StripeSecretArn's AllowedPattern refuses %q", v)
		}
	}
	if d := field(param, "Default"); d == nil || plain(d) != "" {
		t.Error(`StripeSecretArn: want Default ""`)
	}
	if got := notEmpty(field(tp.top, "Conditions", "HasStripe")); got != "StripeSecretArn" {
		t.Errorf("condition HasStripe: got a test of %q, want StripeSecretArn not empty", got)
	}
	if got := plain(field(tp.top, "Outputs", "StripeWebhookUrl", "Condition")); got != "HasStripe" {
		t.Errorf("output StripeWebhookUrl: condition %q, want HasStripe", got)
	}

	var withStripe, formKeyReaders []string
	for _, id := range tp.ofType("AWS::Serverless::Function") {
		env := field(tp.resources[id], "Properties", "Environment", "Variables", "STRIPE_SECRET_ARN")
		if env != nil {
			withStripe = append(withStripe, id)
			if a := intrinsic(env, "Fn::If"); a == nil || len(a.Content) != 3 || a.Content[0].Value != "HasStripe" ||
				ref(a.Content[1]) != "StripeSecretArn" || ref(a.Content[2]) != "AWS::NoValue" {
				t.Errorf("%s: STRIPE_SECRET_ARN, want !If [HasStripe, !Ref StripeSecretArn, !Ref AWS::NoValue]", id)
			}
		}
		stmts, err := statements(tp.resources[id])
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		reads := false
		for _, st := range stmts {
			actions := plains(field(st.node, "Action"))
			if !slices.ContainsFunc(actions, func(a string) bool { return strings.HasPrefix(a, "secretsmanager:") }) {
				continue
			}
			where := id + " " + st.where
			if res := items(field(st.node, "Resource")); len(res) == 1 && ref(res[0]) == "FormKeySecret" {
				// The booking form's key (TestFormKey), not Stripe's.
				formKeyReaders = append(formKeyReaders, id)
				if got := strings.Join(actions, " "); got != "secretsmanager:GetSecretValue" || st.condition != "" {
					t.Errorf("%s: actions %q under condition %q, want secretsmanager:GetSecretValue alone, always", where, got, st.condition)
				}
				continue
			}
			reads = true
			if st.condition != "HasStripe" {
				t.Errorf("%s: granted under condition %q, want HasStripe", where, st.condition)
			}
			if got := strings.Join(actions, " "); got != "secretsmanager:GetSecretValue" {
				t.Errorf("%s: actions %q, want secretsmanager:GetSecretValue alone", where, got)
			}
			var got []string
			for _, r := range items(field(st.node, "Resource")) {
				if name := ref(r); name != "" {
					got = append(got, "!Ref "+name)
				} else {
					got = append(got, r.Tag+" "+r.Value)
				}
			}
			if got, want := strings.Join(got, ", "), "!Ref StripeSecretArn, !Sub ${StripeSecretArn}-??????"; got != want {
				t.Errorf("%s: Resource %s, want %s (the ARN in full, or without the 6 random characters)", where, got, want)
			}
		}
		if reads != (env != nil) {
			t.Errorf("%s: reads a secret: %v, has STRIPE_SECRET_ARN: %v; want both or neither", id, reads, env != nil)
		}
	}
	if got, want := strings.Join(withStripe, " "), "CreateServiceRequestFunction PaymentWebhookFunction RefundDepositsFunction"; got != want {
		t.Errorf("functions with STRIPE_SECRET_ARN: %s, want %s", got, want)
	}
	if got, want := strings.Join(formKeyReaders, " "), "BookFormFunction"; got != want {
		t.Errorf("functions that read FormKeySecret: %s, want %s", got, want)
	}
}

// TestFormKey checks the booking form's signing key: a secret Secrets
// Manager generates, named to the form's function by ARN only.
func TestFormKey(t *testing.T) {
	tp := loadTemplate(t)
	secret := tp.resources["FormKeySecret"]
	gen := field(secret, "Properties", "GenerateSecretString")
	checks := []struct{ name, got, want string }{
		{"type", plain(field(secret, "Type")), "AWS::SecretsManager::Secret"},
		{"length", plain(field(gen, "PasswordLength")), "64"},
		{"no SecretString in the template", fmt.Sprint(field(secret, "Properties", "SecretString") == nil), "true"},
		{"FORM_SECRET_ARN", ref(field(tp.resources["BookFormFunction"], "Properties", "Environment", "Variables", "FORM_SECRET_ARN")), "FormKeySecret"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
	}
}

// notEmpty returns the parameter a condition tests is not empty,
// !Not [!Equals [!Ref parameter, ""]], or "".
func notEmpty(cond *yaml.Node) string {
	not := intrinsic(cond, "Fn::Not")
	if not == nil || not.Kind != yaml.SequenceNode || len(not.Content) != 1 {
		return ""
	}
	eq := intrinsic(not.Content[0], "Fn::Equals")
	if eq == nil || eq.Kind != yaml.SequenceNode || len(eq.Content) != 2 || plain(eq.Content[1]) != "" || eq.Content[1].Kind != yaml.ScalarNode {
		return ""
	}
	return ref(eq.Content[0])
}

// indexes spells out GlobalSecondaryIndexes as pkg/dynamo's CreateTable
// makes them: "name (key KIND, ...) PROJECTION; ...".
func indexes(n *yaml.Node) string {
	var out []string
	for _, ix := range items(n) {
		out = append(out, fmt.Sprintf("%s (%s) %s", plain(field(ix, "IndexName")),
			pairs(field(ix, "KeySchema"), "AttributeName", "KeyType"), plain(field(ix, "Projection", "ProjectionType"))))
	}
	return strings.Join(out, "; ")
}

// TestCORS checks that browsers may call the API, send an Idempotency-Key
// and an inbox token (Authorization), and read Idempotent-Replayed.
func TestCORS(t *testing.T) {
	tp := loadTemplate(t)
	cors := field(tp.resources[tp.only(t, "AWS::Serverless::HttpApi")], "Properties", "CorsConfiguration")
	sorted := func(n *yaml.Node) string {
		s := plains(n)
		slices.Sort(s)
		return strings.Join(s, " ")
	}
	tests := []struct {
		name, got, want string
	}{
		{"AllowOrigins", sorted(field(cors, "AllowOrigins")), "*"},
		{"AllowMethods", sorted(field(cors, "AllowMethods")), "GET OPTIONS POST"},
		{"AllowHeaders", sorted(field(cors, "AllowHeaders")), "Accept Authorization Content-Type Idempotency-Key Last-Event-ID Mcp-Method Mcp-Name Mcp-Protocol-Version Mcp-Session-Id"},
		{"ExposeHeaders", sorted(field(cors, "ExposeHeaders")), "Idempotent-Replayed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

// TestLimits checks that the public, unauthenticated API is throttled at the
// stage (the write routes harder) and that every function's concurrency can
// be capped by a parameter.
func TestLimits(t *testing.T) {
	tp := loadTemplate(t)
	api := field(tp.resources[tp.only(t, "AWS::Serverless::HttpApi")], "Properties")
	reserved := "" // condition and value of Globals.Function.ReservedConcurrentExecutions' !If
	if a := intrinsic(field(tp.globals, "ReservedConcurrentExecutions"), "Fn::If"); a != nil && len(a.Content) == 3 {
		reserved = a.Content[0].Value + " " + ref(a.Content[1])
	}
	tests := []struct {
		name, got, want string
	}{
		{"default rate", ref(field(api, "DefaultRouteSettings", "ThrottlingRateLimit")), "ApiRateLimit"},
		{"default burst", ref(field(api, "DefaultRouteSettings", "ThrottlingBurstLimit")), "ApiBurstLimit"},
		{"reserved concurrency", reserved, "HasReservedConcurrency ReservedConcurrency"},
	}
	// The public routes that write (a request, a tool call, a cancel, a
	// simulated payment, a Stripe session) are throttled harder.
	for _, route := range []string{"POST /api/v1/businesses/{slug}/requests", "ANY /mcp",
		"POST /r/{code}/cancel", "POST /pay/{code}", "GET /pay/{code}/checkout", "POST /book/{slug}", "POST /r/{code}/erase"} {
		tests = append(tests,
			struct{ name, got, want string }{route + " rate", ref(field(api, "RouteSettings", route, "ThrottlingRateLimit")), "CreateRateLimit"},
			struct{ name, got, want string }{route + " burst", ref(field(api, "RouteSettings", route, "ThrottlingBurstLimit")), "CreateBurstLimit"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

// template is template.yaml's Resources and Globals.Function.
type template struct {
	top       *yaml.Node // the whole document: Parameters, Conditions, Outputs...
	globals   *yaml.Node // Globals.Function, or nil
	resources map[string]*yaml.Node
}

func loadTemplate(t *testing.T) template {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// Decoding into a yaml.Node keeps CloudFormation's short forms (!Ref,
	// !GetAtt, !Sub, ...) as tagged nodes instead of failing on them.
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("template.yaml: %v", err)
	}
	if len(doc.Content) != 1 {
		t.Fatal("template.yaml: want one YAML document")
	}
	res := field(doc.Content[0], "Resources")
	if res == nil || res.Kind != yaml.MappingNode {
		t.Fatal("template.yaml: no Resources mapping")
	}
	tp := template{top: doc.Content[0], globals: field(doc.Content[0], "Globals", "Function"), resources: map[string]*yaml.Node{}}
	for i := 0; i+1 < len(res.Content); i += 2 {
		tp.resources[res.Content[i].Value] = res.Content[i+1]
	}
	return tp
}

// ofType returns the sorted logical IDs of the resources of a type.
func (tp template) ofType(typ string) []string {
	var ids []string
	for id, r := range tp.resources {
		if plain(field(r, "Type")) == typ {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// only returns the logical ID of the one resource of a type.
func (tp template) only(t *testing.T, typ string) string {
	t.Helper()
	ids := tp.ofType(typ)
	if len(ids) != 1 {
		t.Fatalf("template.yaml has %d %s resources %v, want 1", len(ids), typ, ids)
	}
	return ids[0]
}

// property returns a function's property, or Globals.Function's when the
// function does not set it.
func (tp template) property(fn *yaml.Node, name string) *yaml.Node {
	if n := field(fn, "Properties", name); n != nil {
		return n
	}
	return field(tp.globals, name)
}

// envVar returns a function's environment variable, set on the function or
// in Globals.Function.
func (tp template) envVar(fn *yaml.Node, name string) *yaml.Node {
	if n := field(fn, "Properties", "Environment", "Variables", name); n != nil {
		return n
	}
	return field(tp.globals, "Environment", "Variables", name)
}

// routes returns the sorted "METHOD path" of a function's events, which
// must be HttpApi events on the template's HTTP API or schedules, and the
// streams of the event source mappings that feed it (spelt as wantFunctions
// says).
func (tp template) routes(id, apiID string) ([]string, error) {
	var routes []string
	for _, m := range tp.ofType("AWS::Lambda::EventSourceMapping") {
		if ref(field(tp.resources[m], "Properties", "FunctionName")) == id {
			routes = append(routes, "STREAM "+getAtt(field(tp.resources[m], "Properties", "EventSourceArn")))
		}
	}
	events := field(tp.resources[id], "Properties", "Events")
	if events != nil && events.Kind != yaml.MappingNode {
		return nil, errors.New("Events is not a mapping")
	}
	for i := 0; events != nil && i+1 < len(events.Content); i += 2 {
		name, ev := events.Content[i].Value, events.Content[i+1]
		switch plain(field(ev, "Type")) {
		case "Schedule":
			routes = append(routes, "SCHEDULE "+plain(field(ev, "Properties", "Schedule")))
			continue
		case "EventBridgeRule":
			routes = append(routes, "EVENTBRIDGE "+name)
			continue
		case "DynamoDB":
			// SAM gives the role of a function with such an event the
			// managed policy AWSLambdaDynamoDBExecutionRole, which reads
			// every stream in the account.
			return nil, fmt.Errorf("event %s is a SAM DynamoDB event; want an AWS::Lambda::EventSourceMapping, and stream reads on the table's stream only", name)
		}
		if typ := plain(field(ev, "Type")); typ != "HttpApi" {
			return nil, fmt.Errorf("event %s is of Type %q, want HttpApi", name, typ)
		}
		if got := ref(field(ev, "Properties", "ApiId")); got != apiID {
			return nil, fmt.Errorf("event %s's ApiId is not !Ref %s", name, apiID)
		}
		routes = append(routes, strings.ToUpper(plain(field(ev, "Properties", "Method")))+" "+plain(field(ev, "Properties", "Path")))
	}
	if len(routes) == 0 {
		return nil, errors.New("want at least one event or event source mapping")
	}
	slices.Sort(routes)
	return routes, nil
}

// isIndexARN reports whether n is !Sub "${<table>.Arn}/index/<name>".
func isIndexARN(n *yaml.Node, tableID string) bool {
	name, ok := strings.CutPrefix(n.Value, "${"+tableID+".Arn}/index/")
	return n.Tag == "!Sub" && ok && name != "" && !strings.ContainsAny(name, "*/$")
}

// tableActions returns the sorted DynamoDB actions a function's policies
// allow. Every policy must be an inline document whose statements allow
// item actions on the table's ARN or its indexes (Query only there), stream
// reads on the table's stream, or dynamodb:ListStreams alone, which takes
// "*". A function without Policies gets SAM's default role, which allows
// writing logs only: no action.
func tableActions(fn *yaml.Node, tableID string) ([]string, error) {
	if field(fn, "Properties", "Role") != nil {
		return nil, errors.New("sets Role; want Policies only")
	}
	stmts, err := statements(fn)
	if err != nil {
		return nil, err
	}
	var actions []string
	for _, st := range stmts {
		if isLogsFence(st.node) {
			continue // TestLogsOwnGroupOnly checks it
		}
		if effect := plain(field(st.node, "Effect")); effect != "Allow" {
			return nil, fmt.Errorf("%s: Effect %q, want Allow", st.where, effect)
		}
		if field(st.node, "NotAction") != nil || field(st.node, "NotResource") != nil {
			return nil, fmt.Errorf("%s: NotAction and NotResource grant too much", st.where)
		}
		stmtActions := plains(field(st.node, "Action"))
		if err := checkResources(stmtActions, items(field(st.node, "Resource")), tableID); err != nil {
			return nil, fmt.Errorf("%s: %w", st.where, err)
		}
		for _, a := range stmtActions {
			if strings.HasPrefix(a, "dynamodb:") && !slices.Contains(actions, a) {
				actions = append(actions, a)
			}
		}
	}
	slices.Sort(actions)
	return actions, nil
}

// statement is one statement of a function's Policies.
type statement struct {
	node      *yaml.Node
	where     string // e.g. Policies[0].Statement[2]
	condition string // the condition the policy is granted under, or ""
}

// statements returns the statements of a function's Policies, which must
// be inline policy documents, each maybe granted under a condition:
// !If [condition, document, !Ref AWS::NoValue].
func statements(fn *yaml.Node) ([]statement, error) {
	policies := field(fn, "Properties", "Policies")
	if policies == nil {
		return nil, nil
	}
	if policies.Kind != yaml.SequenceNode {
		return nil, errors.New("want Policies, a list of inline policy documents")
	}
	var all []statement
	for i, p := range policies.Content {
		condition := ""
		if a := intrinsic(p, "Fn::If"); a != nil {
			if len(a.Content) != 3 || ref(a.Content[2]) != "AWS::NoValue" {
				return nil, fmt.Errorf("Policies[%d]: want !If [condition, policy, !Ref AWS::NoValue]", i)
			}
			condition, p = a.Content[0].Value, a.Content[1]
		}
		stmts := field(p, "Statement")
		if stmts == nil {
			return nil, fmt.Errorf("Policies[%d] is not an inline policy document (managed policies and policy templates grant more than the table)", i)
		}
		for j, s := range items(stmts) {
			all = append(all, statement{s, fmt.Sprintf("Policies[%d].Statement[%d]", i, j), condition})
		}
	}
	return all, nil
}

// checkResources says why a statement's resources grant more than its
// actions need, or nil.
func checkResources(actions []string, resources []*yaml.Node, tableID string) error {
	isStream := func(a string) bool { return slices.Contains(streamActions, a) }
	switch {
	case len(resources) == 0:
		return errors.New("no Resource")
	case slices.Contains(actions, "dynamodb:ListStreams"):
		// ListStreams names no resource in IAM: it takes "*", and so goes
		// alone.
		if len(actions) != 1 || len(resources) != 1 || plain(resources[0]) != "*" {
			return errors.New(`dynamodb:ListStreams goes alone in its statement, on "*"`)
		}
		return nil
	case slices.ContainsFunc(actions, isStream):
		if slices.ContainsFunc(actions, func(a string) bool { return !isStream(a) }) ||
			len(resources) != 1 || getAtt(resources[0]) != tableID+".StreamArn" {
			return fmt.Errorf("stream reads go alone in their statement, on !GetAtt %s.StreamArn", tableID)
		}
		return nil
	}
	onTable := slices.ContainsFunc(actions, func(a string) bool { return strings.HasPrefix(a, "dynamodb:") })
	for _, r := range resources {
		switch {
		case r.Value == "*" || strings.HasSuffix(r.Value, ":*:*"):
			return fmt.Errorf("Resource %q grants too much", r.Value)
		case !onTable:
			// Another service's actions (SES, SMS, SQS, Secrets Manager):
			// checked here for wildcards only.
		case getAtt(r) != tableID+".Arn" && !isIndexARN(r, tableID):
			return fmt.Errorf("a Resource is neither !GetAtt %s.Arn nor one of its indexes", tableID)
		case isIndexARN(r, tableID) && slices.ContainsFunc(actions, func(a string) bool { return a != "dynamodb:Query" }):
			// An index holds no item of its own: an item action granted on
			// it grants nothing the function needs.
			return fmt.Errorf("%v on an index, where only dynamodb:Query applies", actions)
		}
	}
	return nil
}

// field follows a path of keys through mappings; nil when a key is
// missing. It is the permission check's own reader of the template.
var field = iamcheck.Field

// plain returns the text of a scalar that is not an intrinsic function such
// as !Ref; "" otherwise.
func plain(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode || !strings.HasPrefix(n.ShortTag(), "!!") {
		return ""
	}
	return n.Value
}

// items returns a sequence's elements, or the node itself when it is not a
// sequence (CloudFormation accepts a single value where it takes a list).
func items(n *yaml.Node) []*yaml.Node {
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.SequenceNode && n.ShortTag() == "!!seq":
		return n.Content
	}
	return []*yaml.Node{n}
}

// plains returns the plain text of a scalar or of a list's scalars.
func plains(n *yaml.Node) []string {
	var s []string
	for _, it := range items(n) {
		s = append(s, plain(it))
	}
	return s
}

// pairs renders a list of mappings as "a1 b1, a2 b2" from their keys a and b.
func pairs(n *yaml.Node, a, b string) string {
	var s []string
	for _, it := range items(n) {
		s = append(s, plain(field(it, a))+" "+plain(field(it, b)))
	}
	return strings.Join(s, ", ")
}

// intrinsic returns the argument of a CloudFormation intrinsic function in
// its short (!GetAtt x) or long ({Fn::GetAtt: x}) form, or nil.
func intrinsic(n *yaml.Node, name string) *yaml.Node {
	switch {
	case n == nil:
		return nil
	case n.Tag == "!"+strings.TrimPrefix(name, "Fn::"):
		return n
	case n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == name:
		return n.Content[1]
	}
	return nil
}

// ref returns the name n refers to with Ref, or "".
func ref(n *yaml.Node) string {
	if a := intrinsic(n, "Ref"); a != nil && a.Kind == yaml.ScalarNode {
		return a.Value
	}
	return ""
}

// getAtt returns "LogicalId.Attribute" of an Fn::GetAtt, or "".
func getAtt(n *yaml.Node) string {
	a := intrinsic(n, "Fn::GetAtt")
	switch {
	case a == nil:
		return ""
	case a.Kind == yaml.ScalarNode:
		return a.Value
	case a.Kind == yaml.SequenceNode && len(a.Content) == 2:
		return a.Content[0].Value + "." + a.Content[1].Value
	}
	return ""
}

// goBuild is one go build command a make target runs.
type goBuild struct {
	cmd string // the whole command without its -o argument and package
	out string // the -o argument
	pkg string // the package built, e.g. ./functions/get-business
}

// makeGoBuilds asks make which go build commands a target runs (make -n
// prints a target's commands without running them).
func makeGoBuilds(target string, vars ...string) ([]goBuild, error) {
	cmd := exec.Command("make", append([]string{"--no-print-directory", "-n", target}, vars...)...)
	cmd.Dir = root
	for _, kv := range os.Environ() {
		// Leave out what an outer make (make test) or sam passes down.
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "ARTIFACTS_DIR":
		default:
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(string(out)))
	}
	var builds []goBuild
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		i := slices.Index(f, "go")
		if i < 0 || i+1 >= len(f) || f[i+1] != "build" {
			continue
		}
		o := slices.Index(f, "-o")
		if o < 0 || o+1 >= len(f)-1 {
			return nil, fmt.Errorf("go build without -o <file> <package>: %s", line)
		}
		b := goBuild{out: f[o+1], pkg: f[len(f)-1]}
		f = slices.Delete(f[:len(f)-1], o, o+2)
		b.cmd = strings.Join(f, " ")
		builds = append(builds, b)
	}
	return builds, nil
}

// TestSweeperIndexes: the sweeper queries the sweep index (lapsed holds
// and unanswered requests) and the remind index (due reminders), and
// both are indexes of the table.
func TestSweeperIndexes(t *testing.T) {
	tp := loadTemplate(t)
	tableID := tp.only(t, "AWS::DynamoDB::Table")
	stmts, err := statements(tp.resources["ExpireHoldsFunction"])
	if err != nil {
		t.Fatal(err)
	}
	var queried []string
	for _, st := range stmts {
		for _, r := range items(field(st.node, "Resource")) {
			if isIndexARN(r, tableID) {
				queried = append(queried, strings.TrimPrefix(r.Value, "${"+tableID+".Arn}/index/"))
			}
		}
	}
	slices.Sort(queried)
	if want := []string{"erase", "remind", "sweep"}; !slices.Equal(queried, want) {
		t.Errorf("the sweeper may Query indexes %v, want %v", queried, want)
	}
	var defined []string
	for _, ix := range items(field(tp.resources[tableID], "Properties", "GlobalSecondaryIndexes")) {
		defined = append(defined, plain(field(ix, "IndexName")))
	}
	for _, name := range queried {
		if !slices.Contains(defined, name) {
			t.Errorf("the sweeper queries index %s, which the table (%v) does not have", name, defined)
		}
	}
}
