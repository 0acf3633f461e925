package booking

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"time"
)

// Schedule is what a business sets of its own schedule on the web inbox's
// settings page: its days off, its notice, its crews, its weekly hours and
// the hour of its reminders.
type Schedule struct {
	DaysOff          []DayOff
	MinNoticeMinutes int
	CrewsPerWindow   int // 1 to MaxCrews
	Hours            Hours
	ReminderHour     int // 0-23; DefaultReminderHour when the record sets none
}

// Schedule returns b's schedule settings, as a copy the caller may change.
func (b *Business) Schedule() Schedule {
	s := Schedule{
		DaysOff:          slices.Clone(b.DaysOff),
		MinNoticeMinutes: b.MinNoticeMinutes,
		CrewsPerWindow:   b.Crews().PerWindow,
		Hours:            b.Hours.clone(),
		ReminderHour:     DefaultReminderHour,
	}
	if b.ReminderHour != nil {
		s.ReminderHour = *b.ReminderHour
	}
	return s
}

// clone returns a copy of h that shares no interval with it.
func (h *Hours) clone() Hours {
	var c Hours
	from, to := h.days(), c.days()
	for d := range from {
		*to[d] = slices.Clone(*from[d])
		if *to[d] == nil {
			*to[d] = []Interval{}
		}
	}
	return c
}

// Version names a schedule: a form carries the version of the schedule it
// was shown, so that a change is made only to what the business saw.
func (s Schedule) Version() string {
	if s.DaysOff == nil {
		s.DaysOff = []DayOff{}
	}
	s.Hours = s.Hours.clone()
	doc, _ := json.Marshal(s) // plain strings and numbers: never fails
	sum := sha256.Sum256(doc)
	return hex.EncodeToString(sum[:12])
}

// ErrScheduleChanged is UpdateSchedule's answer when the stored schedule
// is no longer the version the change was made from: nothing is stored.
var ErrScheduleChanged = errors.New("the schedule changed meanwhile; nothing was stored")

// UpdateSchedule stores next as the business's schedule, with the
// store's conditional update (updateOwned), on the condition that the stored
// schedule is still the version seen (Schedule.Version): a change made in
// between is never undone. The changed record is validated as the loader validates a
// business file (Validate): an invalid value is INVALID_REQUEST naming the
// field, and nothing is stored. It returns the business as stored after;
// after a lost race (ErrScheduleChanged), the business as stored now.
// Requests already made are never touched: those on a new day off stay
// as they are, for the business to move or decline.
func (in *Inbox) UpdateSchedule(ctx context.Context, seen string, next Schedule) (*Business, error) {
	return in.updateOwned(ctx, func(b *Business) string { return b.Schedule().Version() }, seen, ErrScheduleChanged, func(changed *Business) error {
		changed.DaysOff = slices.Clone(next.DaysOff)
		if len(changed.DaysOff) == 0 {
			changed.DaysOff = nil
		}
		changed.MinNoticeMinutes = next.MinNoticeMinutes
		if next.CrewsPerWindow < 1 || next.CrewsPerWindow > MaxCrews {
			return Errorf(InvalidRequest, "crews_per_window: want 1 to %d, got %d", MaxCrews, next.CrewsPerWindow)
		}
		if changed.CrewsPerWindow != 0 || next.CrewsPerWindow != 1 {
			// Lowering it leaves the requests a window holds as they are
			// (Crews): the window takes none until it has room again.
			changed.CrewsPerWindow = next.CrewsPerWindow
		}
		changed.Hours = next.Hours.clone()
		if changed.ReminderHour != nil || next.ReminderHour != DefaultReminderHour {
			hour := next.ReminderHour
			changed.ReminderHour = &hour
		}
		return nil
	})
}

// OnDayOff reports whether a window starting at start falls on one of b's
// days off (the local date of its start).
func (b *Business) OnDayOff(start time.Time) bool {
	y, m, d := start.In(b.Location()).Date()
	return b.dayOff(time.Date(y, m, d, 0, 0, 0, 0, time.UTC))
}
