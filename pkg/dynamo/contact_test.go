package dynamo_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
)

func emailKey(slug, email string) itemKey {
	return itemKey{"BUSINESS#" + slug, "EMAIL#" + booking.ContactHash(slug, "email", email)}
}

// silent returns a new request at start of the i-th phone that gave no
// e-mail and allowed no texts: nobody will write to it.
func silent(i int, start time.Time) booking.Request {
	r := newRequest(slug, phone(i), start)
	r.Contact.Email, r.Contact.SMSConsent = "", false
	r.History = []booking.Event{{At: now, By: booking.ActorCustomer, Action: booking.ActionCreate, To: r.Status, Window: r.Window}}
	return r
}

// TestChangeContact: an e-mail added to an open request is counted against
// that address's open requests at the business, as a create counts it, and
// the address it replaces is counted off; past MaxOpenPerPhone, or blocked
// at the business, it is refused with nothing stored; an accepted request
// counts nothing; the ActionContact event is stored with the contact.
func TestChangeContact(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		const first, second = "first@example.com", "second@example.com"
		r := silent(1, monday)
		mustCreate(t, f.engine, r, nil, now)

		if _, err := f.bookings.AddEmail(ctx, r.Code, first); err != nil {
			t.Fatalf("AddEmail(%s) = %v", first, err)
		}
		if got := attrN(t, f.item(t, emailKey(slug, first)), "open_count"); got != 1 {
			t.Errorf("open_count of %s = %d, want 1", first, got)
		}
		if _, err := f.bookings.AddEmail(ctx, r.Code, second); err != nil {
			t.Fatalf("AddEmail(%s) = %v", second, err)
		}
		if got := attrN(t, f.item(t, emailKey(slug, first)), "open_count"); got != 0 {
			t.Errorf("open_count of the replaced %s = %d, want 0", first, got)
		}
		if got := attrN(t, f.item(t, emailKey(slug, second)), "open_count"); got != 1 {
			t.Errorf("open_count of %s = %d, want 1", second, got)
		}
		if _, err := f.bookings.AllowTexts(ctx, r.Code); err != nil {
			t.Fatalf("AllowTexts = %v", err)
		}
		stored, err := f.store.Request(ctx, r.Code)
		if err != nil {
			t.Fatal(err)
		}
		var added []string
		for _, e := range stored.History {
			if e.Action == booking.ActionContact {
				added = append(added, e.Added)
			}
		}
		if stored.Contact.Email != second || !stored.Contact.SMSConsent || fmt.Sprint(added) != "[email email sms]" {
			t.Errorf("stored contact %+v with ways added %v, want %s, texts on, [email email sms]", stored.Contact, added, second)
		}
		// The fourth change: refused, nothing stored.
		if _, err := f.bookings.AddEmail(ctx, r.Code, first); code(err) != booking.RateLimited {
			t.Errorf("a fourth change = %v, want RATE_LIMITED", err)
		}

		// Three open requests of one address: a fourth may not take it.
		const busy = "busy@example.com"
		for i := range booking.MaxOpenPerPhone {
			o := silent(10+i, monday.Add(time.Duration(i+1)*24*time.Hour))
			o.Contact.Email = busy
			mustCreate(t, f.engine, o, nil, now)
		}
		late := silent(20, monday.Add(5*24*time.Hour))
		mustCreate(t, f.engine, late, nil, now)
		if _, err := f.bookings.AddEmail(ctx, late.Code, busy); code(err) != booking.TooManyOpen {
			t.Errorf("AddEmail(an address with %d open requests) = %v, want TOO_MANY_OPEN", booking.MaxOpenPerPhone, err)
		}
		if got, _ := f.store.Request(ctx, late.Code); got.Contact.Email != "" || len(got.History) != 1 {
			t.Errorf("refused: stored %+v with %d events, want nothing changed", got.Contact, len(got.History))
		}

		// An address the business blocked (a request marked not genuine).
		const spammer = "spam@example.com"
		spam := silent(30, monday.Add(6*24*time.Hour))
		spam.Contact.Email = spammer
		mustCreate(t, f.engine, spam, nil, now)
		inbox := bookingtest.Inbox(t, f.bookings, slug)
		if _, err := inbox.Move(ctx, spam.Code, booking.ActionSpam, time.Time{}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.bookings.AddEmail(ctx, late.Code, spammer); code(err) != booking.RequestRefused {
			t.Errorf("AddEmail(a blocked address) = %v, want REQUEST_REFUSED", err)
		}

		// An accepted request counts against no address.
		acc := silent(40, monday.Add(7*24*time.Hour))
		mustCreate(t, f.engine, acc, nil, now)
		if _, err := inbox.Move(ctx, acc.Code, booking.ActionAccept, time.Time{}); err != nil {
			t.Fatal(err)
		}
		const accepted = "accepted@example.com"
		if _, err := f.bookings.AddEmail(ctx, acc.Code, accepted); err != nil {
			t.Fatalf("AddEmail(accepted) = %v", err)
		}
		if item := f.item(t, emailKey(slug, accepted)); item != nil {
			t.Errorf("an accepted request's e-mail has a counter %v, want none", item)
		}
		// Once cancelled, no way can be added.
		if _, err := inbox.Move(ctx, acc.Code, booking.ActionCancel, time.Time{}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.bookings.AllowTexts(ctx, acc.Code); code(err) != booking.InvalidTransition {
			t.Errorf("AllowTexts(cancelled) = %v, want INVALID_TRANSITION", err)
		}
	})
}

