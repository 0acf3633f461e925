package dynamo_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/notify"
)

// The test business is in America/Los_Angeles with the default reminder
// hour: a visit on Monday 23 November 08:00 PST (monday) is reminded on
// Sunday 22 November at 09:00 PST.
var (
	remindMonday = time.Date(2026, 11, 22, 17, 0, 0, 0, time.UTC)
	tuesday      = monday.Add(24 * time.Hour)                     // Tue 24 Nov 08:00 PST
	remindTue    = time.Date(2026, 11, 23, 17, 0, 0, 0, time.UTC) // Mon 23 Nov 09:00 PST
)

// accepted creates a request on the window starting at start and accepts
// it at the fixture's clock, as the operator.
func (f *lifecycleFixture) accepted(t *testing.T, phone string, start time.Time) booking.Request {
	t.Helper()
	r := newAt(phone, start)
	mustCreate(t, f.engine, r, nil, now)
	after, err := f.bookings.OperatorMove(context.Background(), r.Code, booking.ActionAccept, time.Time{})
	if err != nil {
		t.Fatalf("accept %s: %v", r.Code, err)
	}
	return after
}

// remindEvents returns the stored request's remind events.
func (e engine) remindEvents(t *testing.T, code string) []booking.Event {
	t.Helper()
	r, err := e.store.Request(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	var out []booking.Event
	for _, ev := range r.History {
		if ev.Action == booking.ActionRemind {
			out = append(out, ev)
		}
	}
	return out
}

// inRemindIndex reports whether the stored request carries the remind
// index's keys, and its remind_at.
func (e engine) inRemindIndex(t *testing.T, code string) (bool, int64) {
	t.Helper()
	item := e.item(t, requestKey(code))
	return attrS(item, "remind_shard") != "", attrN(t, item, "remind_at")
}

// TestReminders follows one accepted visit: its reminder is due at 09:00
// the day before, not a second earlier; a sweep records it once (the
// request stays accepted) and a second sweep does nothing; a move after the
// reminder gets a new one for the new day, and a later move, whose day's
// reminder has passed, none.
func TestReminders(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		r := f.accepted(t, phone(1), monday)
		if !r.ReminderDue.Equal(remindMonday) {
			t.Fatalf("ReminderDue after the accept = %s, want %s", r.ReminderDue, remindMonday)
		}
		if in, at := f.inRemindIndex(t, r.Code); !in || at != remindMonday.Unix() {
			t.Fatalf("in the remind index = %v at %d, want at %d", in, at, remindMonday.Unix())
		}

		sweep := func(at time.Time) booking.ReminderResult {
			t.Helper()
			res, err := f.bookings.SendReminders(ctx, at)
			if err != nil {
				t.Fatalf("SendReminders(%s) = %v", at.Format(time.RFC3339), err)
			}
			return res
		}
		if res := sweep(remindMonday.Add(-time.Second)); res.Reminded != 0 || len(f.remindEvents(t, r.Code)) != 0 {
			t.Fatalf("a second before the reminder: %+v, want nothing", res)
		}
		if res := sweep(remindMonday); res.Reminded != 1 {
			t.Fatalf("at the reminder's time: %+v, want 1 reminded", res)
		}
		evs := f.remindEvents(t, r.Code)
		want := booking.Event{At: remindMonday, By: booking.ActorSystem, Action: booking.ActionRemind,
			From: booking.StatusAccepted, To: booking.StatusAccepted, Window: r.Window}
		if len(evs) != 1 || jsonString(evs[0]) != jsonString(want) {
			t.Fatalf("remind events = %s, want %s", jsonString(evs), jsonString(want))
		}
		if got := f.status(t, r.Code); got != booking.StatusAccepted {
			t.Errorf("after the reminder the request is %s, want accepted", got)
		}
		if in, _ := f.inRemindIndex(t, r.Code); in {
			t.Error("reminded, and still in the remind index")
		}
		if res := sweep(remindMonday.Add(time.Minute)); res.Reminded != 0 || len(f.remindEvents(t, r.Code)) != 1 {
			t.Errorf("a second sweep: %+v, want nothing more", res)
		}

		// Moved after the reminder to Tuesday: Monday 09:00 is still ahead.
		f.clock = remindMonday.Add(time.Hour)
		moved, err := f.bookings.OperatorMove(ctx, r.Code, booking.ActionMove, tuesday)
		if err != nil {
			t.Fatal(err)
		}
		if !moved.ReminderDue.Equal(remindTue) {
			t.Fatalf("ReminderDue after the move = %s, want %s", moved.ReminderDue, remindTue)
		}
		if res := sweep(remindTue.Add(-time.Second)); res.Reminded != 0 {
			t.Errorf("before the new day's reminder: %+v, want nothing", res)
		}
		if res := sweep(remindTue); res.Reminded != 1 {
			t.Errorf("at the new day's reminder: %+v, want 1", res)
		}
		if evs := f.remindEvents(t, r.Code); len(evs) != 2 || !evs[1].Window.Start.Equal(tuesday) {
			t.Errorf("remind events = %s, want a second one for Tuesday", jsonString(evs))
		}

		// Moved again on Monday at 10:00 to later on Tuesday: that day's
		// reminder (Monday 09:00) has passed, so none.
		f.clock = remindTue.Add(time.Hour)
		later := tuesday.Add(2 * time.Hour)
		moved, err = f.bookings.OperatorMove(ctx, r.Code, booking.ActionMove, later)
		if err != nil {
			t.Fatal(err)
		}
		if !moved.ReminderDue.IsZero() {
			t.Errorf("ReminderDue after a move whose reminder has passed = %s, want none", moved.ReminderDue)
		}
		if in, _ := f.inRemindIndex(t, r.Code); in {
			t.Error("a move whose reminder has passed left the request in the remind index")
		}
		if res := sweep(later); res.Reminded != 0 || len(f.remindEvents(t, r.Code)) != 2 {
			t.Errorf("after the last move: %+v, want no third reminder", res)
		}
	})
}

