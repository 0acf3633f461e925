package inboxweb_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

var versionField = regexp.MustCompile(`name="version" value="([^"]+)"`)

// version reads the schedule's version off a's settings page (its hours
// section).
func (f *fixture) version(t *testing.T, a agent) string {
	t.Helper()
	res := f.do(t, a, "GET", "/inbox/settings/hours", nil)
	m := versionField.FindStringSubmatch(res.body)
	if m == nil {
		t.Fatalf("no schedule version on the settings page (%d)", res.status)
	}
	return m[1]
}

// setSchedule changes slug's stored schedule outside the web inbox.
func (f *fixture) setSchedule(t *testing.T, slug string, change func(*booking.Business)) {
	t.Helper()
	err := f.store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		change(&c)
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestScheduleForms(t *testing.T) {
	const slug = "desert-cool-hvac"
	oneDay := func(b *booking.Business) { b.DaysOff = []booking.DayOff{{From: "2026-12-25", Note: "Christmas"}} }
	tests := []struct {
		name       string
		setup      func(*booking.Business) // the stored record before, if not nil
		path       string
		form       url.Values
		lang       string
		wantStatus int
		wantIn     []string // on the page of a 400 or 409
		check      func(b *booking.Business) bool
	}{
		{"a day off", nil, "days-off", url.Values{"from": {"2026-12-25"}, "note": {"Christmas"}}, "", 303, nil,
			func(b *booking.Business) bool {
				return slices.Equal(b.DaysOff, []booking.DayOff{{From: "2026-12-25", Note: "Christmas"}})
			}},
		{"a range of days off, kept in date order", oneDay, "days-off", url.Values{"from": {"2026-12-01"}, "to": {"2026-12-03"}}, "", 303, nil,
			func(b *booking.Business) bool {
				return slices.Equal(b.DaysOff, []booking.DayOff{{From: "2026-12-01", To: "2026-12-03"}, {From: "2026-12-25", Note: "Christmas"}})
			}},
		{"a range that ends before it starts", nil, "days-off", url.Values{"from": {"2026-12-24"}, "to": {"2026-12-01"}}, "", 400,
			[]string{"The last day is before the first one.", `value="2026-12-24"`, `value="2026-12-01" aria-invalid="true" aria-describedby="to-error"`}, noDaysOff},
		{"no day", nil, "days-off", url.Values{"from": {""}}, "", 400, []string{"Pick the day off."}, noDaysOff},
		{"not a date", nil, "days-off", url.Values{"from": {"25/12/2026"}}, "es", 400, []string{"Elija el día libre.", `value="25/12/2026"`}, noDaysOff},
		{"a note of two lines", nil, "days-off", url.Values{"from": {"2026-12-25"}, "note": {"a\nb"}}, "", 400, []string{"Write the note on one line, up to 200 characters."}, noDaysOff},
		{"remove a day off", oneDay, "remove-day-off", url.Values{"index": {"0"}}, "", 303, nil, noDaysOff},
		{"yesterday", nil, "days-off", url.Values{"from": {"2026-11-22"}}, "", 400, []string{"This day off is over already."}, noDaysOff},
		{"in the year 0000", nil, "days-off", url.Values{"from": {"0000-12-25"}}, "es", 400, []string{"Este día libre ya pasó."}, noDaysOff},
		{"in 1999", nil, "days-off", url.Values{"from": {"1999-12-25"}, "to": {"2026-11-22"}}, "", 400, []string{"This day off is over already."}, noDaysOff},
		{"more than two years ahead", nil, "days-off", url.Values{"from": {"2029-12-25"}}, "", 400, []string{"more than two years ahead"}, noDaysOff},
		{"from yesterday to tomorrow", nil, "days-off", url.Values{"from": {"2026-11-22"}, "to": {"2026-11-24"}}, "", 303, nil,
			func(b *booking.Business) bool {
				return slices.Equal(b.DaysOff, []booking.DayOff{{From: "2026-11-22", To: "2026-11-24"}})
			}},
		{"a day off sent twice", nil, "days-off", url.Values{"from": {"2026-12-25", "2026-12-26"}}, "", 400, []string{"This form could not be sent: it is not one of your inbox"}, noDaysOff},
		{"crews sent twice", nil, "crews", url.Values{"crews_per_window": {"2", "3"}}, "", 400, []string{"Nothing changed."}, crews(1)},
		{"hours with a close sent twice", nil, "hours", url.Values{"mon_open": {"08:00"}, "mon_close": {"12:00", "13:00"}}, "", 400, []string{"These hours are not valid"}, hoursKept},
		{"remove a day off not in the list", oneDay, "remove-day-off", url.Values{"index": {"3"}}, "", 400, []string{"not one of the days off listed"},
			func(b *booking.Business) bool { return len(b.DaysOff) == 1 }},
		{"remove the day off at -1", oneDay, "remove-day-off", url.Values{"index": {"-1"}}, "", 400, []string{"not one of the days off listed"},
			func(b *booking.Business) bool { return len(b.DaysOff) == 1 }},
		{"remove the day off at 99", oneDay, "remove-day-off", url.Values{"index": {"99"}}, "", 400, []string{"not one of the days off listed"},
			func(b *booking.Business) bool { return len(b.DaysOff) == 1 }},
		{"remove the day off at abc", oneDay, "remove-day-off", url.Values{"index": {"abc"}}, "", 400, []string{"not one of the days off listed"},
			func(b *booking.Business) bool { return len(b.DaysOff) == 1 }},
		{"remove the day off at ", oneDay, "remove-day-off", url.Values{"index": {""}}, "", 400, []string{"not one of the days off listed"},
			func(b *booking.Business) bool { return len(b.DaysOff) == 1 }},
		{"remove the day off at 1e0", oneDay, "remove-day-off", url.Values{"index": {"1e0"}}, "", 400, []string{"not one of the days off listed"},
			func(b *booking.Business) bool { return len(b.DaysOff) == 1 }},
		{"remove the day off at +0", oneDay, "remove-day-off", url.Values{"index": {"+0"}}, "", 400, []string{"not one of the days off listed"},
			func(b *booking.Business) bool { return len(b.DaysOff) == 1 }},
		{"remove the day off at 00", oneDay, "remove-day-off", url.Values{"index": {"00"}}, "", 400, []string{"not one of the days off listed"},
			func(b *booking.Business) bool { return len(b.DaysOff) == 1 }},
		{"remove the day off at  0", oneDay, "remove-day-off", url.Values{"index": {" 0"}}, "", 400, []string{"not one of the days off listed"},
			func(b *booking.Business) bool { return len(b.DaysOff) == 1 }},
		{"remove the day off at 0 of none", nil, "remove-day-off", url.Values{"index": {"0"}}, "es", 400, []string{"no es uno de los días libres de la lista"}, noDaysOff},
		{"two hours' notice", nil, "notice", url.Values{"notice_hours": {"2"}, "notice_minutes": {"0"}}, "", 303, nil, notice(120)},
		{"an hour and a half", nil, "notice", url.Values{"notice_hours": {"1"}, "notice_minutes": {"30"}}, "", 303, nil, notice(90)},
		{"no notice", func(b *booking.Business) { b.MinNoticeMinutes = 60 }, "notice", url.Values{"notice_hours": {"0"}, "notice_minutes": {"0"}}, "", 303, nil, notice(0)},
		{"75 minutes", nil, "notice", url.Values{"notice_hours": {"1"}, "notice_minutes": {"75"}}, "", 400, []string{"whole hours and minutes"}, notice(0)},
		{"not a number", nil, "notice", url.Values{"notice_hours": {"two"}, "notice_minutes": {"0"}}, "es", 400, []string{"horas y minutos enteros", `value="two"`}, notice(0)},
		{"more than a week", nil, "notice", url.Values{"notice_hours": {"169"}, "notice_minutes": {"0"}}, "", 400, []string{"up to a week"}, notice(0)},
		{"a week and a minute", nil, "notice", url.Values{"notice_hours": {"168"}, "notice_minutes": {"1"}}, "", 400, []string{"The notice may be up to a week (168 hours)."}, notice(0)},
		{"two crews", nil, "crews", url.Values{"crews_per_window": {"2"}}, "", 303, nil, crews(2)},
		{"fewer crews", func(b *booking.Business) { b.CrewsPerWindow = 3 }, "crews", url.Values{"crews_per_window": {" 1 "}}, "", 303, nil, crews(1)},
		{"no crew", nil, "crews", url.Values{"crews_per_window": {"0"}}, "", 400,
			[]string{"Enter the crews as a whole number from 1 to 20.", `value="0"`}, crews(1)},
		{"21 crews", nil, "crews", url.Values{"crews_per_window": {"21"}}, "", 400,
			[]string{"Enter the crews as a whole number from 1 to 20.", `value="21"`}, crews(1)},
		{"crews in words", nil, "crews", url.Values{"crews_per_window": {"two"}}, "es", 400,
			[]string{"Escriba los equipos como un número entero de 1 a 20.", `value="two"`}, crews(1)},
		{"no number of crews", nil, "crews", url.Values{"crews_per_window": {""}}, "", 400,
			[]string{"Enter the crews as a whole number from 1 to 20.", `name="crews_per_window" inputmode="numeric" aria-describedby="crews-help crews_per_window-error" value="" aria-invalid="true"`}, crews(1)},
		{"weekly hours", nil, "hours", url.Values{"mon_open": {"08:00", "13:00", ""}, "mon_close": {"12:00", "17:00", ""}, "sat_open": {"09:00"}, "sat_close": {"24:00"}}, "", 303, nil,
			func(b *booking.Business) bool {
				return clocks(b.Hours.Mon) == "08:00-12:00 13:00-17:00" && clocks(b.Hours.Sat) == "09:00-24:00" &&
					len(b.Hours.Tue) == 0 && len(b.Hours.Sun) == 0
			}},
		{"hours as typed", nil, "hours", url.Values{"mon_open": {"8am", "2 PM"}, "mon_close": {"12:00 p.m.", "17:30"}, "tue_open": {"14"}, "tue_close": {"12:00 AM"}}, "", 303, nil,
			func(b *booking.Business) bool {
				return clocks(b.Hours.Mon) == "08:00-12:00 14:00-17:30" && clocks(b.Hours.Tue) == "14:00-24:00"
			}},
		{"open 24 hours, its hidden rows not counted", nil, "hours", url.Values{"sun_allday": {"on"}, "sun_open": {"9:00 AM"}, "sun_close": {"nonsense"}, "mon_open": {"08:00"}, "mon_close": {"17:00"}}, "", 303, nil,
			func(b *booking.Business) bool {
				return clocks(b.Hours.Sun) == "00:00-24:00" && clocks(b.Hours.Mon) == "08:00-17:00" && len(b.Hours.Tue) == 0
			}},
		{"no longer open 24 hours, and a bad time: the box kept as sent", nil, "hours", url.Values{"sun_open": {"25:00"}, "sun_close": {"17:00"}, "mon_allday": {"on"}}, "", 400,
			[]string{`id="mon-allday" name="mon_allday" value="on" checked>`, `id="sun-allday" name="sun_allday" value="on"><label`, `value="25:00"`}, hoursKept},
		{"hours out of order, put in order", nil, "hours", url.Values{"fri_open": {"1:00 PM", "8:00 AM"}, "fri_close": {"5:00 PM", "12:00 PM"}}, "", 303, nil,
			func(b *booking.Business) bool { return clocks(b.Hours.Fri) == "08:00-12:00 13:00-17:00" }},
		{"a time that is none", nil, "hours", url.Values{"mon_open": {"8 o'clock"}, "mon_close": {"17:00"}}, "", 400,
			[]string{"Nothing was saved. Fix what is marked:", `<a href="#mon-open-0">Monday, opens: Enter a time such as 8:00 AM, 2pm or 14:00.</a>`,
				`value="8 o&#39;clock" autocomplete="off" size="8" aria-invalid="true" aria-describedby="mon-open-0-error"`,
				`<p class="field-error open" id="mon-open-0-error">Enter a time such as 8:00 AM, 2pm or 14:00.</p>`}, hoursKept},
		{"a time that is none, in Spanish", nil, "hours", url.Values{"mon_open": {"25:00"}, "mon_close": {"17:00"}}, "es", 400,
			[]string{"No se guardó nada.", `<a href="#mon-open-0">Lunes, abre: Escriba una hora como 08:00, 14:00 o 2pm.</a>`, `value="25:00"`}, hoursKept},
		{"hours that close before they open", nil, "hours", url.Values{"tue_open": {"17:00"}, "tue_close": {"08:00"}}, "", 400,
			[]string{"Tuesday, closes: It closes before it opens.", `value="17:00"`, `value="08:00" autocomplete="off" size="8" aria-invalid="true"`}, hoursKept},
		{"overlapping hours", nil, "hours", url.Values{"wed_open": {"08:00", "11:00"}, "wed_close": {"12:00", "15:00"}}, "", 400, []string{"Wednesday, opens (2): It overlaps another interval of this day."}, hoursKept},
		{"an opening without a closing", nil, "hours", url.Values{"thu_open": {"08:00"}, "thu_close": {""}}, "es", 400, []string{"Jueves, cierra: Escriba las dos horas"}, hoursKept},
		{"the reminder at 18:00", nil, "reminder", url.Values{"reminder_hour": {"18"}}, "", 303, nil,
			func(b *booking.Business) bool { return b.ReminderHour != nil && *b.ReminderHour == 18 }},
		{"the reminder at 24:00", nil, "reminder", url.Values{"reminder_hour": {"24"}}, "", 400, []string{"Pick an hour from"},
			func(b *booking.Business) bool { return b.ReminderHour == nil }},
		{"the reminder at no hour", nil, "reminder", url.Values{"reminder_hour": {"noon"}}, "", 400, []string{"Pick an hour from 00:00 to 23:00."},
			func(b *booking.Business) bool { return b.ReminderHour == nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			if tt.setup != nil {
				f.setSchedule(t, slug, tt.setup)
			}
			a, csrf := f.signIn(t, slug)
			hoursBefore = f.business(t, slug).Hours
			form := url.Values{"csrf": {csrf}, "version": {f.version(t, a)}}
			for k, v := range tt.form {
				form[k] = v
			}
			path := "/inbox/settings/" + tt.path
			if tt.lang != "" {
				path += "?lang=" + tt.lang
			}
			res := f.do(t, a, "POST", path, form)
			if res.status != tt.wantStatus {
				t.Fatalf("got %d, want %d:\n%s", res.status, tt.wantStatus, res.body)
			}
			if res.status == http.StatusSeeOther {
				if want := "/inbox/settings/" + sectionOf[tt.path] + "?done=" + tt.path; res.location != want {
					t.Errorf("got 303 to %q, want %q", res.location, want)
				}
				wantIn(t, f.do(t, a, "GET", res.location, nil).body, `class="notice" role="status"`)
			}
			wantIn(t, res.body, tt.wantIn...)
			if b := f.business(t, slug); !tt.check(b) {
				t.Errorf("stored days off %v, notice %d, crews %d, hours %+v, reminder %v", b.DaysOff, b.MinNoticeMinutes, b.CrewsPerWindow, b.Hours, b.ReminderHour)
			}
		})
	}
}

// sectionOf is the section of the settings each form is in: a save shows
// it again.
var sectionOf = map[string]string{"days-off": "days-off", "remove-day-off": "days-off", "notice": "notice", "crews": "notice", "reminder": "notice", "hours": "hours"}

// hoursBefore are the hours of the business of a TestScheduleForms case
// before its form.
var hoursBefore booking.Hours

// clocks is a day's intervals as "08:00-12:00 13:00-17:00".
func clocks(day []booking.Interval) string {
	var out []string
	for _, iv := range day {
		out = append(out, iv.Open+"-"+iv.Close)
	}
	return strings.Join(out, " ")
}

func noDaysOff(b *booking.Business) bool { return len(b.DaysOff) == 0 }

func hoursKept(b *booking.Business) bool {
	return (booking.Schedule{Hours: b.Hours}).Version() == (booking.Schedule{Hours: hoursBefore}).Version()
}

func notice(minutes int) func(*booking.Business) bool {
	return func(b *booking.Business) bool { return b.MinNoticeMinutes == minutes }
}

func crews(n int) func(*booking.Business) bool {
	return func(b *booking.Business) bool { return b.Schedule().CrewsPerWindow == n }
}

// Every schedule form is refused without the session's CSRF token, with
// another business's, or from another site, and nothing is stored; a
// business's form changes its own record only.
func TestScheduleFormRefusals(t *testing.T) {
	f := newFixture(t, nil)
	const slug, other = "desert-cool-hvac", "mile-high-electric"
	a, csrf := f.signIn(t, slug)
	o, otherCSRF := f.signIn(t, other)
	version := f.version(t, a)
	foreign := agent{session: a.session, header: []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}}
	forms := map[string]url.Values{
		"days-off":       {"from": {"2026-12-25"}},
		"remove-day-off": {"index": {"0"}},
		"notice":         {"notice_hours": {"2"}, "notice_minutes": {"0"}},
		"crews":          {"crews_per_window": {"2"}},
		"hours":          {"mon_open": {"10:00"}, "mon_close": {"11:00"}},
		"reminder":       {"reminder_hour": {"18"}},
	}
	f.setSchedule(t, slug, func(b *booking.Business) { b.DaysOff = []booking.DayOff{{From: "2026-12-31"}} })
	version = f.version(t, a)
	before := f.business(t, slug).Schedule().Version()
	for form, values := range forms {
		for _, tt := range []struct {
			name string
			who  agent
			csrf string
		}{
			{"no CSRF token", a, ""},
			{"another business's CSRF token", a, otherCSRF},
			{"from another site", foreign, csrf},
		} {
			t.Run(form+"/"+tt.name, func(t *testing.T) {
				v := url.Values{"version": {version}}
				if tt.csrf != "" {
					v.Set("csrf", tt.csrf)
				}
				for k, x := range values {
					v[k] = x
				}
				if res := f.do(t, tt.who, "POST", "/inbox/settings/"+form, v); res.status != http.StatusForbidden {
					t.Errorf("got %d, want 403", res.status)
				}
				if got := f.business(t, slug).Schedule().Version(); got != before {
					t.Error("the schedule changed")
				}
			})
		}
	}
	t.Run("signed out", func(t *testing.T) {
		// The notice form's path is its section's page, to come back to;
		// the crews form's is no page: the inbox.
		for form, want := range map[string]string{"notice": "/inbox?next=%2Finbox%2Fsettings%2Fnotice", "crews": "/inbox"} {
			res := f.do(t, agent{}, "POST", "/inbox/settings/"+form, url.Values{"csrf": {csrf}, "version": {version}, "notice_hours": {"2"}, "notice_minutes": {"0"}, "crews_per_window": {"2"}})
			if res.status != http.StatusSeeOther || res.location != want {
				t.Errorf("%s: got %d to %q, want 303 to %q", form, res.status, res.location, want)
			}
		}
	})
	t.Run("another business changes its own record only", func(t *testing.T) {
		res := f.do(t, o, "POST", "/inbox/settings/notice", url.Values{"csrf": {otherCSRF}, "version": {f.version(t, o)}, "notice_hours": {"3"}, "notice_minutes": {"0"}})
		if res.status != http.StatusSeeOther {
			t.Fatalf("got %d, want 303", res.status)
		}
		if f.business(t, other).MinNoticeMinutes != 180 || f.business(t, slug).Schedule().Version() != before {
			t.Errorf("notice of %s %d, of %s changed: %v", other, f.business(t, other).MinNoticeMinutes, slug, f.business(t, slug).Schedule().Version() != before)
		}
	})
}

