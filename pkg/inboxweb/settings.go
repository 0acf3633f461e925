package inboxweb

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
)

// The settings page also sets the business's schedule: its days off, its
// notice, its crews (how many requests one window holds), its weekly hours
// and the hour of its reminders.

// The settings are a short page and a few sections, each reached in one
// tap from any of them and each no taller than two phone screens: the
// page (/inbox/settings) pauses or resumes online requests and lists the
// sections; a section (/inbox/settings/{section}) holds its own forms,
// and a save of one of them shows that section again with what was saved.

// settingsSection is a section of the settings: its address
// (/inbox/settings/{Key}) and page (templates/settings-{Key}.html, whose
// "section" template is its forms), its title's key in text.go, and the
// forms posted to /inbox/settings/{form} it holds, or the ?done= notices
// it shows. Adding a section is one entry here and its template.
type settingsSection struct {
	Key   string
	Title string
	Tab   string // the key of its short name, in the row of sections
	Forms []string
}

// settingsSections are the sections, in the order the settings list them.
var settingsSections = []settingsSection{
	{Key: "hours", Title: "hours_title", Tab: "tab_hours", Forms: []string{"hours"}},
	{Key: "days-off", Title: "days_off_title", Tab: "days_off_title", Forms: []string{"days-off", "remove-day-off"}},
	{Key: "notice", Title: "notice_crews_title", Tab: "notice_crews_title", Forms: []string{"notice", "crews", "reminder"}},
	{Key: "calendar", Title: "feed_title", Tab: "tab_calendar", Forms: []string{"feed-stopped"}},
	{Key: "booking-form", Title: "embed_title", Tab: "tab_booking_form"},
	{Key: "texts", Title: "texts_title", Tab: "tab_texts", Forms: []string{"owner-phone", "owner-phone-code", "text-me", "inbox-email"}},
	// What the business offers (offer.go).
	{Key: "details", Title: "details_title", Tab: "tab_details", Forms: []string{"details"}},
	{Key: "services", Title: "services_title", Tab: "tab_services", Forms: []string{"add-service", "edit-service", "move-service", "remove-service"}},
	{Key: "area", Title: "area_title", Tab: "tab_area", Forms: []string{"area"}},
	{Key: "windows", Title: "windows_title", Tab: "tab_windows", Forms: []string{"windows"}},
	{Key: "history", Title: "history_title", Tab: "tab_history"},
}

// sectionPages are the sections' pages, by name, for the site.
func sectionPages() []string {
	var names []string
	for _, s := range settingsSections {
		names = append(names, "settings-"+s.Key)
	}
	return names
}

// sectionOf is the section that holds form (or shows the notice done):
// ok is false for none.
func sectionOf(form string) (settingsSection, bool) {
	for _, s := range settingsSections {
		if s.Key == form || slices.Contains(s.Forms, form) {
			return s, true
		}
	}
	return settingsSection{}, false
}

// sectionPath is the address of the section that holds form.
func sectionPath(form string) string {
	s, _ := sectionOf(form)
	return "/inbox/settings/" + s.Key
}

// settings shows whether online requests are on, and the button that
// pauses or resumes them; ?set=on or ?set=off is the step that confirms
// it, ?done= what just happened (shown when the business agrees). Below
// are the links to the sections.
func (h *handler) settings(w http.ResponseWriter, r *http.Request, s Session) {
	endFeedCookie(w, r, h.secure())
	b := s.Inbox.Business()
	lang := language(w, r, b)
	q := r.URL.Query()
	v := h.settingsView(b, s, lang, "")
	switch set := q.Get("set"); {
	case set == "on" && canResume(b), set == "off" && b.AcceptingRequests:
		v.Confirm = set
	}
	switch done := q.Get("done"); {
	case done == "on" && b.AcceptingRequests:
		v.Notice = tr(lang, "resumed")
	case done == "off" && !b.AcceptingRequests:
		v.Notice = tr(lang, "paused")
	}
	render(w, r, http.StatusOK, "settings", lang, &s, tr(lang, "settings_title"), v)
}

