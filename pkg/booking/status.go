package booking

import (
	"fmt"
	"strings"
	"time"
)

// RequestStatus is the getServiceRequest response. It carries no contact
// details: the code is the only key to it.
type RequestStatus struct {
	Code          string          `json:"code"`
	Status        Status          `json:"status"`
	Business      BusinessSummary `json:"business"`
	Service       LocalText       `json:"service"`
	ArrivalWindow ArrivalWindow   `json:"arrival_window"`
	Deposit       *DepositStatus  `json:"deposit"`
	Created       time.Time       `json:"created"`
}

// BusinessSummary names the business a request was sent to.
type BusinessSummary struct {
	Slug  string `json:"slug"`
	Name  string `json:"name"`
	Phone string `json:"phone"`
}

// ArrivalWindow is the window of a request, as the status response shows it.
type ArrivalWindow struct {
	Start             time.Time `json:"start"`
	End               time.Time `json:"end"`
	ChangedByBusiness bool      `json:"changed_by_business"`
}

// DepositStatus says what became of a request's deposit: State is one of
// DepositStates, since when; PayBy is the end of the hold while it is due.
// A hold that lapsed unpaid is expired at once, even before the sweeper
// stores it.
type DepositStatus struct {
	AmountCents int        `json:"amount_cents"`
	Currency    string     `json:"currency"`
	Simulated   bool       `json:"simulated"`
	State       string     `json:"state"`
	Since       time.Time  `json:"since"`
	PayBy       *time.Time `json:"pay_by"`
}

// statusView builds the status response of r as it stands at now.
func statusView(r Request, b *Business, now time.Time) RequestStatus {
	r = r.Effective(now)
	v := RequestStatus{
		Code:          r.Code,
		Status:        r.Status,
		Business:      BusinessSummary{Slug: b.Slug, Name: b.Name, Phone: b.Phone},
		Service:       r.ServiceName,
		ArrivalWindow: ArrivalWindow{Start: r.Window.Start, End: r.Window.End, ChangedByBusiness: r.ChangedByBusiness},
		Created:       r.Created,
	}
	v.Deposit = r.DepositView()
	return v
}

// DepositView says what became of r's deposit as r stands (Effective): nil
// when none was asked for. A deposit still due on a request whose hold
// lapsed is expired, since the hold's end, and a paid one on a request
// whose window started unanswered is refunded, since the window's start,
// even before the sweeper stores that; PayBy is set while it can be paid.
func (r Request) DepositView() *DepositStatus {
	d := r.Deposit
	if d == nil {
		return nil
	}
	v := &DepositStatus{AmountCents: d.AmountCents, Currency: d.Currency, Simulated: d.Simulated, State: d.State, Since: d.Since}
	if v.State == "" {
		v.State = DepositDue
	}
	if v.Since.IsZero() {
		v.Since = r.Created
	}
	switch {
	case v.State == DepositDue && r.Status == StatusPendingPayment:
		payBy := r.HoldExpires
		v.PayBy = &payBy
	case v.State == DepositDue && r.Status == StatusExpired:
		v.State = DepositExpired
		v.Since = r.HoldExpires
	case v.State == DepositPaid && r.Status == StatusExpired:
		v.State = DepositRefunded // the sweep's expire refunds it (DepositOutcome)
		v.Since = r.Window.Start
	}
	return v
}

// money writes an amount in minor units for the domain's own messages, as
// display.Money does for people (the domain does not import display).
func money(cents int, currency string) string {
	amount := fmt.Sprintf("%d.%02d", cents/100, cents%100)
	if currency == "usd" {
		return "$" + amount
	}
	return amount + " " + strings.ToUpper(currency)
}