// TestRemindersEdges: a request accepted after its reminder's time gets
// none; a cancel takes a request out of the index; a sweep that comes only
// after the visit started sends nothing and clears the index.
func TestRemindersEdges(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		f.clock = remindMonday.Add(time.Minute)
		late := f.accepted(t, phone(1), monday)
		if !late.ReminderDue.IsZero() {
			t.Errorf("accepted after its reminder's time: ReminderDue = %s, want none", late.ReminderDue)
		}

		f.clock = now
		cancelled := f.accepted(t, phone(2), monday.Add(2*time.Hour))
		if _, err := f.bookings.CustomerCancel(ctx, cancelled.Code); err != nil {
			t.Fatal(err)
		}
		if in, _ := f.inRemindIndex(t, cancelled.Code); in {
			t.Error("a cancelled request is in the remind index")
		}

		missed := f.accepted(t, phone(3), tuesday)
		res, err := f.bookings.SendReminders(ctx, tuesday.Add(time.Minute))
		if err != nil || res.Reminded != 0 {
			t.Errorf("a sweep after the visit started = %+v, %v; want nothing reminded", res, err)
		}
		if in, _ := f.inRemindIndex(t, missed.Code); in || len(f.remindEvents(t, missed.Code)) != 0 {
			t.Errorf("a missed reminder: in the index %v, events %d; want out, none", in, len(f.remindEvents(t, missed.Code)))
		}
		for _, r := range []booking.Request{late, cancelled} {
			if n := len(f.remindEvents(t, r.Code)); n != 0 {
				t.Errorf("%s has %d remind events, want none", r.Code, n)
			}
		}
	})
}

