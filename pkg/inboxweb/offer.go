package inboxweb

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/doorstep/doorstep/pkg/booking"
)

// The settings also edit what the business offers, a section each: its
// public details, its services, its service area, and its windows (with
// its deposit, shown only: the operator's to set). Each form carries the
// version of its section as shown, and booking stores the change with
// the same validation as a loaded file; the page first checks each field
// in the owner's terms, so that what is wrong shows next to its field
// with what was typed kept.

// offerForms are the offer's forms, each posted to /inbox/settings/{form}.
var offerForms = []string{"details", "add-service", "edit-service", "move-service", "remove-service", "area", "windows"}

// offerView is what the offer's sections show.
type offerView struct {
	Details         detailsForm
	DetailsVersion  string
	Timezones       []choice
	Services        []serviceRow
	ServicesVersion string
	Add             serviceForm  // the form of a new service
	Adding          bool         // the form of a new service is shown (?add=1), not the list
	Edit            *serviceForm // the service being edited (?edit=), nil for none
	Area            areaForm
	AreaVersion     string
	Windows         windowsForm
	WindowsVersion  string
	Lengths         []choice
	MaxDaysAhead    int
	Deposit         *depositView // nil: the business takes none
}

type choice struct {
	Value, Label string
	Selected     bool
}

type detailsForm struct {
	Name, Phone, City, State, Timezone, URL string
	English, Spanish                        bool // the languages it speaks
	DefaultLanguage                         string
	LicenseNumber, LicenseAuthority         string
}

type serviceRow struct {
	ID, Name, Description string
	Urgent                bool
	First, Last           bool
}

type serviceForm struct {
	ID                             string // "" for a new one
	NameEN, NameES, DescEN, DescES string
	Urgent                         bool
}

type areaForm struct {
	Label string
	ZIPs  string // one a line
}

type windowsForm struct {
	Minutes, DaysAhead string
}

type depositView struct {
	Amount                string
	PayWithinMinutes      int
	FreeCancellationHours int
	Simulated             bool
}

// offerOf is the offer's sections as b stands, in lang.
func offerOf(b *booking.Business, lang string) offerView {
	d := b.Details()
	v := offerView{
		Details: detailsForm{Name: d.Name, Phone: d.Phone, City: d.City, State: d.State, Timezone: d.Timezone, URL: d.URL,
			English: slices.Contains(d.Languages, "en"), Spanish: slices.Contains(d.Languages, "es"), DefaultLanguage: d.DefaultLanguage},
		DetailsVersion:  d.Version(),
		ServicesVersion: booking.ServicesVersion(b.Services),
		Area:            areaForm{Label: b.ServiceArea.Label, ZIPs: strings.Join(b.ServiceArea.ZIPCodes, "\n")},
		AreaVersion:     b.Area().Version(),
		Windows:         windowsForm{Minutes: strconv.Itoa(b.ArrivalWindowMinutes), DaysAhead: strconv.Itoa(b.BooksUpToDaysAhead)},
		WindowsVersion:  b.WindowSettings().Version(),
		MaxDaysAhead:    booking.MaxDaysAhead,
	}
	if d.License != nil {
		v.Details.LicenseNumber, v.Details.LicenseAuthority = d.License.Number, d.License.Authority
	}
	zones := booking.Timezones
	if !slices.Contains(zones, d.Timezone) {
		zones = append([]string{d.Timezone}, zones...) // an operator's: kept, not offered to others
	}
	for _, z := range zones {
		label := tr(lang, "tz_"+z)
		if label == "" { // an operator's zone, not on the list: its name
			label = z
		}
		v.Timezones = append(v.Timezones, choice{Value: z, Label: label})
	}
	for i, s := range b.Services {
		v.Services = append(v.Services, serviceRow{ID: s.ID, Name: s.Name.In(lang), Description: s.Description.In(lang), Urgent: s.Urgent,
			First: i == 0, Last: i == len(b.Services)-1})
	}
	lengths := booking.WindowLengths
	if !slices.Contains(lengths, b.ArrivalWindowMinutes) {
		lengths = append([]int{b.ArrivalWindowMinutes}, lengths...)
	}
	for _, m := range lengths {
		v.Lengths = append(v.Lengths, choice{Value: strconv.Itoa(m), Label: windowLengthLabel(lang, m)})
	}
	if dep := b.BookingDeposit; dep != nil {
		v.Deposit = &depositView{Amount: fmt.Sprintf("%d.%02d %s", dep.AmountCents/100, dep.AmountCents%100, strings.ToUpper(dep.Currency)),
			PayWithinMinutes: dep.PayWithinMinutes, FreeCancellationHours: dep.FreeCancellationHours, Simulated: dep.Simulated}
	}
	v.markChoices()
	return v
}

