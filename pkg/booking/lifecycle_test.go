package booking_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// docs/business.md's lifecycle table is booking.LifecycleMarkdown(),
// between two markers: the table is written once (booking.Lifecycle) and
// the docs are derived from it. Run with DOORSTEP_UPDATE_README=1 to
// rewrite it.
func TestDocsLifecycleTable(t *testing.T) {
	const path = "../../docs/business.md"
	const begin, end = "<!-- lifecycle table: begin -->\n", "<!-- lifecycle table: end -->"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", path, begin, end)
	}
	got, want := readme[i+len(begin):j], booking.LifecycleMarkdown()
	if got == want {
		return
	}
	if os.Getenv("DOORSTEP_UPDATE_README") != "" {
		if err := os.WriteFile(path, []byte(readme[:i+len(begin)]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/business.md's lifecycle table is not booking.Lifecycle's:\ngot\n%s\nwant\n%s\n(DOORSTEP_UPDATE_README=1 go test ./pkg/booking rewrites it)", got, want)
}

// The Lifecycle has exactly the moves the spec and issue 5 name, written
// out here by hand so that a slip in the table fails: pending_payment to new
// (deposit paid), to expired (hold lapsed) and to cancelled; new to
// accepted, declined, cancelled and expired (unanswered when its window
// starts); accepted to completed, no_show and cancelled; the business
// moving the window of a new or accepted request, which answers a new one
// (issue 20: it is then accepted at the new window); and (the hardening
// issue) the business marking a new request not genuine, which declines
// it. Everything else is refused, for every actor.
func TestLifecycleIsTheSpecsTable(t *testing.T) {
	type move struct {
		from   booking.Status
		action booking.Action
		to     booking.Status
	}
	want := map[move]bool{
		{booking.StatusPendingPayment, booking.ActionPay, booking.StatusNew}:          true,
		{booking.StatusPendingPayment, booking.ActionExpire, booking.StatusExpired}:   true,
		{booking.StatusPendingPayment, booking.ActionCancel, booking.StatusCancelled}: true,
		{booking.StatusNew, booking.ActionAccept, booking.StatusAccepted}:             true,
		{booking.StatusNew, booking.ActionDecline, booking.StatusDeclined}:            true,
		{booking.StatusNew, booking.ActionSpam, booking.StatusDeclined}:               true,
		{booking.StatusNew, booking.ActionCancel, booking.StatusCancelled}:            true,
		{booking.StatusNew, booking.ActionMove, booking.StatusAccepted}:               true,
		{booking.StatusNew, booking.ActionExpire, booking.StatusExpired}:              true,
		{booking.StatusAccepted, booking.ActionComplete, booking.StatusCompleted}:     true,
		{booking.StatusAccepted, booking.ActionNoShow, booking.StatusNoShow}:          true,
		{booking.StatusAccepted, booking.ActionCancel, booking.StatusCancelled}:       true,
		{booking.StatusAccepted, booking.ActionMove, booking.StatusAccepted}:          true,
	}
	actors := []booking.Actor{booking.ActorCustomer, booking.ActorBusiness, booking.ActorOperator, booking.ActorSystem}
	for _, from := range booking.Statuses {
		for _, action := range booking.Actions {
			allowedBy := 0
			for _, actor := range actors {
				tr, err := booking.Allowed(from, action, actor)
				if err != nil {
					if booking.ErrorCode(err) != booking.InvalidTransition {
						t.Errorf("Allowed(%s, %s, %s) = %v, want INVALID_TRANSITION", from, action, actor, err)
					}
					continue
				}
				allowedBy++
				if !want[move{from, action, tr.To}] {
					t.Errorf("Allowed(%s, %s, %s) moves to %s: not a move of the spec", from, action, actor, tr.To)
				}
			}
			var to booking.Status
			for m := range want {
				if m.from == from && m.action == action {
					to = m.to
				}
			}
			if to != "" && allowedBy == 0 {
				t.Errorf("%s -%s-> %s is a move of the spec, but no actor may make it", from, action, to)
			}
		}
	}
	// Who may make which move: the business makes the moves of its inbox,
	// the system the payment's and the sweeper's, the person cancels.
	for _, c := range []struct {
		from   booking.Status
		action booking.Action
		actor  booking.Actor
		want   bool
	}{
		{booking.StatusNew, booking.ActionAccept, booking.ActorBusiness, true},
		{booking.StatusNew, booking.ActionDecline, booking.ActorBusiness, true},
		{booking.StatusNew, booking.ActionSpam, booking.ActorBusiness, true},
		{booking.StatusNew, booking.ActionSpam, booking.ActorCustomer, false},
		{booking.StatusAccepted, booking.ActionSpam, booking.ActorBusiness, false},
		{booking.StatusAccepted, booking.ActionMove, booking.ActorBusiness, true},
		{booking.StatusAccepted, booking.ActionComplete, booking.ActorBusiness, true},
		{booking.StatusAccepted, booking.ActionNoShow, booking.ActorBusiness, true},
		{booking.StatusAccepted, booking.ActionCancel, booking.ActorBusiness, true},
		{booking.StatusPendingPayment, booking.ActionPay, booking.ActorSystem, true},
		{booking.StatusPendingPayment, booking.ActionExpire, booking.ActorSystem, true},
		{booking.StatusNew, booking.ActionExpire, booking.ActorSystem, true},
		{booking.StatusNew, booking.ActionExpire, booking.ActorBusiness, false},
		{booking.StatusNew, booking.ActionExpire, booking.ActorOperator, false},
		{booking.StatusPendingPayment, booking.ActionCancel, booking.ActorCustomer, true},
		{booking.StatusNew, booking.ActionCancel, booking.ActorCustomer, true},
		{booking.StatusAccepted, booking.ActionCancel, booking.ActorCustomer, true},
		{booking.StatusPendingPayment, booking.ActionPay, booking.ActorBusiness, false},
		{booking.StatusPendingPayment, booking.ActionPay, booking.ActorCustomer, false},
		{booking.StatusPendingPayment, booking.ActionPay, booking.ActorOperator, false},
		{booking.StatusNew, booking.ActionAccept, booking.ActorCustomer, false},
		{booking.StatusNew, booking.ActionMove, booking.ActorCustomer, false},
		{booking.StatusPendingPayment, booking.ActionCancel, booking.ActorBusiness, false},
	} {
		if _, err := booking.Allowed(c.from, c.action, c.actor); (err == nil) != c.want {
			t.Errorf("Allowed(%s, %s, %s) = %v, want allowed %v", c.from, c.action, c.actor, err, c.want)
		}
	}
}

// A refused move says in plain words what cannot be done and what can.
func TestAllowedMessages(t *testing.T) {
	tests := []struct {
		from   booking.Status
		action booking.Action
		want   string
	}{
		{booking.StatusNew, booking.ActionComplete, "a request that is new cannot be completed; it can be: accept, decline, spam, move, cancel"},
		{booking.StatusAccepted, booking.ActionAccept, "a request that is accepted cannot be accepted; it can be: complete, no_show, move, cancel"},
		{booking.StatusAccepted, booking.ActionNoShow, ""},
		{booking.StatusDeclined, booking.ActionCancel, "a request that is declined cannot be moved any more"},
	}
	for _, tt := range tests {
		_, err := booking.Allowed(tt.from, tt.action, booking.ActorBusiness)
		got := ""
		if err != nil {
			got = booking.ErrorMessage(err)
		}
		if got != tt.want {
			t.Errorf("Allowed(%s, %s) = %q, want %q", tt.from, tt.action, got, tt.want)
		}
	}
}

// The effects of each move, written out by hand from issue 5: leaving new or
// pending_payment for a closed state (an unanswered expiry too) frees a
// place in the phone's count;
// declined, cancelled and expired release the window; a move takes another
// window; a paid deposit keeps the window to its end. The store's tests
// check that each effect happens; this checks they are the right ones.
func TestLifecycleEffects(t *testing.T) {
	type e = booking.Effects
	want := map[[2]string]e{
		{"pending_payment", "pay"}:    {EndPaymentHold: true},
		{"pending_payment", "expire"}: {DecrementPhone: true, ReleaseHold: true},
		{"pending_payment", "cancel"}: {DecrementPhone: true, ReleaseHold: true},
		{"new", "accept"}:             {DecrementPhone: true},
		{"new", "decline"}:            {DecrementPhone: true, ReleaseHold: true},
		{"new", "spam"}:               {DecrementPhone: true, ReleaseHold: true, BlockContact: true},
		{"new", "move"}:               {DecrementPhone: true, MoveWindow: true}, // answered: accepted
		{"new", "cancel"}:             {DecrementPhone: true, ReleaseHold: true},
		{"new", "expire"}:             {DecrementPhone: true, ReleaseHold: true},
		{"accepted", "complete"}:      {},
		{"accepted", "no_show"}:       {},
		{"accepted", "move"}:          {MoveWindow: true},
		{"accepted", "cancel"}:        {ReleaseHold: true},
	}
	if len(booking.Lifecycle) != len(want) {
		t.Errorf("got %d moves in the Lifecycle, want %d", len(booking.Lifecycle), len(want))
	}
	for _, tr := range booking.Lifecycle {
		key := [2]string{string(tr.From), string(tr.Action)}
		if got := tr.Effects(); got != want[key] {
			t.Errorf("%s -%s->: got effects %+v, want %+v", tr.From, tr.Action, got, want[key])
		}
	}
}

// Who may make which actions, as the inbox and the operator's CLI offer
// them: written out by hand, so a slip in the table or in ActionsBy fails.
func TestActionsBy(t *testing.T) {
	tests := []struct {
		actor booking.Actor
		want  []booking.Action
	}{
		{booking.ActorBusiness, []booking.Action{"accept", "decline", "spam", "move", "cancel", "complete", "no_show"}},
		{booking.ActorOperator, []booking.Action{"cancel", "accept", "decline", "spam", "move", "complete", "no_show"}},
		{booking.ActorCustomer, []booking.Action{"cancel"}},
		{booking.ActorSystem, []booking.Action{"pay", "expire"}},
	}
	for _, tt := range tests {
		if got := booking.ActionsBy(tt.actor); !slices.Equal(got, tt.want) {
			t.Errorf("ActionsBy(%s) = %v, want %v", tt.actor, got, tt.want)
		}
	}
}
