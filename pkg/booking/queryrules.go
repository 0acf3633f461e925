package booking

import "slices"

// The rules of the list queries whose wire strings the edges parse
// (edge.ParseDays, edge.ParseInboxQuery): a parser refuses with the same
// errors as the service's own checks of the values it is given.

// DaysError is the INVALID_REQUEST for a number of days, got as sent,
// that is not a whole number from 1 to MaxDays.
func DaysError(got string) error { return daysError(got) }

// IsInboxStatus reports whether a business sees requests in state st: new,
// and every state a new request can be moved to.
func IsInboxStatus(st Status) bool { return slices.Contains(inboxStatuses, st) }

// StatusFilterError is the INVALID_REQUEST for a status filter naming got,
// a state no business sees requests in.
func StatusFilterError(got string) error { return statusError(got) }

// LimitError is the INVALID_REQUEST for a page size that is not a whole
// number from 1 to MaxPageSize.
func LimitError() error { return limitError() }