// section shows a section of the settings ({form} is its key), with
// ?done= the form of it just saved.
func (h *handler) section(w http.ResponseWriter, r *http.Request, s Session) {
	form := r.PathValue("form")
	sec, ok := sectionOf(form)
	switch {
	case ok && sec.Key == form:
	case slices.Contains(scheduleForms, form), slices.Contains(offerForms, form): // a form's address, only posted to
		h.methodNotAllowed(w, r, http.MethodPost)
		return
	default:
		h.notFound(w, r, &s)
		return
	}
	endFeedCookie(w, r, h.secure())
	b := s.Inbox.Business()
	lang := language(w, r, b)
	v := h.settingsView(b, s, lang, sec.Key)
	if sec.Key == "services" {
		v.Offer.editing(b, r.URL.Query().Get("edit"))
		v.Offer.Adding = v.Offer.Edit == nil && r.URL.Query().Get("add") == "1"
	}
	switch done := r.URL.Query().Get("done"); {
	case sec.Key == "texts" && textsDone[done] != "":
		v.Notice = tr(lang, textsDone[done]) // ownertexts.go
		v.Texts.CodeSent = done == "code-sent"
	case slices.Contains(sec.Forms, done):
		v.Notice = tr(lang, "saved_"+done)
	}
	render(w, r, http.StatusOK, "settings-"+sec.Key, lang, &s, tr(lang, sec.Title), v)
}

// scheduleForms are the schedule's forms, each posted to
// /inbox/settings/{form}.
var scheduleForms = []string{"days-off", "remove-day-off", "notice", "crews", "hours", "reminder"}

// settingsView is the page, or the section named (its key), as b stands
// now.
func (h *handler) settingsView(b *booking.Business, s Session, lang, section string) settingsView {
	sch := b.Schedule()
	v := settingsView{On: b.AcceptingRequests, CanResume: canResume(b), Preview: b.Preview, CSRF: s.CSRF, Version: sch.Version(), FeedOn: b.FeedTokenSHA256 != "", Section: section}
	for _, sec := range settingsSections {
		v.Sections = append(v.Sections, sectionLink{Key: sec.Key, Path: "/inbox/settings/" + sec.Key, Title: tr(lang, sec.Title), Tab: tr(lang, sec.Tab), Current: sec.Key == section})
		if section == "" { // the settings page: each section at a glance
			switch sec.Key {
			case "hours":
				v.Sections[len(v.Sections)-1].Summary = weekSummary(sch.Hours, lang)
			case "days-off":
				v.Sections[len(v.Sections)-1].Summary = daysOffSummary(sch.DaysOff, lang)
			}
		}
		if sec.Key == section {
			v.Title = tr(lang, sec.Title)
		}
	}
	for i, d := range sch.DaysOff {
		v.DaysOff = append(v.DaysOff, dayOffView{Index: i, Label: dayOffLabel(d, lang), Note: d.Note})
	}
	v.NoticeHours = strconv.Itoa(sch.MinNoticeMinutes / 60)
	v.NoticeMinutes = strconv.Itoa(sch.MinNoticeMinutes % 60)
	v.Crews = strconv.Itoa(sch.CrewsPerWindow)
	for _, d := range weekDays(&sch.Hours) {
		day := hoursDay{Key: d.key, Name: tr(lang, "day_"+d.key), AllDay: allDay(*d.intervals)}
		if !day.AllDay {
			for i, iv := range *d.intervals {
				day.Rows = append(day.Rows, hoursRow{N: i, Open: showClock(lang, iv.Open), Close: showClock(lang, iv.Close)})
			}
		}
		day.Rows = append(day.Rows, hoursRow{N: len(day.Rows)}) // room for one more
		v.Days = append(v.Days, day)
	}
	v.ReminderHour = sch.ReminderHour
	v.Texts = h.textsSection(b)
	v.History = history(b, lang) // golive.go
	v.Offer = offerOf(b, lang)
	v.Embed = embedSnippet(h.SiteURL, b, lang)
	for hour := range 24 {
		v.Hours = append(v.Hours, hourChoice{Hour: hour, Label: showClock(lang, fmt.Sprintf("%02d:00", hour))})
	}
	return v
}

