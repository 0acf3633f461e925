package dynamo_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// The race tests run on DynamoDB Local only: minidyn runs one call at a time,
// so nothing races there.

// openLocal opens a table of its own on DynamoDB Local.
func openLocal(t *testing.T) engine {
	t.Helper()
	client, table := dynamotest.Local(t)
	return engine{store: dynamo.New(client, table), client: client, table: table}
}

// makeRequests returns the n requests of(0) to of(n-1).
func makeRequests(n int, of func(i int) booking.Request) []booking.Request {
	rs := make([]booking.Request, n)
	for i := range rs {
		rs[i] = of(i)
	}
	return rs
}

// race runs create(i) for i in [0, n) at once and returns their errors.
func race(n int, create func(i int) error) []error {
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = create(i)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// stored returns the requests of rs that the store holds.
func stored(t *testing.T, s *dynamo.Store, rs []booking.Request) []string {
	t.Helper()
	var codes []string
	for _, r := range rs {
		_, err := s.Request(context.Background(), r.Code)
		switch code(err) {
		case "":
			codes = append(codes, r.Code)
		case booking.NotFound:
		default:
			t.Fatalf("Request(%s) = %v", r.Code, err)
		}
	}
	return codes
}

func TestRaceForOneWindow(t *testing.T) {
	const n = 100
	e := openLocal(t)
	s := e.store
	rs := makeRequests(n, func(i int) booking.Request {
		return newRequest(slug, phone(i), monday) // a different phone each
	})

	begin := time.Now()
	errs := race(n, func(i int) error {
		return s.CreateRequest(context.Background(), rs[i], nil, bookingtest.Unlimited, now)
	})
	elapsed := time.Since(begin)

	var winners []string
	taken := 0
	for i, err := range errs {
		switch code(err) {
		case "":
			winners = append(winners, rs[i].Code)
		case booking.WindowTaken:
			taken++
		default:
			t.Errorf("CreateRequest(%d) = %v, want nil or WINDOW_TAKEN", i, err)
		}
	}
	t.Logf("%d concurrent creates for one window: %d created, %d WINDOW_TAKEN, %d other errors (%v)",
		n, len(winners), taken, n-len(winners)-taken, elapsed.Round(time.Millisecond))
	if len(winners) != 1 || taken != n-1 {
		t.Fatalf("got %d created and %d WINDOW_TAKEN, want 1 and %d", len(winners), taken, n-1)
	}
	if got := stored(t, s, rs); len(got) != 1 || got[0] != winners[0] {
		t.Errorf("stored requests = %v, want only the winner %s", got, winners[0])
	}
	if got := attrS(e.item(t, holdKey(slug, monday)), "request_code"); got != winners[0] {
		t.Errorf("hold request_code = %q, want the winner %s", got, winners[0])
	}
}

func TestRaceForOneIdempotencyKey(t *testing.T) {
	const n = 20
	e := openLocal(t)
	s := e.store
	// The same body sent n times under one key: the domain gives each try a
	// fresh code and the record of its own answer.
	rs := make([]booking.Request, n)
	keys := make([]*booking.IdempotencyRecord, n)
	for i := range rs {
		rs[i] = newRequest(slug, phone(1), monday)
		keys[i] = record(rs[i], "one-key-for-all", now.Add(booking.IdempotencyKeyTTL))
	}

	begin := time.Now()
	errs := race(n, func(i int) error {
		return s.CreateRequest(context.Background(), rs[i], keys[i], bookingtest.Unlimited, now)
	})
	elapsed := time.Since(begin)

	var winners []string
	var replays []*booking.IdempotencyRecord
	for i, err := range errs {
		if err == nil {
			winners = append(winners, rs[i].Code)
		} else if rec := keyUsed(err); rec != nil {
			replays = append(replays, rec)
		} else {
			t.Errorf("CreateRequest(%d) = %v, want nil or *booking.KeyUsedError", i, err)
		}
	}
	t.Logf("%d concurrent creates under one idempotency key: %d created, %d KeyUsedError, %d other errors (%v)",
		n, len(winners), len(replays), n-len(winners)-len(replays), elapsed.Round(time.Millisecond))
	if len(winners) != 1 || len(replays) != n-1 {
		t.Fatalf("got %d created and %d KeyUsedError, want 1 and %d", len(winners), len(replays), n-1)
	}
	for _, rec := range replays {
		if rec.Response.Code != winners[0] || rec.Key != "one-key-for-all" {
			t.Errorf("KeyUsedError.Record = %s, want the record of %s", jsonString(rec), winners[0])
		}
	}
	if got := stored(t, s, rs); len(got) != 1 || got[0] != winners[0] {
		t.Errorf("stored requests = %v, want only the winner %s", got, winners[0])
	}
	if got := attrN(t, e.item(t, phoneKey(slug, phone(1))), "open_count"); got != 1 {
		t.Errorf("open_count = %d, want 1", got)
	}
}

func TestRaceForOnePhone(t *testing.T) {
	const n = 12
	e := openLocal(t)
	s := e.store
	rs := makeRequests(n, func(i int) booking.Request {
		return newRequest(slug, phone(1), monday.Add(time.Duration(i)*2*time.Hour)) // a window each
	})

	errs := race(n, func(i int) error {
		return s.CreateRequest(context.Background(), rs[i], nil, bookingtest.Unlimited, now)
	})

	created, tooMany := 0, 0
	for i, err := range errs {
		switch code(err) {
		case "":
			created++
		case booking.TooManyOpen:
			tooMany++
		default:
			t.Errorf("CreateRequest(%d) = %v, want nil or TOO_MANY_OPEN", i, err)
		}
	}
	t.Logf("%d concurrent creates for one phone: %d created, %d TOO_MANY_OPEN, %d other errors",
		n, created, tooMany, n-created-tooMany)
	if created != booking.MaxOpenPerPhone || tooMany != n-booking.MaxOpenPerPhone {
		t.Fatalf("got %d created and %d TOO_MANY_OPEN, want %d and %d", created, tooMany, booking.MaxOpenPerPhone, n-booking.MaxOpenPerPhone)
	}
	if got := len(stored(t, s, rs)); got != booking.MaxOpenPerPhone {
		t.Errorf("stored requests = %d, want %d", got, booking.MaxOpenPerPhone)
	}
	if got := attrN(t, e.item(t, phoneKey(slug, phone(1))), "open_count"); got != booking.MaxOpenPerPhone {
		t.Errorf("open_count = %d, want %d", got, booking.MaxOpenPerPhone)
	}
}
