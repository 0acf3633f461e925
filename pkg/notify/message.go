// Package notify turns each change of a service request into the messages
// it implies (e-mail and texts to the person, e-mail to the business) and
// sends each of them exactly once. See Composer and Notifier.
package notify

import (
	"context"
	"errors"
	"time"
)

// Kind is what a message tells.
type Kind string

// The kinds of message. The person hears that their request was received,
// confirmed, changed or cancelled (the spec's list); the business hears of
// a new request in its inbox, of the person calling off one it had, and of
// its limits refusing strangers' requests.
const (
	KindReceived   Kind = "received"    // to the person: the request was sent
	KindConfirmed  Kind = "confirmed"   // to the person: the business accepted it
	KindChanged    Kind = "changed"     // to the person: the business moved the window
	KindCancelled  Kind = "cancelled"   // to the person: declined, cancelled or expired
	KindNewRequest Kind = "new_request" // to the business: a request is in its inbox
	// KindReminder, to the person: the day before an accepted visit, its
	// window, the business's phone and the status page (booking.ActionRemind).
	KindReminder Kind = "reminder"
	// KindWayAdded, to the person: a way to hear back was added on the
	// status page (booking.ActionContact); only that way gets it, at once,
	// with the status page, and then every later change.
	KindWayAdded Kind = "way_added"
	// KindCancelledByCustomer, to the business: the person cancelled a
	// request that was in its inbox (new or accepted), so that nobody turns
	// up for a job that was called off.
	KindCancelledByCustomer Kind = "cancelled_by_customer"
	// KindLimitReached, to the business: an unusual number of online
	// requests reached one of its limits (booking.Limits), so new ones are
	// refused for now. Told once per clock hour in which a limit refused one
	// (Notifier.LimitReached); it names no request and carries nothing a
	// stranger wrote.
	KindLimitReached Kind = "limit_reached"
	// KindApproval, to the operator: a business asks to go live on a
	// stack whose operator approves it (booking.OperatorNotices).
	KindApproval Kind = "approval"
	// KindNudge, to the business: a request still new after its nudge
	// delay (booking.ActionNudge), told once, by e-mail and, when the
	// owner chose texts, by text, with a one-tap link.
	KindNudge Kind = "nudge"
)

// Audience is whom a message is for.
type Audience string

// The audiences.
const (
	AudiencePerson   Audience = "person"   // the person who sent the request
	AudienceBusiness Audience = "business" // the business's inbox address
	// AudiencePreview is the preview inbox, which gets every message of a
	// preview business instead of its real recipients.
	AudiencePreview Audience = "preview"
	// AudienceOperator is Doorstep's operator, on the stack's operator
	// topic (ApprovalMessage).
	AudienceOperator Audience = "operator"
)

// Channel is how a message travels.
type Channel string

// The channels.
const (
	ChannelEmail Channel = "email"
	ChannelSMS   Channel = "sms"
	// ChannelOperator is the stack's operator topic (Amazon SNS): To
	// names it only as "operator".
	ChannelOperator Channel = "operator"
)

// Message is one e-mail or text to one recipient.
type Message struct {
	// ID names the message among all messages ever sent: the change's ID,
	// the kind, the audience and the channel ("7K3M-Q9TD-2HXA#2/confirmed/
	// person/sms"). A change yields at most one message per kind, audience
	// and channel, and a retry of the same change yields the same IDs: the
	// Ledger claims each ID once. It carries no contact detail.
	ID       string   `json:"id"`
	Change   string   `json:"change"` // the change's ID: the request code and the index of its event, or LimitChangeID
	Kind     Kind     `json:"kind"`
	Audience Audience `json:"audience"`
	Channel  Channel  `json:"channel"`
	// To is an e-mail address, or for a text a US number in E.164 (+1 and
	// 10 digits).
	To       string `json:"to"`
	Language string `json:"language"`          // en or es
	Subject  string `json:"subject,omitempty"` // e-mail only
	Body     string `json:"body"`              // plain text
}

// EmailSender sends an e-mail message.
type EmailSender interface {
	SendEmail(ctx context.Context, m Message) error
}

// SMSSender sends a text message. A send to a number that opted out of
// texts fails with an error that wraps ErrOptedOut.
type SMSSender interface {
	SendText(ctx context.Context, m Message) error
}

// OperatorSender publishes a message to the stack's operator topic
// (pkg/snsnotice).
type OperatorSender interface {
	SendOperator(ctx context.Context, m Message) error
}

// ErrOptedOut reports that the destination number opted out of texts
// (it replied STOP).
var ErrOptedOut = errors.New("the destination number opted out of texts")

// ClaimState says what a claim on a message ID found.
type ClaimState int

// The states of a claim.
const (
	// Claimed: the caller holds the message until Claim.Until and must send
	// it, then MarkSent or Release.
	Claimed ClaimState = iota
	// AlreadySent: the message went out before; skip it.
	AlreadySent
	// InFlight: another caller holds a live claim until Claim.Until: it is
	// sending the message, or died doing so.
	InFlight
)

// Claim is the answer to Ledger.Claim.
type Claim struct {
	State ClaimState
	// Token names this caller's claim (Claimed only): MarkSent and Release
	// act on the claim only while it is still this one.
	Token string
	// Until is when the claim lapses (Claimed and InFlight).
	Until time.Time
}

// Ledger remembers which messages went out, and which numbers opted out of
// texts. Each method is one conditional write or one read of the store.
type Ledger interface {
	// Claim takes message id for a send at now, for ClaimLease, unless it
	// was sent or a live claim holds it.
	Claim(ctx context.Context, id string, now time.Time) (Claim, error)
	// MarkSent records that the message under a claim went out; the record
	// is kept SentTTL, longer than any retry of its change.
	MarkSent(ctx context.Context, id, token string, now time.Time) error
	// Release gives a claim up after a failed send, so that a retry sends
	// the message.
	Release(ctx context.Context, id, token string) error
	// OptedOut reports whether the 10-digit US number opted out of texts.
	OptedOut(ctx context.Context, phone string) (bool, error)
	// RecordOptOut records that the 10-digit US number opted out of texts,
	// for good.
	RecordOptOut(ctx context.Context, phone string, now time.Time) error
}

// Lengths of the Ledger's records.
const (
	// ClaimLease is how long a claim holds a message. A Notifier finishes a
	// send and its MarkSent or Release well within it (in 13 s at most, see
	// Notifier), so a claim still held when its lease lapses belongs to a
	// process that died.
	ClaimLease = 45 * time.Second
	// SentTTL is how long a sent message is remembered: longer than a
	// stream record lives (24 hours), so no retry of a change can send it
	// again.
	SentTTL = 7 * 24 * time.Hour
)
