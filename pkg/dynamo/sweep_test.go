package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// The sweeper's tests create requests at T = now, each with a deposit due
// within payWithin as the demo businesses ask, and sweep at fixed instants.
const payWithin = 30 * time.Minute

// pendingAt returns a request created at now waiting for its deposit, on
// the window starting at start, with its create event.
func pendingAt(phone string, start time.Time) booking.Request {
	r := pending(newRequest(slug, phone, start), now.Add(payWithin))
	r.History = []booking.Event{{At: now, By: booking.ActorCustomer, Action: booking.ActionCreate, To: r.Status, Window: r.Window}}
	return r
}

// newAt returns a request created at now with no deposit due.
func newAt(phone string, start time.Time) booking.Request {
	r := newRequest(slug, phone, start)
	r.History = []booking.Event{{At: now, By: booking.ActorCustomer, Action: booking.ActionCreate, To: r.Status, Window: r.Window}}
	return r
}

// openCount is a phone's open_count, 0 when it has no counter yet.
func (e engine) openCount(t *testing.T, phone string) int64 {
	t.Helper()
	return max(attrN(t, e.item(t, phoneKey(slug, phone)), "open_count"), 0)
}

// shards returns how many requests of rs each sweep index shard holds, as
// the stored items say.
func (e engine) shards(t *testing.T, rs []booking.Request) map[string]int {
	t.Helper()
	got := map[string]int{}
	for _, r := range rs {
		got[attrS(e.item(t, requestKey(r.Code)), "sweep_shard")]++
	}
	return got
}

