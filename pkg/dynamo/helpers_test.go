package dynamo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/edge"
)

// now is the tests' clock: Friday 2026-11-20 00:00 UTC.
var now = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// monday is the start of a window three days after now.
var monday = time.Date(2026, 11, 23, 16, 0, 0, 0, time.UTC)

const slug = "test-plumbing"

// engine is one store on a fresh table of one engine.
type engine struct {
	store  *dynamo.Store
	client *dynamodb.Client
	table  string
}

// forEachEngine runs test as a subtest on each engine, each with a fresh table.
func forEachEngine(t *testing.T, test func(t *testing.T, e engine)) {
	t.Helper()
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) {
			client, table := eng.Open(t)
			test(t, engine{store: dynamo.New(client, table), client: client, table: table})
		})
	}
}

// newRequest returns a request as the domain makes it: status new, a
// two-hour window from start, a fresh code; every optional field is set.
func newRequest(slug, phone string, start time.Time) booking.Request {
	return booking.Request{
		Code:           booking.NewCode(),
		BusinessSlug:   slug,
		Status:         booking.StatusNew,
		ServiceID:      "drain-cleaning",
		ServiceName:    booking.LocalText{EN: "Drain cleaning", ES: "Limpieza de drenaje"},
		Window:         booking.Window{Date: start.Format("2006-01-02"), Start: start, End: start.Add(2 * time.Hour)},
		Address:        booking.Address{Street: "12 Main St", Unit: "4B", City: "Los Angeles", ZIP: "90012"},
		Contact:        booking.Contact{Name: "Ana Ruiz", Phone: phone, Email: "ana-" + phone + "@example.com", SMSConsent: true},
		Urgency:        "soon",
		Description:    "Kitchen sink drains slowly.",
		Language:       "es",
		AssistantName:  "Helper",
		Created:        now,
		Counted:        true, // as the store's create marks it
		MailboxCounted: true, // its e-mail by its mailbox, as every create since
	}
}

// pending turns r into a request waiting for its deposit until holdExpires.
func pending(r booking.Request, holdExpires time.Time) booking.Request {
	r.Status = booking.StatusPendingPayment
	r.HoldExpires = holdExpires
	r.Deposit = &booking.DepositRecord{AmountCents: 2500, Currency: "usd", Simulated: true, State: booking.DepositDue}
	return r
}

// phone returns the i-th test phone number.
func phone(i int) string { return fmt.Sprintf("323555%04d", i) }

// record returns the idempotency record the domain would store for r.
func record(r booking.Request, key string, expires time.Time) *booking.IdempotencyRecord {
	return &booking.IdempotencyRecord{
		Key:      key,
		BodyHash: "hash-of-the-body",
		Response: created(r),
		Expires:  expires,
	}
}

func created(r booking.Request) booking.Created {
	c := booking.Created{
		Code:      r.Code,
		Status:    r.Status,
		StatusURL: "https://doorstep.example.com/r/" + r.Code,
		APIURL:    "https://doorstep.example.com/api/v1/requests/" + r.Code,
	}
	if r.Status == booking.StatusPendingPayment {
		pay := "https://doorstep.example.com/pay/" + r.Code
		c.PaymentURL = &pay
	}
	return c
}

// mustCreate stores r or fails the test.
func mustCreate(t *testing.T, e engine, r booking.Request, key *booking.IdempotencyRecord, at time.Time) {
	t.Helper()
	if err := e.store.CreateRequest(context.Background(), r, key, bookingtest.Unlimited, at); err != nil {
		t.Fatalf("CreateRequest(%s) = %v, want nil", r.Code, err)
	}
}

// itemKey is the primary key of an item, spelled out as the package
// documentation describes it.
type itemKey struct{ pk, sk string }