// dayOffLabel is a day off, or a range of them, in lang.
func dayOffLabel(d booking.DayOff, lang string) string {
	from, err := time.Parse(time.DateOnly, d.From)
	if err != nil {
		return d.From
	}
	label := display.Day(lang, from, time.UTC)
	if to, err := time.Parse(time.DateOnly, d.To); err == nil && to.After(from) {
		label += " – " + display.Day(lang, to, time.UTC)
	}
	return label
}

// weekSummary is the weekly hours in a few lines, the days that follow
// each other with the same hours on one: "Mon–Fri: 8:00 AM – 5:00 PM",
// "Sat–Sun: closed", "Mon–Sun: Open 24 hours".
func weekSummary(h booking.Hours, lang string) []string {
	days := weekDays(&h)
	var lines []string
	for i := 0; i < len(days); {
		j := i
		for j+1 < len(days) && slices.Equal(*days[j+1].intervals, *days[i].intervals) {
			j++
		}
		label := tr(lang, "short_"+days[i].key)
		if j > i {
			label += "–" + tr(lang, "short_"+days[j].key)
		}
		lines = append(lines, label+": "+dayHours(*days[i].intervals, lang))
		i = j + 1
	}
	return lines
}

// dayHours is a day's intervals in lang: "8:00 AM – 12:00 PM, 1:00 PM –
// 5:00 PM", "Open 24 hours" or "closed".
func dayHours(day []booking.Interval, lang string) string {
	switch {
	case len(day) == 0:
		return tr(lang, "closed")
	case allDay(day):
		return tr(lang, "open_24h")
	}
	var parts []string
	for _, iv := range day {
		parts = append(parts, showClock(lang, iv.Open)+" – "+showClock(lang, iv.Close))
	}
	return strings.Join(parts, ", ")
}

// daysOffSummary is the first two days off, and how many more.
func daysOffSummary(days []booking.DayOff, lang string) []string {
	if len(days) == 0 {
		return []string{tr(lang, "no_days_off")}
	}
	var lines []string
	for _, d := range days[:min(2, len(days))] {
		lines = append(lines, dayOffLabel(d, lang))
	}
	if len(days) > 2 {
		lines = append(lines, tr(lang, "more_days_off", len(days)-2))
	}
	return lines
}

// allDay reports whether a day's intervals are the whole day, 00:00 to
// 24:00: shown as "Open 24 hours", not as 12:00 AM to 12:00 AM.
func allDay(day []booking.Interval) bool {
	return len(day) == 1 && day[0].Open == "00:00" && day[0].Close == "24:00"
}

// wholeDay is the one interval of a day open 24 hours.
var wholeDay = []booking.Interval{{Open: "00:00", Close: "24:00"}}

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
	h.switchRequests(w, r, s, "/inbox/settings", "settings_title") // golive.go
}

// feedCookie carries a new calendar feed's token from the form that made
// it to the page that shows its address (POST, then redirect: a reload
// of the page makes no other address and stops none). It is the browser's
// own, HttpOnly, sent to the settings pages only, and lives minutes; the
// settings page ends it, and the page shows nothing once the business's
// feed is another one or none.
const feedCookie = "doorstep_inbox_feed"

// feedCookieAge is how long the page can show a new feed's address.
const feedCookieAge = 10 * time.Minute

