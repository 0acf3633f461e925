package dynamo_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// TestBusinessCache reads a business through a caching store while another
// store (an operator's) pauses it: the cached record is served until the TTL
// has passed on the injected clock, a put through the caching store is seen
// at once, and unknown slugs are never remembered.
func TestBusinessCache(t *testing.T) {
	ctx := context.Background()
	client, table := dynamotest.Minidyn(t)
	clock := now
	cached := dynamo.New(client, table, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, func() time.Time { return clock }))
	operator := dynamo.New(client, table)

	if _, err := cached.Business(ctx, slug); booking.ErrorCode(err) != booking.NotFound {
		t.Fatalf("Business(before any put) = %v, want NOT_FOUND", err)
	}
	b := loadBusiness(t)
	if err := operator.PutBusiness(ctx, b); err != nil {
		t.Fatal(err)
	}
	accepting := func() bool {
		t.Helper()
		got, err := cached.Business(ctx, slug)
		if err != nil {
			t.Fatalf("Business() = %v", err)
		}
		return got.AcceptingRequests
	}
	if !accepting() {
		t.Fatal("the NOT_FOUND was remembered: the new business is not seen")
	}

	paused := *b
	paused.AcceptingRequests = false
	if err := operator.PutBusiness(ctx, &paused); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name    string
		advance time.Duration
		want    bool
	}{
		{"just after the read: cached", time.Second, true},
		{"one second before the TTL: cached", dynamo.BusinessCacheTTL - 2*time.Second, true},
		{"at the TTL: read again", time.Second, false},
	}
	for _, s := range steps {
		clock = clock.Add(s.advance)
		if got := accepting(); got != s.want {
			t.Errorf("%s: accepting_requests = %v, want %v", s.name, got, s.want)
		}
	}

	if err := cached.PutBusiness(ctx, b); err != nil {
		t.Fatal(err)
	}
	if !accepting() {
		t.Error("a put through the caching store was not seen at once")
	}
}

// TestUpdateBusinessNeverUndoesAChange makes a change between
// UpdateBusiness's read and its write: the update fails, and the change
// made in between stays.
func TestUpdateBusinessNeverUndoesAChange(t *testing.T) {
	ctx := context.Background()
	forEachEngine(t, func(t *testing.T, e engine) {
		b := loadBusiness(t)
		if err := e.store.PutBusiness(ctx, b); err != nil {
			t.Fatal(err)
		}
		_, minted := booking.NewInboxToken(b.Slug)
		err := e.store.UpdateBusiness(ctx, b.Slug, func(stored *booking.Business) (*booking.Business, error) {
			meanwhile := *stored
			meanwhile.InboxTokenSHA256 = minted
			if err := e.store.PutBusiness(ctx, &meanwhile); err != nil {
				t.Fatal(err)
			}
			stored.Name = "Renamed"
			return stored, nil
		})
		if err == nil {
			t.Fatal("UpdateBusiness() = nil, want an error: the record changed after it was read")
		}
		got, err := e.store.Business(ctx, b.Slug)
		if err != nil {
			t.Fatal(err)
		}
		if got.InboxTokenSHA256 != minted || got.Name != b.Name {
			t.Errorf("got hash %q, name %q; want the change made in between (%q, %q)", got.InboxTokenSHA256, got.Name, minted, b.Name)
		}
	})
}

// A store without a business cache reads the table on every call, and a
// record read again unchanged is the one decoded before (not decoded
// again); a changed record is decoded anew, whoever changed it.
func TestBusinessDecodedOnceWhileUnchanged(t *testing.T) {
	ctx := context.Background()
	client, table := dynamotest.Minidyn(t)
	reader := dynamo.New(client, table)
	operator := dynamo.New(client, table)
	b := loadBusiness(t)
	if err := operator.PutBusiness(ctx, b); err != nil {
		t.Fatal(err)
	}
	read := func() *booking.Business {
		t.Helper()
		got, err := reader.Business(ctx, slug)
		if err != nil {
			t.Fatalf("Business() = %v", err)
		}
		return got
	}
	decodes := dynamo.CountDecodes(t)
	first, _ := read(), read()
	if *decodes != 1 {
		t.Errorf("an unchanged record was decoded %d times, want once", *decodes)
	}

	paused := *b
	paused.AcceptingRequests = false
	if err := operator.PutBusiness(ctx, &paused); err != nil {
		t.Fatal(err)
	}
	if got := read(); *decodes != 2 || got.AcceptingRequests || !first.AcceptingRequests {
		t.Errorf("after another store's change: decoded %d times, want twice, with the change read at once", *decodes)
	}
}

