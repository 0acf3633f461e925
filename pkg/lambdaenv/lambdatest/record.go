package lambdatest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/pinpointsmsvoicev2"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/smithy-go/middleware"

	"github.com/doorstep/doorstep/pkg/awsenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest/iamcheck"
)

// AccountID is the account the recorded calls' ARNs and the resolved
// template name.
const AccountID = "123456789012"

type pathKey struct{}

// WithPath labels the AWS calls made under ctx with path (what drives
// them: a test's name), for the failures Record reports.
func WithPath(ctx context.Context, path string) context.Context {
	return context.WithValue(ctx, pathKey{}, path)
}

// Record returns a context to build a function's handler with
// (newHandler(ctx, getenv)): every AWS client the function builds under it
// gets a middleware that records each call (awsenv.WithAPIOptions). When
// the test ends, each call is checked against the policy template.yaml
// grants the function (its logical ID), resolved for the parameters getenv
// gives (SENDER_EMAIL, STRIPE_SECRET_ARN, SMS_ORIGINATION_IDENTITY and
// TABLE_NAME then): a call the policy does not allow fails the test, naming
// the function, the call and the path that made it; each permission no
// call used is logged. The calls Lambda itself makes with the role for the
// function's event source mappings (iamcheck.PollerCalls) are checked too. Calls made while building the handler are labelled
// "start"; the Invoke helpers label the rest with the test's name.
func Record(t testing.TB, function string, getenv func(string) string) context.Context {
	t.Helper()
	rec := &recorder{}
	root := RepoRoot(t)
	t.Cleanup(func() {
		d := Deployment(getenv)
		policy, err := iamcheck.Load(filepath.Join(root, "template.yaml"), function, d)
		if err != nil {
			t.Errorf("permissions: %v", err)
			return
		}
		calls := rec.take(d)
		poller, err := iamcheck.PollerCalls(filepath.Join(root, "template.yaml"), function, d)
		if err != nil {
			t.Errorf("permissions: %v", err)
		}
		calls = append(calls, poller...)
		seen := map[string]bool{}
		for _, c := range calls {
			if err := policy.Check(c); err != nil && !seen[err.Error()] {
				seen[err.Error()] = true
				t.Errorf("permissions: %v", err)
			}
		}
		t.Logf("permissions: %s made %d AWS call(s): %s", function, len(calls), summary(calls))
		if unused := policy.Unused(calls); len(unused) > 0 {
			t.Logf("permissions: %s's policy grants what no call here used:\n\t%s", function, strings.Join(unused, "\n\t"))
		}
	})
	return WithPath(awsenv.WithAPIOptions(context.Background(), rec.add), "start")
}

// Record is Record over the environment's variables.
func (e *Env) Record(t testing.TB, function string) context.Context {
	t.Helper()
	return Record(t, function, e.Getenv)
}

// Deployment is the stack the recorded calls are judged in: us-east-1 (or
// AWS_REGION), AccountID, and the template's parameters as getenv gives
// the function their values.
func Deployment(getenv func(string) string) iamcheck.Deployment {
	region := getenv("AWS_REGION")
	if region == "" {
		region = awsenv.DefaultRegion
	}
	params := map[string]string{"SiteUrl": SiteURL}
	for param, name := range map[string]string{
		"SenderEmail": "SENDER_EMAIL", "StripeSecretArn": "STRIPE_SECRET_ARN",
		"SmsOriginationIdentity": "SMS_ORIGINATION_IDENTITY", "PreviewInboxEmail": "PREVIEW_INBOX_EMAIL",
		"TableName": "TABLE_NAME", "NewBusinessApproval": "NEW_BUSINESS_APPROVAL",
	} {
		if v := getenv(name); v != "" {
			params[param] = v
		}
	}
	if params["SenderEmail"] == "" {
		params["SenderEmail"] = "notify@book.example.com" // a required parameter
	}
	table := getenv("TABLE_NAME")
	if table == "" {
		table = "doorstep"
	}
	// The form key secret's !Ref is its ARN, which the function gets as
	// FORM_SECRET_ARN.
	formKey := getenv("FORM_SECRET_ARN")
	if formKey == "" {
		formKey = "arn:aws:secretsmanager:" + region + ":" + AccountID + ":secret:FormKeySecret-AbCdEf"
	}
	// The operator's topic exists with OperatorEmail; its !Ref is its
	// ARN, which the function gets as OPERATOR_TOPIC_ARN.
	topic := getenv("OPERATOR_TOPIC_ARN")
	if topic != "" {
		params["OperatorEmail"] = "ops@example.com"
	}
	return iamcheck.Deployment{
		Partition: "aws", Region: region, AccountID: AccountID, Parameters: params,
		Names: map[string]string{
			"DoorstepTable":         table,
			"FormKeySecret":         formKey,
			"NotifyDeadLetterQueue": "doorstep-NotifyDeadLetterQueue",
			"RefundDeadLetterQueue": "doorstep-RefundDeadLetterQueue",
			"OperatorTopic":         topic,
		},
	}
}

