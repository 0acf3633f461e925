package dynamo_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
)

// newLifecycleFixtureOn is newLifecycleFixture on a table already open.
func newLifecycleFixtureOn(t *testing.T, e engine) *lifecycleFixture {
	t.Helper()
	f := &lifecycleFixture{engine: e, clock: now}
	f.bookings = bookingtest.New(t, booking.Config{Store: f.store, SiteURL: "https://book.example.com", Now: func() time.Time { return f.clock }})
	if err := f.store.PutBusiness(context.Background(), loadBusiness(t)); err != nil {
		t.Fatal(err)
	}
	return f
}

// days is how long the tests' service keeps personal details: the default.
const days = booking.DefaultPersonalDataDays

// stored reads the request as stored.
func (f *lifecycleFixture) stored(t *testing.T, code string) booking.Request {
	t.Helper()
	r, err := f.store.Request(context.Background(), code)
	if err != nil {
		t.Fatalf("Request(%s) = %v", code, err)
	}
	return *r
}

// checkErased fails unless the stored request is erased: no contact, no
// street, unit, city or description, no key; its state, window, service,
// ZIP and deposit kept; out of the erase index.
func (f *lifecycleFixture) checkErased(t *testing.T, want booking.Request, status booking.Status) {
	t.Helper()
	got := f.stored(t, want.Code)
	if got.Erased.IsZero() {
		t.Fatalf("%s is not erased: %+v", want.Code, got.Contact)
	}
	if got.Contact != (booking.Contact{}) || got.Address != (booking.Address{ZIP: want.Address.ZIP}) ||
		got.Description != "" || got.IdempotencyKey != "" {
		t.Errorf("%s after erasure: contact %+v, address %+v, description %q, key %q; want only the ZIP",
			want.Code, got.Contact, got.Address, got.Description, got.IdempotencyKey)
	}
	if got.Status != status || !got.Window.Start.Equal(want.Window.Start) || got.ServiceID != want.ServiceID {
		t.Errorf("%s after erasure: %s %v %s, want %s %v %s kept", want.Code, got.Status, got.Window.Start, got.ServiceID,
			status, want.Window.Start, want.ServiceID)
	}
	item := f.item(t, requestKey(want.Code))
	if shard := attrS(item, "erase_shard"); shard != "" || item["erase_at"] != nil {
		t.Errorf("%s after erasure is still in the erase index, shard %q", want.Code, shard)
	}
	if f.item(t, phoneKey(slug, want.Contact.Phone)) != nil {
		t.Errorf("%s after erasure: its phone's count (the number in clear in its key) is still there", want.Code)
	}
}

// TestErasePersonalData sweeps at fixed instants around each request's
// due time (its end + PersonalDataDays) and finds exactly the requests due
// erased each time; a second sweep erases nothing; an accepted request is
// never due.
func TestErasePersonalData(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		window := func(i int) time.Time { return monday.Add(time.Duration(i) * 2 * time.Hour) }
		expired := newAt(phone(1), window(0)) // never answered: expired when its window starts
		done := newAt(phone(2), window(1))
		noShow := newAt(phone(3), window(2))
		accepted := newAt(phone(4), window(3))
		declined := newAt(phone(5), window(4))
		cancelled := newAt(phone(6), window(5))
		all := []booking.Request{expired, done, noShow, accepted, declined, cancelled}
		for _, r := range all {
			mustCreate(t, f.engine, r, nil, now)
		}
		at := func(clock time.Time, code string, actions ...booking.Action) {
			t.Helper()
			f.clock = clock
			for _, a := range actions {
				if err := move(ctx, f.bookings, code, a, "", clock); err != nil {
					t.Fatalf("%s %s at %s: %v", a, code, clock, err)
				}
			}
		}
		at(now.Add(time.Hour), declined.Code, booking.ActionDecline)
		at(now.Add(2*time.Hour), cancelled.Code, booking.ActionCancel)
		at(now.Add(3*time.Hour), done.Code, booking.ActionAccept)
		at(now.Add(3*time.Hour), noShow.Code, booking.ActionAccept)
		at(now.Add(3*time.Hour), accepted.Code, booking.ActionAccept)
		at(monday, expired.Code, booking.ActionExpire)
		at(window(1).Add(3*time.Hour), done.Code, booking.ActionComplete) // an hour after its window
		at(window(2).Add(3*time.Hour), noShow.Code, booking.ActionNoShow)

		year := time.Duration(days) * 24 * time.Hour
		steps := []struct {
			name string
			at   time.Time
			want []booking.Request // erased by this sweep
		}{
			{"a second before the first is due", now.Add(time.Hour + year - time.Second), nil},
			{"declined and cancelled, days after the move", now.Add(2*time.Hour + year), []booking.Request{declined, cancelled}},
			{"expired, days after it expired", monday.Add(year), []booking.Request{expired}},
			{"done, days after its window, not after the move", window(1).Add(2*time.Hour + year), []booking.Request{done}},
			{"no-show likewise", window(2).Add(2*time.Hour + year), []booking.Request{noShow}},
			{"again, much later: nothing left", window(9).Add(2 * year), nil},
		}
		erased := map[string]booking.Status{}
		for _, step := range steps {
			res, err := f.bookings.ErasePersonalData(ctx, step.at)
			if err != nil || res.Erased != len(step.want) {
				t.Fatalf("%s: sweep at %s = %+v, %v; want %d erased", step.name, step.at.Format(time.RFC3339), res, err, len(step.want))
			}
			for _, r := range step.want {
				erased[r.Code] = f.stored(t, r.Code).Status
			}
			for _, r := range all {
				st, ok := erased[r.Code]
				if ok {
					f.checkErased(t, r, st)
					continue
				}
				if got := f.stored(t, r.Code); !got.Erased.IsZero() || got.Contact != r.Contact {
					t.Errorf("%s: %s was erased early: %+v", step.name, r.Code, got.Contact)
				}
			}
		}
		if got := f.stored(t, accepted.Code).Status; got != booking.StatusAccepted {
			t.Errorf("the accepted request is %s", got)
		}
	})
}

