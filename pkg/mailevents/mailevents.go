// Package mailevents is the edge that hears what SES reports about the
// mail Doorstep sent: the events an SES configuration set publishes to
// EventBridge (bounces, complaints, rejects, delivery delays) and SES's
// "Sending Status Disabled/Enabled" events, as an EventBridge rule hands
// them to the mail-events function (and the local outbox hands them over
// for SES's mailbox simulator addresses). It decodes the wire once, turns
// each into booking.MailEvent for the domain (booking.Bookings.
// RecordMailEvent: the rules of what makes an address undeliverable), and
// counts what the operator watches as EMF metrics.
//
// Which SES reports are what (docs/design.md, "Undeliverable addresses"):
//
//   - a Bounce whose bounceType is Permanent: a permanent bounce, except
//     the bounceSubType OnAccountSuppressionList, which only reports a
//     send to an address the account's suppression list already holds (no
//     new bounce; booking.MailSuppressed);
//   - a Bounce whose bounceType is Transient or Undetermined: a transient
//     bounce (SES publishes one only once it gave up retrying);
//   - a Complaint: a complaint, for each complained recipient;
//   - a DeliveryDelay or a Reject: logged, recorded nothing (SES is still
//     trying; a reject is about the content, not the address);
//   - Sending Status Disabled: logged at ERROR and counted as
//     metrics.SendingDisabled for the operator's alarm; Enabled: logged.
package mailevents

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/metrics"
)

// RequestTag is the SES message tag whose value is the request a message
// was about (pkg/sesmail sets it on the person's messages; the local
// outbox passes it on). Tag values take letters, digits, "_", "-", "." and
// "@", which a request code is made of.
const RequestTag = "request"

// The detail-types of the events the rule sends.
const (
	DetailBounced          = "Email Bounced"
	DetailComplaint        = "Email Complaint Received"
	DetailRejected         = "Email Rejected"
	DetailDeliveryDelayed  = "Email Delivery Delayed"
	DetailSendingDisabled  = "Sending Status Disabled"
	DetailSendingEnabled   = "Sending Status Enabled"
	subTypeOnAccountSuppr  = "OnAccountSuppressionList"
	bounceTypePermanent    = "Permanent"
	bounceTypeTransient    = "Transient"
	bounceTypeUndetermined = "Undetermined"
)

// Recorder is the domain's side: booking.Bookings.
type Recorder interface {
	RecordMailEvent(ctx context.Context, ev booking.MailEvent) (booking.MailOutcome, error)
}

// Report is what one event did, the function's answer (and the tests').
type Report struct {
	DetailType string `json:"detail_type"`
	// Heard is how many recipients' reports went to the domain.
	Heard int `json:"heard"`
	// Recorded lists the reasons of the records this event made.
	Recorded []booking.UndeliverableReason `json:"recorded"`
	// SendingDisabled is true for a Sending Status Disabled event.
	SendingDisabled bool `json:"sending_disabled,omitempty"`
}

// detail is the part of an SES event publishing record (the EventBridge
// event's detail) this package reads.
type detail struct {
	EventType string `json:"eventType"`
	Mail      struct {
		Timestamp   time.Time           `json:"timestamp"`
		Destination []string            `json:"destination"`
		Tags        map[string][]string `json:"tags"`
	} `json:"mail"`
	Bounce *struct {
		BounceType        string      `json:"bounceType"`
		BounceSubType     string      `json:"bounceSubType"`
		BouncedRecipients []recipient `json:"bouncedRecipients"`
		Timestamp         time.Time   `json:"timestamp"`
	} `json:"bounce"`
	Complaint *struct {
		ComplainedRecipients  []recipient `json:"complainedRecipients"`
		ComplaintFeedbackType string      `json:"complaintFeedbackType"`
		Timestamp             time.Time   `json:"timestamp"`
	} `json:"complaint"`
	DeliveryDelay *struct {
		DelayType         string      `json:"delayType"`
		DelayedRecipients []recipient `json:"delayedRecipients"`
	} `json:"deliveryDelay"`
	Reject *struct {
		Reason string `json:"reason"`
	} `json:"reject"`
}

type recipient struct {
	EmailAddress string `json:"emailAddress"`
}

// statusDetail is a Sending Status event's detail.
type statusDetail struct {
	Data struct {
		Origin string `json:"origin"`
		Record struct {
			Status string `json:"status"`
			Cause  string `json:"cause"`
		} `json:"record"`
	} `json:"data"`
}

// Handler returns the function's handler: each event is decoded once and
// its recipients' reports go to rec. A report the domain refuses (an
// address that is none) is logged and skipped; a failure of the store
// fails the invocation, so that Lambda retries it (each write is
// idempotent) and then hands it to the dead-letter queue.
func Handler(rec Recorder, m *metrics.Metrics, log *slog.Logger) func(context.Context, events.EventBridgeEvent) (Report, error) {
	return func(ctx context.Context, e events.EventBridgeEvent) (Report, error) {
		return handle(ctx, rec, m, log, e)
	}
}

