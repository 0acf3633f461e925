package booking

import (
	"time"
)

// ActionNudge is only in history, like ActionRemind: the sweeper reminded
// the business of a request still new after its nudge delay (NudgeAt).
// It is no transition of the Lifecycle: the request stays new.
const ActionNudge Action = "nudge"

// The default delays of the nudge: how long a new request waits for an
// answer before the business is reminded of it, urgent or not
// (Business.Urgent).
const (
	DefaultNudgeUrgentMinutes = 15
	DefaultNudgeMinutes       = 120
	maxNudgeMinutes           = 7 * 24 * 60
)

// nudgeSettings are the business's private nudge delays (Private embeds
// them), kept apart so that other private settings merge cleanly.
type nudgeSettings struct {
	// NudgeUrgentMinutes and NudgeMinutes are how long an urgent, or any
	// other, new request waits unanswered before the business is reminded
	// of it; 0 or absent: DefaultNudgeUrgentMinutes, DefaultNudgeMinutes.
	NudgeUrgentMinutes int `json:"nudge_urgent_minutes,omitempty"`
	NudgeMinutes       int `json:"nudge_minutes,omitempty"`
}

func (p nudgeSettings) validate() error {
	for field, m := range map[string]int{"nudge_urgent_minutes": p.NudgeUrgentMinutes, "nudge_minutes": p.NudgeMinutes} {
		if m < 0 || m > maxNudgeMinutes {
			return fieldErr(field, "want 1 to %d minutes (0 or absent: the default), got %d", maxNudgeMinutes, m)
		}
	}
	return nil
}

// NudgeAt is when the business is reminded of r, new since since, if it
// has not answered it: its delay for an urgent request or another after
// since; zero (no nudge) when that is not before r's window starts, since
// a request unanswered then expires instead.
func (b *Business) NudgeAt(r Request, since time.Time) time.Time {
	minutes := b.NudgeMinutes
	if minutes == 0 {
		minutes = DefaultNudgeMinutes
	}
	if b.Urgent(r.ServiceID, r.Urgency) {
		minutes = b.NudgeUrgentMinutes
		if minutes == 0 {
			minutes = DefaultNudgeUrgentMinutes
		}
	}
	at := since.Add(time.Duration(minutes) * time.Minute).UTC()
	if !at.Before(r.Window.Start) {
		return time.Time{}
	}
	return at
}

// nudgeEvent is the event that records the nudge of r at now.
func nudgeEvent(r Request, now time.Time) Event {
	return Event{At: now.UTC().Truncate(time.Second), By: ActorSystem, Action: ActionNudge, From: r.Status, To: r.Status, Window: r.Window}
}
