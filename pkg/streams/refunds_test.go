package streams_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/paymentenv"
	"github.com/doorstep/doorstep/pkg/streams"
	"github.com/doorstep/doorstep/pkg/stripepay/stripetest"
)

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

func TestRefunds(t *testing.T) {
	env := lambdatest.NewEnv(t)
	ctx := context.Background()
	client, table := dynamotest.NewClient(env.Vars["DYNAMODB_ENDPOINT"]), env.Vars["TABLE_NAME"]
	bookings := env.Bookings
	phone := 0
	create := func(slug, zip string) string {
		t.Helper()
		b, err := bookings.Business(ctx, slug)
		if err != nil {
			t.Fatal(err)
		}
		w := env.FirstOpenWindow(t, slug)
		phone++
		c, _, err := bookings.CreateRequest(ctx, b, booking.CreateInput{
			WindowStart:     w.Start,
			Address:         booking.Address{Street: "1 Test St", ZIP: zip},
			Contact:         booking.Contact{Name: "Test", Phone: fmt.Sprintf("512555%04d", phone)},
			DepositAccepted: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		return c.Code
	}
	// pay pays the deposit through Stripe, as the webhook applies it.
	pay := func(code, ref string) {
		t.Helper()
		r, err := bookings.OperatorRequest(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		out, err := bookings.ApplyPayment(ctx, booking.Payment{
			Code: code, Ref: ref, AmountCents: r.Deposit.AmountCents, Currency: r.Deposit.Currency, Paid: true,
		})
		if err != nil || out != booking.PaymentApplied {
			t.Fatalf("pay %s: got %v, %v; want it applied", ref, out, err)
		}
	}
	paySimulated := func(code string) {
		t.Helper()
		if _, err := bookings.PaySimulated(ctx, code); err != nil {
			t.Fatalf("pay (simulated): %v", err)
		}
	}
	businessMove := func(slug, code string, action booking.Action) {
		t.Helper()
		b, err := bookings.Business(ctx, slug)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bookingtest.Inbox(t, bookings, b.Slug).Move(ctx, code, action, time.Time{}); err != nil {
			t.Fatalf("%s: %v", action, err)
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
	pay(declined, "pi_declined")
	paidImg := req(declined)
	businessMove("austin-rapid-plumbing", declined, booking.ActionDecline)
	declinedImg := req(declined)
	// Paid for real, accepted, completed: deducted.
	done := create("austin-rapid-plumbing", "78702")
	pay(done, "pi_done")
	businessMove("austin-rapid-plumbing", done, booking.ActionAccept)
	acceptedImg := req(done)
	businessMove("austin-rapid-plumbing", done, booking.ActionComplete)
	completedImg := req(done)
	// Simulated, paid, declined: refunded, and no money moved.
	sim := create("mile-high-electric", "80202")
	paySimulated(sim)
	simPaidImg := req(sim)
	businessMove("mile-high-electric", sim, booking.ActionDecline)
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
			res, err := streams.Refunds(p, slog.New(slog.DiscardHandler))(ctx, events.DynamoDBEvent{Records: tt.records})
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
	t.Run("Stripe off: a refund owed fails its record, for the dead-letter queue", func(t *testing.T) {
		h := streams.Refunds(nil, slog.New(slog.DiscardHandler))
		res, err := h(ctx, events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{
			record("1", acceptedImg, completedImg), record("2", paidImg, declinedImg), record("3", simPaidImg, simDeclinedImg),
		}})
		if err != nil || len(res.BatchItemFailures) != 1 || res.BatchItemFailures[0].ItemIdentifier != "2" {
			t.Errorf("got %+v, %v; want the record that owes a refund failed, and the batch stopped there", res, err)
		}
	})
	t.Run("through the function's handler, with Stripe", func(t *testing.T) {
		stripe := stripetest.NewServer(t)
		getenv := stripetest.Env(t, stripetest.Keys, map[string]string{"STRIPE_API_URL": stripe.URL, "SITE_URL": lambdatest.SiteURL})
		// functions/refund-deposits' wiring.
		payments, err := paymentenv.Payments(ctx, getenv, getenv("SITE_URL"))
		if err != nil {
			t.Fatal(err)
		}
		h := streams.Refunds(payments, lambdaenv.Logger())
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
