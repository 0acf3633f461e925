// Package display writes times, amounts and phone numbers for people, in
// en or es: one home for the person's pages, the booking form, the
// business's web inbox, the texts sent and the operator's tool.
package display

import (
	"fmt"
	"strings"
	"time"
)

var (
	weekdaysES = [7]string{"domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"}
	monthsES   = [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
		"septiembre", "octubre", "noviembre", "diciembre"}
)

// Day writes t's date in loc: "Tuesday, November 24, 2026" or
// "martes 24 de noviembre de 2026".
func Day(lang string, t time.Time, loc *time.Location) string {
	t = t.In(loc)
	if lang == "es" {
		return fmt.Sprintf("%s %d de %s de %d", weekdaysES[t.Weekday()], t.Day(), monthsES[t.Month()-1], t.Year())
	}
	return t.Format("Monday, January 2, 2006")
}

// Clock writes t's time of day in loc: "2:30 PM" or "14:30".
func Clock(lang string, t time.Time, loc *time.Location) string {
	if lang == "es" {
		return t.In(loc).Format("15:04")
	}
	return t.In(loc).Format("3:04 PM")
}

// Moment writes an instant in loc with its zone: "Tuesday, November 24,
// 2026, 2:30 PM MST" or "martes 24 de noviembre de 2026, 14:30 (MST)".
func Moment(lang string, t time.Time, loc *time.Location) string {
	zone := t.In(loc).Format("MST")
	if lang == "es" {
		return Day(lang, t, loc) + ", " + Clock(lang, t, loc) + " (" + zone + ")"
	}
	return Day(lang, t, loc) + ", " + Clock(lang, t, loc) + " " + zone
}

// Window writes an arrival window in loc: its day, then its times.
func Window(lang string, start, end time.Time, loc *time.Location) string {
	zone := start.In(loc).Format("MST")
	if lang == "es" {
		return fmt.Sprintf("%s, de %s a %s (%s)", Day(lang, start, loc), Clock(lang, start, loc), Clock(lang, end, loc), zone)
	}
	return fmt.Sprintf("%s, %s – %s %s", Day(lang, start, loc), Clock(lang, start, loc), Clock(lang, end, loc), zone)
}

// Money writes an amount in minor units: "$45.00" for US dollars,
// "45.00 EUR" for any other currency.
func Money(cents int, currency string) string {
	amount := fmt.Sprintf("%d.%02d", cents/100, cents%100)
	if currency == "usd" {
		return "$" + amount
	}
	return amount + " " + strings.ToUpper(currency)
}

// Phone writes a US phone number, as a business's +1 and ten digits or a
// person's ten digits, as "(512) 555-0142"; any other number as it is.
func Phone(p string) string {
	d := strings.TrimPrefix(p, "+1")
	if len(d) != 10 || strings.Trim(d, "0123456789") != "" || (len(p) != 10 && len(p) != 12) {
		return p
	}
	return "(" + d[:3] + ") " + d[3:6] + "-" + d[6:]
}
