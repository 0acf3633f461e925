package booking

import (
	"fmt"
	"time"
)

// How times are written for people, in en or es: one home for the
// person's pages and the business's web inbox.

var (
	weekdaysES = [7]string{"domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"}
	monthsES   = [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
		"septiembre", "octubre", "noviembre", "diciembre"}
)

// FormatDay writes t's date in loc: "Tuesday, November 24, 2026" or
// "martes 24 de noviembre de 2026".
func FormatDay(lang string, t time.Time, loc *time.Location) string {
	t = t.In(loc)
	if lang == "es" {
		return fmt.Sprintf("%s %d de %s de %d", weekdaysES[t.Weekday()], t.Day(), monthsES[t.Month()-1], t.Year())
	}
	return t.Format("Monday, January 2, 2006")
}

// FormatClock writes t's time of day in loc: "2:30 PM" or "14:30".
func FormatClock(lang string, t time.Time, loc *time.Location) string {
	if lang == "es" {
		return t.In(loc).Format("15:04")
	}
	return t.In(loc).Format("3:04 PM")
}

// FormatMoment writes an instant in loc with its zone: "Tuesday, November
// 24, 2026, 2:30 PM MST" or "martes 24 de noviembre de 2026, 14:30 (MST)".
func FormatMoment(lang string, t time.Time, loc *time.Location) string {
	zone := t.In(loc).Format("MST")
	if lang == "es" {
		return FormatDay(lang, t, loc) + ", " + FormatClock(lang, t, loc) + " (" + zone + ")"
	}
	return FormatDay(lang, t, loc) + ", " + FormatClock(lang, t, loc) + " " + zone
}

// FormatWindow writes an arrival window in loc: its day, then its times.
func FormatWindow(lang string, start, end time.Time, loc *time.Location) string {
	zone := start.In(loc).Format("MST")
	if lang == "es" {
		return fmt.Sprintf("%s, de %s a %s (%s)", FormatDay(lang, start, loc), FormatClock(lang, start, loc), FormatClock(lang, end, loc), zone)
	}
	return fmt.Sprintf("%s, %s – %s %s", FormatDay(lang, start, loc), FormatClock(lang, start, loc), FormatClock(lang, end, loc), zone)
}
