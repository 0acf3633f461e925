package booking

import (
	"testing"
	"time"
)

// TestOnlyNoted: a move whose condition failed is made again from a fresh
// read only when what came in between changed neither the state nor the
// window and was a reminder, a nudge or a way to hear back added, so that
// each retry follows a change that happened; anything else is a conflict.
func TestOnlyNoted(t *testing.T) {
	start := time.Date(2026, 11, 23, 16, 0, 0, 0, time.UTC)
	at := start.Add(-24 * time.Hour)
	read := func(status Status, due time.Time) Request {
		return Request{Status: status, Window: Window{Start: start, End: start.Add(2 * time.Hour)}, ReminderDue: due,
			History: []Event{{At: at, By: ActorCustomer, Action: ActionCreate, To: status}}}
	}
	with := func(r Request, f func(*Request), actions ...Action) Request {
		r.History = append([]Event(nil), r.History...)
		for _, a := range actions {
			r.History = append(r.History, Event{At: at, Action: a, From: r.Status, To: r.Status})
		}
		if f != nil {
			f(&r)
		}
		return r
	}
	due := at.Add(time.Hour)
	cases := []struct {
		name     string
		r, fresh Request
		want     bool
	}{
		{"reminded", read(StatusAccepted, due), with(read(StatusAccepted, due), func(r *Request) { r.ReminderDue = time.Time{} }, ActionRemind), true},
		{"nudged", read(StatusNew, due), with(read(StatusNew, due), func(r *Request) { r.ReminderDue = time.Time{} }, ActionNudge), true},
		{"recorded too late to remind: no event", read(StatusAccepted, due), with(read(StatusAccepted, due), func(r *Request) { r.ReminderDue = time.Time{} }), true},
		{"a way added to a new request", read(StatusNew, time.Time{}), with(read(StatusNew, time.Time{}), nil, ActionContact), true},
		{"a way added while awaiting payment", read(StatusPendingPayment, time.Time{}), with(read(StatusPendingPayment, time.Time{}), nil, ActionContact), true},
		{"a way added, then a reminder", read(StatusAccepted, due), with(read(StatusAccepted, due), func(r *Request) { r.ReminderDue = time.Time{} }, ActionContact, ActionRemind), true},
		{"nothing seen changed", read(StatusNew, time.Time{}), read(StatusNew, time.Time{}), false},
		{"moved to another state", read(StatusNew, time.Time{}), with(read(StatusNew, time.Time{}), func(r *Request) { r.Status = StatusAccepted }, ActionAccept), false},
		{"moved to another window", read(StatusAccepted, due), with(read(StatusAccepted, due), func(r *Request) { r.Window.Start = start.Add(time.Hour) }, ActionMove), false},
		{"a way added, then a move", read(StatusNew, time.Time{}), with(read(StatusNew, time.Time{}), nil, ActionContact, ActionDecline), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := onlyNoted(c.r, c.fresh); got != c.want {
				t.Errorf("onlyNoted() = %t, want %t", got, c.want)
			}
		})
	}
}