// Removing a day off from a list that changed since the page was shown
// removes nothing (409): its index may name another day now.
func TestRemoveDayOffLostRace(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	two := []booking.DayOff{{From: "2026-12-24"}, {From: "2026-12-31"}}
	f.setSchedule(t, slug, func(b *booking.Business) { b.DaysOff = two })
	a, csrf := f.signIn(t, slug)
	version := f.version(t, a)
	f.setSchedule(t, slug, func(b *booking.Business) { b.DaysOff = two[1:] }) // the first removed elsewhere
	res := f.do(t, a, "POST", "/inbox/settings/remove-day-off", url.Values{"csrf": {csrf}, "version": {version}, "index": {"0"}})
	if res.status != http.StatusConflict {
		t.Fatalf("got %d, want 409", res.status)
	}
	wantIn(t, res.body, "Nothing changed: your settings were changed meanwhile")
	if got := f.business(t, slug).DaysOff; !slices.Equal(got, two[1:]) {
		t.Errorf("days off %v, want %v", got, two[1:])
	}
}

// A form of a schedule changed since the page was shown stores nothing,
// and shows the settings as they are now, saying they changed meanwhile.
func TestScheduleLostRace(t *testing.T) {
	forms := []struct {
		path    string
		values  url.Values
		done    func(*booking.Business) bool // the form's change is stored
		wantNow string                       // the section shows the change made meanwhile
	}{
		{"days-off", url.Values{"from": {"2026-12-25"}}, func(b *booking.Business) bool {
			return slices.ContainsFunc(b.DaysOff, func(d booking.DayOff) bool { return d.From == "2026-12-25" })
		}, "Meanwhile"},
		{"crews", url.Values{"crews_per_window": {"2"}}, crews(2), `id="notice_hours" name="notice_hours" inputmode="numeric" value="3"`},
	}
	for _, form := range forms {
		for _, lang := range []string{"en", "es"} {
			t.Run(form.path+"/"+lang, func(t *testing.T) {
				f := newFixture(t, nil)
				const slug = "desert-cool-hvac"
				a, csrf := f.signIn(t, slug)
				post := func(version, query string) response {
					v := url.Values{"csrf": {csrf}, "version": {version}}
					for k, x := range form.values {
						v[k] = x
					}
					return f.do(t, a, "POST", "/inbox/settings/"+form.path+query, v)
				}
				version := f.version(t, a)
				f.setSchedule(t, slug, func(b *booking.Business) { // meanwhile, elsewhere
					b.MinNoticeMinutes = 180
					b.DaysOff = []booking.DayOff{{From: "2027-01-05", Note: "Meanwhile"}}
				})
				res := post(version, "?lang="+lang)
				if res.status != http.StatusConflict {
					t.Fatalf("got %d, want 409", res.status)
				}
				want := map[string]string{"en": "Nothing changed: your settings were changed meanwhile", "es": "No cambió nada: sus ajustes cambiaron mientras tanto"}[lang]
				wantIn(t, res.body, want, form.wantNow)
				if b := f.business(t, slug); form.done(b) || b.MinNoticeMinutes != 180 {
					t.Errorf("stored days off %v, notice %d, crews %d: want the change made meanwhile only", b.DaysOff, b.MinNoticeMinutes, b.CrewsPerWindow)
				}
				// The page shown has the version now: the same form goes through.
				m := versionField.FindStringSubmatch(res.body)
				if m == nil || m[1] == version {
					t.Fatalf("the page after the race has version %v, want a new one", m)
				}
				res = post(m[1], "")
				if b := f.business(t, slug); res.status != http.StatusSeeOther || !form.done(b) {
					t.Errorf("again with the new version: got %d, days off %v, crews %d", res.status, b.DaysOff, b.CrewsPerWindow)
				}
			})
		}
	}
}