func handle(ctx context.Context, rec Recorder, m *metrics.Metrics, log *slog.Logger, e events.EventBridgeEvent) (Report, error) {
	rep := Report{DetailType: e.DetailType, Recorded: []booking.UndeliverableReason{}}
	if e.Source != "aws.ses" {
		log.WarnContext(ctx, "mail event from elsewhere, ignored", "source", e.Source, "detail_type", e.DetailType)
		return rep, nil
	}
	switch e.DetailType {
	case DetailSendingDisabled, DetailSendingEnabled:
		var d statusDetail
		if err := json.Unmarshal(e.Detail, &d); err != nil {
			return rep, fmt.Errorf("mail event %s: %w", e.DetailType, err)
		}
		if e.DetailType == DetailSendingDisabled {
			rep.SendingDisabled = true
			m.Count(ctx, metrics.SendingDisabled, "", "")
			log.ErrorContext(ctx, "SES paused sending: no e-mail goes out until it is enabled again",
				"origin", d.Data.Origin, "cause", d.Data.Record.Cause, "resources", e.Resources)
		} else {
			log.InfoContext(ctx, "SES enabled sending again", "origin", d.Data.Origin, "cause", d.Data.Record.Cause, "resources", e.Resources)
		}
		return rep, nil
	}

	var d detail
	if err := json.Unmarshal(e.Detail, &d); err != nil {
		return rep, fmt.Errorf("mail event %s: %w", e.DetailType, err)
	}
	code := requestCode(d.Mail.Tags)
	ref := logRef(code)
	var reports []booking.MailEvent
	switch {
	case d.Bounce != nil:
		kind := booking.MailBounced
		switch {
		case d.Bounce.BounceSubType == subTypeOnAccountSuppr:
			kind = booking.MailSuppressed
		case d.Bounce.BounceType == bounceTypeTransient, d.Bounce.BounceType == bounceTypeUndetermined:
			kind = booking.MailBouncedTransient
		case d.Bounce.BounceType != bounceTypePermanent:
			log.WarnContext(ctx, "bounce of an unknown type, taken as transient", "bounce_type", d.Bounce.BounceType)
			kind = booking.MailBouncedTransient
		}
		at := firstTime(d.Bounce.Timestamp, e.Time, d.Mail.Timestamp)
		for _, r := range d.Bounce.BouncedRecipients {
			reports = append(reports, booking.MailEvent{Kind: kind, Email: r.EmailAddress, At: at, RequestCode: code})
		}
		log.InfoContext(ctx, "mail bounced", "bounce_type", d.Bounce.BounceType, "bounce_sub_type", d.Bounce.BounceSubType,
			"recipients", len(d.Bounce.BouncedRecipients), "request", ref)
	case d.Complaint != nil:
		at := firstTime(d.Complaint.Timestamp, e.Time, d.Mail.Timestamp)
		for _, r := range d.Complaint.ComplainedRecipients {
			reports = append(reports, booking.MailEvent{Kind: booking.MailComplained, Email: r.EmailAddress, At: at, RequestCode: code})
		}
		log.InfoContext(ctx, "mail complained of", "feedback_type", d.Complaint.ComplaintFeedbackType,
			"recipients", len(d.Complaint.ComplainedRecipients), "request", ref)
	case d.DeliveryDelay != nil:
		log.InfoContext(ctx, "mail delayed; SES keeps trying", "delay_type", d.DeliveryDelay.DelayType,
			"recipients", len(d.DeliveryDelay.DelayedRecipients), "request", ref)
		return rep, nil
	case d.Reject != nil:
		log.WarnContext(ctx, "mail rejected by SES for its content", "reason", d.Reject.Reason, "request", ref)
		return rep, nil
	default:
		log.WarnContext(ctx, "mail event not acted on", "detail_type", e.DetailType, "event_type", d.EventType)
		return rep, nil
	}

	for _, ev := range reports {
		out, err := rec.RecordMailEvent(ctx, ev)
		if err != nil {
			if c := booking.ErrorCode(err); c == booking.InvalidEmail || c == booking.InvalidRequest {
				// The error's text quotes what SES gave as the address:
				// only its code is logged.
				log.WarnContext(ctx, "mail event refused", "error_code", string(c))
				continue
			}
			return rep, fmt.Errorf("mail event %s: %w", e.DetailType, err)
		}
		rep.Heard++
		if out.Recorded != nil {
			rep.Recorded = append(rep.Recorded, out.Recorded.Reason)
			m.Count(ctx, metrics.UndeliverableRecorded, metrics.DimensionReason, string(out.Recorded.Reason))
			log.InfoContext(ctx, "address recorded undeliverable", "reason", string(out.Recorded.Reason), "request", ref)
		} else if ev.Kind == booking.MailBouncedTransient {
			log.InfoContext(ctx, "transient bounce counted", "days", out.TransientDays, "request", ref)
		}
	}
	return rep, nil
}

// requestCode is the request tag's value, "" without one.
func requestCode(tags map[string][]string) string {
	if v := tags[RequestTag]; len(v) == 1 {
		return strings.TrimSpace(v[0])
	}
	return ""
}

// logRef is how the log names the request a message was about: the code's
// booking.LogRef, as every other line names a request (the code opens the
// person's pages), "" when the message named none.
func logRef(code string) string {
	if code == "" {
		return ""
	}
	return booking.LogRef(code)
}

// firstTime is the first of ts that is set.
func firstTime(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t.UTC()
		}
	}
	return time.Time{}
}
