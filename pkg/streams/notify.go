// Package streams holds the Lambda handlers on the table's DynamoDB stream
// (NEW_AND_OLD_IMAGES, with partial batch responses): the notifier's and
// the refunds'.
package streams

import (
	"context"
	"errors"
	"log/slog"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/notify"
)

// Notify is the notify function's handler of a batch of stream records:
// each write of a request item goes through n.Notify, and each insert of a
// limit hit's record (dynamo.DecodeLimitHit) through n.LimitReached, and
// each insert of an outgoing message (dynamo.DecodeOutgoing) through n.Send;
// every other record is passed over.
// A record that fails is reported in BatchItemFailures, never as the
// invocation's error, so that Lambda retries from it rather than the whole
// batch; the records after it are retried too, and the Ledger keeps their
// messages from going out twice. Once a request's record fails, its later
// records in the batch fail unprocessed, so that the person never hears of
// a change before the one it follows; so do a failed limit hit's later
// records of the same business and hour.
func Notify(n *notify.Notifier, log *slog.Logger) func(context.Context, events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
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
		failedHits := map[string]bool{}
		hits := 0
		messages := 0
		for _, rec := range e.Records {
			fail := func(code string, err error) {
				log.Error("notify: record failed", "sequence_number", rec.Change.SequenceNumber, "request", booking.LogRef(code), "error", err)
				failedCodes[code] = true
				res.BatchItemFailures = append(res.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: rec.Change.SequenceNumber})
			}
			// A limit hit names a business and an hour, not a request: its
			// slug is public, and logged as it is.
			if slug, hour, ok, err := dynamo.DecodeLimitHit(rec); ok || err != nil {
				id := notify.LimitChangeID(slug, hour)
				if ok {
					hits++
				}
				switch {
				case err != nil:
				case failedHits[id]:
					err = errors.New("an earlier record of this limit hit failed")
				default:
					err = n.LimitReached(ctx, slug, hour)
				}
				if err != nil {
					log.Error("notify: record failed", "sequence_number", rec.Change.SequenceNumber, "business", slug, "error", err)
					failedHits[id] = true
					res.BatchItemFailures = append(res.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: rec.Change.SequenceNumber})
				}
				continue
			}
			// An outgoing message (the web inbox's sign-in e-mail, a
			// phone code) goes out once, as every message does: the
			// Ledger claims its ID. Its ID names a business, never its
			// recipient or text.
			if m, ok, err := dynamo.DecodeOutgoing(rec); ok || err != nil {
				if ok {
					messages++
					err = n.Send(ctx, []notify.Message{m})
				}
				if err != nil {
					log.Error("notify: record failed", "sequence_number", rec.Change.SequenceNumber, "message", m.ID, "error", err)
					res.BatchItemFailures = append(res.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: rec.Change.SequenceNumber})
				}
				continue
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
		log.Info("notify: batch", "records", len(e.Records), "request_writes", writes, "limit_hits", hits, "messages", messages, "failed", len(res.BatchItemFailures))
		return res, nil
	}
}
