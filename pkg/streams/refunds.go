package streams

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

// Refunds is the refund-deposits function's handler of a batch of stream
// records, which gives deposits back: for each stored move whose deposit became
// refunded (booking.RefundOwed), it calls payments.Refund with the
// payment's reference.
//
// Why the stream: the move stores the refunded state atomically with the
// request's new state; the stream carries that write here at least once,
// retrying until it succeeds. A crash between the move and the refund
// loses nothing, and the functions that move requests (the inbox, the
// person's pages, the operator's CLI) need no Stripe key. Refund is
// idempotent on the payment, so a record delivered again refunds once.
//
// Records are handled in order. The first that fails is reported in
// BatchItemFailures and the rest of the batch is left for the retry, which
// starts from it: a refund is never skipped. With payments nil (Stripe
// off) a refund owed fails its record, so it lands in the dead-letter
// queue rather than being dropped.
func Refunds(payments booking.Payments, log *slog.Logger) func(context.Context, events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	return func(ctx context.Context, e events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		res := events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}
		refunds := 0
		for _, rec := range e.Records {
			w, ok, err := dynamo.DecodeRequestWrite(rec)
			if err == nil && ok {
				var before *booking.DepositRecord
				if w.Before != nil {
					before = w.Before.Deposit
				}
				switch {
				case !booking.RefundOwed(before, w.After.Deposit):
				case payments == nil:
					err = fmt.Errorf("a refund of payment %s is owed, but payments are off (no STRIPE_SECRET_ARN)", w.After.Deposit.PaymentRef)
				default:
					if err = payments.Refund(ctx, w.After.Code, w.After.Deposit.PaymentRef); err == nil {
						refunds++
					}
				}
			}
			if err != nil {
				log.Error("refunds: record failed; the stream retries it", "sequence_number", rec.Change.SequenceNumber, "error", err)
				res.BatchItemFailures = append(res.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: rec.Change.SequenceNumber})
				break
			}
		}
		log.Info("refunds: batch", "records", len(e.Records), "refunds", refunds, "failed", len(res.BatchItemFailures))
		return res, nil
	}
}