// markChoices marks the selected time zone and window length, as the
// forms hold them (shown or typed).
func (v *offerView) markChoices() {
	for i := range v.Timezones {
		v.Timezones[i].Selected = v.Timezones[i].Value == v.Details.Timezone
	}
	for i := range v.Lengths {
		v.Lengths[i].Selected = v.Lengths[i].Value == v.Windows.Minutes
	}
}

// windowLengthLabel is a window length in lang: "1 hour", "1 h 30 min".
func windowLengthLabel(lang string, minutes int) string {
	h, m := minutes/60, minutes%60
	switch {
	case m == 0 && h == 1:
		return tr(lang, "one_hour")
	case m == 0:
		return tr(lang, "n_hours", h)
	case h == 0:
		return tr(lang, "n_minutes", m)
	}
	return tr(lang, "hours_minutes", h, m)
}

// editing shows the form of the service id, if the business has it.
func (v *offerView) editing(b *booking.Business, id string) {
	for _, s := range b.Services {
		if s.ID == id {
			v.Edit = &serviceForm{ID: s.ID, NameEN: s.Name.EN, NameES: s.Name.ES, DescEN: s.Description.EN, DescES: s.Description.ES, Urgent: s.Urgent}
		}
	}
}

// keepTyped puts what was typed in the refused form back in its fields.
func (v *offerView) keepTyped(form string, r *http.Request) {
	switch form {
	case "details":
		v.Details = detailsForm{Name: r.PostFormValue("name"), Phone: r.PostFormValue("phone"), City: r.PostFormValue("city"), State: r.PostFormValue("state"),
			Timezone: r.PostFormValue("timezone"), URL: r.PostFormValue("url"), English: r.PostFormValue("lang_en") == "on", Spanish: r.PostFormValue("lang_es") == "on",
			DefaultLanguage: r.PostFormValue("default_language"), LicenseNumber: r.PostFormValue("license_number"), LicenseAuthority: r.PostFormValue("license_authority")}
	case "add-service", "edit-service":
		f := serviceForm{ID: r.PostFormValue("id"), NameEN: r.PostFormValue("name_en"), NameES: r.PostFormValue("name_es"),
			DescEN: r.PostFormValue("desc_en"), DescES: r.PostFormValue("desc_es"), Urgent: r.PostFormValue("urgent") == "on"}
		if form == "add-service" {
			v.Add, v.Adding = f, true
		} else {
			v.Edit = &f
		}
	case "area":
		v.Area = areaForm{Label: r.PostFormValue("label"), ZIPs: r.PostFormValue("zip_codes")}
	case "windows":
		v.Windows = windowsForm{Minutes: r.PostFormValue("arrival_window_minutes"), DaysAhead: r.PostFormValue("books_up_to_days_ahead")}
	}
	v.markChoices()
}

// offerFieldLabels are the labels' keys of the offer forms' fields, by id.
var offerFieldLabels = map[string]string{
	"name": "business_name", "phone": "business_phone", "city": "city", "state": "state", "timezone": "timezone",
	"url": "site_url", "languages": "languages", "default_language": "default_language",
	"license_number": "license_number", "license_authority": "license_authority",
	"name_en": "service_name_en", "name_es": "service_name_es", "desc_en": "service_desc_en", "desc_es": "service_desc_es",
	"label": "area_label", "zip_codes": "zip_codes",
	"arrival_window_minutes": "window_length", "books_up_to_days_ahead": "days_ahead",
}

func init() {
	for id, key := range offerFieldLabels {
		fieldLabels[id] = key
	}
}

