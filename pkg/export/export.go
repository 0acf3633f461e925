// Package export writes a business's records (booking.Export) as CSV, as
// the web inbox's download and the operator's ctl export give them: one
// row per request, in the business's time zone and in English or Spanish,
// with the person's details where not erased and the history as text.
// Every cell a spreadsheet would read as a formula is neutralised.
package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
)

// ContentType is the CSV download's media type.
const ContentType = "text/csv; charset=utf-8"

// stamp is how the CSV writes an instant, in the business's time zone:
// sortable, and read as a date and time by spreadsheets in any language.
const stamp = "2006-01-02 15:04"

// Filename names the download of e: doorstep-<slug>[-<from>][-<to>].csv.
func Filename(e booking.Export) string {
	name := "doorstep-" + e.Business
	for _, d := range []string{e.From, e.To} {
		if d != "" {
			name += "-" + d
		}
	}
	return name + ".csv"
}

// columns are the CSV's columns, in order: each its header's text key and
// the cell of a request.
var columns = []struct {
	key  string
	cell func(r booking.InboxRequest, lang string, loc *time.Location) string
}{
	{"code", func(r booking.InboxRequest, _ string, _ *time.Location) string { return r.Code }},
	{"sent", func(r booking.InboxRequest, _ string, loc *time.Location) string {
		return r.Created.In(loc).Format(stamp)
	}},
	{"status", func(r booking.InboxRequest, lang string, _ *time.Location) string {
		return word(lang, "status_"+string(r.Status))
	}},
	{"service", func(r booking.InboxRequest, lang string, _ *time.Location) string { return r.Service.In(lang) }},
	{"window_start", func(r booking.InboxRequest, _ string, loc *time.Location) string {
		return r.ArrivalWindow.Start.In(loc).Format(stamp)
	}},
	{"window_end", func(r booking.InboxRequest, _ string, loc *time.Location) string {
		return r.ArrivalWindow.End.In(loc).Format(stamp)
	}},
	{"name", func(r booking.InboxRequest, _ string, _ *time.Location) string { return r.Contact.Name }},
	{"phone", func(r booking.InboxRequest, _ string, _ *time.Location) string {
		if r.Contact.Phone == "" {
			return ""
		}
		return display.Phone(r.Contact.Phone)
	}},
	{"email", func(r booking.InboxRequest, _ string, _ *time.Location) string { return r.Contact.Email }},
	{"street", func(r booking.InboxRequest, _ string, _ *time.Location) string { return r.Address.Street }},
	{"unit", func(r booking.InboxRequest, _ string, _ *time.Location) string { return r.Address.Unit }},
	{"city", func(r booking.InboxRequest, _ string, _ *time.Location) string { return r.Address.City }},
	{"zip", func(r booking.InboxRequest, _ string, _ *time.Location) string { return r.Address.ZIP }},
	{"urgency", func(r booking.InboxRequest, lang string, _ *time.Location) string {
		return word(lang, "urgency_"+r.Urgency)
	}},
	{"description", func(r booking.InboxRequest, _ string, _ *time.Location) string { return r.Description }},
	{"language", func(r booking.InboxRequest, _ string, _ *time.Location) string { return r.Language }},
	{"texts", func(r booking.InboxRequest, lang string, _ *time.Location) string {
		if r.Erased != nil {
			return ""
		}
		return word(lang, fmt.Sprint("texts_", r.Contact.SMSConsent))
	}},
	{"assistant", func(r booking.InboxRequest, _ string, _ *time.Location) string {
		if r.AssistantName == nil {
			return ""
		}
		return *r.AssistantName
	}},
	{"deposit", func(r booking.InboxRequest, lang string, _ *time.Location) string { return deposit(r.Deposit, lang) }},
	{"erased", func(r booking.InboxRequest, _ string, loc *time.Location) string {
		if r.Erased == nil {
			return ""
		}
		return r.Erased.In(loc).Format(stamp)
	}},
	{"history", func(r booking.InboxRequest, lang string, loc *time.Location) string {
		return history(r.History, lang, loc)
	}},
}

// CSV writes e as CSV (RFC 4180, encoding/csv) in lang, "en" or "es":
// a header row, then one row per request, oldest first, times in the
// business's time zone.
func CSV(w io.Writer, e booking.Export, lang string) error {
	if lang != "es" {
		lang = "en"
	}
	loc, err := time.LoadLocation(e.Timezone)
	if err != nil {
		return fmt.Errorf("export of %s: time zone %q: %w", e.Business, e.Timezone, err)
	}
	cw := csv.NewWriter(w)
	row := make([]string, len(columns))
	for i, c := range columns {
		row[i] = word(lang, "col_"+c.key)
	}
	if err := cw.Write(row); err != nil {
		return err
	}
	for _, r := range e.Requests {
		for i, c := range columns {
			row[i] = Cell(c.cell(r, lang, loc))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Cell neutralises a cell that a spreadsheet would read as a formula (one
// starting with =, +, - or @, or with a tab or carriage return before
// one): it is prefixed with a ', which the spreadsheet shows as text.
func Cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// deposit is a request's deposit in a few words: its amount and state.
func deposit(d *booking.DepositStatus, lang string) string {
	if d == nil {
		return ""
	}
	s := display.Money(d.AmountCents, d.Currency) + " " + word(lang, "deposit_"+d.State)
	if d.Simulated {
		s += " (" + word(lang, "simulated") + ")"
	}
	return s
}

// history is the request's history as text, oldest first: each event's
// time, what and by whom, "; " between them.
func history(events []booking.Event, lang string, loc *time.Location) string {
	parts := make([]string, len(events))
	for i, e := range events {
		parts[i] = e.At.In(loc).Format(stamp) + " " + word(lang, "ev_"+string(e.Action)) + " · " + word(lang, "by_"+string(e.By))
		if e.Action == booking.ActionMove {
			parts[i] += " · " + e.Window.Start.In(loc).Format(stamp) + "–" + e.Window.End.In(loc).Format("15:04")
		}
	}
	return strings.Join(parts, "; ")
}

// word is the text of key in lang, or key itself when there is none (a
// value added to the domain before its words: never a blank cell).
func word(lang, key string) string {
	if s, ok := words[lang][key]; ok {
		return s
	}
	if s, ok := words["en"][key]; ok {
		return s
	}
	return key
}
