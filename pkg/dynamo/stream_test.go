package dynamo_test

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/notify"
)

// streamRecord is dynamotest.StreamRecord at the tests' now.
func streamRecord(t *testing.T, name string, old, item map[string]types.AttributeValue) events.DynamoDBEventRecord {
	t.Helper()
	return dynamotest.StreamRecord(t, name, old, item, now)
}

// withHistory returns r as the domain creates it: with its create event.
func withHistory(r booking.Request) booking.Request {
	r.History = []booking.Event{{At: r.Created, By: booking.ActorCustomer, Action: booking.ActionCreate, To: r.Status, Window: r.Window}}
	return r
}

// TestDecodeRequestWrite decodes the stream records of the items the store
// writes: the create and a move of a request, each back to the request as
// stored, and to the change notify sees in it.
func TestDecodeRequestWrite(t *testing.T) {
	ctx := context.Background()
	forEachEngine(t, func(t *testing.T, e engine) {
		r := withHistory(pending(newRequest(slug, phone(1), monday), now.Add(30*time.Minute)))
		mustCreate(t, e, r, nil, now)
		created := e.item(t, requestKey(r.Code))

		w, ok, err := dynamo.DecodeRequestWrite(streamRecord(t, "INSERT", nil, created))
		if err != nil || !ok {
			t.Fatalf("INSERT: got ok %v, %v, want a request write", ok, err)
		}
		if w.Code != r.Code || w.Before != nil || jsonString(w.After) != jsonString(r) {
			t.Fatalf("INSERT: got %s before %v after %s, want %s after %s", w.Code, w.Before, jsonString(w.After), r.Code, jsonString(r))
		}
		if got := changeIDs(w); got != r.Code+"#0 create" {
			t.Errorf("INSERT: got changes %q, want the create", got)
		}

		// The deposit is paid: the move's put is a MODIFY of the whole item.
		bookings := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://book.example.com", Now: func() time.Time { return now.Add(time.Minute) }})
		after, err := bookings.PaySimulated(ctx, r.Code)
		if err != nil {
			t.Fatal(err)
		}
		paid := e.item(t, requestKey(r.Code))
		w, ok, err = dynamo.DecodeRequestWrite(streamRecord(t, "MODIFY", created, paid))
		if err != nil || !ok {
			t.Fatalf("MODIFY: got ok %v, %v, want a request write", ok, err)
		}
		if w.Before == nil || jsonString(*w.Before) != jsonString(r) || jsonString(w.After) != jsonString(after) {
			t.Fatalf("MODIFY: got before %v after %s, want before %s after %s", w.Before, jsonString(w.After), jsonString(r), jsonString(after))
		}
		if got := changeIDs(w); got != r.Code+"#1 pay" {
			t.Errorf("MODIFY: got changes %q, want the payment", got)
		}
	})
}

func changeIDs(w dynamo.RequestWrite) string {
	var s []string
	for _, ch := range notify.Changes(w.Before, w.After) {
		s = append(s, ch.ID+" "+string(ch.Event.Action))
	}
	return strings.Join(s, ", ")
}

// TestDecodeRequestWriteIgnores: the table holds more than requests, and
// a removal is nobody's news.
func TestDecodeRequestWriteIgnores(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		r := withHistory(newRequest(slug, phone(2), monday))
		mustCreate(t, e, r, nil, now)
		ledger := dynamo.NewLedger(e.client, e.table)
		if _, err := ledger.Claim(context.Background(), r.Code+"#0/received/person/email", now); err != nil {
			t.Fatal(err)
		}
		request := e.item(t, requestKey(r.Code))
		other := map[string]types.AttributeValue{"pk": request["pk"], "sk": &types.AttributeValueMemberS{Value: "REQUEST#NOTE"}}
		tests := []struct {
			name string
			rec  events.DynamoDBEventRecord
		}{
			{"the window hold", streamRecord(t, "INSERT", nil, e.item(t, holdKey(slug, monday)))},
			{"the phone counter", streamRecord(t, "INSERT", nil, e.item(t, phoneKey(slug, phone(2))))},
			{"a ledger item", streamRecord(t, "INSERT", nil, e.item(t, notifyKey(r.Code+"#0/received/person/email")))},
			{"another sort key under the request", streamRecord(t, "INSERT", nil, other)},
			{"the request's removal", streamRecord(t, "REMOVE", request, nil)},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				w, ok, err := dynamo.DecodeRequestWrite(tt.rec)
				if ok || err != nil {
					t.Fatalf("got %+v, %v, %v, want it ignored", w, ok, err)
				}
			})
		}
	})
}

