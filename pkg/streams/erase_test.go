package streams_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/streams"
)

// TestErasureStream feeds the stream's record of an erasure (the request
// item before and after it, as stored) to the notify and refund
// functions' handlers: nobody is told anything, and no refund is made, for
// a request whose deposit was refunded when it was declined.
func TestErasureStream(t *testing.T) {
	env := lambdatest.NewEnv(t)
	ctx := context.Background()
	client, table := dynamotest.NewClient(env.Vars["DYNAMODB_ENDPOINT"]), env.Vars["TABLE_NAME"]
	bookings := env.Bookings
	const slug = "austin-rapid-plumbing"
	b, err := bookings.Business(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := bookings.CreateRequest(ctx, b, booking.CreateInput{
		WindowStart:     env.FirstOpenWindow(t, slug).Start,
		Address:         booking.Address{Street: "1 Test St", ZIP: "78701"},
		Contact:         booking.Contact{Name: "Test", Phone: "5125550177", Email: "erase@example.com", SMSConsent: true},
		DepositAccepted: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := bookings.ApplyPayment(ctx, booking.Payment{Code: c.Code, Ref: "pi_erase", AmountCents: b.BookingDeposit.AmountCents,
		Currency: b.BookingDeposit.Currency, Paid: true}); err != nil || out != booking.PaymentApplied {
		t.Fatalf("pay: %v, %v", out, err)
	}
	paidImg := image(t, client, table, "REQUEST#"+c.Code, "REQUEST")
	if _, err := bookingtest.Inbox(t, bookings, slug).Move(ctx, c.Code, booking.ActionDecline, time.Time{}); err != nil {
		t.Fatal(err)
	}
	before := image(t, client, table, "REQUEST#"+c.Code, "REQUEST")
	if _, err := bookings.CustomerErase(ctx, c.Code); err != nil {
		t.Fatal(err)
	}
	after := image(t, client, table, "REQUEST#"+c.Code, "REQUEST")
	if after["contact"].Map()["name"].String() != "" || after["erased"].String() == "" {
		t.Fatalf("the erased item still names the person: %v", after["contact"])
	}
	modify := func(seq string, old, new map[string]events.DynamoDBAttributeValue) events.DynamoDBEvent {
		return events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{{EventID: seq, EventName: "MODIFY", EventSource: "aws:dynamodb",
			Change: events.DynamoDBStreamRecord{SequenceNumber: seq, Keys: map[string]events.DynamoDBAttributeValue{"pk": new["pk"], "sk": new["sk"]},
				OldImage: old, NewImage: new, StreamViewType: "NEW_AND_OLD_IMAGES"}}}}
	}
	sent := &recorder{}
	notifyHandler := streams.Notify(notifier(env, sent, sent), lambdaenv.Logger())
	// The decline's own record tells the person: the handler does send.
	if res, err := notifyHandler(ctx, modify("1", paidImg, before)); err != nil || len(res.BatchItemFailures) != 0 || len(sent.take()) == 0 {
		t.Fatalf("the decline's record: %+v, %v; want messages sent", res, err)
	}
	e := modify("2", before, after)
	res, err := notifyHandler(ctx, e)
	if err != nil || len(res.BatchItemFailures) != 0 {
		t.Fatalf("notify: %+v, %v", res, err)
	}
	if got := sent.take(); len(got) != 0 {
		t.Errorf("the erasure's record sent %v, want nothing", got)
	}
	paid := &refunds{}
	res, err = streams.Refunds(paid, slog.New(slog.DiscardHandler))(ctx, e)
	if err != nil || len(res.BatchItemFailures) != 0 || len(paid.done) != 0 {
		t.Errorf("refunds: %+v, %v, refunded %v; want nothing refunded", res, err, paid.done)
	}
}
