package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/stripepay/stripetest"
)

// The sample is the stream record of a declined request whose $49 deposit
// was paid through Stripe: the function refunds that payment once, however
// often the record is delivered.
func TestEvent(t *testing.T) {
	const arn = "arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep/stripe-AbCdEf"
	stripe := stripetest.NewServer(t)
	env := map[string]string{
		"SITE_URL":                 lambdatest.SiteURL,
		"STRIPE_SECRET_ARN":        arn,
		"SECRETS_MANAGER_ENDPOINT": stripetest.SecretsManager(t, arn, stripetest.Keys),
		"STRIPE_API_URL":           stripe.URL,
		"AWS_REGION":               "us-east-1",
		"AWS_ACCESS_KEY_ID":        "doorstep",
		"AWS_SECRET_ACCESS_KEY":    "doorstep",
	}
	getenv := func(k string) string { return env[k] }
	h, err := newHandler(lambdatest.Record(t, "RefundDepositsFunction", getenv), getenv)
	if err != nil {
		t.Fatal(err)
	}
	event := lambdatest.Event(t, "refund-deposits-stream.json")
	for delivery := 1; delivery <= 2; delivery++ {
		out, err := lambda.NewHandler(h).Invoke(lambdatest.WithPath(context.Background(), fmt.Sprintf("%s: delivery %d", t.Name(), delivery)), event)
		if err != nil {
			t.Fatalf("delivery %d: %v", delivery, err)
		}
		var res events.DynamoDBEventResponse
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatal(err)
		}
		if len(res.BatchItemFailures) != 0 {
			t.Fatalf("delivery %d: got failures %v, want none", delivery, res.BatchItemFailures)
		}
	}
	refunds := stripe.Refunds()
	if len(refunds) != 1 || refunds[0].PaymentIntent != "pi_test_DEM0RFD00001" {
		t.Errorf("got refunds %+v, want one of pi_test_DEM0RFD00001", refunds)
	}
}
