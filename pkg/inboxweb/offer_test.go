package inboxweb_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
)

// TestOfferLandsUpcoming: a new request the business offered another
// window is answered: the inbox lists it among the coming jobs on the new
// window's day, no longer under "Needs an answer" (issue 20). Its
// simulated deposit is marked so.
func TestOfferLandsUpcoming(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "mile-high-electric"
	offered := f.create(t, slug, "", "", 1)
	waiting := f.create(t, slug, "", "", 2)
	b := f.business(t, slug)
	day := f.clock.Now().In(b.Location()).AddDate(0, 0, 4)
	w := f.windows(t, b, day.Format("2006-01-02"), 1)
	if len(w) == 0 {
		t.Fatalf("no open window on %s", day.Format("2006-01-02"))
	}
	f.businessMove(t, slug, offered, booking.ActionMove, w[0].Start.Format(time.RFC3339))
	if got := f.request(t, offered).Status; got != booking.StatusAccepted {
		t.Fatalf("after the offer: %s, want accepted", got)
	}

	a, _ := f.signIn(t, slug)
	res := f.do(t, a, "GET", "/inbox", nil)
	if res.status != http.StatusOK {
		t.Fatalf("got %d, want 200", res.status)
	}
	order(t, res.body, `id="answer"`, `data-code="`+waiting+`"`, `id="upcoming"`,
		display.Day("en", w[0].Start, b.Location()), `data-code="`+offered+`"`)
	wantIn(t, res.body, "Deposit $25.00 paid (simulated: no money moves)")
}
