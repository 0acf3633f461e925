package edge

import (
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// ParseWindowStart reads a window_start: an RFC 3339 date-time, strictly.
//
//	YYYY-MM-DD "T" hh:mm:ss [ "." 1 to 9 digits ] ( "Z" | ("+" / "-") hh:mm )
//
// "T" and "Z" may be lower case, as RFC 3339 allows. The offset is at most
// 23:59 either way (Go's time.Parse takes "+24:00" and "+23:60"); the
// fraction's separator is a dot (time.Parse takes a comma too); a leap
// second (":60") is refused, as no window starts on one; "-00:00" is UTC.
// The date and time must exist (no February 30th, no hour 24).
func ParseWindowStart(s string) (time.Time, bool) {
	const minLen = len("2006-01-02T15:04:05Z")
	if len(s) < minLen || len(s) > len("2006-01-02T15:04:05.999999999-07:00") {
		return time.Time{}, false
	}
	b := []byte(s)
	// The fixed part: digits and separators at their places.
	for i, want := range []byte("dddd-dd-ddTdd:dd:dd") {
		c := b[i]
		switch want {
		case 'd':
			if !isDigit(c) {
				return time.Time{}, false
			}
		case 'T':
			if c != 'T' && c != 't' {
				return time.Time{}, false
			}
			b[i] = 'T'
		default:
			if c != want {
				return time.Time{}, false
			}
		}
	}
	rest := b[len("2006-01-02T15:04:05"):]
	if rest[0] == '.' {
		n := 1
		for n < len(rest) && isDigit(rest[n]) {
			n++
		}
		if n == 1 || n > 10 {
			return time.Time{}, false
		}
		rest = rest[n:]
	}
	switch {
	case len(rest) == 1 && (rest[0] == 'Z' || rest[0] == 'z'):
		rest[0] = 'Z'
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':' &&
		isDigit(rest[1]) && isDigit(rest[2]) && isDigit(rest[4]) && isDigit(rest[5]):
		if hh, mm := twoDigits(rest[1:3]), twoDigits(rest[4:6]); hh > 23 || mm > 59 {
			return time.Time{}, false
		}
	default:
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// WindowStart reads a window_start as every edge does: the instant
// ParseWindowStart reads, or the INVALID_WINDOW answer to one it refuses,
// the first of a create's field checks (decisions.md), after the edge's
// own checks of the body's shape.
func WindowStart(s string) (time.Time, error) {
	t, ok := ParseWindowStart(s)
	if !ok {
		return time.Time{}, windowStartError(s)
	}
	return t, nil
}

func windowStartError(s string) error {
	return booking.Errorf(booking.InvalidWindow, "window_start must be an ISO 8601 date-time with an offset, such as 2026-11-23T16:00:00Z, got %s", booking.Excerpt(s))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func twoDigits(b []byte) int { return int(b[0]-'0')*10 + int(b[1]-'0') }