// TestRaceChangeContact runs the contact changes all at once, on both
// engines: of fifty changes of one request read at once, exactly one is
// stored (the history's length is in the condition), so MaxContactChanges
// holds however many are sent; and one address added to six open requests
// at once is taken by exactly MaxOpenPerPhone of them, the others
// TOO_MANY_OPEN, its counter never above the limit.
func TestRaceChangeContact(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		for round := range raceRounds {
			day := time.Duration(round) * 24 * time.Hour
			t.Run(fmt.Sprintf("one request, round %d", round), func(t *testing.T) {
				const n = 50
				r := silent(100+round, monday.Add(day))
				mustCreate(t, f.engine, r, nil, now)
				before, err := f.store.Request(ctx, r.Code)
				if err != nil {
					t.Fatal(err)
				}
				errs := race(n, func(i int) error {
					after := *before
					after.Contact.Email = fmt.Sprintf("racer-%d-%d@example.com", round, i)
					after.History = append(append([]booking.Event(nil), before.History...), booking.Event{
						At: now, By: booking.ActorCustomer, Action: booking.ActionContact,
						From: before.Status, To: before.Status, Window: before.Window, Added: booking.WayEmail,
					})
					return f.store.ChangeContact(ctx, *before, after, now)
				})
				won := -1
				for i, err := range errs {
					switch code(err) {
					case "":
						if won >= 0 {
							t.Errorf("changes %d and %d both stored", won, i)
						}
						won = i
					case booking.InvalidTransition:
					default:
						t.Errorf("change %d = %v, want nil or INVALID_TRANSITION", i, err)
					}
				}
				if won < 0 {
					t.Fatal("no change stored")
				}
				stored, err := f.store.Request(ctx, r.Code)
				if err != nil {
					t.Fatal(err)
				}
				want := fmt.Sprintf("racer-%d-%d@example.com", round, won)
				if stored.Contact.Email != want || len(stored.History) != 2 {
					t.Errorf("stored %q with %d events, want %q with 2", stored.Contact.Email, len(stored.History), want)
				}
				for i := range n {
					item := f.item(t, emailKey(slug, fmt.Sprintf("racer-%d-%d@example.com", round, i)))
					wantN := int64(-1) // no counter: a refused change stores nothing
					if i == won {
						wantN = 1
					}
					if got := attrN(t, item, "open_count"); got != wantN {
						t.Errorf("open_count of racer %d = %d, want %d", i, got, wantN)
					}
				}
			})
			t.Run(fmt.Sprintf("one address, round %d", round), func(t *testing.T) {
				const n = 6
				shared := fmt.Sprintf("shared-%d@example.com", round)
				rs := make([]booking.Request, n)
				for i := range rs {
					rs[i] = silent(200+10*round+i, monday.Add(day+time.Duration(i+1)*time.Hour*24*7))
					mustCreate(t, f.engine, rs[i], nil, now)
				}
				counter := emailKey(slug, shared)
				errs := race(n, func(i int) error {
					_, err := f.bookings.AddEmail(ctx, rs[i].Code, shared)
					return err
				})
				took, refused := 0, 0
				for i, err := range errs {
					switch code(err) {
					case "":
						took++
					case booking.TooManyOpen:
						refused++
					default:
						t.Errorf("AddEmail %d = %v, want nil or TOO_MANY_OPEN", i, err)
					}
				}
				got := attrN(t, f.item(t, counter), "open_count")
				t.Logf("%d requests adding one address at once: %d took it, %d TOO_MANY_OPEN; open_count %d", n, took, refused, got)
				if took != booking.MaxOpenPerPhone || refused != n-booking.MaxOpenPerPhone || got != booking.MaxOpenPerPhone {
					t.Errorf("took %d, refused %d, open_count %d; want %d, %d, %d", took, refused, got,
						booking.MaxOpenPerPhone, n-booking.MaxOpenPerPhone, booking.MaxOpenPerPhone)
				}
			})
		}
	})
}

