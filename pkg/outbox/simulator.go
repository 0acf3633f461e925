package outbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/notify"
)

// SES's mailbox simulator: addresses at SimulatorDomain that SES answers as
// a real mailbox would, without touching anyone's reputation. The outbox
// answers them as SES does, publishing the event SES's configuration set
// would put on EventBridge (the same JSON: an EventBridge envelope around
// an SES event publishing record) to the reporter it was given, which on
// the local server is the mail-events function's handler. So `make run`
// and the tests try the whole path: booking with bounce@simulator.amazonses.com
// records the address undeliverable. A label after "+" is allowed
// (bounce+first@...), as SES allows it.
//
//	success@   delivered: no event (the set publishes no deliveries)
//	ooto@      delivered, and the out-of-office reply goes to the sender: no event
//	bounce@    a permanent bounce (Permanent / General, 5.1.1)
//	complaint@ delivered, then a complaint (abuse)
//	suppressionlist@  not sent: a bounce of sub-type OnAccountSuppressionList
const SimulatorDomain = "simulator.amazonses.com"

// Reporter takes an SES event as EventBridge hands it to a function: the
// event's JSON.
type Reporter func(ctx context.Context, event []byte) error

// SimulateSES has the outbox answer the mailbox simulator's addresses,
// publishing each event to report, stamped by now. Call it before the
// first message.
func (o *Outbox) SimulateSES(report Reporter, now func() time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.report, o.now = report, now
}

// simulated reads a simulator address: its mailbox ("bounce", ...), or "".
func simulated(to string) string {
	local, domain, ok := strings.Cut(strings.ToLower(strings.TrimSpace(to)), "@")
	if !ok || domain != SimulatorDomain {
		return ""
	}
	box, _, _ := strings.Cut(local, "+")
	return box
}

// simulate publishes the event SES would for m, if its address is one of
// the simulator's that yields one. A failure is logged, as SES's events
// reach their function later, whatever became of the send.
func (o *Outbox) simulate(ctx context.Context, m notify.Message) {
	o.mu.Lock()
	report, now := o.report, o.now
	o.mu.Unlock()
	if report == nil || m.Channel != notify.ChannelEmail {
		return
	}
	box := simulated(m.To)
	event, err := sesEvent(box, m, now().UTC())
	if err != nil || event == nil {
		if err != nil {
			o.log.ErrorContext(ctx, "outbox: SES simulator event", "error", err.Error())
		}
		return
	}
	if err := report(ctx, event); err != nil {
		o.log.ErrorContext(ctx, "outbox: SES simulator event not handled", "mailbox", box, "error", err.Error())
		return
	}
	o.log.InfoContext(ctx, "outbox: SES simulator event", "mailbox", box)
}

// tagValue is what SES takes as a message tag's value.
var tagValue = regexp.MustCompile(`^[A-Za-z0-9_.@-]{1,256}$`)

// sesEvent builds the EventBridge event SES publishes for a message to the
// simulator's mailbox box, nil for a mailbox that yields none.
func sesEvent(box string, m notify.Message, now time.Time) ([]byte, error) {
	tags := map[string][]string{"ses:configuration-set": {"doorstep-local"}}
	// The person's messages carry their request, as pkg/sesmail tags them.
	if code, _, _ := strings.Cut(m.Change, "#"); m.Audience == notify.AudiencePerson && tagValue.MatchString(code) {
		tags["request"] = []string{code}
	}
	sent := now.Add(-time.Second)
	messageID := randomHex(16) + "-000000"
	mail := map[string]any{
		"timestamp": sent.Format(time.RFC3339Nano), "source": "notify@doorstep.localhost",
		"messageId": messageID, "destination": []string{m.To}, "headersTruncated": false,
		"commonHeaders": map[string]any{"to": []string{m.To}, "subject": m.Subject, "messageId": messageID},
		"tags":          tags,
	}
	feedback := randomHex(16) + "-000000"
	var detailType string
	detail := map[string]any{"mail": mail}
	bounce := func(subType, status, diagnostic string) map[string]any {
		r := map[string]any{"emailAddress": m.To, "action": "failed", "diagnosticCode": diagnostic}
		if status != "" {
			r["status"] = status
		}
		return map[string]any{
			"feedbackId": feedback, "bounceType": "Permanent", "bounceSubType": subType,
			"bouncedRecipients": []any{r}, "timestamp": now.Format(time.RFC3339Nano), "reportingMTA": "dsn; simulator.amazonses.com",
		}
	}
	switch box {
	case "bounce":
		detailType = "Email Bounced"
		detail["eventType"] = "Bounce"
		detail["bounce"] = bounce("General", "5.1.1", "smtp; 550 5.1.1 user unknown")
	case "suppressionlist":
		detailType = "Email Bounced"
		detail["eventType"] = "Bounce"
		detail["bounce"] = bounce("OnAccountSuppressionList", "",
			"Amazon SES did not send the message to this address because it is on the suppression list for your account.")
	case "complaint":
		detailType = "Email Complaint Received"
		detail["eventType"] = "Complaint"
		detail["complaint"] = map[string]any{
			"feedbackId": feedback, "complainedRecipients": []any{map[string]any{"emailAddress": m.To}},
			"timestamp": now.Format(time.RFC3339Nano), "complaintFeedbackType": "abuse", "userAgent": "Amazon SES Mailbox Simulator",
		}
	default: // success, ooto, any other: no event the configuration set publishes
		return nil, nil
	}
	e, err := json.Marshal(map[string]any{
		"version": "0", "id": randomHex(16), "detail-type": detailType, "source": "aws.ses",
		"account": "000000000000", "time": now.Format(time.RFC3339), "region": "us-east-1", "resources": []string{},
		"detail": detail,
	})
	if err != nil {
		return nil, fmt.Errorf("SES simulator event: %w", err)
	}
	return e, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
