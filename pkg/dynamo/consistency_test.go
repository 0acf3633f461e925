package dynamo_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// readRecorder keeps each read a client makes: its operation, its key's
// sort key (GetItem) or its key condition (Query), and whether it was
// strongly consistent.
type readRecorder struct {
	mu    sync.Mutex
	reads []recordedRead
}

type recordedRead struct {
	op, what   string
	consistent bool
}

func (r *readRecorder) client(base *dynamodb.Client) *dynamodb.Client {
	record := middleware.InitializeMiddlewareFunc("RecordReads",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			var read *recordedRead
			switch p := in.Parameters.(type) {
			case *dynamodb.GetItemInput:
				read = &recordedRead{awsmiddleware.GetOperationName(ctx), attrOf(p.Key["pk"]) + " " + attrOf(p.Key["sk"]), aws.ToBool(p.ConsistentRead)}
			case *dynamodb.QueryInput:
				read = &recordedRead{awsmiddleware.GetOperationName(ctx), aws.ToString(p.KeyConditionExpression), aws.ToBool(p.ConsistentRead)}
			}
			if read != nil {
				r.mu.Lock()
				r.reads = append(r.reads, *read)
				r.mu.Unlock()
			}
			return next.HandleInitialize(ctx, in)
		})
	return dynamodb.New(base.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error { return s.Initialize.Add(record, middleware.Before) })
	})
}

func (r *readRecorder) take() []recordedRead {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.reads
	r.reads = nil
	return out
}

// TestReadsAtTheirLeastUnits pins which reads are eventually consistent
// (half a strongly consistent read's units on DynamoDB): the business
// record's, a listing's holds, and an address's mail record and a
// number's opt-out as a page shows them, which decide nothing (the
// create's and the move's conditions do); and which stay strongly
// consistent: the request's (a person reads their request just after
// creating or moving it), the mail record the owner's text is decided on
// (mail-events wrote it just before), the opt-out a send is decided on (a
// STOP is honoured at once), the holds of one window (a create or a move chooses a slot by them) and the
// hourly slots (a create chooses one). docs/performance.md gives
// each step's units.
func TestReadsAtTheirLeastUnits(t *testing.T) {
	ctx := context.Background()
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) {
			base, table := eng.Open(t)
			rec := &readRecorder{}
			store := dynamo.New(rec.client(base), table)
			ledger := dynamo.NewLedger(rec.client(base), table)
			if err := store.PutBusiness(ctx, loadBusiness(t)); err != nil {
				t.Fatal(err)
			}
			r := newRequest(slug, phone(1), monday)
			mustCreate(t, engine{store: store, client: base, table: table}, r, nil, now)
			rec.take()

			tests := []struct {
				name           string
				call           func() error
				op             string
				wantConsistent bool
			}{
				{"Business", func() error { _, err := store.Business(ctx, slug); return err }, "GetItem", false},
				{"PublicBusiness", func() error { _, err := store.PublicBusiness(ctx, slug); return err }, "GetItem", false},
				{"OwnBusiness", func() error { _, err := store.OwnBusiness(ctx, slug); return err }, "GetItem", true},
				{"HeldWindows", func() error {
					_, err := store.HeldWindows(ctx, slug, monday.Add(-time.Hour), monday.Add(48*time.Hour), now)
					return err
				}, "Query", false},
				{"Request", func() error { _, err := store.Request(ctx, r.Code); return err }, "GetItem", true},
				{"UndeliverableEmail", func() error { _, err := store.UndeliverableEmail(ctx, "ana@example.com"); return err }, "GetItem", false},
				{"UndeliverableEmailNow", func() error { _, err := store.UndeliverableEmailNow(ctx, "ana@example.com"); return err }, "GetItem", true},
				{"Ledger.OptedOut", func() error { _, err := ledger.OptedOut(ctx, "6025550147"); return err }, "GetItem", true},
				{"PageOptOuts.OptedOut", func() error { _, err := ledger.ForPages().OptedOut(ctx, "6025550147"); return err }, "GetItem", false},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					if err := tt.call(); err != nil {
						t.Fatal(err)
					}
					reads := rec.take()
					if len(reads) != 1 || reads[0].op != tt.op {
						t.Fatalf("got reads %+v, want one %s", reads, tt.op)
					}
					if got := reads[0].consistent; got != tt.wantConsistent {
						t.Errorf("%s of %s: got ConsistentRead %v, want %v", reads[0].op, reads[0].what, got, tt.wantConsistent)
					}
				})
			}

			// A create's reads before its transaction: the hourly slots,
			// strongly consistent (the business is read eventually).
			r2 := newRequest(slug, phone(2), monday.Add(24*time.Hour))
			mustCreate(t, engine{store: store, client: base, table: table}, r2, nil, now)
			for _, read := range rec.take() {
				if read.op == "Query" && !read.consistent {
					t.Errorf("create: Query %q is eventually consistent, want strongly: it chooses the slot the transaction takes", read.what)
				}
			}
		})
	}
}

