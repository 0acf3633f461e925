package paymentenv_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/paymentenv"
	"github.com/doorstep/doorstep/pkg/stripepay/stripetest"
)

const secretARN = "arn:aws:secretsmanager:us-west-2:123456789012:secret:doorstep/stripe-AbCdEf"

// stripeEnv is an environment with the Stripe secret in a Secrets Manager
// stand-in, and the AWS credentials Lambda sets.
func stripeEnv(t *testing.T, value string, edits map[string]string) func(string) string {
	vars := map[string]string{
		"STRIPE_SECRET_ARN":        secretARN,
		"SECRETS_MANAGER_ENDPOINT": stripetest.SecretsManager(t, secretARN, value),
		"AWS_ACCESS_KEY_ID":        "AKIDEXAMPLE",
		"AWS_SECRET_ACCESS_KEY":    "secret",
		"AWS_SESSION_TOKEN":        "token",
	}
	for k, v := range edits {
		vars[k] = v
	}
	return func(k string) string { return vars[k] }
}

func TestStripeFrom(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		edits   map[string]string
		wantOK  bool
		wantErr string
	}{
		{"keys read", stripetest.Keys, nil, true, ""},
		{"a restricted key", `{"secret_key":"rk_test_1","webhook_secret":"whsec_1"}`, nil, true, ""},
		{"not set", stripetest.Keys, map[string]string{"STRIPE_SECRET_ARN": ""}, false, ""},
		{"not an ARN", stripetest.Keys, map[string]string{"STRIPE_SECRET_ARN": "doorstep/stripe"}, false, "must be a Secrets Manager secret's ARN"},
		{"another service's ARN", stripetest.Keys, map[string]string{"STRIPE_SECRET_ARN": "arn:aws:ssm:us-west-2:123456789012:parameter/x"}, false, "must be a Secrets Manager secret's ARN"},
		{"another secret", stripetest.Keys, map[string]string{"STRIPE_SECRET_ARN": secretARN + "x"}, false, "ResourceNotFoundException"},
		{"no credentials", stripetest.Keys, map[string]string{"AWS_ACCESS_KEY_ID": ""}, false, "AWS_ACCESS_KEY_ID"},
		{"not JSON", "sk_test_1", nil, false, "must be JSON"},
		{"not a secret key", `{"secret_key":"pk_test_1"}`, nil, false, "secret_key must be"},
		{"a bad API URL", stripetest.Keys, map[string]string{"STRIPE_API_URL": "localhost:12111"}, false, "STRIPE_API_URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok, err := paymentenv.StripeFrom(context.Background(), stripeEnv(t, tt.value, tt.edits), "https://book.example.com", nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error with %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), "_test_1") || strings.Contains(err.Error(), stripetest.SecretKey) {
					t.Errorf("the error %q shows the secret", err)
				}
				return
			}
			if err != nil || ok != tt.wantOK {
				t.Fatalf("got ok %v, %v; want %v", ok, err, tt.wantOK)
			}
			if ok && (s.Keys.SecretKey == "" || s.SiteURL != "https://book.example.com") {
				t.Errorf("got %+v, want the keys and the site", s)
			}
		})
	}
}

// image reads an item as the table's stream carries it.
func image(t *testing.T, client *dynamodb.Client, table, pk, sk string) map[string]events.DynamoDBAttributeValue {
	t.Helper()
	out, err := client.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}},
	})
	if err != nil || out.Item == nil {
		t.Fatalf("get %s %s: %v", pk, sk, err)
	}
	return dynamotest.StreamImage(t, out.Item)
}

// refunds records refunds, failing those of one payment.
type refunds struct {
	booking.Payments
	fail string
	done []string
}

func (p *refunds) Refund(_ context.Context, code, ref string) error {
	if ref == p.fail {
		return errors.New("stripe is down")
	}
	p.done = append(p.done, ref)
	return nil
}

