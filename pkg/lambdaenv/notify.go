package lambdaenv

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/notify"
)

// NotifyConfig is what the notify function reads from its environment.
type NotifyConfig struct {
	Config // TABLE_NAME, SITE_URL (status_url is built on it), DYNAMODB_ENDPOINT
	// SenderEmail (SENDER_EMAIL, required) is the address e-mails come
	// from: an identity verified in SES.
	SenderEmail string
	// SMSOriginationIdentity (SMS_ORIGINATION_IDENTITY, optional) is the
	// phone number, sender ID or pool (ID or ARN) texts come from. Without
	// it texts are off: each one is logged as not sent.
	SMSOriginationIdentity string
	// PreviewInboxEmail (PREVIEW_INBOX_EMAIL, optional) gets every message
	// of a preview business instead of its real recipients. Without it
	// preview businesses notify nobody.
	PreviewInboxEmail string
}

// NotifyConfigFrom reads and checks the notify function's configuration.
func NotifyConfigFrom(getenv func(string) string) (NotifyConfig, error) {
	c, err := ConfigFrom(getenv)
	n := NotifyConfig{
		Config:                 c,
		SenderEmail:            strings.TrimSpace(getenv("SENDER_EMAIL")),
		SMSOriginationIdentity: strings.TrimSpace(getenv("SMS_ORIGINATION_IDENTITY")),
		PreviewInboxEmail:      strings.TrimSpace(getenv("PREVIEW_INBOX_EMAIL")),
	}
	errs := []error{err}
	if n.SenderEmail == "" {
		errs = append(errs, errors.New("SENDER_EMAIL is not set"))
	} else if _, ok := booking.NormalizeEmail(n.SenderEmail); !ok {
		errs = append(errs, fmt.Errorf("SENDER_EMAIL must be a bare e-mail address, got %q", n.SenderEmail))
	}
	if _, ok := booking.NormalizeEmail(n.PreviewInboxEmail); !ok {
		errs = append(errs, fmt.Errorf("PREVIEW_INBOX_EMAIL must be a bare e-mail address, got %q", n.PreviewInboxEmail))
	}
	return n, errors.Join(errs...)
}

// Senders builds the notify function's e-mail and SMS senders from its
// configuration; sms is nil when texts are off. functions/notify passes the
// SES and SMS adapters: this package does not import them, so that the
// other functions do not carry their SDKs.
type Senders func(c NotifyConfig) (email notify.EmailSender, sms notify.SMSSender, err error)

// StreamHandler is the Lambda handler of the table's DynamoDB stream, with
// partial batch responses (FunctionResponseTypes: ReportBatchItemFailures).
type StreamHandler = func(context.Context, events.DynamoDBEvent) (events.DynamoDBEventResponse, error)

// NewNotifyHandler builds the notify function's handler from the
// environment (see NotifyConfig): the store and the ledger over the table,
// and the senders senders builds. Bad configuration fails here, at start.
func NewNotifyHandler(ctx context.Context, getenv func(string) string, senders Senders) (StreamHandler, error) {
	c, err := NotifyConfigFrom(getenv)
	if err != nil {
		return nil, err
	}
	client, err := dynamo.NewClient(ctx, c.DynamoDBEndpoint)
	if err != nil {
		return nil, err
	}
	email, sms, err := senders(c)
	if err != nil {
		return nil, err
	}
	log := Logger()
	if sms == nil {
		log.Warn("notify: SMS_ORIGINATION_IDENTITY is not set: texts are off")
	}
	n := &notify.Notifier{
		Composer:   notify.Composer{SiteURL: c.SiteURL, PreviewInbox: c.PreviewInboxEmail},
		Businesses: dynamo.New(client, c.TableName, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, time.Now)),
		Email:      email,
		SMS:        sms,
		Ledger:     dynamo.NewLedger(client, c.TableName),
		Log:        log,
		Now:        time.Now,
	}
	return NotifyStream(n, log), nil
}

// NotifyStream is the handler of a batch of stream records: each write of a
// request item goes through n.Notify; every other record is passed over.
// A record that fails is reported in BatchItemFailures, never as the
// invocation's error, so that Lambda retries from it rather than the whole
// batch; the records after it are retried too, and the Ledger keeps their
// messages from going out twice. Once a request's record fails, its later
// records in the batch fail unprocessed, so that the person never hears of
// a change before the one it follows.
func NotifyStream(n *notify.Notifier, log *slog.Logger) StreamHandler {
	return func(ctx context.Context, e events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		log := log // this invocation's: a warm function serves many
		if lc, ok := lambdacontext.FromContext(ctx); ok {
			log = log.With(slog.String("request_id", lc.AwsRequestID))
		}
		n := *n
		n.Log = log
		res := events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}
		failedCodes := map[string]bool{}
		writes := 0
		for _, rec := range e.Records {
			fail := func(code string, err error) {
				log.Error("notify: record failed", "sequence_number", rec.Change.SequenceNumber, "request", booking.LogRef(code), "error", err)
				failedCodes[code] = true
				res.BatchItemFailures = append(res.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: rec.Change.SequenceNumber})
			}
			w, ok, err := dynamo.DecodeRequestWrite(rec)
			switch {
			case err != nil:
				fail(w.Code, err)
			case !ok:
			case failedCodes[w.Code]:
				writes++
				fail(w.Code, errors.New("an earlier record of this request failed"))
			default:
				writes++
				if err := n.Notify(ctx, w.Before, w.After); err != nil {
					fail(w.Code, err)
				}
			}
		}
		log.Info("notify: batch", "records", len(e.Records), "request_writes", writes, "failed", len(res.BatchItemFailures))
		return res, nil
	}
}
