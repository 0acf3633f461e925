package booking

import (
	"time"
	_ "time/tzdata" // Lambda's provided.al2023 image has no zoneinfo; windows depend on it.
)

// Business is a home-service business as getBusiness returns it. The JSON
// field names are the spec's.
type Business struct {
	Slug                 string      `json:"slug"`
	Name                 string      `json:"name"`
	Trade                string      `json:"trade"`
	URL                  string      `json:"url"`
	BookingURL           string      `json:"booking_url"`
	Preview              bool        `json:"preview"`
	Example              bool        `json:"example"`
	Phone                string      `json:"phone"`
	City                 string      `json:"city"`
	State                string      `json:"state"`
	Timezone             string      `json:"timezone"`
	Languages            []string    `json:"languages"`
	DefaultLanguage      string      `json:"default_language"`
	License              *License    `json:"license"`
	ServiceArea          ServiceArea `json:"service_area"`
	AcceptingRequests    bool        `json:"accepting_requests"`
	ArrivalWindowMinutes int         `json:"arrival_window_minutes"`
	BooksUpToDaysAhead   int         `json:"books_up_to_days_ahead"`
	BookingDeposit       *Deposit    `json:"booking_deposit"`
	Hours                Hours       `json:"hours"`
	Services             []Service   `json:"services"`

	Private `json:"-"` // never in getBusiness; see EncodeBusinessRecord

	loc     *time.Location // set by Validate
	daysOff []dayRange     // DaysOff, set by Validate
}

// License is a trade license. The spec leaves its shape open; Doorstep shows
// the license number and the authority that issued it.
type License struct {
	Number    string `json:"number"`
	Authority string `json:"authority"`
}

// ServiceArea is where the business works.
type ServiceArea struct {
	Label    string   `json:"label"`
	ZIPCodes []string `json:"zip_codes"`
}

// Deposit is the booking deposit a business takes.
type Deposit struct {
	AmountCents           int          `json:"amount_cents"`
	Currency              string       `json:"currency"`
	Simulated             bool         `json:"simulated"`
	PayWithinMinutes      int          `json:"pay_within_minutes"`
	FreeCancellationHours int          `json:"free_cancellation_hours"`
	Rules                 DepositRules `json:"rules"`
	TermsURL              string       `json:"terms_url"`
}

// DepositRules says, in a short text each, what becomes of the deposit.
type DepositRules struct {
	JobDone                   string `json:"job_done"`
	CustomerNotThere          string `json:"customer_not_there"`
	CustomerCancelsEarly      string `json:"customer_cancels_early"`
	CustomerCancelsLate       string `json:"customer_cancels_late"`
	BusinessDeclinesOrCancels string `json:"business_declines_or_cancels"`
	BusinessMovesTheWindow    string `json:"business_moves_the_window"`
}

// Hours are the opening intervals of each weekday in the business's time zone.
type Hours struct {
	Mon []Interval `json:"mon"`
	Tue []Interval `json:"tue"`
	Wed []Interval `json:"wed"`
	Thu []Interval `json:"thu"`
	Fri []Interval `json:"fri"`
	Sat []Interval `json:"sat"`
	Sun []Interval `json:"sun"`
}

// Interval is one opening interval, as 24-hour "HH:MM" strings; Close may be "24:00".
type Interval struct {
	Open  string `json:"open"`
	Close string `json:"close"`

	openMin, closeMin int // minutes after local midnight, set by Validate
}

// Service is one service a business offers.
type Service struct {
	ID          string    `json:"id"`
	Name        LocalText `json:"name"`
	Description LocalText `json:"description"`
	Urgent      bool      `json:"urgent"`
}

// LocalText is a text in each language the service speaks.
type LocalText struct {
	EN string `json:"en"`
	ES string `json:"es"`
}

// In is the text in lang (en or es): the Spanish when asked for and
// written, else the English (the Spanish when there is no English).
func (t LocalText) In(lang string) string {
	if lang == "es" && t.ES != "" || t.EN == "" {
		return t.ES
	}
	return t.EN
}

// Location is the business's time zone. It is valid once the business has
// passed Validate (LoadBusinesses does that).
func (b *Business) Location() *time.Location { return b.loc }

// day returns the intervals of a weekday.
func (h *Hours) day(d time.Weekday) []Interval {
	return *h.days()[d]
}

// days lists the weekday fields in time.Weekday order (Sunday first).
func (h *Hours) days() [7]*[]Interval {
	return [7]*[]Interval{&h.Sun, &h.Mon, &h.Tue, &h.Wed, &h.Thu, &h.Fri, &h.Sat}
}

var dayKeys = [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// service returns the service with the given id.
func (b *Business) service(id string) (Service, bool) {
	for _, s := range b.Services {
		if s.ID == id {
			return s, true
		}
	}
	return Service{}, false
}

// serves reports whether zip is in the service area.
func (b *Business) serves(zip string) bool {
	for _, z := range b.ServiceArea.ZIPCodes {
		if z == zip {
			return true
		}
	}
	return false
}
