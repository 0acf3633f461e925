package booking

import (
	"time"
)

// Window is one arrival window. Start and End are instants in UTC; Date is the
// window's day in the business's time zone, as YYYY-MM-DD.
type Window struct {
	Date  string    `json:"date"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Availability is the listArrivalWindows response.
type Availability struct {
	Timezone          string   `json:"timezone"`
	AcceptingRequests bool     `json:"accepting_requests"`
	Windows           []Window `json:"windows"`
}

// Limits of listArrivalWindows.
const (
	DefaultDays = 7
	MaxDays     = 14
)

const dateLayout = "2006-01-02"

// DaysError is the INVALID_REQUEST for a number of days, as sent, that is
// not a whole number from 1 to MaxDays (edge.ParseDays refuses with it too).
func DaysError(days string) error {
	return Errorf(InvalidRequest, "days must be a whole number from 1 to %d, got %s", MaxDays, excerpt(days))
}

// Windows returns the open arrival windows of days consecutive local days from
// from (a date as edge.ParseDate returns it): windows cut from each day's hours in
// the business's time zone that it offers a customer at now (offer: no later
// than the booking horizon, not on a day off, starting after now plus the
// notice), and not full (full reports whether the window starting at start
// holds as many requests as the business has crews; nil means none is).
//
// Daylight-saving time: a local start that does not exist is skipped; an
// ambiguous one is the earlier instant; End is Start plus the window length.
func (b *Business) Windows(now, from time.Time, days int, full func(start time.Time) bool) []Window {
	o := b.offerAt(now, b.Notice())
	length := time.Duration(b.ArrivalWindowMinutes) * time.Minute
	var out []Window
	for i := 0; i < days; i++ {
		day := from.AddDate(0, 0, i)
		if day.After(o.last) {
			break
		}
		if o.dayRefusal(day) != "" {
			continue
		}
		date := day.Format(dateLayout)
		y, m, d := day.Date()
		for _, iv := range b.Hours.day(day.Weekday()) {
			for min := iv.openMin; min+b.ArrivalWindowMinutes <= iv.closeMin; min += b.ArrivalWindowMinutes {
				start, ok := localInstant(y, m, d, min, b.loc)
				if !ok || o.startRefusal(start) != "" || (full != nil && full(start)) {
					continue
				}
				if out == nil {
					out = make([]Window, 0, days*8)
				}
				out = append(out, Window{Date: date, Start: start, End: start.Add(length)})
			}
		}
	}
	if out == nil {
		out = []Window{}
	}
	return out
}

// WindowAt returns the window that starts at instant start, if b offers it
// to a customer at now, as Windows lists it: its hours cut one there, it
// starts after now plus the notice, and its day is within the booking
// horizon and not a day off. It ignores holds.
func (b *Business) WindowAt(start, now time.Time) (Window, bool) {
	w, code := b.windowAt(start, now, b.Notice())
	return w, code == ""
}

// windowAt returns the window of b's hours that starts at instant start if
// b offers it at now with notice (offerAt), or why not: TOO_LATE when start
// is not after now plus notice, whether or not a window starts there (the
// precedence of decisions.md puts TOO_LATE before INVALID_WINDOW);
// INVALID_WINDOW when no window of the hours starts there, or its day is
// past the horizon or a day off.
func (b *Business) windowAt(start, now time.Time, notice time.Duration) (Window, Code) {
	o := b.offerAt(now, notice)
	if code := o.startRefusal(start); code != "" {
		return Window{}, code
	}
	local := start.In(b.loc)
	y, m, d := local.Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if code := o.dayRefusal(day); code != "" {
		return Window{}, code
	}
	min := local.Hour()*60 + local.Minute()
	for _, iv := range b.Hours.day(day.Weekday()) {
		if min < iv.openMin || min+b.ArrivalWindowMinutes > iv.closeMin || (min-iv.openMin)%b.ArrivalWindowMinutes != 0 {
			continue
		}
		if at, ok := localInstant(y, m, d, min, b.loc); ok && at.Equal(start) {
			length := time.Duration(b.ArrivalWindowMinutes) * time.Minute
			return Window{Date: day.Format(dateLayout), Start: at, End: at.Add(length)}, ""
		}
	}
	return Window{}, InvalidWindow
}

// today is the business's local day at now, as a date value.
func (b *Business) today(now time.Time) time.Time {
	y, m, d := now.In(b.loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// lastBookableDate is today (local) plus the booking horizon, as a date value.
func (b *Business) lastBookableDate(now time.Time) time.Time {
	return b.today(now).AddDate(0, 0, b.BooksUpToDaysAhead)
}

// localInstant returns the instant at which the wall clock in loc reads the
// given day and minute of day. ok is false when that wall time does not exist
// (skipped by a daylight-saving change); when it exists twice, the earlier
// instant is returned. The result is in UTC.
func localInstant(y int, m time.Month, d, minuteOfDay int, loc *time.Location) (time.Time, bool) {
	wall := time.Date(y, m, d, 0, minuteOfDay, 0, 0, time.UTC)
	// The offsets in force a day either side bracket any change on this day.
	_, before := wall.Add(-24 * time.Hour).In(loc).Zone()
	_, after := wall.Add(24 * time.Hour).In(loc).Zone()
	var best time.Time
	found := false
	for _, off := range [2]int{before, after} {
		t := wall.Add(-time.Duration(off) * time.Second)
		if !sameWall(t.In(loc), wall) {
			continue
		}
		if !found || t.Before(best) {
			best, found = t, true
		}
	}
	return best, found
}

func sameWall(t, wall time.Time) bool {
	y1, m1, d1 := t.Date()
	y2, m2, d2 := wall.Date()
	return y1 == y2 && m1 == m2 && d1 == d2 && t.Hour() == wall.Hour() && t.Minute() == wall.Minute()
}