// TestSweep sweeps requests created at T with a fixed clock: at T+29m no
// hold has lapsed and nothing moves; at T+31m every unpaid one is expired
// with the Lifecycle's effects, and the paid and deposit-free ones are left
// alone; a second sweep then moves nothing.
func TestSweep(t *testing.T) {
	ctx := context.Background()
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) {
			f := newLifecycleFixture(t, eng)
			window := func(i int) time.Time { return monday.Add(time.Duration(i) * 2 * time.Hour) }

			// Unpaid, so lapsing: phone 1 has one besides a request
			// without a deposit, phone 2 has the most a phone may have,
			// phones 3 to 10 one each.
			var lapsing []booking.Request
			lapsing = append(lapsing, pendingAt(phone(1), window(0)))
			for range booking.MaxOpenPerPhone {
				lapsing = append(lapsing, pendingAt(phone(2), window(len(lapsing))))
			}
			for p := 3; p <= 10; p++ {
				lapsing = append(lapsing, pendingAt(phone(p), window(len(lapsing))))
			}
			// Left alone: no deposit (phones 1 and 12), and one paid at T+10m
			// (phone 11).
			noDeposit := []booking.Request{newAt(phone(1), window(20)), newAt(phone(12), window(21))}
			paid := pendingAt(phone(11), window(22))

			counts := map[string]int64{} // each phone's open_count before any of these
			for _, r := range append(append(lapsing, noDeposit...), paid) {
				counts[r.Contact.Phone] = f.openCount(t, r.Contact.Phone)
			}
			for _, r := range append(append(lapsing, noDeposit...), paid) {
				mustCreate(t, f.engine, r, nil, now)
			}
			f.clock = now.Add(10 * time.Minute)
			if _, err := f.bookings.PaySimulated(ctx, paid.Code); err != nil {
				t.Fatalf("pay %s: %v", paid.Code, err)
			}
			if got := f.shards(t, lapsing); len(got) < 2 {
				t.Fatalf("the lapsing requests are in shards %v, want more than one", got)
			}
			if err := f.store.CreateRequest(ctx, newAt(phone(2), window(30)), nil, bookingtest.Unlimited, now); code(err) != booking.TooManyOpen {
				t.Fatalf("a 4th request of phone 2 before the sweep = %v, want TOO_MANY_OPEN", err)
			}

			// T+29m: no hold has lapsed.
			res, err := f.bookings.ExpireLapsed(ctx, now.Add(29*time.Minute))
			if err != nil || res != (booking.SweepResult{}) {
				t.Fatalf("sweep at T+29m = %+v, %v; want nothing moved", res, err)
			}
			for _, r := range lapsing {
				if got := f.status(t, r.Code); got != booking.StatusPendingPayment {
					t.Errorf("%s after the sweep at T+29m is %s, want pending_payment", r.Code, got)
				}
				if attrS(f.item(t, holdKey(slug, r.Window.Start)), "request_code") != r.Code {
					t.Errorf("%s lost its hold in the sweep at T+29m", r.Code)
				}
			}

			// T+31m: every unpaid hold has lapsed.
			at := now.Add(31 * time.Minute)
			res, err = f.bookings.ExpireLapsed(ctx, at)
			if err != nil || res != (booking.SweepResult{Expired: len(lapsing)}) {
				t.Fatalf("sweep at T+31m = %+v, %v; want %d expired", res, err, len(lapsing))
			}
			for _, r := range lapsing {
				got, err := f.store.Request(ctx, r.Code)
				if err != nil {
					t.Fatal(err)
				}
				want := booking.Event{At: at, By: booking.ActorSystem, Action: booking.ActionExpire,
					From: booking.StatusPendingPayment, To: booking.StatusExpired, Window: r.Window}
				if got.Status != booking.StatusExpired || len(got.History) != 2 || jsonString(got.History[1]) != jsonString(want) {
					t.Errorf("%s is %s with history %s, want expired with the create and %s", r.Code, got.Status, jsonString(got.History), jsonString(want))
				}
				if item := f.item(t, requestKey(r.Code)); item["sweep_shard"] != nil || item["sweep_at"] != nil {
					t.Errorf("%s is expired and still in the sweep index", r.Code)
				}
				if hold := f.item(t, holdKey(slug, r.Window.Start)); hold != nil {
					t.Errorf("%s is expired and its window's hold is still there: %v", r.Code, hold)
				}
			}
			for _, r := range append(noDeposit, paid) {
				if got := f.status(t, r.Code); got != booking.StatusNew {
					t.Errorf("%s (no deposit or paid) after the sweep is %s, want new", r.Code, got)
				}
				if attrS(f.item(t, holdKey(slug, r.Window.Start)), "request_code") != r.Code {
					t.Errorf("%s (no deposit or paid) lost its hold in the sweep", r.Code)
				}
			}
			held, err := f.store.HeldWindows(ctx, slug, monday, window(40), at)
			if err != nil {
				t.Fatal(err)
			}
			if want := []time.Time{window(20), window(21), window(22)}; fmt.Sprint(held) != fmt.Sprint(want) {
				t.Errorf("HeldWindows after the sweep = %v, want only the unswept %v", held, want)
			}
			for p, before := range counts {
				want := before
				for _, r := range append(noDeposit, paid) {
					if r.Contact.Phone == p {
						want++
					}
				}
				if got := f.openCount(t, p); got != want {
					t.Errorf("phone %s open_count after the sweep = %d, want %d", p, got, want)
				}
			}

			// The windows are open again, and phone 2 may ask again.
			again := newAt(phone(2), lapsing[1].Window.Start)
			if err := f.store.CreateRequest(ctx, again, nil, bookingtest.Unlimited, at); err != nil {
				t.Errorf("a new request on a swept window, from phone 2 = %v, want nil", err)
			}

			// A second sweep finds nothing left to move.
			if res, err := f.bookings.ExpireLapsed(ctx, at); err != nil || res.Expired != 0 {
				t.Errorf("second sweep = %+v, %v; want nothing expired", res, err)
			}
		})
	}
}

