package notify_test

import (
	"context"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestNotifyErasure: the stream's record of an erasure (the request put
// again without its details, no event added) tells nobody anything, by
// whomever it was erased, whatever state the request ended in.
func TestNotifyErasure(t *testing.T) {
	for _, by := range []booking.Actor{booking.ActorCustomer, booking.ActorBusiness, booking.ActorOperator, booking.ActorSystem} {
		for _, end := range []struct {
			action booking.Action
			to     booking.Status
		}{{booking.ActionCancel, booking.StatusCancelled}, {booking.ActionDecline, booking.StatusDeclined}} {
			t.Run(string(by)+"/"+string(end.to), func(t *testing.T) {
				f := newFixture(t)
				_, ended := move(request(booking.StatusNew, "es", both), end.action, booking.ActorBusiness, end.to)
				erased := ended.Erase(by, created.Add(48*time.Hour))
				if err := f.n.Notify(context.Background(), &ended, erased); err != nil {
					t.Fatal(err)
				}
				if got := f.senders.got(); len(got) != 0 {
					t.Errorf("an erasure sent %v, want nothing", got)
				}
			})
		}
	}
}
