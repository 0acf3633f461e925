package inboxweb

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/display"
)

// The weekly hours are stored as 24-hour "HH:MM" (24:00 closes at
// midnight), shown as the rest of the site shows a time ("2:00 PM" in
// English, "14:00" in Spanish), and read as an owner types one.

// parseClock reads a time of day as typed: "14:00", "14", "8:30",
// "2pm", "2 PM", "2:00 PM", "2:00 p.m.", "12am" (any case), and returns
// it as "HH:MM". For a closing time, midnight ("12:00 AM", "00:00",
// "24:00") is "24:00": the day's end. ok is false for anything else.
func parseClock(s string, closing bool) (clock string, ok bool) {
	s = strings.ToLower(strings.Join(strings.Fields(s), ""))
	s = strings.NewReplacer("a.m.", "am", "p.m.", "pm", "a.m", "am", "p.m", "pm").Replace(s)
	suffix := ""
	if strings.HasSuffix(s, "am") || strings.HasSuffix(s, "pm") {
		suffix, s = s[len(s)-2:], s[:len(s)-2]
	}
	hs, ms, hasMinutes := strings.Cut(s, ":")
	if !digits(hs, 1, 2) || (hasMinutes && !digits(ms, 2, 2)) {
		return "", false
	}
	h, _ := strconv.Atoi(hs)
	m := 0
	if hasMinutes {
		m, _ = strconv.Atoi(ms)
	}
	if m > 59 {
		return "", false
	}
	switch suffix {
	case "am", "pm":
		if h < 1 || h > 12 {
			return "", false
		}
		h %= 12
		if suffix == "pm" {
			h += 12
		}
	default:
		if h > 24 || (h == 24 && m != 0) {
			return "", false
		}
	}
	if closing && h == 0 && m == 0 {
		h = 24
	}
	if !closing && h == 24 {
		return "", false // a day opens at its start, 00:00
	}
	return fmt.Sprintf("%02d:%02d", h, m), true
}

// digits reports whether s is min to max ASCII digits.
func digits(s string, min, max int) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	return strings.Trim(s, "0123456789") == ""
}

// showClock writes a stored "HH:MM" as the site shows a time in lang:
// "2:00 PM" or "14:00"; the day's end, 24:00, is "12:00 AM" in English.
// Anything else is shown as it is.
func showClock(lang, clock string) string {
	if clock == "24:00" { // the day's end: midnight
		if lang == "es" {
			return clock
		}
		return "12:00 AM"
	}
	t, err := time.Parse("15:04", clock)
	if err != nil {
		return clock
	}
	return display.Clock(lang, t, time.UTC)
}

// minutes is a stored "HH:MM" (parseClock's) as minutes of the day.
func minutes(clock string) int {
	h, _ := strconv.Atoi(clock[:2])
	m, _ := strconv.Atoi(clock[3:])
	return h*60 + m
}