// TestCachedBusinessIsTheCallersOwn: what one request does to the business
// record it got (its name, its services, its ZIP codes, its hours, its
// deposit) never reaches the next request, whether the record came from
// the TTL cache or from the decoded-record cache.
func TestCachedBusinessIsTheCallersOwn(t *testing.T) {
	ctx := context.Background()
	client, table := dynamotest.Minidyn(t)
	stores := map[string]*dynamo.Store{
		"TTL cache":      dynamo.New(client, table, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, func() time.Time { return now })),
		"decoded record": dynamo.New(client, table),
	}
	if err := dynamo.New(client, table).PutBusiness(ctx, loadBusiness(t)); err != nil {
		t.Fatal(err)
	}
	for name, store := range stores {
		t.Run(name, func(t *testing.T) {
			first, err := store.Business(ctx, slug)
			if err != nil {
				t.Fatal(err)
			}
			want := first.Clone()
			first.Name = "changed by a caller"
			first.Services[0].Name.EN = "changed by a caller"
			first.ServiceArea.ZIPCodes[0] = "00000"
			first.Languages[0] = "xx"
			if len(first.Hours.Mon) > 0 {
				first.Hours.Mon[0].Open = "00:00"
			}
			if first.BookingDeposit != nil {
				first.BookingDeposit.AmountCents = 1
			}
			next, err := store.Business(ctx, slug)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(next, want) {
				t.Errorf("got %+v, want the record as stored, %+v: a caller's change leaked", next, want)
			}
		})
	}
}

// TestOwnBusinessReadsPastTheCache: the owner's read (OwnBusiness) finds
// a change another process stored a moment ago, while the public read
// (Business, PublicBusiness) serves the cached record until the TTL; and
// the owner's read leaves the cache as it was.
func TestOwnBusinessReadsPastTheCache(t *testing.T) {
	ctx := context.Background()
	for _, e := range dynamotest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			client, table := e.Open(t)
			clock := now
			cached := dynamo.New(client, table, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, func() time.Time { return clock }))
			ctl := dynamo.New(client, table)
			if err := ctl.PutBusiness(ctx, loadBusiness(t)); err != nil {
				t.Fatal(err)
			}
			if _, err := cached.PublicBusiness(ctx, slug); err != nil {
				t.Fatal(err)
			}
			err := ctl.UpdateBusiness(ctx, slug, func(b *booking.Business) (*booking.Business, error) {
				c := *b
				c.Name = "Renamed by the operator"
				return &c, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			reads := []struct {
				name string
				read func(context.Context, string) (*booking.Business, error)
				want string
			}{
				{"OwnBusiness", cached.OwnBusiness, "Renamed by the operator"},
				{"PublicBusiness", cached.PublicBusiness, loadBusiness(t).Name},
				{"Business", cached.Business, loadBusiness(t).Name},
			}
			for _, r := range reads {
				b, err := r.read(ctx, slug)
				if err != nil {
					t.Fatal(err)
				}
				if got := b.Name; got != r.want {
					t.Errorf("%s at once: got name %q, want %q", r.name, got, r.want)
				}
			}
		})
	}
}

// TestPublicBusinessCopiesNothing: the public side's read of a cached
// business hands out the cached record itself (booking.Store.PublicBusiness:
// never changed by its callers), not a copy made on every call.
func TestPublicBusinessCopiesNothing(t *testing.T) {
	ctx := context.Background()
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, func() time.Time { return now }))
	if err := store.PutBusiness(ctx, loadBusiness(t)); err != nil {
		t.Fatal(err)
	}
	first, err := store.PublicBusiness(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		b, err := store.PublicBusiness(ctx, slug)
		if err != nil || b != first {
			t.Fatalf("got %p, %v; want the cached record %p", b, err, first)
		}
	})
	if allocs != 0 {
		t.Errorf("got %.0f allocations a read, want 0", allocs)
	}
}
