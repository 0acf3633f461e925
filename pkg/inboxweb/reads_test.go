package inboxweb_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
)

var depositField = regexp.MustCompile(`name="deposit" value="([^"]*)"`)

// One click of a move reads the request once: the move's own read, on
// which the page's conditions are checked too (no read before it, none
// after it to show a request that moved meanwhile: the refusal carries
// it). Only a write that lost a race reads it once more, to say how it
// stands now.
func TestOneReadPerClick(t *testing.T) {
	tests := []struct {
		name      string
		slug      string
		before    booking.Action // made before the click, elsewhere; "" for none
		meanwhile booking.Action // made between the click's read and its write; "" for none
		status    int
		want      booking.Status
		wantReads int
	}{
		{"accept, with a deposit", "mile-high-electric", "", "", http.StatusSeeOther, booking.StatusAccepted, 1},
		{"accept, without a deposit", "desert-cool-hvac", "", "", http.StatusSeeOther, booking.StatusAccepted, 1},
		{"accept of a request declined before the click", "desert-cool-hvac", booking.ActionDecline, "", http.StatusConflict, booking.StatusDeclined, 1},
		{"accept that loses the race to a decline", "desert-cool-hvac", "", booking.ActionDecline, http.StatusConflict, booking.StatusDeclined, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			code := f.create(t, tt.slug, "", "", 1)
			a, csrf := f.signIn(t, tt.slug)
			// The form as the confirm page sends it.
			m := depositField.FindStringSubmatch(f.do(t, a, "GET", "/inbox/requests/"+code+"/accept", nil).body)
			if m == nil {
				t.Fatal("the confirm page has no deposit field")
			}
			form := url.Values{"csrf": {csrf}, "deposit": {m[1]}}
			if tt.before != "" {
				f.businessMove(t, tt.slug, code, tt.before, "")
			}
			if tt.meanwhile != "" {
				// Another move, through the store itself: it wins.
				other := bookingtest.New(t, booking.Config{Store: f.store, SiteURL: siteURL, Now: f.clock.Now})
				f.counted.moveMeanwhile(func() { f.businessMoveWith(t, other, tt.slug, code, tt.meanwhile) })
			}

			before := f.counted.reads()
			res := f.do(t, a, "POST", "/inbox/requests/"+code+"/accept", form)
			reads := f.counted.reads() - before

			if res.status != tt.status {
				t.Fatalf("got %d, want %d:\n%s", res.status, tt.status, res.body)
			}
			if reads != tt.wantReads {
				t.Errorf("the click read the request %d times, want %d", reads, tt.wantReads)
			}
			if tt.status == http.StatusConflict {
				wantIn(t, res.body, "Nothing changed: this request was already declined.", `data-state="declined"`)
			}
			if r := f.request(t, code); r.Status != tt.want {
				t.Errorf("stored %s, want %s", r.Status, tt.want)
			}
		})
	}
}

// businessMoveWith makes a move as the business slug through bookings.
func (f *fixture) businessMoveWith(t *testing.T, bookings *booking.Bookings, slug, code string, action booking.Action) {
	t.Helper()
	in, err := bookings.OperatorInbox(context.Background(), slug)
	if err == nil {
		_, err = in.Move(context.Background(), code, action, time.Time{})
	}
	if err != nil {
		t.Errorf("%s meanwhile: %v", action, err)
	}
}