func requestKey(code string) itemKey { return itemKey{"REQUEST#" + code, "REQUEST"} }
func holdKey(slug string, start time.Time) itemKey {
	return itemKey{"BUSINESS#" + slug, "HOLD#" + start.UTC().Format(time.RFC3339)}
}
func phoneKey(slug, phone string) itemKey { return itemKey{"BUSINESS#" + slug, "PHONE#" + phone} }
func idempotencyKey(slug, key string) itemKey {
	return itemKey{"BUSINESS#" + slug, "IDEMPOTENCY#" + key}
}

// item reads an item as stored; nil when there is none.
func (e engine) item(t *testing.T, k itemKey) map[string]types.AttributeValue {
	t.Helper()
	out, err := e.client.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(e.table),
		Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: k.pk},
			"sk": &types.AttributeValueMemberS{Value: k.sk},
		},
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		t.Fatalf("GetItem(%v) = %v", k, err)
	}
	if len(out.Item) == 0 {
		return nil
	}
	return out.Item
}

// attrS returns a string attribute of an item, "" when absent or not a string.
func attrS(item map[string]types.AttributeValue, name string) string {
	if v, ok := item[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

// attrN returns a number attribute of an item, -1 when absent.
func attrN(t *testing.T, item map[string]types.AttributeValue, name string) int64 {
	t.Helper()
	v, ok := item[name].(*types.AttributeValueMemberN)
	if !ok {
		return -1
	}
	n, err := strconv.ParseInt(v.Value, 10, 64)
	if err != nil {
		t.Fatalf("%s = %q: %v", name, v.Value, err)
	}
	return n
}

// code returns the booking error code of err, "" for nil.
func code(err error) booking.Code {
	if err == nil {
		return ""
	}
	return booking.ErrorCode(err)
}

// keyUsed returns the record of a *booking.KeyUsedError, or nil.
func keyUsed(err error) *booking.IdempotencyRecord {
	var used *booking.KeyUsedError
	if errors.As(err, &used) {
		return &used.Record
	}
	return nil
}

func jsonString(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v (%v)", v, err)
	}
	return string(data)
}

// move makes action on the request with the given code through the method
// of the service that the actor who may make it has: the payment
// provider's for pay, the sweeper's for expire, and the operator's (who
// may do whatever the business or the person may) for any other. An expire
// that expires nothing is refused, as a sweep leaves such a request alone.
func move(ctx context.Context, s *booking.Bookings, code string, action booking.Action, windowStart string, now time.Time) error {
	switch action {
	case booking.ActionPay:
		_, err := s.PaySimulated(ctx, code)
		return err
	case booking.ActionExpire:
		res, err := s.ExpireLapsed(ctx, now)
		if err == nil && res.Expired == 0 {
			err = booking.Errorf(booking.InvalidTransition, "the sweep at %s expired nothing", now.Format(time.RFC3339))
		}
		return err
	}
	var start time.Time
	if windowStart != "" {
		var err error
		if start, err = edge.WindowStart(windowStart); err != nil {
			return err
		}
	}
	_, err := s.OperatorMove(ctx, code, action, start)
	return err
}

// actorOf is the actor move makes action as.
func actorOf(action booking.Action) booking.Actor {
	if action == booking.ActionPay || action == booking.ActionExpire {
		return booking.ActorSystem
	}
	return booking.ActorOperator
}

// putItem writes an item as it is, over whatever is there.
func (e engine) putItem(t *testing.T, item map[string]types.AttributeValue) {
	t.Helper()
	if _, err := e.client.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(e.table), Item: item}); err != nil {
		t.Fatalf("PutItem: %v", err)
	}
}

// deleteItem deletes the item under k, if any.
func (e engine) deleteItem(t *testing.T, k itemKey) {
	t.Helper()
	if _, err := e.client.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(e.table), Key: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: k.pk},
		"sk": &types.AttributeValueMemberS{Value: k.sk},
	}}); err != nil {
		t.Fatalf("DeleteItem(%v): %v", k, err)
	}
}