// TestRemindersConcurrently runs four sweeps at once over 20 due
// reminders, as overlapping invocations of the sweeper may: each reminder
// is recorded exactly once. On DynamoDB Local the writes truly race; the
// store's condition decides.
func TestRemindersConcurrently(t *testing.T) {
	const n, sweeps = 20, 4
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		rs := make([]booking.Request, n)
		for i := range rs {
			// Monday 08:00 to Tuesday 22:00 PST, reminded on Sunday and
			// Monday at 09:00.
			rs[i] = f.accepted(t, phone(i), monday.Add(time.Duration(i)*2*time.Hour))
		}
		// Monday 09:00: every reminder is due; Monday's 08:00 visit has
		// started, too late to remind.
		at := remindTue
		var (
			wg      sync.WaitGroup
			results [sweeps]booking.ReminderResult
			errs    [sweeps]error
		)
		for i := range results {
			s := dynamo.New(f.client, f.table)
			if i%2 == 0 {
				dynamo.SetPageSize(s, 1)
			}
			wg.Go(func() {
				results[i], errs[i] = bookingtest.New(t, booking.Config{Store: s, SiteURL: "https://book.example.com", Now: bookingtest.NoClock(t)}).SendReminders(context.Background(), at)
			})
		}
		wg.Wait()
		t.Logf("%d concurrent sweeps of %d reminders: %+v", sweeps, n, results)
		total := 0
		for i, err := range errs {
			if err != nil {
				t.Errorf("sweep %d = %v", i, err)
			}
			total += results[i].Reminded
		}
		due := 0
		for _, r := range rs {
			want := 0
			if at.Before(r.Window.Start) {
				want = 1 // not started at the sweep
				due++
			}
			if got := len(f.remindEvents(t, r.Code)); got != want {
				t.Errorf("%s (window %s) has %d remind events, want %d", r.Code, r.Window.Start.Format(time.RFC3339), got, want)
			}
		}
		if total != due || due == 0 {
			t.Errorf("reminded %d in all, want %d (and some)", total, due)
		}
	})
}

// TestReminderStream: the reminder's write reaches notify as the table's
// stream carries it (a MODIFY of the request item, old and new images):
// one change, the remind event, which is the person's reminder by e-mail
// and text; the same record again yields the same message IDs, which the
// Ledger sends once.
func TestReminderStream(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		r := f.accepted(t, phone(1), monday)
		old := f.item(t, requestKey(r.Code))
		if _, err := f.bookings.SendReminders(ctx, remindMonday); err != nil {
			t.Fatal(err)
		}
		rec := streamRecord(t, "MODIFY", old, f.item(t, requestKey(r.Code)))
		w, ok, err := dynamo.DecodeRequestWrite(rec)
		if err != nil || !ok {
			t.Fatalf("DecodeRequestWrite() = %v, %v", ok, err)
		}
		changes := notify.Changes(w.Before, w.After)
		if len(changes) != 1 || changes[0].Event.Action != booking.ActionRemind || changes[0].ID != r.Code+"#2" {
			t.Fatalf("changes = %s, want the remind event #2 alone", jsonString(changes))
		}
		b := loadBusiness(t)
		b.Example, b.Preview = false, false
		c := notify.Composer{SiteURL: "https://book.example.com"}
		var ids []string
		for _, m := range c.Messages(changes[0], w.After, b) {
			ids = append(ids, m.ID+" -> "+m.To)
		}
		want := []string{
			r.Code + "#2/reminder/person/email -> " + r.Contact.Email,
			r.Code + "#2/reminder/person/sms -> +1" + r.Contact.Phone,
		}
		if jsonString(ids) != jsonString(want) {
			t.Errorf("messages = %v, want %v", ids, want)
		}
	})
}

// staleStore answers the first read of a request with stale, as a read
// made just before the sweeper recorded its reminder.
type staleStore struct {
	*dynamo.Store
	stale *booking.Request
}

func (s *staleStore) Request(ctx context.Context, code string) (*booking.Request, error) {
	if r := s.stale; r != nil {
		s.stale = nil
		return r, nil
	}
	return s.Store.Request(ctx, code)
}

