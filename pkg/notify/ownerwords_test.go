package notify_test

import (
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
)

// TestOwnerTextIsTheBusinesssWords: the service name a business owner
// typed (here one that reads as a promise of Doorstep's) reaches the
// person only on its own labelled line of an e-mail ("Service: ..."), as
// the business's data, never in a sentence or subject of Doorstep's nor
// in a text message; the business's own e-mails carry it labelled too
// (their subjects name it: it is the business's own text, to itself).
func TestOwnerTextIsTheBusinesssWords(t *testing.T) {
	const owner = "Free visit guaranteed by Doorstep"
	var all []notify.Message
	for _, lang := range []string{"en", "es"} {
		for _, b := range []*booking.Business{business(t), business(t, spanishDesk)} {
			fresh := request(booking.StatusNew, lang, both)
			fresh.ServiceName = booking.LocalText{EN: owner, ES: owner}
			all = append(all, messages(composer, nil, fresh, b)...)
			for _, m := range []struct {
				action booking.Action
				by     booking.Actor
				to     booking.Status
			}{
				{booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted},
				{booking.ActionMove, booking.ActorBusiness, booking.StatusNew},
				{booking.ActionDecline, booking.ActorBusiness, booking.StatusDeclined},
				{booking.ActionCancel, booking.ActorCustomer, booking.StatusCancelled},
			} {
				before, after := move(fresh, m.action, m.by, m.to)
				all = append(all, messages(composer, &before, after, b)...)
			}
		}
	}
	if len(all) < 10 {
		t.Fatalf("got %d messages, want every kind: %v", len(all), summary(all))
	}
	seen := 0
	for _, m := range all {
		if m.Audience == notify.AudiencePerson && strings.Contains(m.Subject, owner) {
			t.Errorf("%s: the owner's text is in the person's subject: %q", m.ID, m.Subject)
		}
		for _, line := range strings.Split(m.Body, "\n") {
			if !strings.Contains(line, owner) {
				continue
			}
			seen++
			if m.Audience == notify.AudiencePerson && m.Channel != notify.ChannelEmail {
				t.Errorf("%s: a text message to the person carries the owner's text: %q", m.ID, line)
			}
			if m.Channel == notify.ChannelEmail && line != "Service: "+owner && line != "Servicio: "+owner {
				t.Errorf("%s: the owner's text is not on its labelled line: %q", m.ID, line)
			}
		}
	}
	if seen == 0 {
		t.Error("no message carries the service name")
	}
}