// TestEraseOnRequest erases one ended request by each who may, and checks
// that a live request is refused, that erasing twice changes nothing, and
// that the request's idempotency record goes with it while the blocked
// contact of a spam request stays.
func TestEraseOnRequest(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		r := newAt(phone(1), monday)
		r.IdempotencyKey = "key-of-the-person-0001"
		mustCreate(t, f.engine, r, record(r, r.IdempotencyKey, now.Add(booking.IdempotencyKeyTTL)), now)
		f.clock = now.Add(time.Minute)

		if _, err := f.bookings.CustomerErase(ctx, r.Code); code(err) != booking.InvalidTransition {
			t.Fatalf("erase a new request = %v, want INVALID_TRANSITION", err)
		}
		if got := f.stored(t, r.Code); !got.Erased.IsZero() || got.Contact != r.Contact {
			t.Fatalf("a refused erasure changed the request: %+v", got)
		}
		if _, err := f.bookings.CustomerCancel(ctx, r.Code); err != nil {
			t.Fatal(err)
		}
		got, err := f.bookings.CustomerErase(ctx, r.Code)
		if err != nil || got.Erased.IsZero() || got.ErasedBy != booking.ActorCustomer {
			t.Fatalf("erase a cancelled request = %+v, %v; want erased by the person", got, err)
		}
		f.checkErased(t, r, booking.StatusCancelled)
		if f.item(t, idempotencyKey(slug, r.IdempotencyKey)) != nil {
			t.Errorf("the request's idempotency record is still there")
		}
		first := f.stored(t, r.Code).Erased
		f.clock = now.Add(time.Hour)
		if _, err := f.bookings.CustomerErase(ctx, r.Code); err != nil {
			t.Fatalf("erase again = %v, want nil (no-op)", err)
		}
		if again := f.stored(t, r.Code).Erased; !again.Equal(first) {
			t.Errorf("erasing twice wrote again: erased %s, then %s", first, again)
		}

		// Spam: the block stays, named by a one-way hash only.
		spam := newAt(phone(2), monday.Add(2*time.Hour))
		mustCreate(t, f.engine, spam, nil, now)
		inbox, err := f.bookings.OperatorInbox(ctx, slug)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := inbox.Move(ctx, spam.Code, booking.ActionSpam, time.Time{}); err != nil {
			t.Fatal(err)
		}
		if _, err := inbox.Erase(ctx, spam.Code); err != nil {
			t.Fatalf("the business erases a declined request: %v", err)
		}
		f.checkErased(t, spam, booking.StatusDeclined)
		again := newAt(phone(2), monday.Add(4*time.Hour))
		if err := f.store.CreateRequest(ctx, again, nil, bookingtest.Unlimited, f.clock); code(err) != booking.RequestRefused {
			t.Errorf("a request from the blocked phone after the erasure = %v, want REQUEST_REFUSED", err)
		}
	})
}

// TestOperatorErase erases every request of one phone at every state:
// the live ones are cancelled first; another phone's are left alone.
func TestOperatorErase(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		live := newAt(phone(1), monday)
		ended := newAt(phone(1), monday.Add(2*time.Hour))
		other := newAt(phone(2), monday.Add(4*time.Hour))
		for _, r := range []booking.Request{live, ended, other} {
			mustCreate(t, f.engine, r, nil, now)
		}
		f.clock = now.Add(time.Minute)
		if err := move(ctx, f.bookings, ended.Code, booking.ActionDecline, "", f.clock); err != nil {
			t.Fatal(err)
		}
		got, err := f.bookings.OperatorErase(ctx, "(323) 555-0001", "")
		if err != nil || len(got) != 2 {
			t.Fatalf("OperatorErase = %+v, %v; want two requests", got, err)
		}
		for _, e := range got {
			if want := e.Code == live.Code; e.Cancelled != want {
				t.Errorf("%s cancelled = %t, want %t", e.Code, e.Cancelled, want)
			}
		}
		f.checkErased(t, live, booking.StatusCancelled)
		f.checkErased(t, ended, booking.StatusDeclined)
		if r := f.stored(t, other.Code); r.Contact != other.Contact {
			t.Errorf("another phone's request was touched: %+v", r.Contact)
		}
		// Nothing names the contact any more: by its e-mail, nothing is found.
		if again, err := f.bookings.OperatorErase(ctx, "", "ANA-3235550001@example.com"); err != nil || len(again) != 0 {
			t.Errorf("by the e-mail, after = %+v, %v; want nothing found", again, err)
		}
	})
}

