package inboxweb

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// The settings page also sets the business's schedule: its days off, its
// notice, its crews (how many requests one window holds), its weekly hours
// and the hour of its reminders.

// settings shows whether online requests are on, and the button that
// pauses or resumes them; ?set=on or ?set=off is the step that confirms
// it, ?done= what just happened (shown when the business agrees). Below
// are the schedule's forms.
func (h *handler) settings(w http.ResponseWriter, r *http.Request, s Session) {
	b := s.Business
	lang := language(w, r, b)
	q := r.URL.Query()
	v := h.settingsView(b, s, lang)
	switch set := q.Get("set"); {
	case set == "on" && !b.AcceptingRequests, set == "off" && b.AcceptingRequests:
		v.Confirm = set
	}
	switch done := q.Get("done"); {
	case done == "on" && b.AcceptingRequests:
		v.Notice = tr(lang, "resumed")
	case done == "off" && !b.AcceptingRequests:
		v.Notice = tr(lang, "paused")
	case slices.Contains(scheduleForms, done), done == "feed-stopped":
		v.Notice = tr(lang, "saved_"+done)
	}
	render(w, r, http.StatusOK, "settings", lang, &s, tr(lang, "settings_title"), v)
}

// scheduleForms are the schedule's forms, each posted to
// /inbox/settings/{form}.
var scheduleForms = []string{"days-off", "remove-day-off", "notice", "crews", "hours", "reminder"}

// settingsView is the page as b stands now.
func (h *handler) settingsView(b *booking.Business, s Session, lang string) settingsView {
	sch := b.Schedule()
	v := settingsView{On: b.AcceptingRequests, CSRF: s.CSRF, Version: sch.Version(), FeedOn: b.FeedTokenSHA256 != ""}
	for i, d := range sch.DaysOff {
		v.DaysOff = append(v.DaysOff, dayOffView{Index: i, Label: dayOffLabel(d, lang), Note: d.Note})
	}
	v.NoticeHours = strconv.Itoa(sch.MinNoticeMinutes / 60)
	v.NoticeMinutes = strconv.Itoa(sch.MinNoticeMinutes % 60)
	v.Crews = strconv.Itoa(sch.CrewsPerWindow)
	for _, d := range weekDays(&sch.Hours) {
		day := hoursDay{Key: d.key, Name: tr(lang, "day_"+d.key)}
		for i, iv := range *d.intervals {
			day.Rows = append(day.Rows, hoursRow{N: i, Open: iv.Open, Close: iv.Close})
		}
		day.Rows = append(day.Rows, hoursRow{N: len(*d.intervals)}) // room for one more
		v.Days = append(v.Days, day)
	}
	v.ReminderHour = sch.ReminderHour
	v.Embed = embedSnippet(h.SiteURL, b, lang)
	for hour := range 24 {
		v.Hours = append(v.Hours, hourChoice{Hour: hour, Label: fmt.Sprintf("%02d:00", hour)})
	}
	return v
}

// dayOffLabel is a day off, or a range of them, in lang.
func dayOffLabel(d booking.DayOff, lang string) string {
	from, err := time.Parse(time.DateOnly, d.From)
	if err != nil {
		return d.From
	}
	label := booking.FormatDay(lang, from, time.UTC)
	if to, err := time.Parse(time.DateOnly, d.To); err == nil && to.After(from) {
		label += " – " + booking.FormatDay(lang, to, time.UTC)
	}
	return label
}

type weekDay struct {
	key       string
	intervals *[]booking.Interval
}

// weekDays are h's days, Monday first, with the loader's keys.
func weekDays(h *booking.Hours) []weekDay {
	return []weekDay{{"mon", &h.Mon}, {"tue", &h.Tue}, {"wed", &h.Wed}, {"thu", &h.Thu}, {"fri", &h.Fri}, {"sat", &h.Sat}, {"sun", &h.Sun}}
}

