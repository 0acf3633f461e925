package booking

import (
	"fmt"
	"time"
	"unicode/utf8"
)

// DayOff is a day, or a range of days, on which the business offers no
// window: dates in its time zone, as YYYY-MM-DD. To is the last day off
// ("" or absent: From alone). Note is for the business's own reference,
// never shown to the public.
type DayOff struct {
	From string `json:"from"`
	To   string `json:"to,omitempty"`
	Note string `json:"note,omitempty"`
}

// Limits of the schedule's private fields.
const (
	MaxDaysOff       = 366
	MaxDayOffNote    = 200
	MaxNoticeMinutes = 7 * 24 * 60
)

// dayRange is a day off as Validate parses it: the first and last day, as
// days since 1970-01-01.
type dayRange struct{ from, to int64 }

// dayNumber is the number of days from 1970-01-01 to date, a date value
// (midnight UTC) as edge.ParseDate returns it.
func dayNumber(date time.Time) int64 { return date.Unix() / 86400 }

// parseDaysOff validates days_off and returns its ranges.
func parseDaysOff(list []DayOff) ([]dayRange, error) {
	if len(list) > MaxDaysOff {
		return nil, fieldErr("days_off", "want at most %d entries, got %d", MaxDaysOff, len(list))
	}
	if len(list) == 0 {
		return nil, nil
	}
	out := make([]dayRange, len(list))
	for i, d := range list {
		field := fmt.Sprintf("days_off[%d]", i)
		from, err := time.Parse(dateLayout, d.From)
		if err != nil {
			return nil, fieldErr(field+".from", "want a date as YYYY-MM-DD, got %q", d.From)
		}
		to := from
		if d.To != "" {
			if to, err = time.Parse(dateLayout, d.To); err != nil {
				return nil, fieldErr(field+".to", "want a date as YYYY-MM-DD (or none: one day), got %q", d.To)
			}
			if to.Before(from) {
				return nil, fieldErr(field+".to", "is before from (%s)", d.From)
			}
		}
		if utf8.RuneCountInString(d.Note) > MaxDayOffNote {
			return nil, fieldErr(field+".note", "may have up to %d characters", MaxDayOffNote)
		}
		if r, bad := firstUnsafe(d.Note, nil); bad {
			return nil, fieldErr(field+".note", "must be one line of text, without %s", runeName(r))
		}
		out[i] = dayRange{dayNumber(from), dayNumber(to)}
	}
	return out, nil
}

// dayOff reports whether date (a date value in the business's time zone)
// is one of its days off.
func (b *Business) dayOff(date time.Time) bool {
	if len(b.daysOff) == 0 {
		return false
	}
	n := dayNumber(date)
	for _, r := range b.daysOff {
		if r.from <= n && n <= r.to {
			return true
		}
	}
	return false
}

// Notice is how long before a window starts a customer must ask for it
// (min_notice_minutes; 0: until it starts).
func (b *Business) Notice() time.Duration {
	return time.Duration(b.MinNoticeMinutes) * time.Minute
}

// offer is what a business offers at a moment: a window of its hours is
// offered when its day is within the booking horizon and not a day off,
// and it starts after earliest (the moment plus the notice that applies).
// Windows and windowAt (WindowAt, a create, a move) both ask it, so that
// the list and the checks can never disagree.
type offer struct {
	b        *Business
	earliest time.Time
	last     time.Time // the last bookable date
}

// offerAt is what b offers at now with notice: b.Notice() to a customer,
// none to the business itself (see docs/design.md, Choices).
func (b *Business) offerAt(now time.Time, notice time.Duration) offer {
	return offer{b: b, earliest: now.Add(notice), last: b.lastBookableDate(now)}
}

// startRefusal is TOO_LATE for a start at or before o.earliest: the
// window has started, or starts within the notice.
func (o offer) startRefusal(start time.Time) Code {
	if !start.After(o.earliest) {
		return TooLate
	}
	return ""
}

// dayRefusal is INVALID_WINDOW for a day past the horizon or a day off.
func (o offer) dayRefusal(day time.Time) Code {
	if day.After(o.last) || o.b.dayOff(day) {
		return InvalidWindow
	}
	return ""
}

// MaxCrews is the most crews_per_window a business can set.
const MaxCrews = 20

// Crews is how many requests one window of a business holds at once.
//
// The store keeps a window's holds on numbered slots, at most one request
// on each, and a create or a move takes a free slot below Ever. Lowering
// PerWindow never moves or drops a request: the holds of a window may then
// be on slots at or above PerWindow, so a take checks, in its own
// transaction, that enough of the Ever slots stay free for the window to
// hold at most PerWindow requests after it.
type Crews struct {
	PerWindow int // 1 to MaxCrews
	Ever      int // the most PerWindow has been: PerWindow to MaxCrews
}

// Crews returns b's crews, with the default of one.
func (b *Business) Crews() Crews {
	c := Crews{PerWindow: max(b.CrewsPerWindow, 1)}
	c.Ever = max(b.CrewsEver, c.PerWindow)
	return c
}

// KeepCrewsEver raises b's CrewsEver to that of stored, the record b
// replaces (nil: none), and to b's own CrewsPerWindow: the store calls it
// on every write of a business record, so that CrewsEver never goes down
// and no hold is ever on a slot a take does not look at.
func (b *Business) KeepCrewsEver(stored *Business) {
	ever := b.Crews().Ever
	if stored != nil {
		ever = max(ever, stored.Crews().Ever)
	}
	b.CrewsEver = 0 // the default, 1: no field in the record
	if ever > 1 {
		b.CrewsEver = ever
	}
}