// status is the stored state of the request with the given code.
func (e engine) status(t *testing.T, code string) booking.Status {
	t.Helper()
	r, err := e.store.Request(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	return r.Status
}

// createLapsing stores n requests waiting for their deposits, each of its
// own phone and window, created at T, and returns them.
func createLapsing(t *testing.T, e engine, n int) []booking.Request {
	t.Helper()
	rs := make([]booking.Request, n)
	for i := range rs {
		rs[i] = pendingAt(phone(i), monday.Add(time.Duration(i)*2*time.Hour))
		mustCreate(t, e, rs[i], nil, now)
	}
	return rs
}

// checkExpiredOnce checks that each request of rs is expired with exactly
// one expire event, its phone's count back at 0.
func checkExpiredOnce(t *testing.T, e engine, rs []booking.Request) {
	t.Helper()
	for _, r := range rs {
		got, err := e.store.Request(context.Background(), r.Code)
		if err != nil {
			t.Fatal(err)
		}
		expires := 0
		for _, ev := range got.History {
			if ev.Action == booking.ActionExpire {
				expires++
			}
		}
		if got.Status != booking.StatusExpired || expires != 1 {
			t.Errorf("%s is %s with %d expire events, want expired with 1", r.Code, got.Status, expires)
		}
		if n := e.openCount(t, r.Contact.Phone); n != 0 {
			t.Errorf("phone %s open_count = %d, want 0", r.Contact.Phone, n)
		}
	}
}

// TestSweepPages sweeps more lapsed requests than a page holds: the store
// reads the sweep index one item per page, while the sweep takes each
// request it has read out of the index.
func TestSweepPages(t *testing.T) {
	const n = 20 // over 8 shards: some shard has 3 or more, so several pages
	forEachEngine(t, func(t *testing.T, e engine) {
		dynamo.SetPageSize(e.store, 1)
		rs := createLapsing(t, e, n)
		res, err := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://book.example.com", Now: bookingtest.NoClock(t)}).ExpireLapsed(context.Background(), now.Add(31*time.Minute))
		if err != nil || res != (booking.SweepResult{Expired: n}) {
			t.Fatalf("ExpireLapsed() = %+v, %v; want %d expired", res, err, n)
		}
		checkExpiredOnce(t, e, rs)
	})
}

// TestSweepConcurrently runs two sweeps at once, as two invocations of the
// sweeper may: each request is expired by exactly one of them.
func TestSweepConcurrently(t *testing.T) {
	const n = 20
	forEachEngine(t, func(t *testing.T, e engine) {
		rs := createLapsing(t, e, n)
		at := now.Add(31 * time.Minute)
		var (
			wg      sync.WaitGroup
			results [2]booking.SweepResult
			errs    [2]error
		)
		for i := range results {
			// Each sweep its own store, as two function instances have;
			// one reads a page per item, so the two interleave.
			s := dynamo.New(e.client, e.table)
			if i == 0 {
				dynamo.SetPageSize(s, 1)
			}
			wg.Go(func() {
				results[i], errs[i] = bookingtest.New(t, booking.Config{Store: s, SiteURL: "https://book.example.com", Now: bookingtest.NoClock(t)}).ExpireLapsed(context.Background(), at)
			})
		}
		wg.Wait()
		t.Logf("two concurrent sweeps of %d lapsed holds: %+v, %+v", n, results[0], results[1])
		for i, err := range errs {
			if err != nil {
				t.Errorf("sweep %d = %v, want nil", i, err)
			}
		}
		if got := results[0].Expired + results[1].Expired; got != n {
			t.Errorf("expired %d + %d = %d, want %d", results[0].Expired, results[1].Expired, got, n)
		}
		checkExpiredOnce(t, e, rs)
	})
}

// TestSweepGoesOnPastAFailure makes one lapsed request impossible to expire
// (its phone's counter is already 0, so the decrement's condition fails):
// the sweep reports the failure and still expires every other request, in
// every shard, rather than stopping at the first failure for ever.
func TestSweepGoesOnPastAFailure(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		// Requests until one is in the shard the sweep reads first, and at
		// least 10: the others are in later shards.
		var rs []booking.Request
		bad := -1
		for i := 0; bad < 0 || len(rs) < 10; i++ {
			if i == 200 {
				t.Fatal("no request in shard SWEEP#0 in 200")
			}
			r := pendingAt(phone(i), monday.Add(time.Duration(i)*2*time.Hour))
			mustCreate(t, e, r, nil, now)
			if bad < 0 && attrS(e.item(t, requestKey(r.Code)), "sweep_shard") == "SWEEP#0" {
				bad = len(rs)
			}
			rs = append(rs, r)
		}
		if _, err := e.client.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{
			TableName:                 aws.String(e.table),
			Key:                       map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "BUSINESS#" + slug}, "sk": &types.AttributeValueMemberS{Value: "PHONE#" + rs[bad].Contact.Phone}},
			UpdateExpression:          aws.String("SET open_count = :zero"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":zero": &types.AttributeValueMemberN{Value: "0"}},
		}); err != nil {
			t.Fatal(err)
		}

		res, err := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://book.example.com", Now: bookingtest.NoClock(t)}).ExpireLapsed(context.Background(), now.Add(31*time.Minute))
		if err == nil || !strings.Contains(err.Error(), rs[bad].Code) {
			t.Errorf("ExpireLapsed() error = %v, want one naming %s", err, rs[bad].Code)
		}
		if res.Expired != len(rs)-1 {
			t.Errorf("ExpireLapsed() = %+v, want %d expired: all but the one that cannot be", res, len(rs)-1)
		}
		checkExpiredOnce(t, e, append(rs[:bad:bad], rs[bad+1:]...))
		if got := e.status(t, rs[bad].Code); got != booking.StatusPendingPayment {
			t.Errorf("the request that cannot be expired is %s, want still pending_payment", got)
		}
	})
}

