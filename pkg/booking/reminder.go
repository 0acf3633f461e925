package booking

import (
	"context"
	"sync/atomic"
	"time"
)

// ActionRemind is only in history, like ActionCreate: the sweeper reminded
// the person of an accepted visit on the day before it. It is no
// transition of the Lifecycle: the request stays accepted.
const ActionRemind Action = "remind"

// DefaultReminderHour is the local hour of the day before an accepted
// visit at which its person is reminded, for a business that sets none.
const DefaultReminderHour = 9

// reminderSettings is the business's private reminder setting (Private
// embeds it): kept apart so that other private settings merge cleanly.
type reminderSettings struct {
	// ReminderHour is the hour (0-23, local time) of the day before an
	// accepted visit at which the person is reminded of it; nil is
	// DefaultReminderHour.
	ReminderHour *int `json:"reminder_hour,omitempty"`
}

func (p reminderSettings) validate() error {
	if h := p.ReminderHour; h != nil && (*h < 0 || *h > 23) {
		return fieldErr("reminder_hour", "want an hour from 0 to 23 (absent: %d), got %d", DefaultReminderHour, *h)
	}
	return nil
}

// RemindAt is when the person of an accepted visit in window w is
// reminded of it: the business's reminder hour, in its time zone, on the
// local day before the day w starts. An hour that a change of the clocks
// skips that day is the hour after it (02:00 on a spring-forward day is
// 03:00); an hour that happens twice (fall-back) is its first.
func (b *Business) RemindAt(w Window) time.Time {
	hour := DefaultReminderHour
	if b.ReminderHour != nil {
		hour = *b.ReminderHour
	}
	loc := b.Location()
	y, m, d := w.Start.In(loc).Date()
	t := time.Date(y, m, d-1, hour, 0, 0, 0, loc)
	if t.Hour() != hour {
		// Skipped by the clocks: Go picks either side; take the hour after.
		t = time.Date(y, m, d-1, hour+1, 0, 0, 0, loc)
	}
	if earlier := t.Add(-time.Hour); earlier.In(loc).Hour() == hour && earlier.In(loc).Day() == t.In(loc).Day() {
		t = earlier // the first of an hour that happens twice
	}
	return t.UTC()
}

// remindAfter sets after.ReminderDue for a request a move leaves accepted
// in a new window (an accept, or a move of an accepted request): when its
// reminder is due, if that is still ahead of now; otherwise no reminder
// (the confirmation or the change, sent now, says the same). Any other
// state keeps none.
func remindAfter(after *Request, b *Business, now time.Time) {
	after.ReminderDue = time.Time{}
	if after.Status != StatusAccepted {
		return
	}
	if at := b.RemindAt(after.Window); now.Before(at) {
		after.ReminderDue = at
	}
}

// remindWorkers is how many reminders a sweep records at once.
const remindWorkers = 8

// ReminderResult says what a sweep's reminders did.
type ReminderResult struct {
	Reminded int // reminders this sweep recorded (each sent by notify)
	Nudged   int // nudges of unanswered requests this sweep recorded (each sent by notify)
	Skipped  int // requests moved, or reminded by another sweep, first
}

// SendReminders records, as the sweeper (ActorSystem), the reminder of
// every accepted request whose ReminderDue is at or before now and whose
// window has not started: a remind event in its history, in one
// conditional write, which notify turns into the person's reminder; and
// likewise the nudge of every request still new at its ReminderDue (a
// nudge event, which notify turns into the business's reminder by its
// ways: e-mail, and text when it chose them). The request stays as it is.
// A request whose window started is reminded of nothing: it only leaves
// the index. It is safe to run twice or concurrently: the store's
// condition records each reminder and each nudge once.
func (s *Bookings) SendReminders(ctx context.Context, now time.Time) (ReminderResult, error) {
	var reminded, nudged atomic.Int64 // not every record is a reminder sent
	remind := func(code string) error {
		r, err := s.request(ctx, code)
		if err != nil {
			return err
		}
		if (r.Status != StatusAccepted && r.Status != StatusNew) || r.ReminderDue.IsZero() || now.Before(r.ReminderDue) {
			// Moved on, reminded or not due yet: the index lags the table.
			return Errorf(InvalidTransition, "request %s has no reminder due", code)
		}
		after := r
		after.ReminderDue = time.Time{}
		if !now.Before(r.Window.Start) {
			// The sweeper was down past the visit's start: too late to
			// remind; the record only leaves the index.
			return s.store.RecordReminder(ctx, r, after)
		}
		e := Event{
			At: now.UTC().Truncate(time.Second), By: ActorSystem, Action: ActionRemind,
			From: r.Status, To: r.Status, Window: r.Window,
		}
		count := &reminded
		if r.Status == StatusNew {
			e, count = nudgeEvent(r, now), &nudged
		}
		after.History = append(append([]Event(nil), r.History...), e)
		if err := s.store.RecordReminder(ctx, r, after); err != nil {
			return err
		}
		count.Add(1)
		return nil
	}
	_, skipped, err := eachListed(ctx, now, s.store.DueReminders, remindWorkers, remind)
	return ReminderResult{Reminded: int(reminded.Load()), Nudged: int(nudged.Load()), Skipped: skipped}, err
}