// The settings page lists the days off with their notes, and the forms in
// the page's language (here after the crews are saved).
func TestSettingsPageSchedule(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	f.setSchedule(t, slug, func(b *booking.Business) {
		b.DaysOff = []booking.DayOff{{From: "2026-12-24", To: "2026-12-26", Note: "Family <visit>"}}
		b.MinNoticeMinutes = 150
		b.CrewsPerWindow = 3
		b.Hours.Tue = []booking.Interval{{Open: "14:00", Close: "24:00"}}
	})
	a, _ := f.signIn(t, slug)
	tests := []struct {
		lang string
		want []string
	}{
		{"en", []string{"Days off", "Thursday, December 24, 2026 – Saturday, December 26, 2026", "Family &lt;visit&gt;", `value="2"`, `value="30"`,
			"The crews are saved.", `<label for="crews_per_window">Crews per arrival window</label>`,
			`<p class="muted" id="crews-help">How many jobs you can take in the same arrival window (1 to 20). Lowering it keeps the jobs you already have.</p>`,
			`id="crews_per_window" name="crews_per_window" inputmode="numeric" aria-describedby="crews-help" value="3"`,
			"Weekly hours", "Monday", `<option value="9" selected>9:00 AM</option>`}},
		{"es", []string{"Días libres", "jueves 24 de diciembre de 2026", "Antelación",
			"Los equipos están guardados.", `<label for="crews_per_window">Equipos por horario de llegada</label>`, "Guardar los equipos",
			"Horario semanal", "Lunes", "Recordatorios"}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			var res response
			for _, path := range []string{"/inbox/settings/days-off?lang=" + tt.lang, "/inbox/settings/notice?done=crews&lang=" + tt.lang, "/inbox/settings/hours?lang=" + tt.lang} {
				page := f.do(t, a, "GET", path, nil)
				if page.status != http.StatusOK {
					t.Fatalf("GET %s: got %d", path, page.status)
				}
				res.body += page.body
			}
			wantIn(t, res.body, tt.want...)
			// A day open 24 hours says so, its rows empty (not 12:00 AM
			// to 12:00 AM); empty rows look empty.
			wantIn(t, res.body, `id="mon-allday" name="mon_allday" value="on" checked><label for="mon-allday">`+map[string]string{"en": "Open 24 hours", "es": "Abierto 24 horas"}[tt.lang]+`</label>`,
				`id="mon-open-0" name="mon_open" value=""`)
			wantNotIn(t, res.body, "placeholder=")
			// Other hours as the site shows a time; midnight as 12:00 AM
			// (24:00 in Spanish).
			wantIn(t, res.body, `id="tue-open-0" name="tue_open" value="`+map[string]string{"en": clock12(t, "14:00"), "es": "14:00"}[tt.lang]+`"`,
				`id="tue-close-0" name="tue_close" value="`+map[string]string{"en": "12:00 AM", "es": "24:00"}[tt.lang]+`"`)
		})
	}
}

