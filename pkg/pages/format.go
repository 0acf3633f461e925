package pages

import (
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

var (
	weekdaysES = [7]string{"domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"}
	monthsES   = [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
		"septiembre", "octubre", "noviembre", "diciembre"}
)

// day writes t's date in loc: "Tuesday, November 24, 2026" or "martes 24
// de noviembre de 2026".
func day(lang string, t time.Time, loc *time.Location) string {
	t = t.In(loc)
	if lang == "es" {
		return fmt.Sprintf("%s %d de %s de %d", weekdaysES[t.Weekday()], t.Day(), monthsES[t.Month()-1], t.Year())
	}
	return t.Format("Monday, January 2, 2006")
}

// clock writes t's time of day in loc: "2:30 PM" or "14:30".
func clock(lang string, t time.Time, loc *time.Location) string {
	if lang == "es" {
		return t.In(loc).Format("15:04")
	}
	return t.In(loc).Format("3:04 PM")
}

// moment writes an instant in loc with its zone: "Tuesday, November 24,
// 2026, 2:30 PM MST" or "martes 24 de noviembre de 2026, 14:30 (MST)".
func moment(lang string, t time.Time, loc *time.Location) string {
	zone := t.In(loc).Format("MST")
	if lang == "es" {
		return day(lang, t, loc) + ", " + clock(lang, t, loc) + " (" + zone + ")"
	}
	return day(lang, t, loc) + ", " + clock(lang, t, loc) + " " + zone
}

// span writes an arrival window in loc: its day, then its times.
func span(lang string, start, end time.Time, loc *time.Location) string {
	zone := start.In(loc).Format("MST")
	if lang == "es" {
		return fmt.Sprintf("%s, de %s a %s (%s)", day(lang, start, loc), clock(lang, start, loc), clock(lang, end, loc), zone)
	}
	return fmt.Sprintf("%s, %s – %s %s", day(lang, start, loc), clock(lang, start, loc), clock(lang, end, loc), zone)
}

// phone writes a business's phone (international format, +digits) for
// people, (512) 555-0142 for a US number, and as a tel: link.
func phone(p string) (string, template.URL) {
	digits := strings.TrimPrefix(p, "+")
	for _, c := range digits {
		if c < '0' || c > '9' {
			return p, ""
		}
	}
	link := template.URL("tel:+" + digits) // +digits only: safe in an href
	return booking.FormatPhone(p), link
}
