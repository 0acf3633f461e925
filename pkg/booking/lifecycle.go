package booking

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Action is something that moves a request from one state to another.
type Action string

// The actions of the lifecycle.
const (
	ActionPay      Action = "pay"      // the deposit was paid
	ActionExpire   Action = "expire"   // the hold lapsed unpaid, or the window started unanswered
	ActionAccept   Action = "accept"   // the business takes the job
	ActionDecline  Action = "decline"  // the business turns it down
	ActionMove     Action = "move"     // the business offers another window
	ActionComplete Action = "complete" // the job is done
	ActionNoShow   Action = "no_show"  // the person was not there
	ActionCancel   Action = "cancel"   // either side calls it off
	ActionSpam     Action = "spam"     // the business: not a genuine request
	ActionCreate   Action = "create"   // only in history: the request was sent
)

// Actor is who moves a request.
type Actor string

// The actors. An operator (infra/ctl) acts for the business and may do
// whatever the business or the person may.
const (
	ActorCustomer Actor = "customer" // the person, or an assistant acting for them
	ActorBusiness Actor = "business" // the business, through its inbox
	ActorOperator Actor = "operator" // Doorstep's operators, through infra/ctl
	ActorSystem   Actor = "system"   // the payment provider and the sweeper
)

// Transition is one allowed move: a request in state From may be moved by
// Action, by one of By, to state To.
type Transition struct {
	From   Status
	Action Action
	To     Status
	By     []Actor
}

// Lifecycle is the whole state machine: every move not listed is refused.
// The checks (Allowed), the side effects (Effects) and docs/business.md's table
// (LifecycleMarkdown) are all derived from it.
var Lifecycle = []Transition{
	{StatusPendingPayment, ActionPay, StatusNew, []Actor{ActorSystem}},
	{StatusPendingPayment, ActionExpire, StatusExpired, []Actor{ActorSystem}},
	{StatusPendingPayment, ActionCancel, StatusCancelled, []Actor{ActorCustomer}},
	{StatusNew, ActionAccept, StatusAccepted, []Actor{ActorBusiness}},
	{StatusNew, ActionDecline, StatusDeclined, []Actor{ActorBusiness}},
	{StatusNew, ActionSpam, StatusDeclined, []Actor{ActorBusiness}},
	// Offering another window answers the request: it is accepted at the
	// new window (decisions.md, "Deposits and lifecycle").
	{StatusNew, ActionMove, StatusAccepted, []Actor{ActorBusiness}},
	{StatusNew, ActionCancel, StatusCancelled, []Actor{ActorBusiness, ActorCustomer}},
	// Still unanswered when its window starts: the business did not answer.
	{StatusNew, ActionExpire, StatusExpired, []Actor{ActorSystem}},
	{StatusAccepted, ActionComplete, StatusCompleted, []Actor{ActorBusiness}},
	{StatusAccepted, ActionNoShow, StatusNoShow, []Actor{ActorBusiness}},
	{StatusAccepted, ActionMove, StatusAccepted, []Actor{ActorBusiness}},
	{StatusAccepted, ActionCancel, StatusCancelled, []Actor{ActorBusiness, ActorCustomer}},
}

// Statuses lists every state of a request, in the order of the spec.
var Statuses = []Status{
	StatusPendingPayment, StatusNew, StatusAccepted, StatusDeclined,
	StatusCompleted, StatusCancelled, StatusNoShow, StatusExpired,
}

// Actions lists the actions that move a request (not ActionCreate).
var Actions = []Action{
	ActionPay, ActionExpire, ActionAccept, ActionDecline, ActionMove,
	ActionComplete, ActionNoShow, ActionCancel, ActionSpam,
}

// Allowed returns the transition that action by actor takes from state from,
// or an INVALID_TRANSITION error naming what is allowed instead.
func Allowed(from Status, action Action, actor Actor) (Transition, error) {
	for _, t := range Lifecycle {
		if t.From == from && t.Action == action && t.allows(actor) {
			return t, nil
		}
	}
	var can []string
	for _, t := range Lifecycle {
		if t.From == from && t.allows(actor) {
			can = append(can, string(t.Action))
		}
	}
	if len(can) == 0 {
		return Transition{}, Errorf(InvalidTransition, "a request that is %s cannot be moved any more", from)
	}
	return Transition{}, Errorf(InvalidTransition, "a request that is %s cannot be %s; it can be: %s",
		from, pastTense(action), strings.Join(can, ", "))
}

