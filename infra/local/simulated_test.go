package main

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestLocalDepositsAreSimulated: the local server takes no real payment,
// so every deposit says simulated: true, in getBusiness and in the
// request's status, even a business whose file says false, and its
// payment_url is the simulated page (issue 20).
func TestLocalDepositsAreSimulated(t *testing.T) {
	base := startLocal(t)
	const slug = "austin-rapid-plumbing" // preview: false, with a deposit
	var b booking.Business
	getJSON(t, base+"/api/v1/businesses/"+slug, &b)
	if b.Preview || b.BookingDeposit == nil || !b.BookingDeposit.Simulated {
		t.Fatalf("getBusiness: preview %v, deposit %+v; want a simulated deposit of a business that is no preview", b.Preview, b.BookingDeposit)
	}
	var a booking.Availability
	getJSON(t, base+"/api/v1/businesses/"+slug+"/availability?days=3", &a)
	if len(a.Windows) == 0 {
		t.Fatal("no open window")
	}
	body := `{"window_start": "` + a.Windows[0].Start.Format("2006-01-02T15:04:05Z07:00") + `",
		"address": {"street": "1 Congress Ave", "zip": "` + b.ServiceArea.ZIPCodes[0] + `"},
		"contact": {"name": "Sam Diaz", "phone": "(512) 555-0177"}, "deposit_accepted": true}`
	c := createRequest(t, base, slug, body)
	if c.PaymentURL == nil || *c.PaymentURL != base+"/pay/"+c.Code {
		t.Errorf("payment_url %v, want the simulated page %s/pay/%s", c.PaymentURL, base, c.Code)
	}
	var st booking.RequestStatus
	getJSON(t, base+"/api/v1/requests/"+c.Code, &st)
	if st.Deposit == nil || !st.Deposit.Simulated {
		t.Errorf("status deposit %+v, want simulated: true", st.Deposit)
	}
}