// TestUpdateBusinessReadsItsOwnWrite: a store that changed a business
// serves the change from its cache at once, without a read that, being
// eventually consistent on DynamoDB, could still find the old record.
func TestUpdateBusinessReadsItsOwnWrite(t *testing.T) {
	ctx := context.Background()
	base, table := dynamotest.Minidyn(t)
	rec := &readRecorder{}
	store := dynamo.New(rec.client(base), table, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, func() time.Time { return now }))
	if err := store.PutBusiness(ctx, loadBusiness(t)); err != nil {
		t.Fatal(err)
	}
	err := store.UpdateBusiness(ctx, slug, func(b *booking.Business) (*booking.Business, error) {
		c := *b
		c.AcceptingRequests = false
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rec.take()
	got, err := store.Business(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	if got.AcceptingRequests {
		t.Error("Business after UpdateBusiness: got the record before the change")
	}
	if reads := rec.take(); len(reads) != 0 {
		t.Errorf("Business after UpdateBusiness read %+v, want its own write from the cache", reads)
	}
}

func attrOf(v types.AttributeValue) string {
	if s, ok := v.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// laggingReplica is a store whose eventually consistent read of an
// address's mail record has not yet seen the record, as a DynamoDB
// replica may for about a second after the write.
type laggingReplica struct{ *dynamo.Store }

func (laggingReplica) UndeliverableEmail(context.Context, string) (*booking.Undeliverable, error) {
	return nil, nil
}

// TestOwnerBounceTextReadsTheRecordJustWritten: mail-events records an
// inbox address undeliverable and at once asks whether to text the owner;
// the claim reads the record strongly consistent, so a replica that lags
// loses no text, while the pages read it eventually.
func TestOwnerBounceTextReadsTheRecordJustWritten(t *testing.T) {
	const email = "office@test-plumbing.example.com"
	ctx := context.Background()
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	b := inboxBusiness(t, slug, email)
	b.OwnerPhone = "5125550142"
	if err := store.PutBusiness(ctx, b); err != nil {
		t.Fatal(err)
	}
	s := bookingtest.New(t, booking.Config{Store: laggingReplica{store}, SiteURL: "https://doorstep.example.com", Now: func() time.Time { return now }})
	if _, err := s.RecordMailEvent(ctx, booking.MailEvent{Kind: booking.MailBounced, Email: email, At: now}); err != nil {
		t.Fatal(err)
	}
	if u, err := s.UndeliverableEmail(ctx, email); u != nil || err != nil {
		t.Fatalf("the page's read on the lagging replica: got %v, %v, want nothing yet", u, err)
	}
	if _, u, ok, err := s.ClaimOwnerBounceText(ctx, email); !ok || u == nil || err != nil {
		t.Errorf("the claim just after the record: got %v, %v, %v, want the text claimed", u, ok, err)
	}
}
