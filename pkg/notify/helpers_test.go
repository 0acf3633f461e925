package notify_test

import (
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/notify"
)

const (
	siteURL      = "https://book.example.com"
	previewInbox = "preview@doorstep.example.com"
	code         = "7K3M-Q9TD-2HXA"
)

var composer = notify.Composer{SiteURL: siteURL, PreviewInbox: previewInbox}

// created is when the test requests were sent: Friday 2026-11-20, 9:00 AM in
// Chicago.
var created = time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)

// monday is the test window: Monday 2026-11-23, 10:00 AM-12:00 PM in Chicago;
// tuesday the window a move takes it to, 2:00-4:00 PM.
var (
	monday  = booking.Window{Date: "2026-11-23", Start: time.Date(2026, 11, 23, 16, 0, 0, 0, time.UTC), End: time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)}
	tuesday = booking.Window{Date: "2026-11-24", Start: time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC), End: time.Date(2026, 11, 24, 22, 0, 0, 0, time.UTC)}
)

// business returns the test business, changed by each of edits.
func business(t testing.TB, edits ...func(*booking.Business)) *booking.Business {
	t.Helper()
	b := bookingtest.ReadBusiness(t, "testdata/business.json")
	for _, edit := range edits {
		edit(b)
	}
	return b
}

func preview(b *booking.Business)     { b.Preview = true }
func example(b *booking.Business)     { b.Example = true }
func noInbox(b *booking.Business)     { b.InboxEmail = "" }
func spanishDesk(b *booking.Business) { b.DefaultLanguage = "es" }

// contact is how the person may be reached.
type contact struct{ email, sms bool }

// request returns a request just created in state status (new, or
// pending_payment with its hold lapsing 30 minutes after creation).
func request(status booking.Status, lang string, c contact) booking.Request {
	r := booking.Request{
		Code:         code,
		BusinessSlug: "lakeview-plumbing",
		Status:       status,
		ServiceID:    "drain-cleaning",
		ServiceName:  booking.LocalText{EN: "Drain cleaning", ES: "Limpieza de drenaje"},
		Window:       monday,
		Address:      booking.Address{Street: "1 W Addison St", ZIP: "60613"},
		Contact:      booking.Contact{Name: "Ana Ruiz", Phone: "3125550147", SMSConsent: c.sms},
		Urgency:      "soon",
		Language:     lang,
		Created:      created,
	}
	if c.email {
		r.Contact.Email = "ana@example.com"
	}
	if status == booking.StatusPendingPayment {
		r.HoldExpires = created.Add(30 * time.Minute)
		r.Deposit = &booking.DepositRecord{AmountCents: 4900, Currency: "usd", State: booking.DepositDue}
	}
	r.History = []booking.Event{{At: created, By: booking.ActorCustomer, Action: booking.ActionCreate, To: status, Window: monday}}
	return r
}

// move returns r as read before a move and as stored after it, as
// booking.Bookings makes them.
func move(r booking.Request, action booking.Action, by booking.Actor, to booking.Status) (before, after booking.Request) {
	before = r
	after = r
	after.Status = to
	if action == booking.ActionMove {
		after.Window = tuesday
		after.ChangedByBusiness = true
	}
	after.History = append(append([]booking.Event(nil), r.History...), booking.Event{
		At: created.Add(time.Hour), By: by, Action: action, From: r.Status, To: to, Window: after.Window,
	})
	return before, after
}
