package edge

import (
	"strconv"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// The parsers of the wire strings the edges share: the JSON API's query
// parameters, the tool server's arguments, the operator's flags. Each
// refusal is a *booking.Error, as the service's own checks answer.

// ParseDate parses the YYYY-MM-DD date of the parameter name, such as
// from (INVALID_DATE otherwise). The result is midnight UTC of that
// calendar day, a date value free of any zone.
func ParseDate(name, s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, booking.Errorf(booking.InvalidDate, "%s must be a date as YYYY-MM-DD, got %s", name, booking.Excerpt(s))
	}
	return t, nil
}

// ParseDays parses a days parameter: "" is booking.DefaultDays; anything
// else must be an integer from 1 to booking.MaxDays (INVALID_REQUEST).
func ParseDays(s string) (int, error) {
	return wholeNumber(s, booking.DefaultDays, booking.MaxDays, func() error { return booking.DaysError(s) })
}

// ParseInboxQuery reads an inbox list's filter as people write it (the
// inbox's query parameters, the operator's flags): status (one state, or
// several joined by commas), from and to (YYYY-MM-DD), limit (a whole
// number) and cursor; "" leaves each out. The first refusal wins, in
// that order.
func ParseInboxQuery(status, from, to, limit, cursor string) (booking.InboxQuery, error) {
	q := booking.InboxQuery{Cursor: cursor}
	var err error
	if status != "" {
		if q.Statuses, err = parseStatuses(status); err != nil {
			return q, err
		}
	}
	if from != "" {
		if q.From, err = ParseDate("from", from); err != nil {
			return q, err
		}
	}
	if to != "" {
		if q.To, err = ParseDate("to", to); err != nil {
			return q, err
		}
	}
	q.Limit, err = wholeNumber(limit, booking.DefaultPageSize, booking.MaxPageSize, booking.LimitError)
	return q, err
}

// parseStatuses parses a status filter: one state, or several joined by
// commas, each one a business sees (INVALID_REQUEST otherwise).
func parseStatuses(s string) ([]booking.Status, error) {
	var statuses []booking.Status
	for _, part := range strings.Split(s, ",") {
		st := booking.Status(strings.TrimSpace(part))
		if !booking.IsInboxStatus(st) {
			return nil, booking.StatusFilterError(part)
		}
		statuses = append(statuses, st)
	}
	return statuses, nil
}

// wholeNumber parses a count parameter: "" is def; anything else must be
// a whole number from 1 to max, else refused() (made only then).
func wholeNumber(s string, def, max int, refused func() error) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > max {
		return 0, refused()
	}
	return n, nil
}