// recorded is one SDK call as the middleware saw it.
type recorded struct {
	service, operation, region, path string
	input                            any
}

type recorder struct {
	mu    sync.Mutex
	calls []recorded
}

// add puts the recording middleware on a client's stack, in the
// initialize step: once per call (not per retry), with the typed input.
func (r *recorder) add(stack *middleware.Stack) error {
	return onCall(stack, "DoorstepRecordCalls", func(ctx context.Context, params any) {
		path, _ := ctx.Value(pathKey{}).(string)
		if path == "" {
			path = "(a context without a path)"
		}
		r.mu.Lock()
		r.calls = append(r.calls, recorded{awsmiddleware.GetServiceID(ctx), awsmiddleware.GetOperationName(ctx),
			awsmiddleware.GetRegion(ctx), path, params})
		r.mu.Unlock()
	})
}

// onCall adds to a client's middleware stack, as name, a step that calls
// fn with each call's context (its service, operation and region) and
// input, before the call is made.
func onCall(stack *middleware.Stack, name string, fn func(ctx context.Context, params any)) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc(name,
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			fn(ctx, in.Parameters)
			return next.HandleInitialize(ctx, in)
		}), middleware.Before)
}

// take returns the calls as the authorisations they need.
func (r *recorder) take(d iamcheck.Deployment) []iamcheck.Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []iamcheck.Call
	for _, c := range r.calls {
		d := d
		if c.region != "" {
			d.Region = c.region
		}
		for _, a := range authorisations(d, c) {
			a.Path = c.path
			out = append(out, a)
		}
	}
	return out
}

