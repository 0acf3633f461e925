package dynamo_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// The lifecycle races run on DynamoDB Local only, as the create races do
// (race_test.go): minidyn serves one call at a time, so nothing races there.
var localEngine = dynamotest.Engine{Name: "dynamodb-local", Open: dynamotest.Local}

// raceRounds is how many times each race runs, each on fresh requests: a
// lost update or a drifting counter that shows up once in a while shows
// up more often.
const raceRounds = 3

// watchCounter reads the phone counter under k over and over until the
// returned stop is called, which returns the least and the greatest
// open_count seen, so a race that took the counter below zero even for a
// moment is caught, not only one that left it there.
func (e engine) watchCounter(t *testing.T, k itemKey) (stop func() (least, greatest int64)) {
	t.Helper()
	done := make(chan struct{})
	var wg sync.WaitGroup
	// The first read is done before the race starts.
	first := attrN(t, e.item(t, k), "open_count")
	least, greatest := first, first
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			// Not e.item and attrN: they call t.Fatal, which only the
			// test's own goroutine may.
			out, err := e.client.GetItem(context.Background(), &dynamodb.GetItemInput{
				TableName:      aws.String(e.table),
				Key:            map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: k.pk}, "sk": &types.AttributeValueMemberS{Value: k.sk}},
				ConsistentRead: aws.Bool(true),
			})
			if err != nil {
				t.Errorf("read %v: %v", k, err)
				return
			}
			v, _ := out.Item["open_count"].(*types.AttributeValueMemberN)
			if v == nil {
				t.Errorf("%v has no open_count", k)
				return
			}
			n, err := strconv.ParseInt(v.Value, 10, 64)
			if err != nil {
				t.Errorf("%v: open_count %q: %v", k, v.Value, err)
				return
			}
			least, greatest = min(least, n), max(greatest, n)
		}
	})
	return func() (int64, int64) {
		close(done)
		wg.Wait()
		return least, greatest
	}
}

// TestRaceAcceptDecline has the business accept and decline one new request
// fifty times each, all at once: exactly one move wins, every other is
// INVALID_TRANSITION, and the phone's open count goes from 1 to 0 once.
func TestRaceAcceptDecline(t *testing.T) {
	const pairs = 50
	ctx := context.Background()
	f := newLifecycleFixture(t, localEngine)
	b := loadBusiness(t)
	counter := phoneKey(slug, phone(1))
	for round := range raceRounds {
		start := monday.Add(time.Duration(round) * 2 * time.Hour) // a window each round
		r := newRequest(slug, phone(1), start)
		r.History = []booking.Event{{At: now, By: booking.ActorCustomer, Action: booking.ActionCreate, To: r.Status, Window: r.Window}}
		mustCreate(t, f.engine, r, nil, now)
		if got := attrN(t, f.item(t, counter), "open_count"); got != 1 {
			t.Fatalf("round %d: open_count before the race = %d, want 1", round, got)
		}

		actions := []booking.Action{booking.ActionAccept, booking.ActionDecline}
		stop := f.watchCounter(t, counter)
		begin := time.Now()
		// Which action goroutine 0 makes alternates by round, so that
		// neither has the head start of being sent first.
		action := func(i int) booking.Action { return actions[(i+round)%2] }
		inbox := bookingtest.Inbox(t, f.bookings, b.Slug)
		errs := race(2*pairs, func(i int) error {
			_, err := inbox.Move(ctx, r.Code, action(i), time.Time{})
			return err
		})
		elapsed := time.Since(begin)
		least, greatest := stop()

		var won []booking.Action
		refused := 0
		for i, err := range errs {
			switch code(err) {
			case "":
				won = append(won, action(i))
			case booking.InvalidTransition:
				refused++
			default:
				t.Errorf("round %d: Move(%s) = %v, want nil or INVALID_TRANSITION", round, action(i), err)
			}
		}
		final := attrN(t, f.item(t, counter), "open_count")
		t.Logf("round %d: %d concurrent accepts and %d declines of one request: %d won %v, %d INVALID_TRANSITION, %d other errors (%v); open_count 1 -> %d, seen between %d and %d",
			round, pairs, pairs, len(won), won, refused, 2*pairs-len(won)-refused, elapsed.Round(time.Millisecond), final, least, greatest)
		if len(won) != 1 || refused != 2*pairs-1 {
			t.Fatalf("round %d: got %d moves and %d INVALID_TRANSITION, want 1 and %d", round, len(won), refused, 2*pairs-1)
		}
		if final != 0 || least < 0 || greatest > 1 {
			t.Errorf("round %d: open_count = %d, seen between %d and %d; want 0, never below 0 nor above 1", round, final, least, greatest)
		}

		got, err := f.store.Request(ctx, r.Code)
		if err != nil {
			t.Fatal(err)
		}
		want := booking.StatusAccepted
		if won[0] == booking.ActionDecline {
			want = booking.StatusDeclined
		}
		if got.Status != want || len(got.History) != 2 || got.History[1].Action != won[0] {
			t.Errorf("round %d: stored request is %s with %d events, want %s with 2 (create, %s)", round, got.Status, len(got.History), want, won[0])
		}
		// An accepted request keeps its window; a declined one opens it again.
		hold := f.item(t, holdKey(slug, start))
		if held := attrS(hold, "request_code") == r.Code; held != (want == booking.StatusAccepted) {
			t.Errorf("round %d: %s request holds its window = %v, want %v", round, want, held, want == booking.StatusAccepted)
		}
	}
}