// clock12 writes "14:00" as "2:00 PM".
func clock12(t *testing.T, clock string) string {
	t.Helper()
	c, err := time.Parse("15:04", clock)
	if err != nil {
		t.Fatal(err)
	}
	return c.Format("3:04 PM")
}

// Requests (new or accepted) whose window falls on a day off added after
// they were made are listed under "On a day off", to move or decline; the
// day off does not touch them.
func TestInboxOnADayOff(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	newOne := f.create(t, slug, "", "", 2)
	accepted := f.create(t, slug, "", "", 3)
	f.businessMove(t, slug, accepted, booking.ActionAccept, "")
	elsewhere := f.create(t, slug, "", "", 4)
	b := f.business(t, slug)
	day := func(n int) string { return f.clock.Now().In(b.Location()).AddDate(0, 0, n).Format("2006-01-02") }
	a, csrf := f.signIn(t, slug)
	res := f.do(t, a, "POST", "/inbox/settings/days-off", url.Values{"csrf": {csrf}, "version": {f.version(t, a)}, "from": {day(2)}, "to": {day(3)}})
	if res.status != http.StatusSeeOther {
		t.Fatalf("add the days off: got %d", res.status)
	}
	for _, tt := range []struct {
		lang, heading string
	}{{"en", "On a day off"}, {"es", "En un día libre"}} {
		t.Run(tt.lang, func(t *testing.T) {
			body := f.do(t, a, "GET", "/inbox?lang="+tt.lang, nil).body
			wantIn(t, body, `<h2 id="day-off">`+tt.heading+`</h2>`)
			section := body[strings.Index(body, `id="day-off"`):]
			if end := strings.Index(section[1:], "<h2"); end >= 0 {
				section = section[:end+1]
			}
			wantIn(t, section, `data-code="`+newOne+`"`, `data-code="`+accepted+`"`)
			wantNotIn(t, section, `data-code="`+elsewhere+`"`)
			wantIn(t, body, `data-code="`+elsewhere+`"`)
			if n := strings.Count(body, `data-code="`+newOne+`"`); n != 1 {
				t.Errorf("the request on a day off is listed %d times, want once", n)
			}
		})
	}
	if r := f.request(t, newOne); r.Status != booking.StatusNew {
		t.Errorf("the new request is %s", r.Status)
	}
	if r := f.request(t, accepted); r.Status != booking.StatusAccepted {
		t.Errorf("the accepted request is %s", r.Status)
	}
}

