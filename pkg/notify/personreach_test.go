package notify_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestNotifyFollowsPersonReach: for every combination of the business
// (plain, example, preview with and without a preview inbox), the
// person's ways and the deployment (texts off, the number opted out),
// what the Notifier actually delivers to the person, for the request's
// receipt and for the business's accept, is booking.PersonReach's
// channels: what the inbox, the status page and the tool server say.
func TestNotifyFollowsPersonReach(t *testing.T) {
	kinds := []struct {
		name           string
		edits          []func(*booking.Business)
		noPreviewInbox bool
	}{
		{name: "plain"},
		{name: "example", edits: []func(*booking.Business){example}},
		{name: "preview", edits: []func(*booking.Business){preview}},
		{name: "preview without a preview inbox", edits: []func(*booking.Business){preview}, noPreviewInbox: true},
	}
	for _, k := range kinds {
		for _, c := range []contact{{}, {email: true}, {sms: true}, both} {
			for _, textsOff := range []bool{false, true} {
				for _, optedOut := range []bool{false, true} {
					name := fmt.Sprintf("%s/email=%v/sms=%v/texts_off=%v/opted_out=%v", k.name, c.email, c.sms, textsOff, optedOut)
					t.Run(name, func(t *testing.T) {
						f := newFixture(t, k.edits...)
						if k.noPreviewInbox {
							f.n.Composer.PreviewInbox = ""
						}
						if textsOff {
							f.n.SMS = nil
						}
						if optedOut {
							f.ledger.optedOut["3125550147"] = true
						}
						b := business(t, k.edits...)
						r := request(booking.StatusNew, "en", c)
						ctx := context.Background()
						if err := f.n.Notify(ctx, nil, r); err != nil {
							t.Fatal(err)
						}
						before, after := move(r, booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted)
						if err := f.n.Notify(ctx, &before, after); err != nil {
							t.Fatal(err)
						}
						want := booking.PersonReach(b, r.Contact, booking.Delivery{TextsOff: textsOff, OptedOut: optedOut}).Channels()
						for _, event := range []string{"#0/received", "#1/confirmed"} {
							var got []string
							for _, sent := range f.senders.got() {
								id, to, _ := strings.Cut(sent, " -> ")
								if to != email && to != phone {
									continue // the business's, or the preview inbox's
								}
								if strings.HasPrefix(id, code+event+"/person/") {
									got = append(got, strings.TrimPrefix(id, code+event+"/person/"))
								}
							}
							if got == nil {
								got = []string{}
							}
							if !slices.Equal(got, want) {
								t.Errorf("%s: got the person written to by %v, want %v (booking.PersonReach)", event, got, want)
							}
						}
						for _, sent := range f.senders.got() {
							if _, to, _ := strings.Cut(sent, " -> "); (to == email || to == phone) && !strings.Contains(sent, "/person/") {
								t.Errorf("got %s, want nothing but the person's own messages to the person", sent)
							}
						}
					})
				}
			}
		}
	}
}