// newFeed makes a new calendar feed address for the business (only its
// hash is kept, and the address before stops at once) and sends the
// browser to the page that shows it.
func (h *handler) newFeed(w http.ResponseWriter, r *http.Request, s Session) {
	address, err := s.Inbox.NewFeedAddress(r.Context())
	if err != nil {
		h.failFor(w, r, s, err)
		return
	}
	token := strings.TrimSuffix(address[strings.LastIndex(address, booking.FeedPathPrefix)+len(booking.FeedPathPrefix):], ".ics")
	http.SetCookie(w, &http.Cookie{Name: feedCookie, Value: token, Path: "/inbox/settings", MaxAge: int(feedCookieAge / time.Second),
		HttpOnly: true, Secure: h.secure(), SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/inbox/settings/feed", http.StatusSeeOther)
}

// feed shows the address of the feed just made, whole, with a Copy button
// (a script, where scripts run) and a webcal: Subscribe link; without it
// (gone, or another feed's), the settings.
func (h *handler) feed(w http.ResponseWriter, r *http.Request, s Session) {
	c, err := r.Cookie(feedCookie)
	if err != nil || !s.Inbox.Business().OpensFeed(c.Value) {
		http.Redirect(w, r, sectionPath("feed-stopped"), http.StatusSeeOther)
		return
	}
	lang := language(w, r, s.Inbox.Business())
	address := h.SiteURL + booking.FeedPathPrefix + c.Value + ".ics"
	_, rest, _ := strings.Cut(address, "://")
	w.Header().Set("Content-Security-Policy", w.Header().Get("Content-Security-Policy")+"; script-src '"+copyScriptHash+"'")
	render(w, r, http.StatusOK, "feed", lang, &s, tr(lang, "feed_address_title"),
		feedView{Address: address, Webcal: template.URL("webcal://" + rest), Script: copyScript})
}

// endFeedCookie ends the cookie of a feed just made, if the browser has
// one: the settings page is where its address stops being shown.
func endFeedCookie(w http.ResponseWriter, r *http.Request, secure bool) {
	if _, err := r.Cookie(feedCookie); err == nil {
		http.SetCookie(w, &http.Cookie{Name: feedCookie, Value: "", Path: "/inbox/settings", MaxAge: -1, HttpOnly: true, Secure: secure, SameSite: http.SameSiteStrictMode})
	}
}

// copyScript makes the feed page's Copy button work where scripts run:
// it shows the button, copies the address and says so. Without it the
// address is still shown whole, to copy by hand.
const copyScript = `(function(){var b=document.getElementById("copy"),a=document.getElementById("feed-address-value"),s=document.getElementById("copy-status");` +
	`if(!b||!a||!s)return;b.hidden=false;` +
	`function done(){s.textContent=b.getAttribute("data-copied")}` +
	`function byHand(){var r=document.createRange();r.selectNodeContents(a);var x=getSelection();x.removeAllRanges();x.addRange(r);try{if(document.execCommand("copy"))done()}catch(e){}}` +
	`b.addEventListener("click",function(){var t=a.textContent;if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(t).then(done,byHand)}else{byHand()}})})();`

// copyScriptHash allows copyScript, and no other script, in the feed
// page's Content-Security-Policy.
var copyScriptHash = func() string {
	sum := sha256.Sum256([]byte(copyScript))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}()

// stopFeed stops the business's calendar feed: its address opens nothing.
func (h *handler) stopFeed(w http.ResponseWriter, r *http.Request, s Session) {
	if _, err := s.Inbox.StopFeed(r.Context()); err != nil {
		h.failFor(w, r, s, err)
		return
	}
	http.Redirect(w, r, sectionPath("feed-stopped")+"?done=feed-stopped", http.StatusSeeOther)
}

// problem is what is wrong with a refused form: the id of the field it is
// about ("" for the form as a whole) and the message key in text.go.
type problem struct {
	field string
	key   string
}

// setSchedule makes the change of one of the schedule's forms ({form})
// to the schedule as the form was shown (its version), and stores it with
// booking's UpdateSchedule, which validates as the loader does. An invalid
// value shows the page again with what is wrong, at the top and next to
// each field, keeping what was typed (400); a schedule changed meanwhile
// shows it as it is now and says so (409); nothing is stored either way.
func (h *handler) setSchedule(w http.ResponseWriter, r *http.Request, s Session) {
	form := r.PathValue("form")
	if slices.Contains(offerForms, form) {
		h.setOffer(w, r, s)
		return
	}
	if !slices.Contains(scheduleForms, form) {
		h.notFound(w, r, &s)
		return
	}
	b := s.Inbox.Business()
	lang := language(w, r, b)
	sch := b.Schedule()
	if form == "remove-day-off" && r.PostFormValue("version") != sch.Version() {
		// The index is of the list as the form was shown: of another
		// list, it may name another day.
		h.renderSettings(w, r, http.StatusConflict, s, b, lang, form, []problem{{"", "schedule_changed"}}, nil)
		return
	}
	today := h.Now().In(b.Location())
	if bad := changeSchedule(&sch, form, r, today); len(bad) > 0 {
		h.renderSettings(w, r, http.StatusBadRequest, s, b, lang, form, bad, r)
		return
	}
	now, err := s.Inbox.UpdateSchedule(r.Context(), r.PostFormValue("version"), sch)
	switch {
	case err == nil:
		http.Redirect(w, r, sectionPath(form)+"?done="+form, http.StatusSeeOther)
	case errors.Is(err, booking.ErrScheduleChanged) && now != nil:
		h.renderSettings(w, r, http.StatusConflict, s, now, lang, form, []problem{{"", "schedule_changed"}}, nil)
	case booking.ErrorCode(err) == booking.InvalidRequest:
		// What the page's own checks let through: said in the owner's
		// words; the loader's, for the developer, go to the log.
		h.Log.Info("inboxweb: a schedule form refused by booking", "route", r.Pattern, "form", form, "error", err)
		h.renderSettings(w, r, http.StatusBadRequest, s, b, lang, form, []problem{{"", "bad_" + strings.ReplaceAll(form, "-", "_")}}, r)
	default:
		h.failFor(w, r, s, err)
	}
}

// renderSettings shows the section of form, of b, with the problems of
// form: listed at the top, one problem an item linked to its field, and
// next to each field; refused (when not nil) is the refused form, whose
// values are kept as typed.
func (h *handler) renderSettings(w http.ResponseWriter, r *http.Request, status int, s Session, b *booking.Business, lang, form string, problems []problem, refused *http.Request) {
	sec, _ := sectionOf(form)
	v := h.settingsView(b, s, lang, sec.Key)
	v.Invalid = map[string]string{}
	for _, p := range problems {
		text := tr(lang, p.key)
		item := fieldProblem{Field: p.field, Text: text}
		if p.field != "" {
			v.Invalid[p.field] = text
			if label := fieldLabel(lang, p.field); label != "" { // a service's row has none: its text names it
				item.Text = label + ": " + text
			}
		}
		v.Problems = append(v.Problems, item)
	}
	if refused != nil {
		switch form {
		case "days-off":
			v.Add = dayOffForm{From: refused.PostFormValue("from"), To: refused.PostFormValue("to"), Note: refused.PostFormValue("note")}
		case "notice":
			v.NoticeHours, v.NoticeMinutes = refused.PostFormValue("notice_hours"), refused.PostFormValue("notice_minutes")
		case "crews":
			v.Crews = refused.PostFormValue("crews_per_window")
		case "owner-phone":
			v.Texts.Typed = refused.PostFormValue("owner_phone")
		case "owner-phone-code":
			v.Texts.CodeSent = true
		case "inbox-email":
			v.Texts.TypedEmail = refused.PostFormValue("inbox_email")
		case "hours":
			for i := range v.Days {
				d := &v.Days[i]
				opens, closes := refused.PostForm[d.Key+"_open"], refused.PostForm[d.Key+"_close"]
				d.AllDay = refused.PostFormValue(d.Key+"_allday") == "on"
				d.Rows = nil
				for n := range max(len(opens), len(closes)) {
					d.Rows = append(d.Rows, hoursRow{N: n, Open: at(opens, n), Close: at(closes, n)})
				}
				if len(d.Rows) == 0 {
					d.Rows = []hoursRow{{}}
				}
			}
		default:
			v.Offer.keepTyped(form, refused)
		}
	}
	for i := range v.Days {
		for j := range v.Days[i].Rows {
			row := &v.Days[i].Rows[j]
			row.OpenErr = v.Invalid[rowID(v.Days[i].Key, "open", row.N)]
			row.CloseErr = v.Invalid[rowID(v.Days[i].Key, "close", row.N)]
		}
	}
	render(w, r, status, "settings-"+sec.Key, lang, &s, tr(lang, sec.Title), v)
}

// at is list[i], or "" past its end.
func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

// rowID is the id of a field of the weekly hours: mon-open-0.
func rowID(day, which string, n int) string { return day + "-" + which + "-" + strconv.Itoa(n) }

// fieldLabel names the field id in lang, as its label does.
func fieldLabel(lang, id string) string {
	if day, rest, ok := strings.Cut(id, "-"); ok && (strings.HasPrefix(rest, "open-") || strings.HasPrefix(rest, "close-")) {
		which, n, _ := strings.Cut(rest, "-")
		label := tr(lang, "day_"+day) + ", " + strings.ToLower(tr(lang, which+"s"))
		if i, err := strconv.Atoi(n); err == nil && i > 0 {
			label += " (" + strconv.Itoa(i+1) + ")"
		}
		return label
	}
	return tr(lang, fieldLabels[id])
}

// fieldLabels are the labels' keys of the schedule forms' fields, by id.
var fieldLabels = map[string]string{
	"from": "day_off_from", "to": "day_off_to", "note": "day_off_note",
	"notice_hours": "notice_hours", "notice_minutes": "notice_minutes",
	"crews_per_window": "crews_label", "reminder_hour": "reminder_hour",
	"owner_phone": "owner_phone_label", "code": "code_label", "text_me-all": "text_me_legend",
	"inbox_email": "inbox_email_label",
}

// maxDayOffAhead is how far ahead a day off may start: two years.
const maxDayOffAhead = 2 * 366

// changeSchedule makes the change form asks for to sch, or returns what
// is wrong with the form, field by field, in the owner's terms; booking
// validates what passes, as the loader does.
func changeSchedule(sch *booking.Schedule, form string, r *http.Request, today time.Time) []problem {
	switch form {
	case "days-off":
		d := booking.DayOff{From: strings.TrimSpace(r.PostFormValue("from")), To: strings.TrimSpace(r.PostFormValue("to")), Note: strings.TrimSpace(r.PostFormValue("note"))}
		if bad := checkDayOff(d, today); len(bad) > 0 {
			return bad
		}
		if d.To == d.From {
			d.To = ""
		}
		i, _ := slices.BinarySearchFunc(sch.DaysOff, d.From, func(x booking.DayOff, from string) int { return strings.Compare(x.From, from) })
		sch.DaysOff = slices.Insert(sch.DaysOff, i, d)
	case "remove-day-off":
		// The form's version is the schedule's (setSchedule): an index
		// that is not one of its days off is no index the page gave.
		raw := r.PostFormValue("index")
		i, err := strconv.Atoi(raw)
		if err != nil || strconv.Itoa(i) != raw || i < 0 || i >= len(sch.DaysOff) {
			return []problem{{"", "bad_remove_day_off"}}
		}
		sch.DaysOff = slices.Delete(sch.DaysOff, i, i+1)
	case "notice":
		var bad []problem
		hours, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("notice_hours")))
		switch {
		case err != nil || hours < 0:
			bad = append(bad, problem{"notice_hours", "bad_notice_number"})
		case hours > booking.MaxNoticeMinutes/60:
			bad = append(bad, problem{"notice_hours", "bad_notice"})
		}
		minutes, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("notice_minutes")))
		if err != nil || minutes < 0 || minutes > 59 {
			bad = append(bad, problem{"notice_minutes", "bad_notice_number"})
		}
		if len(bad) == 0 && hours*60+minutes > booking.MaxNoticeMinutes {
			bad = append(bad, problem{"notice_minutes", "bad_notice"})
		}
		if len(bad) > 0 {
			return bad
		}
		sch.MinNoticeMinutes = hours*60 + minutes
	case "crews":
		// Lowering it keeps the requests the windows hold: booking's.
		crews, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("crews_per_window")))
		if err != nil || crews < 1 || crews > booking.MaxCrews {
			return []problem{{"crews_per_window", "bad_crews"}}
		}
		sch.CrewsPerWindow = crews
	case "hours":
		var bad []problem
		for _, d := range weekDays(&sch.Hours) {
			opens, closes := r.PostForm[d.key+"_open"], r.PostForm[d.key+"_close"]
			if len(opens) != len(closes) {
				return []problem{{"", "bad_hours"}}
			}
			if r.PostFormValue(d.key+"_allday") == "on" { // its rows, hidden, do not count
				*d.intervals = slices.Clone(wholeDay)
				continue
			}
			day, dayBad := readDay(d.key, opens, closes)
			bad = append(bad, dayBad...)
			*d.intervals = day
		}
		if len(bad) > 0 {
			return bad
		}
	case "reminder":
		hour, err := strconv.Atoi(r.PostFormValue("reminder_hour"))
		if err != nil || hour < 0 || hour > 23 {
			return []problem{{"reminder_hour", "bad_reminder"}}
		}
		sch.ReminderHour = hour
	}
	return nil
}