// setAccepting pauses (accepting_requests=off) or resumes (on) the
// business's online requests, as confirmed on the settings page.
func (h *handler) setAccepting(w http.ResponseWriter, r *http.Request, s Session) {
	set := r.PostFormValue("accepting_requests")
	if set != "on" && set != "off" {
		lang := language(w, r, s.Business)
		h.message(w, r, http.StatusBadRequest, lang, &s, tr(lang, "settings_title"), tr(lang, "bad_setting"))
		return
	}
	if _, err := h.Bookings.SetAcceptingRequests(r.Context(), s.Business, set == "on"); err != nil {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/inbox/settings?done="+set, http.StatusSeeOther)
}

// newFeed makes a new calendar feed address for the business and shows
// it, the only time it is shown (the page is no-store, as every page is):
// only its hash is kept, and the address before stops at once.
func (h *handler) newFeed(w http.ResponseWriter, r *http.Request, s Session) {
	address, err := h.Bookings.NewFeedAddress(r.Context(), s.Business)
	if err != nil {
		h.failFor(w, r, s, err)
		return
	}
	lang := language(w, r, s.Business)
	render(w, r, http.StatusOK, "feed", lang, &s, tr(lang, "feed_address_title"), feedView{Address: address})
}

// stopFeed stops the business's calendar feed: its address opens nothing.
func (h *handler) stopFeed(w http.ResponseWriter, r *http.Request, s Session) {
	if _, err := h.Bookings.StopFeed(r.Context(), s.Business); err != nil {
		h.failFor(w, r, s, err)
		return
	}
	http.Redirect(w, r, "/inbox/settings?done=feed-stopped", http.StatusSeeOther)
}

// badForm is a form's value the page itself refuses (not a number): the
// message key in text.go.
type badForm string

// setSchedule makes the change of one of the schedule's forms ({form})
// to the schedule as the form was shown (its version), and stores it with
// booking's UpdateSchedule, which validates as the loader does. An invalid
// value shows the page again with what is wrong (400); a schedule changed
// meanwhile shows it as it is now and says so (409); nothing is stored
// either way.
func (h *handler) setSchedule(w http.ResponseWriter, r *http.Request, s Session) {
	form := r.PathValue("form")
	if !slices.Contains(scheduleForms, form) {
		h.notFound(w, r, &s)
		return
	}
	b := s.Business
	lang := language(w, r, b)
	sch := b.Schedule()
	if bad := changeSchedule(&sch, form, r); bad != "" {
		status := http.StatusBadRequest
		if bad == "schedule_changed" { // a day off no longer in the list
			status = http.StatusConflict
		}
		h.renderSettings(w, r, status, s, b, lang, form, tr(lang, string(bad)), r)
		return
	}
	now, err := h.Bookings.UpdateSchedule(r.Context(), b, r.PostFormValue("version"), sch)
	switch {
	case err == nil:
		http.Redirect(w, r, "/inbox/settings?done="+form, http.StatusSeeOther)
	case errors.Is(err, booking.ErrScheduleChanged) && now != nil:
		h.renderSettings(w, r, http.StatusConflict, s, now, lang, form, tr(lang, "schedule_changed"), nil)
	case booking.ErrorCode(err) == booking.InvalidRequest:
		msg := tr(lang, "bad_"+strings.ReplaceAll(form, "-", "_"))
		var e *booking.Error
		if errors.As(err, &e) {
			msg += " (" + e.Message + ")"
		}
		h.renderSettings(w, r, http.StatusBadRequest, s, b, lang, form, msg, r)
	default:
		h.failFor(w, r, s, err)
	}
}

// renderSettings shows the page of b with a problem in the section of
// form; r (when not nil) is the refused form, whose values are kept.
func (h *handler) renderSettings(w http.ResponseWriter, r *http.Request, status int, s Session, b *booking.Business, lang, form, problem string, refused *http.Request) {
	v := h.settingsView(b, s, lang)
	v.Problem, v.ProblemAt = problem, form
	if refused != nil && form == "days-off" {
		v.Add = dayOffForm{From: refused.PostFormValue("from"), To: refused.PostFormValue("to"), Note: refused.PostFormValue("note")}
	}
	if refused != nil && form == "notice" {
		v.NoticeHours, v.NoticeMinutes = refused.PostFormValue("notice_hours"), refused.PostFormValue("notice_minutes")
	}
	if refused != nil && form == "crews" {
		v.Crews = refused.PostFormValue("crews_per_window")
	}
	render(w, r, status, "settings", lang, &s, tr(lang, "settings_title"), v)
}

// changeSchedule makes the change form asks for to sch; a value that is
// not even of the right kind is refused here, everything else is
// booking's to validate.
func changeSchedule(sch *booking.Schedule, form string, r *http.Request) badForm {
	switch form {
	case "days-off":
		d := booking.DayOff{From: strings.TrimSpace(r.PostFormValue("from")), To: strings.TrimSpace(r.PostFormValue("to")), Note: strings.TrimSpace(r.PostFormValue("note"))}
		if d.From == "" {
			return "bad_day_off_from"
		}
		if d.To == d.From {
			d.To = ""
		}
		i, _ := slices.BinarySearchFunc(sch.DaysOff, d.From, func(x booking.DayOff, from string) int { return strings.Compare(x.From, from) })
		sch.DaysOff = slices.Insert(sch.DaysOff, i, d)
	case "remove-day-off":
		i, err := strconv.Atoi(r.PostFormValue("index"))
		if err != nil || i < 0 || i >= len(sch.DaysOff) {
			return "schedule_changed"
		}
		sch.DaysOff = slices.Delete(sch.DaysOff, i, i+1)
	case "notice":
		hours, err1 := strconv.Atoi(strings.TrimSpace(r.PostFormValue("notice_hours")))
		minutes, err2 := strconv.Atoi(strings.TrimSpace(r.PostFormValue("notice_minutes")))
		if err1 != nil || err2 != nil || hours < 0 || minutes < 0 || minutes > 59 {
			return "bad_notice_number"
		}
		if hours > booking.MaxNoticeMinutes/60 {
			return "bad_notice"
		}
		sch.MinNoticeMinutes = hours*60 + minutes
	case "crews":
		// 1 to booking.MaxCrews is booking's to check: lowering it keeps
		// the requests the windows hold.
		crews, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("crews_per_window")))
		if err != nil {
			return "bad_crews"
		}
		sch.CrewsPerWindow = crews
	case "hours":
		for _, d := range weekDays(&sch.Hours) {
			opens, closes := r.PostForm[d.key+"_open"], r.PostForm[d.key+"_close"]
			if len(opens) != len(closes) {
				return "bad_hours"
			}
			*d.intervals = []booking.Interval{}
			for i := range opens {
				o, c := strings.TrimSpace(opens[i]), strings.TrimSpace(closes[i])
				if o == "" && c == "" {
					continue // an empty row
				}
				*d.intervals = append(*d.intervals, booking.Interval{Open: o, Close: c})
			}
		}
	case "reminder":
		hour, err := strconv.Atoi(r.PostFormValue("reminder_hour"))
		if err != nil {
			return "bad_reminder"
		}
		sch.ReminderHour = hour
	}
	return ""
}