// ActionsBy returns the actions actor may make from some state, in the
// Lifecycle's order: the business's inbox and the operator's CLI take
// these, and no others.
func ActionsBy(actor Actor) []Action {
	var actions []Action
	for _, t := range Lifecycle {
		if t.allows(actor) && !slices.Contains(actions, t.Action) {
			actions = append(actions, t.Action)
		}
	}
	return actions
}

// statesFrom returns s and every state the Lifecycle can move a request in
// state s to, in the order they are first reached.
func statesFrom(s Status) []Status {
	states := []Status{s}
	for i := 0; i < len(states); i++ {
		for _, t := range Lifecycle {
			if t.From == states[i] && !slices.Contains(states, t.To) {
				states = append(states, t.To)
			}
		}
	}
	return states
}

func (t Transition) allows(actor Actor) bool {
	if actor == ActorOperator {
		return slices.ContainsFunc(t.By, func(a Actor) bool { return a == ActorBusiness || a == ActorCustomer })
	}
	return slices.Contains(t.By, actor)
}

func pastTense(a Action) string {
	switch a {
	case ActionPay:
		return "paid"
	case ActionExpire:
		return "expired"
	case ActionAccept:
		return "accepted"
	case ActionDecline:
		return "declined"
	case ActionMove:
		return "moved to another window"
	case ActionComplete:
		return "completed"
	case ActionNoShow:
		return "marked no-show"
	case ActionCancel:
		return "cancelled"
	case ActionSpam:
		return "marked not genuine"
	}
	return string(a)
}

// Effects are what a transition does besides changing the state. They are
// derived from its states and action, and the store applies them in the same
// atomic write as the state change.
type Effects struct {
	// DecrementPhone: the request stops counting against its phone's open
	// requests (it leaves new or pending_payment for a closed state), and
	// against its e-mail's and its business's (Request.Counted).
	DecrementPhone bool
	// ReleaseHold: the window opens again (declined, cancelled, expired),
	// if this request still holds it.
	ReleaseHold bool
	// MoveWindow: the request takes a hold on a new window, with the same
	// condition as a create, and releases its old one.
	MoveWindow bool
	// EndPaymentHold: the hold stops lapsing at the payment deadline and
	// lasts to the window's end (the deposit was paid).
	EndPaymentHold bool
	// BlockContact: the business takes no more online request from the
	// request's phone and e-mail (not a genuine request).
	BlockContact bool
}

// Effects returns the side effects of t.
func (t Transition) Effects() Effects {
	return Effects{
		DecrementPhone: t.From.Open() && !t.To.Open(),
		ReleaseHold:    t.To == StatusDeclined || t.To == StatusCancelled || t.To == StatusExpired,
		MoveWindow:     t.Action == ActionMove,
		EndPaymentHold: t.From == StatusPendingPayment && t.To == StatusNew,
		BlockContact:   t.Action == ActionSpam,
	}
}

// Event is one entry of a request's history: who moved it, when, from which
// state to which, and the window it had afterwards.
type Event struct {
	At     time.Time `json:"at"`
	By     Actor     `json:"by"`
	Action Action    `json:"action"`
	From   Status    `json:"from,omitempty"` // empty for ActionCreate
	To     Status    `json:"to"`
	Window Window    `json:"window"`
	// Added is the way to hear back an ActionContact event added (WayEmail,
	// WaySMS); empty for every other event.
	Added string `json:"added,omitempty"`
}

// LifecycleMarkdown renders Lifecycle as a Markdown table, with each move's
// effects: docs/business.md's table is this text, and a test keeps them the same.
func LifecycleMarkdown() string {
	var b strings.Builder
	b.WriteString("| from | action | to | by | also |\n|---|---|---|---|---|\n")
	for _, t := range Lifecycle {
		by := make([]string, len(t.By))
		for i, a := range t.By {
			by[i] = string(a)
		}
		e := t.Effects()
		var also []string
		if e.DecrementPhone {
			also = append(also, "the phone's, the e-mail's and the business's open counts go down by one")
		}
		if e.ReleaseHold {
			also = append(also, "the window opens again (if this request still holds it)")
		}
		if e.MoveWindow {
			also = append(also, "holds the new window, opens the old one; `changed_by_business: true`")
		}
		if e.EndPaymentHold {
			also = append(also, "the hold lasts to the window's end")
		}
		if e.BlockContact {
			also = append(also, "the business blocks the phone and e-mail; nobody is told")
		}
		if len(also) == 0 {
			also = append(also, "nothing else")
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", t.From, t.Action, t.To, strings.Join(by, ", "), strings.Join(also, "; "))
	}
	return b.String()
}