// staleRead returns the stored request, as a read made before what the
// test does next.
func (f *lifecycleFixture) staleRead(t *testing.T, code string) *booking.Request {
	t.Helper()
	r, err := f.store.Request(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// historyActions returns the actions of the stored request's history.
func (f *lifecycleFixture) historyActions(t *testing.T, code string) (*booking.Request, []booking.Action) {
	t.Helper()
	r := f.staleRead(t, code)
	var actions []booking.Action
	for _, e := range r.History {
		actions = append(actions, e.Action)
	}
	return r, actions
}

// TestMoveRacesAContactChange: a way to hear back added between a move's
// read and its write changes neither the state, nor the window, nor
// remind_at, so a put from that read would drop it (the person never told,
// and the added address's open count never counted off). The store's
// condition pins the history's length; the domain makes the move again
// from a fresh read, after the contact event.
func TestMoveRacesAContactChange(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		const added = "added@example.com"
		r := silent(3, monday)
		mustCreate(t, f.engine, r, nil, now)
		stale := f.staleRead(t, r.Code)
		if _, err := f.bookings.AddEmail(ctx, r.Code, added); err != nil {
			t.Fatalf("AddEmail = %v", err)
		}

		// The store alone: the stale move is refused.
		declined := *stale
		declined.Status = booking.StatusDeclined
		declined.History = append(declined.History, booking.Event{At: now, By: booking.ActorBusiness,
			Action: booking.ActionDecline, From: booking.StatusNew, To: booking.StatusDeclined, Window: stale.Window})
		tr, _ := booking.Allowed(booking.StatusNew, booking.ActionDecline, booking.ActorBusiness)
		if err := f.store.MoveRequest(ctx, *stale, declined, tr, booking.Crews{}, now); code(err) != booking.InvalidTransition {
			t.Fatalf("a move from a read before the contact change = %v, want INVALID_TRANSITION", err)
		}

		// The domain: the business's answer from that read goes through,
		// after the contact event, and counts the added address off.
		s := bookingtest.New(t, booking.Config{Store: &staleStore{Store: f.store, stale: stale}, Now: func() time.Time { return now.Add(time.Second) }, SiteURL: "https://book.example.com"})
		if _, err := s.OperatorMove(ctx, r.Code, booking.ActionDecline, time.Time{}); err != nil {
			t.Fatalf("decline from a read before the contact change = %v, want nil", err)
		}
		got, actions := f.historyActions(t, r.Code)
		want := []booking.Action{booking.ActionCreate, booking.ActionContact, booking.ActionDecline}
		if got.Status != booking.StatusDeclined || got.Contact.Email != added || jsonString(actions) != jsonString(want) {
			t.Errorf("after the decline: %s, e-mail %q, history %v; want declined, %q, %v", got.Status, got.Contact.Email, actions, added, want)
		}
		if n := attrN(t, f.item(t, emailKey(slug, added)), "open_count"); n != 0 {
			t.Errorf("open_count of %s after the decline = %d, want 0", added, n)
		}
	})
}

