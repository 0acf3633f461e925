package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/mailevents"
	"github.com/doorstep/doorstep/pkg/notify"
)

// TestNewHandlerConfig: the function needs TABLE_NAME, builds no URLs (so
// no SITE_URL), and fails at start without credentials for DynamoDB.
func TestNewHandlerConfig(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string // "" when valid
	}{
		{"table and endpoint", map[string]string{"TABLE_NAME": "doorstep", "DYNAMODB_ENDPOINT": "http://127.0.0.1:8000"}, ""},
		{"no SITE_URL needed", map[string]string{"TABLE_NAME": "doorstep", "AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret"}, ""},
		{"nothing set", map[string]string{}, "TABLE_NAME"},
		{"no endpoint and no credentials", map[string]string{"TABLE_NAME": "doorstep"}, "AWS_ACCESS_KEY_ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"} {
				t.Setenv(k, tt.env[k])
			}
			h, err := newHandler(context.Background(), func(k string) string { return tt.env[k] })
			if tt.wantErr == "" {
				if err != nil || h == nil {
					t.Fatalf("got %v, want a handler", err)
				}
				return
			}
			if err == nil || h != nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got a handler: %v, and %v; want no handler and an error naming %s", h != nil, err, tt.wantErr)
			}
		})
	}
}

// TestEvents feeds every sample event in events/ to the function as the
// Lambda runtime would, twice each (a redelivery), with its AWS calls
// recorded and judged against MailEventsFunction's policy in template.yaml.
func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	h, err := newHandler(env.Record(t, "MailEventsFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		event    string
		email    string
		recorded int
		reason   booking.UndeliverableReason
	}{
		{"mail-events-permanent-bounce.json", "j.ruiz@example.net", 1, booking.UndeliverableBounce},
		{"mail-events-suppressed.json", "j.ruiz@example.net", 0, booking.UndeliverableBounce},
		{"mail-events-complaint.json", "no.thanks@example.com", 1, booking.UndeliverableComplaint},
		{"mail-events-transient-bounce.json", "full.box@example.org", 0, ""},
		{"mail-events-delivery-delay.json", "full.box@example.org", 0, ""},
		{"mail-events-sending-disabled.json", "", 0, ""},
		{"mail-events-sending-enabled.json", "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.event, func(t *testing.T) {
			ctx := lambdatest.WithPath(context.Background(), t.Name())
			for round := range 2 {
				out, err := lambda.NewHandler(h).Invoke(ctx, lambdatest.Event(t, tt.event))
				if err != nil {
					t.Fatalf("invoke: %v", err)
				}
				var rep mailevents.Report
				if err := json.Unmarshal(out, &rep); err != nil {
					t.Fatal(err)
				}
				want := tt.recorded
				if round > 0 {
					want = 0 // a redelivery records nothing
				}
				if len(rep.Recorded) != want {
					t.Errorf("round %d: %s, want %d recorded", round, out, want)
				}
			}
			if tt.email == "" {
				return
			}
			u, err := env.Store.UndeliverableEmail(context.Background(), tt.email)
			if err != nil {
				t.Fatal(err)
			}
			if got := booking.UndeliverableReason(""); u != nil {
				got = u.Reason
				if got != tt.reason {
					t.Errorf("record %+v, want %s", u, tt.reason)
				}
			} else if tt.reason != "" {
				t.Errorf("no record, want %s", tt.reason)
			}
		})
	}
}

// TestOwnerTextedWhenTheInboxBounces: a permanent bounce of a business's
// own inbox address, delivered twice, on a stack that sends texts, writes
// one text to the owner's confirmed mobile as an outgoing message (which
// notify sends from the stream), with the calls judged against
// MailEventsFunction's policy.
func TestOwnerTextedWhenTheInboxBounces(t *testing.T) {
	env := lambdatest.NewEnv(t)
	env.Vars["SMS_ORIGINATION_IDENTITY"] = "+18005550199"
	const slug, mobile = "desert-cool-hvac", "6025550177"
	err := env.Store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
		changed := *stored
		changed.OwnerPhone = mobile
		return &changed, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	h, err := newHandler(env.Record(t, "MailEventsFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := lambda.NewHandler(h).Invoke(context.Background(), lambdatest.Event(t, "mail-events-inbox-bounce.json")); err != nil {
			t.Fatalf("invoke: %v", err)
		}
	}
	client := dynamotest.NewClient(env.Vars["DYNAMODB_ENDPOINT"])
	out, err := client.Scan(context.Background(), &dynamodb.ScanInput{
		TableName:                 aws.String(env.Vars["TABLE_NAME"]),
		FilterExpression:          aws.String("begins_with(pk, :p)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "OUTGOING#"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []notify.Message
	if err := attributevalue.UnmarshalListOfMapsWithOptions(out.Items, &msgs, func(o *attributevalue.DecoderOptions) { o.TagKey = "json" }); err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 || msgs[0].Channel != notify.ChannelSMS || !strings.HasSuffix(msgs[0].To, mobile) {
		t.Fatalf("got %+v, want one text to %s", msgs, mobile)
	}
}