// TestMoveRacesAReminder: the reminder's write changes neither the state
// nor the window, so a move from a read made before it must not put the
// request back without its remind event (the person would then never hear
// of the move: notify tells the events beyond the old image's). The
// store's condition pins remind_at; the domain makes such a move again
// from a fresh read, and any other change since the read stays a conflict.
func TestMoveRacesAReminder(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		r := f.accepted(t, phone(1), monday)
		stale, err := f.store.Request(ctx, r.Code)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := f.bookings.SendReminders(ctx, remindMonday); err != nil || res.Reminded != 1 {
			t.Fatalf("SendReminders() = %+v, %v", res, err)
		}

		// The store alone: the stale move is refused.
		cancelled := *stale
		cancelled.Status = booking.StatusCancelled
		cancelled.History = append(cancelled.History, booking.Event{At: remindMonday, By: booking.ActorCustomer,
			Action: booking.ActionCancel, From: booking.StatusAccepted, To: booking.StatusCancelled, Window: stale.Window})
		tr, _ := booking.Allowed(booking.StatusAccepted, booking.ActionCancel, booking.ActorCustomer)
		if err := f.store.MoveRequest(ctx, *stale, cancelled, tr, booking.Crews{}, remindMonday); code(err) != booking.InvalidTransition {
			t.Fatalf("a move from a read before the reminder = %v, want INVALID_TRANSITION", err)
		}

		// The domain: the person's cancel from that read goes through,
		// after the remind event.
		s := bookingtest.New(t, booking.Config{Store: &staleStore{Store: f.store, stale: stale}, Now: func() time.Time { return remindMonday.Add(time.Second) }, SiteURL: "https://book.example.com"})
		if _, err := s.CustomerCancel(ctx, r.Code); err != nil {
			t.Fatalf("CustomerCancel() from a read before the reminder = %v, want nil", err)
		}
		got, err := f.store.Request(ctx, r.Code)
		if err != nil {
			t.Fatal(err)
		}
		var actions []booking.Action
		for _, e := range got.History {
			actions = append(actions, e.Action)
		}
		want := []booking.Action{booking.ActionCreate, booking.ActionAccept, booking.ActionRemind, booking.ActionCancel}
		if got.Status != booking.StatusCancelled || jsonString(actions) != jsonString(want) {
			t.Errorf("after the cancel: %s with history %v, want cancelled with %v", got.Status, actions, want)
		}
	})
}

// TestMoveRacesANudge: the business's nudge of a new request, recorded by
// the sweep between the business's read and its answer, must not be
// dropped by the answer's put (the business would then never be told of
// anything after it, and notify would see no accept): the store's
// condition pins remind_at from new too, and the domain answers again from
// a fresh read, after the nudge event.
func TestMoveRacesANudge(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		r := newAt(phone(2), monday)
		r.ReminderDue = now.Add(15 * time.Minute) // its nudge
		mustCreate(t, f.engine, r, nil, now)
		if in, _ := f.engine.inRemindIndex(t, r.Code); !in {
			t.Fatal("a new request with its nudge due is not in the remind index")
		}
		stale, err := f.store.Request(ctx, r.Code)
		if err != nil {
			t.Fatal(err)
		}
		at := now.Add(15 * time.Minute)
		if res, err := f.bookings.SendReminders(ctx, at); err != nil || res.Nudged != 1 {
			t.Fatalf("SendReminders() = %+v, %v, want 1 nudged", res, err)
		}
		if in, _ := f.engine.inRemindIndex(t, r.Code); in {
			t.Error("nudged, the request is still in the remind index")
		}

		// The store alone: the stale answer is refused.
		accepted := *stale
		accepted.Status = booking.StatusAccepted
		accepted.ReminderDue = time.Time{}
		accepted.History = append(accepted.History, booking.Event{At: at, By: booking.ActorBusiness,
			Action: booking.ActionAccept, From: booking.StatusNew, To: booking.StatusAccepted, Window: stale.Window})
		tr, _ := booking.Allowed(booking.StatusNew, booking.ActionAccept, booking.ActorBusiness)
		if err := f.store.MoveRequest(ctx, *stale, accepted, tr, booking.Crews{}, at); code(err) != booking.InvalidTransition {
			t.Fatalf("an answer from a read before the nudge = %v, want INVALID_TRANSITION", err)
		}

		// The domain: the business's accept from that read goes through,
		// after the nudge event.
		s := bookingtest.New(t, booking.Config{Store: &staleStore{Store: f.store, stale: stale}, Now: func() time.Time { return at.Add(time.Second) }, SiteURL: "https://book.example.com"})
		if _, err := s.OperatorMove(ctx, r.Code, booking.ActionAccept, time.Time{}); err != nil {
			t.Fatalf("accept from a read before the nudge = %v, want nil", err)
		}
		got, err := f.store.Request(ctx, r.Code)
		if err != nil {
			t.Fatal(err)
		}
		var actions []booking.Action
		for _, e := range got.History {
			actions = append(actions, e.Action)
		}
		want := []booking.Action{booking.ActionCreate, booking.ActionNudge, booking.ActionAccept}
		if got.Status != booking.StatusAccepted || jsonString(actions) != jsonString(want) {
			t.Errorf("after the accept: %s with history %v, want accepted with %v", got.Status, actions, want)
		}
	})
}