// TestRaceMoveToOneWindow has the business offer one free window to fifty
// new requests of fifty phones, all at once: exactly one gets it, the
// others are WINDOW_TAKEN and stay new at their own windows with their
// phones' open counts as they were; the winner is accepted at it (the offer
// answers it, issue 20) and its phone's count goes down in the same write.
func TestRaceMoveToOneWindow(t *testing.T) {
	const n = 50
	ctx := context.Background()
	f := newLifecycleFixture(t, localEngine)
	b := loadBusiness(t)
	targets := b.Windows(now, time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), 7, nil)
	if len(targets) < raceRounds {
		t.Fatalf("%d windows in the week of monday, want at least %d", len(targets), raceRounds)
	}
	for round := range raceRounds {
		target := targets[round].Start
		rs := make([]booking.Request, n)
		for i := range rs {
			// The requests' own windows are round+1 years on, so that no
			// round holds another round's windows. The store takes a hold
			// on any instant; only the window moved to is checked against
			// the business's hours.
			own := target.AddDate(round+1, 0, 0).Add(time.Duration(i) * 2 * time.Hour)
			rs[i] = newRequest(slug, phone(100*round+i), own)
			rs[i].History = []booking.Event{{At: now, By: booking.ActorCustomer, Action: booking.ActionCreate, To: booking.StatusNew, Window: rs[i].Window}}
			mustCreate(t, f.engine, rs[i], nil, now)
		}

		inbox := bookingtest.Inbox(t, f.bookings, b.Slug)
		begin := time.Now()
		errs := race(n, func(i int) error {
			_, err := inbox.Move(ctx, rs[i].Code, booking.ActionMove, target)
			return err
		})
		elapsed := time.Since(begin)

		winner, taken := -1, 0
		for i, err := range errs {
			switch code(err) {
			case "":
				if winner >= 0 {
					t.Errorf("round %d: requests %d and %d both got the window", round, winner, i)
				}
				winner = i
			case booking.WindowTaken:
				taken++
			default:
				t.Errorf("round %d: Move(%d) = %v, want nil or WINDOW_TAKEN", round, i, err)
			}
		}
		t.Logf("round %d: %d concurrent moves of different requests to one window: winner %d, %d WINDOW_TAKEN, %d other errors (%v)",
			round, n, winner, taken, n-taken-min(winner+1, 1), elapsed.Round(time.Millisecond))
		if winner < 0 || taken != n-1 {
			t.Fatalf("round %d: got winner %d and %d WINDOW_TAKEN, want one winner and %d", round, winner, taken, n-1)
		}

		if got := attrS(f.item(t, holdKey(slug, target)), "request_code"); got != rs[winner].Code {
			t.Errorf("round %d: the target's hold names %q, want the winner %s", round, got, rs[winner].Code)
		}
		for i, r := range rs {
			got, err := f.store.Request(ctx, r.Code)
			if err != nil {
				t.Fatal(err)
			}
			oldHold := f.item(t, holdKey(slug, r.Window.Start))
			if i == winner {
				if got.Status != booking.StatusAccepted || !got.Window.Start.Equal(target) || !got.ChangedByBusiness || len(got.History) != 2 {
					t.Errorf("round %d: winner is %s with window %s, changed_by_business %v, %d events; want accepted, %s, true, 2",
						round, got.Status, got.Window.Start, got.ChangedByBusiness, len(got.History), target)
				}
				if oldHold != nil {
					t.Errorf("round %d: the winner's old window is still held: %v", round, oldHold)
				}
			} else {
				if got.Status != booking.StatusNew || !got.Window.Start.Equal(r.Window.Start) || got.ChangedByBusiness || len(got.History) != 1 {
					t.Errorf("round %d: loser %d is %s at %s, changed_by_business %v, %d events; want new at %s, false, 1",
						round, i, got.Status, got.Window.Start, got.ChangedByBusiness, len(got.History), r.Window.Start)
				}
				if attrS(oldHold, "request_code") != r.Code {
					t.Errorf("round %d: loser %d's own window's hold = %v, want one for %s", round, i, oldHold, r.Code)
				}
			}
			want := int64(1)
			if i == winner {
				want = 0 // answered: no longer open
			}
			if got := attrN(t, f.item(t, phoneKey(slug, r.Contact.Phone)), "open_count"); got != want {
				t.Errorf("round %d: phone %s open_count = %d, want %d", round, r.Contact.Phone, got, want)
			}
		}
	}
}