// setOffer makes the change of one of the offer's forms ({form}) to its
// section as the form was shown (its version), and stores it with
// booking, which validates the whole record as the loader does. As
// setSchedule: a field the page finds wrong shows the page again with
// what is wrong next to it and what was typed kept (400); a section
// changed meanwhile shows it as it is now (409); nothing is stored either
// way.
func (h *handler) setOffer(w http.ResponseWriter, r *http.Request, s Session) {
	form := r.PathValue("form")
	b := s.Inbox.Business()
	lang := language(w, r, b)
	ctx, in, seen := r.Context(), s.Inbox, r.PostFormValue("version")
	var (
		bad   []problem
		after *booking.Business
		err   error
	)
	switch form {
	case "details":
		var d booking.Details
		if d, bad = readDetails(r, b); len(bad) == 0 {
			after, err = in.UpdateDetails(ctx, seen, d)
		}
	case "add-service", "edit-service", "move-service", "remove-service":
		var next []booking.Service
		if next, bad = changeServices(form, r, b); len(bad) == 0 {
			after, err = in.UpdateServices(ctx, seen, next)
		}
	case "area":
		var a booking.Area
		if a, bad = readArea(r, b); len(bad) == 0 {
			after, err = in.UpdateArea(ctx, seen, a)
		}
	case "windows":
		var win booking.Windows
		if win, bad = readWindows(r); len(bad) == 0 {
			after, err = in.UpdateWindows(ctx, seen, win)
		}
	}
	switch {
	case len(bad) > 0:
		h.renderSettings(w, r, http.StatusBadRequest, s, b, lang, form, bad, r)
	case err == nil:
		http.Redirect(w, r, sectionPath(form)+"?done="+form, http.StatusSeeOther)
	case errors.Is(err, booking.ErrOfferChanged) && after != nil:
		h.renderSettings(w, r, http.StatusConflict, s, after, lang, form, []problem{{"", "schedule_changed"}}, nil)
	case errors.Is(err, booking.ErrSiteTaken):
		h.renderSettings(w, r, http.StatusBadRequest, s, b, lang, form, []problem{{"url", "bad_site_taken"}}, r)
	case errors.Is(err, booking.ErrLastService):
		h.renderSettings(w, r, http.StatusConflict, s, b, lang, form, []problem{{"service-" + r.PostFormValue("id"), "last_service"}}, r)
	case errors.Is(err, booking.ErrLastZIP):
		h.renderSettings(w, r, http.StatusConflict, s, b, lang, form, []problem{{"zip_codes", "last_zip"}}, r)
	case errors.Is(err, booking.ErrLiveRequestsAhead):
		h.renderSettings(w, r, http.StatusConflict, s, b, lang, form, []problem{{"arrival_window_minutes", "windows_live_ahead"}}, r)
	case booking.ErrorCode(err) == booking.InvalidRequest:
		h.Log.Info("inboxweb: an offer form refused by booking", "route", r.Pattern, "form", form, "error", err)
		h.renderSettings(w, r, http.StatusBadRequest, s, b, lang, form, []problem{{"", "bad_offer"}}, r)
	default:
		h.failFor(w, r, s, err)
	}
}

// ownerText checks an owner's text of the field id: its problem, if any.
func ownerText(id, value string, max int, phone string) []problem {
	if p := booking.OwnerTextProblem(value, max, phone); p != "" {
		key := "text_" + string(p)
		if p == booking.TextLong {
			key += "_" + strconv.Itoa(max)
		}
		return []problem{{id, key}}
	}
	return nil
}

var (
	nonDigits  = regexp.MustCompile(`[^0-9]+`)
	stateCode  = regexp.MustCompile(`^[A-Z]{2}$`)
	fiveDigits = regexp.MustCompile(`^[0-9]{5}$`)
)

// readDetails reads the details form, or says what is wrong with it.
func readDetails(r *http.Request, b *booking.Business) (booking.Details, []problem) {
	var bad []problem
	d := booking.Details{City: strings.TrimSpace(r.PostFormValue("city")), State: strings.ToUpper(strings.TrimSpace(r.PostFormValue("state"))),
		Timezone: r.PostFormValue("timezone"), URL: strings.TrimSpace(r.PostFormValue("url")), DefaultLanguage: r.PostFormValue("default_language")}
	phone, ok := booking.ReadPublicPhone(r.PostFormValue("phone"))
	if !ok {
		bad = append(bad, problem{"phone", "bad_business_phone"})
		phone = b.Phone
	}
	d.Phone = phone
	d.Name = strings.TrimSpace(r.PostFormValue("name"))
	bad = append(bad, ownerText("name", d.Name, booking.MaxBusinessName, phone)...)
	if d.City == "" {
		bad = append(bad, problem{"city", "bad_city"})
	} else {
		bad = append(bad, ownerText("city", d.City, booking.MaxBusinessName, phone)...)
	}
	if !stateCode.MatchString(d.State) {
		bad = append(bad, problem{"state", "bad_state"})
	}
	if !slices.Contains(booking.Timezones, d.Timezone) && d.Timezone != b.Timezone {
		bad = append(bad, problem{"timezone", "bad_timezone"})
	}
	if _, ok := booking.ParseSiteLink(d.URL); !ok || !strings.HasPrefix(d.URL, "https://") {
		bad = append(bad, problem{"url", "bad_site_url"})
	}
	for _, l := range []string{"en", "es"} {
		if r.PostFormValue("lang_"+l) == "on" {
			d.Languages = append(d.Languages, l)
		}
	}
	switch {
	case len(d.Languages) == 0:
		bad = append(bad, problem{"languages", "bad_languages"})
	case !slices.Contains(d.Languages, d.DefaultLanguage):
		bad = append(bad, problem{"default_language", "bad_default_language"})
	}
	number, authority := strings.TrimSpace(r.PostFormValue("license_number")), strings.TrimSpace(r.PostFormValue("license_authority"))
	switch {
	case number == "" && authority == "":
	case number == "":
		bad = append(bad, problem{"license_number", "bad_license"})
	case authority == "":
		bad = append(bad, problem{"license_authority", "bad_license"})
	default:
		bad = append(bad, ownerText("license_number", number, booking.MaxBusinessName, phone)...)
		bad = append(bad, ownerText("license_authority", authority, booking.MaxBusinessName, phone)...)
		d.License = &booking.License{Number: number, Authority: authority}
	}
	return d, bad
}