// BenchmarkSweep1000 times one sweep of 1,000 lapsed holds on DynamoDB
// Local (the holds are made with the timer stopped). It is not part of the
// test suite; run it by hand:
//
//	go test -run '^$' -bench Sweep1000 -benchtime 3x ./pkg/dynamo/
func BenchmarkSweep1000(b *testing.B) {
	const n, creators = 1000, 16
	client, table := dynamotest.Local(b)
	s := dynamo.New(client, table)
	rs := make([]booking.Request, n)
	for i := range rs {
		rs[i] = pendingAt(fmt.Sprintf("212555%04d", i), monday.Add(time.Duration(i)*2*time.Hour))
	}
	bookings := bookingtest.New(b, booking.Config{Store: s, SiteURL: "https://book.example.com", Now: bookingtest.NoClock(b)})
	for i := range b.N {
		b.StopTimer()
		// The same requests again under fresh codes: the last sweep freed
		// their windows and phones.
		next := make(chan booking.Request)
		var wg sync.WaitGroup
		for range creators {
			wg.Go(func() {
				for r := range next {
					if err := s.CreateRequest(context.Background(), r, nil, bookingtest.Unlimited, now); err != nil {
						b.Error(err)
					}
				}
			})
		}
		for _, r := range rs {
			r.Code = booking.NewCode()
			next <- r
		}
		close(next)
		wg.Wait()
		b.StartTimer()

		begin := time.Now()
		res, err := bookings.ExpireLapsed(context.Background(), now.Add(31*time.Minute))
		if err != nil || res.Expired != n {
			b.Fatalf("ExpireLapsed() = %+v, %v; want %d expired", res, err, n)
		}
		b.Logf("sweep %d of %d lapsed holds: %+v in %v", i+1, n, res, time.Since(begin).Round(time.Millisecond))
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "holds/s")
}