func TestRefundStream(t *testing.T) {
	env := lambdatest.NewEnv(t)
	ctx := context.Background()
	client, table := dynamotest.NewClient(env.Vars["DYNAMODB_ENDPOINT"]), env.Vars["TABLE_NAME"]
	mover := booking.NewMover(env.Store, time.Now)
	phone := 0
	create := func(slug, zip string) string {
		t.Helper()
		w := env.FirstOpenWindow(t, slug)
		phone++
		body := fmt.Sprintf(`{"window_start":%q,"address":{"street":"1 Test St","zip":%q},"contact":{"name":"Test","phone":"512555%04d"},"deposit_accepted":true}`,
			w.Start.Format(time.RFC3339), zip, phone)
		c, _, err := env.Desk.CreateRequest(ctx, slug, []byte(body), "")
		if err != nil {
			t.Fatal(err)
		}
		return c.Code
	}
	move := func(in booking.MoveInput) {
		t.Helper()
		if _, err := mover.Move(ctx, in); err != nil {
			t.Fatalf("%s: %v", in.Action, err)
		}
	}
	req := func(code string) map[string]events.DynamoDBAttributeValue {
		return image(t, client, table, "REQUEST#"+code, "REQUEST")
	}
	record := func(seq string, old, new map[string]events.DynamoDBAttributeValue) events.DynamoDBEventRecord {
		name, keys := "MODIFY", new
		if old == nil {
			name = "INSERT"
		}
		if new == nil {
			name, keys = "REMOVE", old
		}
		return events.DynamoDBEventRecord{EventID: seq, EventName: name, EventSource: "aws:dynamodb",
			Change: events.DynamoDBStreamRecord{SequenceNumber: seq, Keys: map[string]events.DynamoDBAttributeValue{"pk": keys["pk"], "sk": keys["sk"]},
				OldImage: old, NewImage: new, StreamViewType: "NEW_AND_OLD_IMAGES"}}
	}

	// Paid for real, then declined: refunded.
	declined := create("austin-rapid-plumbing", "78701")
	move(booking.MoveInput{Code: declined, Action: booking.ActionPay, Actor: booking.ActorSystem, PaymentRef: "pi_declined"})
	paidImg := req(declined)
	move(booking.MoveInput{Code: declined, Action: booking.ActionDecline, Actor: booking.ActorBusiness})
	declinedImg := req(declined)
	// Paid for real, accepted, completed: deducted.
	done := create("austin-rapid-plumbing", "78702")
	move(booking.MoveInput{Code: done, Action: booking.ActionPay, Actor: booking.ActorSystem, PaymentRef: "pi_done"})
	move(booking.MoveInput{Code: done, Action: booking.ActionAccept, Actor: booking.ActorBusiness})
	acceptedImg := req(done)
	move(booking.MoveInput{Code: done, Action: booking.ActionComplete, Actor: booking.ActorBusiness})
	completedImg := req(done)
	// Simulated, paid, declined: refunded, and no money moved.
	sim := create("mile-high-electric", "80202")
	move(booking.MoveInput{Code: sim, Action: booking.ActionPay, Actor: booking.ActorSystem, PaymentRef: booking.PaymentRefSimulated})
	simPaidImg := req(sim)
	move(booking.MoveInput{Code: sim, Action: booking.ActionDecline, Actor: booking.ActorBusiness})
	simDeclinedImg := req(sim)
	counter := image(t, client, table, "BUSINESS#austin-rapid-plumbing", "PHONE#5125550001")

	tests := []struct {
		name      string
		records   []events.DynamoDBEventRecord
		fail      string
		want      []string
		wantRetry []string
	}{
		{"declined after paying: refunded", []events.DynamoDBEventRecord{record("1", paidImg, declinedImg)}, "", []string{"pi_declined"}, nil},
		{"completed: deducted, nothing to refund", []events.DynamoDBEventRecord{record("1", acceptedImg, completedImg)}, "", nil, nil},
		{"simulated: nothing to refund", []events.DynamoDBEventRecord{record("1", simPaidImg, simDeclinedImg)}, "", nil, nil},
		{"refunded before", []events.DynamoDBEventRecord{record("1", declinedImg, declinedImg)}, "", nil, nil},
		{"other items, removals", []events.DynamoDBEventRecord{record("1", nil, counter), record("2", declinedImg, nil)}, "", nil, nil},
		{"a failure stops the batch there", []events.DynamoDBEventRecord{
			record("1", acceptedImg, completedImg), record("2", paidImg, declinedImg), record("3", paidImg, declinedImg),
		}, "pi_declined", nil, []string{"2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &refunds{fail: tt.fail}
			res, err := paymentenv.RefundStream(p, slog.New(slog.DiscardHandler))(ctx, events.DynamoDBEvent{Records: tt.records})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(p.done) != fmt.Sprint(tt.want) {
				t.Errorf("got refunds %v, want %v", p.done, tt.want)
			}
			var retry []string
			for _, f := range res.BatchItemFailures {
				retry = append(retry, f.ItemIdentifier)
			}
			if fmt.Sprint(retry) != fmt.Sprint(tt.wantRetry) {
				t.Errorf("got failures %v, want %v", retry, tt.wantRetry)
			}
		})
	}
	t.Run("through the function's handler, with Stripe", func(t *testing.T) {
		stripe := stripetest.NewServer(t)
		getenv := stripeEnv(t, stripetest.Keys, map[string]string{"STRIPE_API_URL": stripe.URL})
		h, err := paymentenv.NewRefundHandler(ctx, getenv)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // delivered twice: refunded once
			res, err := h(ctx, events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{record("1", paidImg, declinedImg)}})
			if err != nil || len(res.BatchItemFailures) != 0 {
				t.Fatalf("got %+v %v", res, err)
			}
		}
		if got := stripe.Refunds(); len(got) != 1 || got[0].PaymentIntent != "pi_declined" || got[0].Metadata["request_code"] != declined {
			t.Errorf("got %+v, want one refund of pi_declined", got)
		}
	})
}