// The settings page links to each section; a section is a page of its
// own, a form's address is 405 (POST only), and anything else is the 404
// page.
func TestSettingsSections(t *testing.T) {
	f := newFixture(t, nil)
	a, _ := f.signIn(t, "desert-cool-hvac")
	page := f.do(t, a, "GET", "/inbox/settings", nil).body
	for _, section := range []string{"hours", "days-off", "notice", "calendar", "booking-form"} {
		wantIn(t, page, `href="/inbox/settings/`+section+`" id="open-`+section+`"`)
		res := f.do(t, a, "GET", "/inbox/settings/"+section, nil)
		if res.status != http.StatusOK {
			t.Errorf("GET /inbox/settings/%s: got %d, want 200", section, res.status)
		}
		wantIn(t, res.body, `href="/inbox/settings/`+section+`" id="to-`+section+`" aria-current="page"`, `<a href="/inbox/settings">Settings</a>`)
	}
	for _, path := range []string{"/inbox/settings/feed-stopped", "/inbox/settings/nope"} {
		if res := f.do(t, a, "GET", path, nil); res.status != http.StatusNotFound {
			t.Errorf("GET %s: got %d, want 404", path, res.status)
		}
	}
	// A form's address that is no section: the form is posted there, never
	// opened.
	for _, path := range []string{"/inbox/settings/crews", "/inbox/settings/reminder", "/inbox/settings/remove-day-off"} {
		if res := f.do(t, a, "GET", path, nil); res.status != http.StatusMethodNotAllowed || res.header.Get("Allow") != "POST" {
			t.Errorf("GET %s: got %d with Allow %q, want 405 with POST", path, res.status, res.header.Get("Allow"))
		}
	}
}