// checkDayOff refuses a day off whose dates are no dates, whose last day
// is before its first, which ended before today or starts more than
// maxDayOffAhead days after it (the year 0000 or 1999: a typo of a year),
// or whose note is not one line of up to booking.MaxDayOffNote characters.
func checkDayOff(d booking.DayOff, today time.Time) []problem {
	var bad []problem
	from, err := time.Parse(time.DateOnly, d.From)
	if err != nil {
		bad = append(bad, problem{"from", "bad_day_off_from"})
	}
	to := from
	if d.To != "" {
		if to, err = time.Parse(time.DateOnly, d.To); err != nil {
			bad = append(bad, problem{"to", "bad_day_off_to"})
		}
	}
	if strings.ContainsFunc(d.Note, func(r rune) bool { return r < ' ' || r == 0x7f }) || utf8.RuneCountInString(d.Note) > booking.MaxDayOffNote {
		bad = append(bad, problem{"note", "bad_day_off_note"})
	}
	if len(bad) > 0 {
		return bad
	}
	first := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	switch {
	case to.Before(from):
		return []problem{{"to", "bad_day_off_order"}}
	case to.Before(first):
		if d.To != "" {
			return []problem{{"to", "bad_day_off_past"}}
		}
		return []problem{{"from", "bad_day_off_past"}}
	case from.After(first.AddDate(0, 0, maxDayOffAhead)):
		return []problem{{"from", "bad_day_off_far"}}
	}
	return nil
}