// TestReminderRacesAContactChange: the sweep's reminder (and a new
// request's nudge, the same write) from a read made before a way to hear
// back was added must not put the request back without it. The store's
// condition pins the history's length; the sweep skips the request, which
// stays in the remind index, and the next sweep reminds it with the way kept.
func TestReminderRacesAContactChange(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		const added = "later@example.com"
		r := f.accepted(t, phone(4), monday)
		stale := f.staleRead(t, r.Code)
		if _, err := f.bookings.AddEmail(ctx, r.Code, added); err != nil {
			t.Fatalf("AddEmail = %v", err)
		}

		// The store alone: the stale reminder is refused.
		reminded := *stale
		reminded.ReminderDue = time.Time{}
		reminded.History = append(reminded.History, booking.Event{At: remindMonday, By: booking.ActorSystem,
			Action: booking.ActionRemind, From: booking.StatusAccepted, To: booking.StatusAccepted, Window: stale.Window})
		if err := f.store.RecordReminder(ctx, *stale, reminded); code(err) != booking.InvalidTransition {
			t.Fatalf("a reminder from a read before the contact change = %v, want INVALID_TRANSITION", err)
		}
		if got := f.staleRead(t, r.Code); got.Contact.Email != added {
			t.Fatalf("after the stale reminder: e-mail %q, want %q", got.Contact.Email, added)
		}

		// The sweep from that read skips it; the next one reminds it.
		s := bookingtest.New(t, booking.Config{Store: &staleStore{Store: f.store, stale: stale}, Now: func() time.Time { return remindMonday }, SiteURL: "https://book.example.com"})
		if res, err := s.SendReminders(ctx, remindMonday); err != nil || res.Reminded != 0 || res.Skipped != 1 {
			t.Fatalf("SendReminders() from a read before the contact change = %+v, %v; want 1 skipped", res, err)
		}
		if in, _ := f.engine.inRemindIndex(t, r.Code); !in {
			t.Fatal("skipped, the request left the remind index")
		}
		if res, err := f.bookings.SendReminders(ctx, remindMonday); err != nil || res.Reminded != 1 {
			t.Fatalf("the next SendReminders() = %+v, %v; want 1 reminded", res, err)
		}
		got, actions := f.historyActions(t, r.Code)
		want := []booking.Action{booking.ActionCreate, booking.ActionAccept, booking.ActionContact, booking.ActionRemind}
		if got.Contact.Email != added || jsonString(actions) != jsonString(want) {
			t.Errorf("after the reminder: e-mail %q, history %v; want %q, %v", got.Contact.Email, actions, added, want)
		}
	})
}