// The settings page shows the hours and the days off at a glance: the
// days with the same hours on one line, a day open 24 hours as such.
func TestSettingsSummary(t *testing.T) {
	f := newFixture(t, nil)
	f.setSchedule(t, "desert-cool-hvac", func(b *booking.Business) {
		b.DaysOff = []booking.DayOff{{From: "2026-12-24", To: "2026-12-26"}, {From: "2026-12-31"}, {From: "2027-01-01"}}
	})
	tests := []struct {
		slug, lang string
		want       []string
	}{
		{"desert-cool-hvac", "en", []string{`<span class="summary">Mon–Sun: Open 24 hours</span>`,
			`<span class="summary">Thursday, December 24, 2026 – Saturday, December 26, 2026</span><span class="summary">Thursday, December 31, 2026</span><span class="summary">and 1 more</span>`}},
		{"desert-cool-hvac", "es", []string{`<span class="summary">lun–dom: Abierto 24 horas</span>`, `<span class="summary">y 1 más</span>`}},
		{"mile-high-electric", "en", []string{`<span class="summary">Mon–Fri: 8:00 AM – 12:00 PM, 1:00 PM – 5:00 PM</span>`, `<span class="summary">No days off.</span>`}},
	}
	for _, tt := range tests {
		t.Run(tt.slug+"/"+tt.lang, func(t *testing.T) {
			a, _ := f.signIn(t, tt.slug)
			wantIn(t, f.do(t, a, "GET", "/inbox/settings?lang="+tt.lang, nil).body, tt.want...)
		})
	}
}
