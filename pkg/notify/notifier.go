package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Businesses reads business records; booking.Store does.
type Businesses interface {
	Business(ctx context.Context, slug string) (*booking.Business, error)
}

// Notifier sends the messages of each change of a request, each exactly
// once.
//
// # Exactly once
//
// A change reaches the Notifier again whenever its stream record is retried:
// after a failed send, or after any other record of its batch failed. Each
// message is claimed in the Ledger under its ID (change, kind, audience,
// channel) with a conditional write right before it is sent:
//
//   - claimed: send it; then MarkSent (kept SentTTL) or, when the send
//     failed, Release, so that the retry sends it. A failed message never
//     holds back the others of its change: those are sent and marked, and
//     the retry skips them;
//   - already sent: skip it; that is what keeps a retry from sending twice;
//   - in flight: another process claimed it and has not finished. Claims
//     lapse after ClaimLease; a live Notifier is done with a claim long
//     before: a send takes at most sendTimeout, and less when the
//     invocation's deadline is nearer, so that the Ledger write after it
//     (at most ledgerTimeout) still ends before the deadline; no claim is
//     taken without minSendTime for the send. So a claim still held is one
//     whose process died. The Notifier waits for the lease to lapse, when
//     its deadline allows, and takes the message over; otherwise the record
//     fails and its retry does.
//
// Claiming after the send instead would send twice whenever the claim's
// write failed; claiming for good before it would lose the message whenever
// the send failed or the process died. The one case left is a process that
// dies after the provider accepted a message and before MarkSent: its
// message goes out a second time after the lease, as neither SES nor SMS
// takes an idempotency key. A duplicate there is the price of never losing
// a "your window changed".
type Notifier struct {
	Composer   Composer
	Businesses Businesses
	Email      EmailSender
	SMS        SMSSender // nil: texts are off, and each one is logged instead
	// Operator publishes to the operator's topic; nil: the stack has
	// none, and each such message is logged instead (ctl businesses list
	// --pending still lists what it would say).
	Operator OperatorSender
	Ledger   Ledger
	Log      *slog.Logger
	Now      func() time.Time
	// Metrics hears what became of each message; nil: nobody.
	Metrics Metrics
	// Links stores the one-tap links of the messages that tell a business
	// of a new request (booking.NewRequestLink); nil: those messages link
	// the inbox's page of the request, behind its sign-in.
	Links SignInTokens

	// sleep waits d or until ctx ends; nil is a timer. Tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// SignInTokens stores a sign-in token's record; booking.Store does.
type SignInTokens interface {
	PutSignInToken(ctx context.Context, rec booking.SignInRecord) error
}

// Metrics counts the messages handed to their channel and those that did
// not go out this time (pkg/metrics writes them as CloudWatch EMF lines). A
// message skipped as sent before, or not sent by design (texts off, the
// number opted out), is neither.
type Metrics interface {
	NotificationSent(ctx context.Context, channel string)
	NotificationFailed(ctx context.Context, channel string)
}

// Bounds of the calls made while a claim is held; see Notifier.
const (
	sendTimeout   = 10 * time.Second // the most a send may take
	minSendTime   = 2 * time.Second  // the least a send is given
	ledgerTimeout = 3 * time.Second  // the most MarkSent or Release may take
	margin        = time.Second      // between the last Ledger write and the deadline
)

// errNoTime fails a message that cannot be claimed before the deadline.
var errNoTime = errors.New("too close to the invocation's deadline to send; the retry will")

// Notify sends the messages of every change that leads from before (nil
// when after was just created) to after. It returns an error when any
// message could not be sent; the others went out, and a call with the same
// requests sends only what is missing.
func (n *Notifier) Notify(ctx context.Context, before *booking.Request, after booking.Request) error {
	changes := Changes(before, after)
	if len(changes) == 0 {
		return nil
	}
	b, err := n.Businesses.Business(ctx, after.BusinessSlug)
	if booking.ErrorCode(err) == booking.NotFound {
		// Nobody to write on behalf of: retrying will not bring it back.
		n.Log.Warn("notify: the request's business is gone", "request", booking.LogRef(after.Code), "business", after.BusinessSlug)
		return nil
	}
	if err != nil {
		return fmt.Errorf("notify %s: %w", after.Code, err)
	}
	var msgs []Message
	for _, ch := range changes {
		if kind, ok := businessKind(ch.Event); ok && (kind == KindNewRequest || kind == KindNudge) {
			ch.Link = n.requestLink(ctx, b, after.Code)
		}
		msgs = append(msgs, n.Composer.Messages(ch, after, b)...)
	}
	return n.Send(ctx, msgs)
}

// requestLink mints and stores the one-tap link that opens request code
// in business b's web inbox, signed in (booking.NewRequestLink), for the
// messages to b's own address and phone; "" when there is none to make
// (no Links, an example or preview business, no inbox_email) or it could
// not be stored: the message then links the request's page behind the
// sign-in, which is worse but never wrong. A retry of the change mints
// another; one that goes unsent lapses unused.
func (n *Notifier) requestLink(ctx context.Context, b *booking.Business, code string) string {
	if n.Links == nil || b.Example || b.Preview {
		return ""
	}
	token, rec, ok := booking.NewRequestLink(b, code, n.Now())
	if !ok {
		return ""
	}
	if err := n.Links.PutSignInToken(ctx, rec); err != nil {
		n.Log.Warn("notify: the one-tap link was not stored; the message links the inbox", "request", booking.LogRef(code), "error", err)
		return ""
	}
	return OneTapLink(n.Composer.SiteURL, token, code)
}

// OneTapLink is the address of a one-tap link: the web inbox's sign-in
// page of the token, which comes back to the request's page when the
// token is spent or expired and the owner signs in otherwise.
func OneTapLink(siteURL, token, code string) string {
	return siteURL + "/inbox/sign-in/" + url.PathEscape(token) + "?next=" + url.QueryEscape("/inbox/requests/"+code)
}

// LimitReached tells business slug, once, that a limit of what it takes
// from strangers refused requests in the clock hour of hour
// (Composer.LimitMessages). Every call for the same business and hour
// yields the same message ID (LimitChangeID), which the Ledger claims as it
// claims a change's: a retried stream record, or a second record of that
// hour, sends nothing twice. A business that is gone is nobody to tell.
func (n *Notifier) LimitReached(ctx context.Context, slug string, hour time.Time) error {
	b, err := n.Businesses.Business(ctx, slug)
	if booking.ErrorCode(err) == booking.NotFound {
		n.Log.Warn("notify: the business of a limit hit is gone", "business", slug)
		return nil
	}
	if err != nil {
		return fmt.Errorf("notify %s: %w", LimitChangeID(slug, hour), err)
	}
	return n.Send(ctx, n.Composer.LimitMessages(b, hour))
}

// Send sends each message that was not sent before, in order, and returns
// the errors of those that failed.
func (n *Notifier) Send(ctx context.Context, msgs []Message) error {
	var errs []error
	for _, m := range msgs {
		if err := n.send(ctx, m); err != nil {
			if n.Metrics != nil {
				n.Metrics.NotificationFailed(ctx, string(m.Channel))
			}
			errs = append(errs, fmt.Errorf("message %s: %w", logRef(m.ID), err)) // logged: the code opens the person's pages
		}
	}
	return errors.Join(errs...)
}

func (n *Notifier) send(ctx context.Context, m Message) error {
	var deliver func(context.Context, Message) error
	switch m.Channel {
	case ChannelEmail:
		deliver = n.Email.SendEmail
	case ChannelSMS:
		if n.SMS == nil {
			n.logMessage(slog.LevelWarn, "notify: texts are off (no origination identity); not sent", m)
			return nil
		}
		out, err := n.Ledger.OptedOut(ctx, smsPhone(m))
		if err != nil {
			return err
		}
		if out {
			n.logMessage(slog.LevelInfo, "notify: the number opted out of texts; not sent", m)
			return nil
		}
		deliver = n.SMS.SendText
	case ChannelOperator:
		if n.Operator == nil {
			n.logMessage(slog.LevelWarn, "notify: the stack has no operator topic; not sent", m)
			return nil
		}
		deliver = n.Operator.SendOperator
	default:
		return fmt.Errorf("unknown channel %q", m.Channel)
	}

	c, err := n.claim(ctx, m.ID)
	if err != nil {
		return err
	}
	if c.State == AlreadySent {
		n.logMessage(slog.LevelInfo, "notify: sent before; skipped", m)
		return nil
	}

	sendCtx, cancel := context.WithTimeout(ctx, n.sendTime(ctx, 0))
	sendErr := deliver(sendCtx, m)
	cancel()
	// The Ledger's write must happen even when ctx ended during the send.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ledgerTimeout)
	defer cancel()
	switch {
	case sendErr == nil:
		if err := n.Ledger.MarkSent(lctx, m.ID, c.Token, n.Now()); err != nil {
			// Sent all the same: failing the record would not unsend it.
			n.Log.Error("notify: sent, but not marked sent; a retry after the claim lapses sends it again",
				"message", logRef(m.ID), "error", err)
		}
		n.logMessage(slog.LevelInfo, "notify: sent", m)
		if n.Metrics != nil {
			n.Metrics.NotificationSent(ctx, string(m.Channel))
		}
		return nil
	case errors.Is(sendErr, ErrOptedOut):
		if err := n.Ledger.RecordOptOut(lctx, smsPhone(m), n.Now()); err != nil {
			return errors.Join(fmt.Errorf("record the opt-out: %w", err), n.Ledger.Release(lctx, m.ID, c.Token))
		}
		if err := n.Ledger.MarkSent(lctx, m.ID, c.Token, n.Now()); err != nil {
			n.Log.Error("notify: opt-out recorded, message not marked done", "message", logRef(m.ID), "error", err)
		}
		n.logMessage(slog.LevelInfo, "notify: the number opted out of texts; recorded, not sent", m)
		return nil
	default:
		if err := n.Ledger.Release(lctx, m.ID, c.Token); err != nil {
			return errors.Join(sendErr, fmt.Errorf("release the claim (it lapses in %s): %w", ClaimLease, err))
		}
		return sendErr
	}
}

// claim claims message id, waiting for a claim held by a dead process to
// lapse when the deadline leaves time for that.
func (n *Notifier) claim(ctx context.Context, id string) (Claim, error) {
	for waited := false; ; waited = true {
		if n.sendTime(ctx, 0) < minSendTime {
			return Claim{}, errNoTime
		}
		c, err := n.Ledger.Claim(ctx, id, n.Now())
		if err != nil || c.State != InFlight {
			return c, err
		}
		wait := c.Until.Sub(n.Now())
		if waited || n.sendTime(ctx, wait) < minSendTime {
			return Claim{}, fmt.Errorf("claimed by another process until %s", c.Until.UTC().Format(time.RFC3339))
		}
		n.Log.Warn("notify: claimed by another process; waiting for its claim to lapse", "message", logRef(id), "wait", wait)
		if err := n.wait(ctx, wait); err != nil {
			return Claim{}, err
		}
	}
}

// sendTime returns how long a send that starts after waiting wait may
// take: sendTimeout, or less, so that the Ledger write after it still ends
// before ctx's deadline.
func (n *Notifier) sendTime(ctx context.Context, wait time.Duration) time.Duration {
	deadline, ok := ctx.Deadline()
	if !ok {
		return sendTimeout
	}
	return min(sendTimeout, deadline.Sub(n.Now())-wait-ledgerTimeout-margin)
}

func (n *Notifier) wait(ctx context.Context, d time.Duration) error {
	if n.sleep != nil {
		return n.sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// logMessage logs what became of a message, never its recipient or text.
func (n *Notifier) logMessage(level slog.Level, msg string, m Message) {
	n.Log.Log(context.Background(), level, msg, "message", logRef(m.ID), "kind", m.Kind, "audience", m.Audience, "channel", m.Channel)
}

// logRef is how logs name message id: a request's by its code's LogRef
// (booking.LogMessageRef), since the code opens the person's pages; a limit
// hit's as it is, a business's slug and an hour.
func logRef(id string) string {
	if isLimitMessage(id) {
		return id
	}
	return booking.LogMessageRef(id)
}

// smsPhone is the 10 digits a text goes to.
func smsPhone(m Message) string { return strings.TrimPrefix(m.To, "+1") }