// TestChangeContactLapsed: a way to hear back is added to an open request
// only while it has not lapsed (sweep_at > now, by the store's own
// condition, since the sweep expires it late): a pending_payment request
// past its payment hold, or a new one past its window's start, not yet
// expired by the sweep, takes none, and nothing is stored.
func TestChangeContactLapsed(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		for _, c := range []struct {
			name   string
			r      booking.Request
			lapsed time.Time
		}{
			{"pending_payment past its hold", pending(silent(50, monday), holdLapsed), holdLapsed},
			{"new past its window's start", silent(51, monday.Add(24*time.Hour)), monday.Add(24 * time.Hour)},
		} {
			t.Run(c.name, func(t *testing.T) {
				mustCreate(t, f.engine, c.r, nil, now)
				before := f.staleRead(t, c.r.Code)
				after := *before
				after.Contact.SMSConsent = true
				after.History = append(append([]booking.Event(nil), before.History...), booking.Event{
					At: c.lapsed, By: booking.ActorCustomer, Action: booking.ActionContact,
					From: before.Status, To: before.Status, Window: before.Window, Added: booking.WaySMS,
				})
				if err := f.store.ChangeContact(ctx, *before, after, c.lapsed); code(err) != booking.InvalidTransition {
					t.Errorf("ChangeContact at %s, lapsed = %v, want INVALID_TRANSITION", c.lapsed, err)
				}
				if got := f.staleRead(t, c.r.Code); got.Contact.SMSConsent || len(got.History) != 1 {
					t.Errorf("refused: texts %t with %d events stored, want nothing changed", got.Contact.SMSConsent, len(got.History))
				}
				if err := f.store.ChangeContact(ctx, *before, after, c.lapsed.Add(-time.Second)); err != nil {
					t.Errorf("ChangeContact a second before it lapses = %v, want nil", err)
				}
			})
		}
	})
}

// TestContactChangeRacesANudge: the business's nudge, recorded by the
// sweep between the person's read and their adding a way to hear back,
// fails the change's condition (the history's length) but is nothing the
// person should be refused for: the domain adds the way again to the
// request as it now stands, after the nudge event. Another way added since
// the read stays a conflict. On both engines.
func TestContactChangeRacesANudge(t *testing.T) {
	ctx := context.Background()
	forEachLifecycle(t, func(t *testing.T, f *lifecycleFixture) {
		r := silent(60, monday)
		r.ReminderDue = now.Add(15 * time.Minute) // its nudge
		mustCreate(t, f.engine, r, nil, now)
		stale := f.staleRead(t, r.Code)
		at := now.Add(15 * time.Minute)
		if res, err := f.bookings.SendReminders(ctx, at); err != nil || res.Nudged != 1 {
			t.Fatalf("SendReminders() = %+v, %v, want 1 nudged", res, err)
		}
		clock := func() time.Time { return at.Add(time.Second) }
		s := bookingtest.New(t, booking.Config{Store: &staleStore{Store: f.store, stale: stale}, Now: clock, SiteURL: "https://book.example.com"})
		if _, err := s.AllowTexts(ctx, r.Code); err != nil {
			t.Fatalf("AllowTexts from a read before the nudge = %v, want nil", err)
		}
		got, actions := f.historyActions(t, r.Code)
		want := []booking.Action{booking.ActionCreate, booking.ActionNudge, booking.ActionContact}
		if !got.Contact.SMSConsent || jsonString(actions) != jsonString(want) {
			t.Errorf("after AllowTexts: texts %t, history %v; want on, %v", got.Contact.SMSConsent, actions, want)
		}

		// A way added since the read: a conflict, nothing stored.
		stale = f.staleRead(t, r.Code)
		if _, err := f.bookings.AddEmail(ctx, r.Code, "first@example.com"); err != nil {
			t.Fatal(err)
		}
		s = bookingtest.New(t, booking.Config{Store: &staleStore{Store: f.store, stale: stale}, Now: clock, SiteURL: "https://book.example.com"})
		if _, err := s.AddEmail(ctx, r.Code, "second@example.com"); code(err) != booking.InvalidTransition {
			t.Errorf("AddEmail from a read before another way was added = %v, want INVALID_TRANSITION", err)
		}
		if got := f.staleRead(t, r.Code); got.Contact.Email != "first@example.com" {
			t.Errorf("stored e-mail %q, want first@example.com", got.Contact.Email)
		}
	})
}