// authorisations says what IAM authorises for one SDK call (Service
// Authorization Reference): the action and the ARNs of the resources it
// names. An operation this does not know needs its action on "*", which a
// scoped policy does not grant: teach it the operation.
func authorisations(d iamcheck.Deployment, c recorded) []iamcheck.Call {
	table := func(name *string, index *string) []string {
		arn := d.ARN("dynamodb", "table/"+aws.ToString(name))
		if aws.ToString(index) != "" {
			arn += "/index/" + aws.ToString(index)
		}
		return []string{arn}
	}
	dynamo := func(action string, resources []string) iamcheck.Call {
		return iamcheck.Call{Action: "dynamodb:" + action, Resources: resources}
	}
	switch in := c.input.(type) {
	case *dynamodb.GetItemInput:
		return []iamcheck.Call{dynamo("GetItem", table(in.TableName, nil))}
	case *dynamodb.PutItemInput:
		return []iamcheck.Call{dynamo("PutItem", table(in.TableName, nil))}
	case *dynamodb.UpdateItemInput:
		return []iamcheck.Call{dynamo("UpdateItem", table(in.TableName, nil))}
	case *dynamodb.DeleteItemInput:
		return []iamcheck.Call{dynamo("DeleteItem", table(in.TableName, nil))}
	case *dynamodb.QueryInput:
		return []iamcheck.Call{dynamo("Query", table(in.TableName, in.IndexName))}
	case *dynamodb.ScanInput:
		return []iamcheck.Call{dynamo("Scan", table(in.TableName, in.IndexName))}
	case *dynamodb.DescribeTableInput:
		return []iamcheck.Call{dynamo("DescribeTable", table(in.TableName, nil))}
	case *dynamodb.BatchGetItemInput:
		var out []iamcheck.Call
		for name := range in.RequestItems {
			out = append(out, dynamo("BatchGetItem", table(&name, nil)))
		}
		return out
	case *dynamodb.BatchWriteItemInput:
		var out []iamcheck.Call
		for name := range in.RequestItems {
			out = append(out, dynamo("BatchWriteItem", table(&name, nil)))
		}
		return out
	case *dynamodb.TransactGetItemsInput:
		// No action of its own: each get is authorised as a GetItem.
		var out []iamcheck.Call
		for _, it := range in.TransactItems {
			if it.Get != nil {
				out = append(out, dynamo("GetItem", table(it.Get.TableName, nil)))
			}
		}
		return out
	case *dynamodb.TransactWriteItemsInput:
		// No action of its own: each item is authorised as its action.
		var out []iamcheck.Call
		for _, it := range in.TransactItems {
			switch {
			case it.ConditionCheck != nil:
				out = append(out, dynamo("ConditionCheckItem", table(it.ConditionCheck.TableName, nil)))
			case it.Put != nil:
				out = append(out, dynamo("PutItem", table(it.Put.TableName, nil)))
			case it.Update != nil:
				out = append(out, dynamo("UpdateItem", table(it.Update.TableName, nil)))
			case it.Delete != nil:
				out = append(out, dynamo("DeleteItem", table(it.Delete.TableName, nil)))
			}
		}
		return out
	case *sesv2.SendEmailInput:
		// SES authorises the identity it sends from: the address when it
		// is verified, else its domain. Which one is verified is the
		// deployment's choice, so the policy must allow both.
		from := aws.ToString(in.FromEmailAddress)
		if i := strings.LastIndex(from, "<"); i >= 0 {
			from = strings.TrimSuffix(from[i+1:], ">")
		}
		_, domain, _ := strings.Cut(from, "@")
		resources := []string{d.ARN("ses", "identity/"+from), d.ARN("ses", "identity/"+domain)}
		if in.ConfigurationSetName != nil {
			resources = append(resources, d.ARN("ses", "configuration-set/"+aws.ToString(in.ConfigurationSetName)))
		}
		return []iamcheck.Call{{Action: "ses:SendEmail", Resources: resources}}
	case *secretsmanager.GetSecretValueInput:
		id := aws.ToString(in.SecretId)
		if !strings.HasPrefix(id, "arn:") {
			id = d.ARN("secretsmanager", "secret:"+id)
		}
		return []iamcheck.Call{{Action: "secretsmanager:GetSecretValue", Resources: []string{id}}}
	case *pinpointsmsvoicev2.SendTextMessageInput:
		return []iamcheck.Call{{Action: "sms-voice:SendTextMessage", Resources: smsResources(d, in)}}
	case *sns.PublishInput:
		return []iamcheck.Call{{Action: "sns:Publish", Resources: []string{aws.ToString(in.TopicArn)}}}
	}
	return []iamcheck.Call{{Action: iamPrefix(c.service) + ":" + c.operation, Resources: []string{"*"}}}
}

// smsResources are the resources SendTextMessage is authorised on: its
// origination identity as an ARN (a phone number given as +1... stands for
// the phone-number resource that holds it, whose ID is AWS's), and its
// configuration set when it names one.
func smsResources(d iamcheck.Deployment, in *pinpointsmsvoicev2.SendTextMessageInput) []string {
	id := aws.ToString(in.OriginationIdentity)
	var arn string
	switch {
	case strings.HasPrefix(id, "arn:"):
		arn = id
	case strings.HasPrefix(id, "+"), strings.HasPrefix(id, "phone-"):
		arn = d.ARN("sms-voice", "phone-number/"+strings.TrimPrefix(id, "+"))
	case strings.HasPrefix(id, "pool-"):
		arn = d.ARN("sms-voice", "pool/"+id)
	default:
		arn = d.ARN("sms-voice", "sender-id/"+id+"/US") // a sender ID is registered per country
	}
	resources := []string{arn}
	if in.ConfigurationSetName != nil {
		resources = append(resources, d.ARN("sms-voice", "configuration-set/"+aws.ToString(in.ConfigurationSetName)))
	}
	return resources
}

// iamPrefix is the IAM service prefix of an SDK service ID.
func iamPrefix(serviceID string) string {
	switch serviceID {
	case "SESv2", "SES":
		return "ses"
	case "Pinpoint SMS Voice V2":
		return "sms-voice"
	}
	return strings.ToLower(strings.ReplaceAll(serviceID, " ", ""))
}

// summary counts the calls by action: "dynamodb:GetItem ×3, ...".
func summary(calls []iamcheck.Call) string {
	var order []string
	n := map[string]int{}
	for _, c := range calls {
		if n[c.Action] == 0 {
			order = append(order, c.Action)
		}
		n[c.Action]++
	}
	var parts []string
	for _, a := range order {
		parts = append(parts, fmt.Sprintf("%s ×%d", a, n[a]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