// changeServices makes the change form asks for to b's services, or says
// what is wrong with the form.
func changeServices(form string, r *http.Request, b *booking.Business) ([]booking.Service, []problem) {
	services := slices.Clone(b.Services)
	id := r.PostFormValue("id")
	i := slices.IndexFunc(services, func(s booking.Service) bool { return s.ID == id })
	if form != "add-service" && i < 0 {
		return nil, []problem{{"", "bad_service"}}
	}
	switch form {
	case "add-service", "edit-service":
		s := booking.Service{
			Name:        booking.LocalText{EN: strings.TrimSpace(r.PostFormValue("name_en")), ES: strings.TrimSpace(r.PostFormValue("name_es"))},
			Description: booking.LocalText{EN: strings.TrimSpace(r.PostFormValue("desc_en")), ES: strings.TrimSpace(r.PostFormValue("desc_es"))},
			Urgent:      r.PostFormValue("urgent") == "on",
		}
		var bad []problem
		bad = append(bad, ownerText("name_en", s.Name.EN, booking.MaxServiceName, b.Phone)...)
		bad = append(bad, ownerText("name_es", s.Name.ES, booking.MaxServiceName, b.Phone)...)
		bad = append(bad, ownerText("desc_en", s.Description.EN, booking.MaxServiceDescription, b.Phone)...)
		bad = append(bad, ownerText("desc_es", s.Description.ES, booking.MaxServiceDescription, b.Phone)...)
		if len(bad) > 0 {
			return nil, bad
		}
		if form == "add-service" {
			if len(services) >= booking.MaxServices {
				return nil, []problem{{"", "bad_too_many_services"}}
			}
			return append(services, s), nil
		}
		s.ID = id
		services[i] = s
	case "move-service":
		j := i - 1
		if r.PostFormValue("to") == "down" {
			j = i + 1
		}
		if j < 0 || j >= len(services) {
			return nil, []problem{{"", "bad_service"}}
		}
		services[i], services[j] = services[j], services[i]
	case "remove-service":
		services = slices.Delete(services, i, i+1)
	}
	return services, nil
}

// readArea reads the area form: its ZIP codes pasted with any separators
// (anything but digits: spaces, commas, lines), each of 5 digits.
func readArea(r *http.Request, b *booking.Business) (booking.Area, []problem) {
	var bad []problem
	a := booking.Area{Label: strings.TrimSpace(r.PostFormValue("label"))}
	bad = append(bad, ownerText("label", a.Label, booking.MaxBusinessName, b.Phone)...)
	for _, z := range nonDigits.Split(strings.TrimSpace(r.PostFormValue("zip_codes")), -1) {
		if z == "" {
			continue
		}
		if !fiveDigits.MatchString(z) {
			return a, append(bad, problem{"zip_codes", "bad_zip"})
		}
		a.ZIPCodes = append(a.ZIPCodes, z)
	}
	switch {
	case len(a.ZIPCodes) == 0:
		bad = append(bad, problem{"zip_codes", "bad_no_zip"})
	case len(a.ZIPCodes) > booking.MaxZIPCodes:
		bad = append(bad, problem{"zip_codes", "bad_many_zips"})
	}
	return a, bad
}

// readWindows reads the windows form.
func readWindows(r *http.Request) (booking.Windows, []problem) {
	var bad []problem
	minutes, err := strconv.Atoi(r.PostFormValue("arrival_window_minutes"))
	if err != nil || minutes < 1 {
		bad = append(bad, problem{"arrival_window_minutes", "bad_window_length"})
	}
	days, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("books_up_to_days_ahead")))
	if err != nil || days < 1 || days > booking.MaxDaysAhead {
		bad = append(bad, problem{"books_up_to_days_ahead", "bad_days_ahead"})
	}
	return booking.Windows{ArrivalWindowMinutes: minutes, BooksUpToDaysAhead: days}, bad
}