// TestSweepUnanswered sweeps new requests the business never answered: at
// their window's start minus a second nothing moves; at the start each is
// expired with the Lifecycle's effects (its phone counts it no more, its
// hold is released, a paid deposit is refunded), while one whose window
// starts later is left alone. Before the sweep, reads already say expired
// and the business can no longer answer. A request stored new without the
// sweep keys (before they were kept for new requests) is not found until
// Store.AddSweepKeys gives it them.
func TestSweepUnanswered(t *testing.T) {
	ctx := context.Background()
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) {
			f := newLifecycleFixture(t, eng)
			start := monday

			// Phone 1 ignored three times: the most a phone may have.
			var unanswered []booking.Request
			for i := range booking.MaxOpenPerPhone {
				unanswered = append(unanswered, newAt(phone(1), start.Add(time.Duration(i)*24*time.Hour)))
			}
			// Phone 2: its deposit paid, then ignored too.
			paid := pendingAt(phone(2), start.Add(2*time.Hour))
			later := newAt(phone(3), start.Add(4*time.Hour))
			for _, r := range append([]booking.Request{paid, later}, unanswered...) {
				mustCreate(t, f.engine, r, nil, now)
			}
			f.clock = now.Add(10 * time.Minute)
			if _, err := f.bookings.PaySimulated(ctx, paid.Code); err != nil {
				t.Fatalf("pay %s: %v", paid.Code, err)
			}
			if item := f.item(t, requestKey(paid.Code)); attrN(t, item, "sweep_at") != paid.Window.Start.Unix() {
				t.Errorf("paid request's sweep_at = %d, want its window's start %d", attrN(t, item, "sweep_at"), paid.Window.Start.Unix())
			}
			if err := f.store.CreateRequest(ctx, newAt(phone(1), start.Add(30*24*time.Hour)), nil, bookingtest.Unlimited, now); code(err) != booking.TooManyOpen {
				t.Fatalf("a 4th request of phone 1 before the sweep = %v, want TOO_MANY_OPEN", err)
			}

			// Monday's first window minus a second: nothing has lapsed.
			res, err := f.bookings.ExpireLapsed(ctx, start.Add(-time.Second))
			if err != nil || res != (booking.SweepResult{}) {
				t.Fatalf("sweep a second before the window = %+v, %v; want nothing moved", res, err)
			}
			if got := f.status(t, unanswered[0].Code); got != booking.StatusNew {
				t.Fatalf("%s a second before its window is %s, want new", unanswered[0].Code, got)
			}

			// At the start, before any sweep: the reads say expired, and the
			// business can no longer answer.
			f.clock = start
			st, err := f.bookings.RequestStatus(ctx, unanswered[0].Code)
			if err != nil || st.Status != booking.StatusExpired {
				t.Errorf("status at the window's start = %s, %v; want expired", st.Status, err)
			}
			if _, err := f.bookings.OperatorMove(ctx, unanswered[0].Code, booking.ActionAccept, time.Time{}); code(err) != booking.InvalidTransition {
				t.Errorf("accept at the window's start = %v, want INVALID_TRANSITION", err)
			}

			// The sweep at the start expires it.
			res, err = f.bookings.ExpireLapsed(ctx, start)
			if err != nil || res != (booking.SweepResult{Expired: 1}) {
				t.Fatalf("sweep at the window's start = %+v, %v; want 1 expired", res, err)
			}
			f.checkUnansweredExpiry(t, unanswered[0], start)
			if n := f.openCount(t, phone(1)); n != booking.MaxOpenPerPhone-1 {
				t.Errorf("phone 1 open_count after one expiry = %d, want %d", n, booking.MaxOpenPerPhone-1)
			}
			if got := f.status(t, unanswered[1].Code); got != booking.StatusNew {
				t.Errorf("%s (its window a day later) is %s, want new", unanswered[1].Code, got)
			}

			// Later sweeps: the paid one (refunded) and the rest; the later
			// one stays until its own window starts.
			res, err = f.bookings.ExpireLapsed(ctx, start.Add(2*time.Hour))
			if err != nil || res != (booking.SweepResult{Expired: 1}) {
				t.Fatalf("sweep at the paid request's window = %+v, %v; want 1 expired", res, err)
			}
			f.checkUnansweredExpiry(t, paid, start.Add(2*time.Hour))
			if n := f.openCount(t, phone(2)); n != 0 {
				t.Errorf("phone 2 open_count after its expiry = %d, want 0", n)
			}
			got, err := f.store.Request(ctx, paid.Code)
			if err != nil {
				t.Fatal(err)
			}
			if got.Deposit.State != booking.DepositRefunded || !got.Deposit.Since.Equal(paid.Window.Start) {
				t.Errorf("paid deposit after the unanswered expiry = %+v, want refunded since %s", got.Deposit, paid.Window.Start)
			}
			if got := f.status(t, later.Code); got != booking.StatusNew {
				t.Errorf("%s (its window at 14:00 UTC) is %s, want new", later.Code, got)
			}
			end := start.Add(time.Duration(booking.MaxOpenPerPhone) * 24 * time.Hour)
			rest := append([]booking.Request{later}, unanswered[1:]...)
			if res, err := f.bookings.ExpireLapsed(ctx, end); err != nil || res != (booking.SweepResult{Expired: len(rest)}) {
				t.Fatalf("sweep after every window = %+v, %v; want %d expired", res, err, len(rest))
			}
			for _, r := range rest {
				f.checkUnansweredExpiry(t, r, end)
			}
			for _, p := range []string{phone(1), phone(3)} {
				if n := f.openCount(t, p); n != 0 {
					t.Errorf("phone %s open_count after every expiry = %d, want 0", p, n)
				}
			}

			// Phone 1, ignored three times, may send a fourth.
			if err := f.store.CreateRequest(ctx, newAt(phone(1), end.Add(24*time.Hour)), nil, bookingtest.Unlimited, end); err != nil {
				t.Errorf("a 4th request of phone 1 after the sweep = %v, want nil", err)
			}

			// Stored new before new requests had sweep keys: reads say
			// expired, the sweep does not find it until AddSweepKeys gives
			// it its keys; the expired ones, keyless too, get none.
			old := newAt(phone(4), end.Add(12*time.Hour)) // before the fourth's window
			mustCreate(t, f.engine, old, nil, end)
			item := f.item(t, requestKey(old.Code))
			delete(item, "sweep_shard")
			delete(item, "sweep_at")
			if _, err := f.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(f.table), Item: item}); err != nil {
				t.Fatal(err)
			}
			if res, err := f.bookings.ExpireLapsed(ctx, old.Window.Start); err != nil || res.Expired != 0 {
				t.Errorf("sweep of a request without sweep keys = %+v, %v; want nothing expired", res, err)
			}
			f.clock = old.Window.Start
			if st, err := f.bookings.RequestStatus(ctx, old.Code); err != nil || st.Status != booking.StatusExpired {
				t.Errorf("status of a request without sweep keys at its window's start = %s, %v; want expired", st.Status, err)
			}
			if n, err := f.store.AddSweepKeys(ctx); err != nil || n != 1 {
				t.Fatalf("AddSweepKeys() = %d, %v; want 1", n, err)
			}
			if n, err := f.store.AddSweepKeys(ctx); err != nil || n != 0 {
				t.Errorf("AddSweepKeys() again = %d, %v; want 0", n, err)
			}
			if got := attrN(t, f.item(t, requestKey(old.Code)), "sweep_at"); got != old.Window.Start.Unix() {
				t.Errorf("sweep_at after AddSweepKeys = %d, want the window's start %d", got, old.Window.Start.Unix())
			}
			if res, err := f.bookings.ExpireLapsed(ctx, old.Window.Start); err != nil || res != (booking.SweepResult{Expired: 1}) {
				t.Fatalf("sweep after AddSweepKeys = %+v, %v; want 1 expired", res, err)
			}
			f.checkUnansweredExpiry(t, old, old.Window.Start)
			if n := f.openCount(t, phone(4)); n != 0 {
				t.Errorf("phone 4 open_count after the expiry = %d, want 0", n)
			}
		})
	}
}