// readDay reads a day's rows of the hours form as typed (parseClock):
// an empty row is none, the intervals are put in order of opening, and
// each one must close after it opens and end before the next opens.
func readDay(key string, opens, closes []string) ([]booking.Interval, []problem) {
	type row struct {
		n           int
		open, close string
	}
	var rows []row
	var bad []problem
	for n := range opens {
		o, c := strings.TrimSpace(opens[n]), strings.TrimSpace(closes[n])
		if o == "" && c == "" {
			continue // an empty row
		}
		open, okOpen := parseClock(o, false)
		closing, okClose := parseClock(c, true)
		switch {
		case o == "":
			bad = append(bad, problem{rowID(key, "open", n), "bad_half_row"})
		case !okOpen:
			bad = append(bad, problem{rowID(key, "open", n), "bad_time"})
		}
		switch {
		case c == "":
			bad = append(bad, problem{rowID(key, "close", n), "bad_half_row"})
		case !okClose:
			bad = append(bad, problem{rowID(key, "close", n), "bad_time"})
		}
		if okOpen && okClose {
			if minutes(closing) <= minutes(open) {
				bad = append(bad, problem{rowID(key, "close", n), "bad_close_order"})
				continue
			}
			rows = append(rows, row{n, open, closing})
		}
	}
	slices.SortStableFunc(rows, func(x, y row) int { return minutes(x.open) - minutes(y.open) })
	day := []booking.Interval{}
	for i, r := range rows {
		if i > 0 && minutes(r.open) < minutes(rows[i-1].close) {
			bad = append(bad, problem{rowID(key, "open", r.n), "bad_overlap"})
		}
		day = append(day, booking.Interval{Open: r.open, Close: r.close})
	}
	return day, bad
}
