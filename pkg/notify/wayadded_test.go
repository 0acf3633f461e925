package notify_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// addWay returns r before and after the status page added a way to hear
// back, as booking.Bookings stores it.
func addWay(r booking.Request, way string) (before, after booking.Request) {
	before, after = r, r
	switch way {
	case booking.WayEmail:
		after.Contact.Email = "late@example.com"
	case booking.WaySMS:
		after.Contact.SMSConsent = true
	}
	after.History = append(append([]booking.Event(nil), r.History...), booking.Event{
		At: created.Add(time.Hour), By: booking.ActorCustomer, Action: booking.ActionContact,
		From: r.Status, To: r.Status, Window: r.Window, Added: way,
	})
	return before, after
}

// TestWayAdded: a way added on the status page gets one message at once,
// with the status page, and only that way (the others heard of the
// request already); the business hears nothing; and every later change
// reaches it with the others.
func TestWayAdded(t *testing.T) {
	const added = code + "#1"
	tests := []struct {
		name   string
		status booking.Status
		had    contact
		way    string
		lang   string
		want   []string
	}{
		{"an e-mail, to a person nobody wrote to", booking.StatusNew, contact{}, booking.WayEmail, "en",
			[]string{added + "/way_added/person/email -> late@example.com (en)"}},
		{"an e-mail, to a person texted already", booking.StatusNew, contact{sms: true}, booking.WayEmail, "es",
			[]string{added + "/way_added/person/email -> late@example.com (es)"}},
		{"texts, to a person e-mailed already", booking.StatusPendingPayment, contact{email: true}, booking.WaySMS, "en",
			[]string{added + "/way_added/person/sms -> +13125550147 (en)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, after := addWay(request(tt.status, tt.lang, tt.had), tt.way)
			msgs := messages(composer, &before, after, business(t))
			if got := summary(msgs); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("messages = %q\nwant %q", got, tt.want)
			}
			m := msgs[0]
			if !strings.Contains(m.Body, siteURL+"/r/"+code) {
				t.Errorf("the message has no status page:\n%s", m.Body)
			}
			// Then the business accepts: every way hears it.
			_, accepted := move(after, booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted)
			var ways []string
			for _, m := range messages(composer, &after, accepted, business(t)) {
				if m.Audience == "person" {
					ways = append(ways, string(m.Channel))
				}
			}
			if want := after.Contact.Ways(); fmt.Sprint(ways) != fmt.Sprint(want) {
				t.Errorf("the accept reaches the person by %v, want %v", ways, want)
			}
		})
	}
	// A preview business: the preview inbox only, as ever.
	before, after := addWay(request(booking.StatusNew, "en", contact{}), booking.WayEmail)
	got := summary(messages(composer, &before, after, business(t, preview)))
	if want := []string{added + "/way_added/preview/email -> " + previewInbox + " (en)"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("preview: messages = %q, want %q", got, want)
	}
}