func TestPaymentFunctionsFailAtStart(t *testing.T) {
	env := lambdatest.NewEnv(t)
	pages := func(lambdaenv.Pages) http.Handler { return http.NotFoundHandler() }
	noSecret := func(k string) string {
		if k == "STRIPE_SECRET_ARN" {
			return ""
		}
		return env.Getenv(k)
	}
	withStripe := func(value string) func(string) string {
		sm := stripeEnv(t, value, nil)
		return func(k string) string {
			if v := sm(k); v != "" {
				return v
			}
			return env.Getenv(k)
		}
	}
	ctx := context.Background()
	if _, err := paymentenv.NewPaymentWebhookHandler(ctx, noSecret); err == nil {
		t.Error("webhook without STRIPE_SECRET_ARN: got no error")
	}
	if _, err := paymentenv.NewPaymentWebhookHandler(ctx, withStripe(`{"secret_key":"sk_test_1"}`)); err == nil || !strings.Contains(err.Error(), "webhook_secret") {
		t.Errorf("webhook without a webhook_secret: got %v", err)
	}
	if _, err := paymentenv.NewPaymentWebhookHandler(ctx, withStripe(stripetest.Keys)); err != nil {
		t.Errorf("webhook: %v", err)
	}
	if _, err := paymentenv.NewRefundHandler(ctx, noSecret); err == nil {
		t.Error("refunds without STRIPE_SECRET_ARN: got no error")
	}
	if _, err := lambdaenv.NewPagesHandler(ctx, noSecret, pages); err != nil {
		t.Errorf("pages without STRIPE_SECRET_ARN: %v, want them to start (they need no Stripe key)", err)
	}
	if _, err := lambdaenv.NewPagesHandler(ctx, func(k string) string {
		if k == "TABLE_NAME" {
			return ""
		}
		return env.Getenv(k)
	}, pages); err == nil {
		t.Error("pages without TABLE_NAME: got no error")
	}
	opts, err := paymentenv.DeskOptions(ctx, withStripe(stripetest.Keys), lambdaenv.Config{SiteURL: lambdatest.SiteURL})
	if err != nil || len(opts) != 1 {
		t.Errorf("desk options with Stripe: got %d, %v; want 1", len(opts), err)
	}
	if opts, err := paymentenv.DeskOptions(ctx, noSecret, lambdaenv.Config{SiteURL: lambdatest.SiteURL}); err != nil || len(opts) != 0 {
		t.Errorf("desk options without Stripe: got %d, %v; want none", len(opts), err)
	}
}