// TestEraseRace erases one ended request 20 times at once, by the person,
// the business and the sweep: every call succeeds and one write erased it.
func TestEraseRace(t *testing.T) {
	e := openLocal(t)
	f := newLifecycleFixtureOn(t, e)
	ctx := context.Background()
	r := newAt(phone(1), monday)
	mustCreate(t, f.engine, r, nil, now)
	if err := move(ctx, f.bookings, r.Code, booking.ActionDecline, "", now); err != nil {
		t.Fatal(err)
	}
	f.clock = now.Add(time.Minute)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() {
			_, err := f.bookings.CustomerErase(ctx, r.Code)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("an erasure at once = %v, want nil", err)
		}
	}
	f.checkErased(t, r, booking.StatusDeclined)
}

// TestAddEraseKeys: an ended request stored without erase keys (before
// they existed) is not due for the sweep until AddEraseKeys gives it them;
// a live one and an erased one get none.
func TestAddEraseKeys(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		old := newAt(phone(1), monday)
		live := newAt(phone(2), monday.Add(2*time.Hour))
		for _, r := range []booking.Request{old, live} {
			mustCreate(t, f.engine, r, nil, now)
		}
		if err := move(ctx, f.bookings, old.Code, booking.ActionDecline, "", now); err != nil {
			t.Fatal(err)
		}
		// As stored before erase keys: without them.
		item := f.item(t, requestKey(old.Code))
		delete(item, "erase_shard")
		delete(item, "erase_at")
		if _, err := f.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(f.table), Item: item}); err != nil {
			t.Fatal(err)
		}
		later := now.AddDate(0, 0, days+1)
		if res, err := f.bookings.ErasePersonalData(ctx, later); err != nil || res.Erased != 0 {
			t.Fatalf("sweep before AddEraseKeys = %+v, %v; want nothing found", res, err)
		}
		n, err := f.store.AddEraseKeys(ctx)
		if err != nil || n != 1 {
			t.Fatalf("AddEraseKeys = %d, %v; want 1", n, err)
		}
		if n, err := f.store.AddEraseKeys(ctx); err != nil || n != 0 {
			t.Fatalf("AddEraseKeys again = %d, %v; want 0", n, err)
		}
		if res, err := f.bookings.ErasePersonalData(ctx, later); err != nil || res.Erased != 1 {
			t.Fatalf("sweep after AddEraseKeys = %+v, %v; want 1 erased", res, err)
		}
		f.checkErased(t, old, booking.StatusDeclined)
		if n, err := f.store.AddEraseKeys(ctx); err != nil || n != 0 {
			t.Errorf("AddEraseKeys after the erasure = %d, %v; want 0", n, err)
		}
	})
}

// TestStaleWritesAfterErase: the writers of a live request that put it
// whole, a way to hear back added and the business's nudge, from a read
// made before the operator cancelled and erased it, never put its details
// back: their conditions pin the live state the erasure's cancel left.
func TestStaleWritesAfterErase(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		r := newAt(phone(7), monday)
		r.ReminderDue = now.Add(15 * time.Minute) // its nudge
		mustCreate(t, f.engine, r, nil, now)
		stale := f.stored(t, r.Code)
		f.clock = now.Add(time.Minute)
		if got, err := f.bookings.OperatorErase(ctx, phone(7), ""); err != nil || len(got) != 1 || !got[0].Cancelled {
			t.Fatalf("OperatorErase = %+v, %v; want one request, cancelled first", got, err)
		}

		contact := stale
		contact.Contact.Email = "later@example.com"
		contact.History = append(slices.Clone(stale.History), booking.Event{At: f.clock, By: booking.ActorCustomer,
			Action: booking.ActionContact, From: stale.Status, To: stale.Status, Window: stale.Window, Added: booking.WayEmail})
		if err := f.store.ChangeContact(ctx, stale, contact, f.clock); code(err) != booking.InvalidTransition {
			t.Errorf("a contact change from a read before the erasure = %v, want INVALID_TRANSITION", err)
		}
		nudged := stale
		nudged.ReminderDue = time.Time{}
		nudged.History = append(slices.Clone(stale.History), booking.Event{At: r.ReminderDue, By: booking.ActorSystem,
			Action: booking.ActionNudge, From: stale.Status, To: stale.Status, Window: stale.Window})
		if err := f.store.RecordReminder(ctx, stale, nudged); code(err) != booking.InvalidTransition {
			t.Errorf("a nudge from a read before the erasure = %v, want INVALID_TRANSITION", err)
		}
		f.checkErased(t, r, booking.StatusCancelled)
	})
}