func TestDecodeRequestWriteErrors(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		r := withHistory(newRequest(slug, phone(3), monday))
		mustCreate(t, e, r, nil, now)
		item := e.item(t, requestKey(r.Code))

		// Attributes of every type convert; the decoder ignores the unknown.
		extra := map[string]types.AttributeValue{
			"x_b":    &types.AttributeValueMemberB{Value: []byte{1, 2}},
			"x_bs":   &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
			"x_ss":   &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
			"x_ns":   &types.AttributeValueMemberNS{Value: []string{"1", "2"}},
			"x_null": &types.AttributeValueMemberNULL{Value: true},
			"x_bool": &types.AttributeValueMemberBOOL{Value: true},
		}
		withExtra := maps.Clone(item)
		for k, v := range extra {
			withExtra[k] = v
		}
		if w, ok, err := dynamo.DecodeRequestWrite(streamRecord(t, "INSERT", nil, withExtra)); err != nil || !ok || w.After.Code != r.Code {
			t.Fatalf("extra attributes: got %+v, %v, %v, want the request", w, ok, err)
		}

		bad := maps.Clone(item)
		bad["window"] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"start": &types.AttributeValueMemberS{Value: "Monday morning"}}}
		tests := []struct {
			name string
			rec  events.DynamoDBEventRecord
			want string
		}{
			{"a MODIFY without its old image", streamRecord(t, "MODIFY", nil, item), "NEW_AND_OLD_IMAGES"},
			{"an image that is no request", streamRecord(t, "INSERT", nil, bad), "new image"},
			{"an old image that is no request", streamRecord(t, "MODIFY", bad, item), "old image"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				w, ok, err := dynamo.DecodeRequestWrite(tt.rec)
				if ok || err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), r.Code) || w.Code != r.Code {
					t.Fatalf("got %q, ok %v, %v, want the code and an error naming %s and %q", w.Code, ok, err, r.Code, tt.want)
				}
			})
		}
	})
}

// TestDecodeLimitHit decodes the stream record of the item RecordLimitHit
// puts: its business and clock hour, from the key. Its removal (TTL), and
// every other item, is no limit hit; and no request write.
func TestDecodeLimitHit(t *testing.T) {
	ctx := context.Background()
	forEachEngine(t, func(t *testing.T, e engine) {
		at := now.Add(17*time.Minute + 5*time.Second)
		if first, err := e.store.RecordLimitHit(ctx, slug, at); err != nil || !first {
			t.Fatalf("got first %v, %v, want the hour's first record", first, err)
		}
		key := itemKey{"BUSINESS#" + slug, "LIMITHIT#2026-11-20T00:00:00Z"}
		hit := e.item(t, key)
		if hit == nil {
			t.Fatalf("no item at %v", key)
		}
		gotSlug, hour, ok, err := dynamo.DecodeLimitHit(streamRecord(t, "INSERT", nil, hit))
		if err != nil || !ok || gotSlug != slug || !hour.Equal(now) || hour.Location() != time.UTC {
			t.Fatalf("INSERT: got %q, %s, ok %v, %v; want %q, %s", gotSlug, hour, ok, err, slug, now)
		}
		if w, ok, err := dynamo.DecodeRequestWrite(streamRecord(t, "INSERT", nil, hit)); ok || err != nil {
			t.Errorf("DecodeRequestWrite: got %+v, %v, %v, want the limit hit ignored", w, ok, err)
		}

		r := withHistory(newRequest(slug, phone(4), monday))
		mustCreate(t, e, r, nil, now)
		tests := []struct {
			name string
			rec  events.DynamoDBEventRecord
		}{
			{"its removal by TTL", streamRecord(t, "REMOVE", hit, nil)},
			{"a request", streamRecord(t, "INSERT", nil, e.item(t, requestKey(r.Code)))},
			{"the window hold", streamRecord(t, "INSERT", nil, e.item(t, holdKey(slug, monday)))},
			{"the phone counter", streamRecord(t, "INSERT", nil, e.item(t, phoneKey(slug, phone(4))))},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if s, h, ok, err := dynamo.DecodeLimitHit(tt.rec); ok || err != nil {
					t.Fatalf("got %q, %s, %v, %v, want it ignored", s, h, ok, err)
				}
			})
		}
	})
}

func TestDecodeLimitHitErrors(t *testing.T) {
	for _, sk := range []string{"LIMITHIT#", "LIMITHIT#yesterday", "LIMITHIT#2026-11-20T00:30:00Z"} {
		t.Run(sk, func(t *testing.T) {
			item := map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: "BUSINESS#" + slug}, "sk": &types.AttributeValueMemberS{Value: sk},
			}
			s, _, ok, err := dynamo.DecodeLimitHit(streamRecord(t, "INSERT", nil, item))
			if ok || err == nil || s != slug || !strings.Contains(err.Error(), sk) {
				t.Fatalf("got %q, ok %v, %v, want the slug and an error naming %q", s, ok, err, sk)
			}
		})
	}
}