// checkUnansweredExpiry checks that r, created new (or paid) at now, was
// expired unanswered by the sweep at: its event, its hold, the indexes it
// is in.
func (e engine) checkUnansweredExpiry(t *testing.T, r booking.Request, at time.Time) {
	t.Helper()
	got, err := e.store.Request(context.Background(), r.Code)
	if err != nil {
		t.Fatal(err)
	}
	last := got.History[len(got.History)-1]
	want := booking.Event{At: at, By: booking.ActorSystem, Action: booking.ActionExpire,
		From: booking.StatusNew, To: booking.StatusExpired, Window: r.Window}
	if got.Status != booking.StatusExpired || jsonString(last) != jsonString(want) || !got.Unanswered() {
		t.Errorf("%s is %s with last event %s, want expired unanswered by %s", r.Code, got.Status, jsonString(last), jsonString(want))
	}
	item := e.item(t, requestKey(r.Code))
	if item["sweep_shard"] != nil || item["sweep_at"] != nil {
		t.Errorf("%s is expired and still in the sweep index", r.Code)
	}
	if attrS(item, "inbox_slug") != slug {
		t.Errorf("%s expired unanswered and left its business's inbox", r.Code)
	}
	if hold := e.item(t, holdKey(slug, r.Window.Start)); hold != nil {
		t.Errorf("%s is expired and its window's hold is still there: %v", r.Code, hold)
	}
}
