package dynamo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// The remind index: a third sparse index, of the accepted requests whose
// reminder is still to be sent, and the new ones whose business's nudge
// is (booking.Request.ReminderDue), by
// remind_shard and remind_at; keys only. Kept apart from the sweep index,
// whose keys say when a request lapses.
const (
	indexRemind     = "remind"
	attrRemindShard = "remind_shard" // while a reminder is due: the remind index's key
	attrRemindAt    = "remind_at"    // while a reminder is due: booking.Request.ReminderDue (N, Unix seconds)
	attrReminderDue = "reminder_due" // booking.Request's field (S, RFC 3339)
	prefixRemind    = "REMIND#"
	remindShards    = 8
)

// remindShard is the remind index partition of the request with the given code.
func remindShard(code string) string { return shardOf(prefixRemind, remindShards, code) }

// remindKeys adds the remind index's keys to item, the item of r, while r
// is accepted with a reminder, or new with a nudge, still to be sent.
func remindKeys(item map[string]types.AttributeValue, r booking.Request) {
	if r.ReminderDue.IsZero() {
		delete(item, attrReminderDue) // omitzero in JSON; the encoder only knows omitempty
		return
	}
	if r.Status == booking.StatusAccepted || r.Status == booking.StatusNew { // a reminder, or a nudge
		item[attrRemindShard] = str(remindShard(r.Code))
		item[attrRemindAt] = unix(r.ReminderDue)
	}
}

// DueReminders queries each shard of the remind index for requests whose
// reminder is due at or before now, a page at a time. The index is
// eventually consistent: a request just moved or reminded may still be
// listed; RecordReminder's condition turns it away.
func (s *Store) DueReminders(ctx context.Context, now time.Time, fn func(codes []string) error) error {
	return s.dueCodes(ctx, indexRemind, attrRemindShard, attrRemindAt, prefixRemind, remindShards, now, fn)
}

// RecordReminder puts the request as after on the condition that the
// stored one is still in before's state (accepted for a reminder, new for
// a nudge) with before's window, before's remind_at (the reminder is
// still to be sent) and before's history (no way to hear back was added
// since: it would be dropped). after has no ReminderDue,
// so the put takes it out of the remind index; of two sweeps that race,
// one write passes.
func (s *Store) RecordReminder(ctx context.Context, before, after booking.Request) error {
	item, err := requestItem(after)
	if err != nil {
		return err
	}
	start, err := attributevalue.Marshal(before.Window.Start)
	if err != nil {
		return fmt.Errorf("encode window start: %w", err)
	}
	values := map[string]types.AttributeValue{
		":status": str(string(before.Status)), ":start": start, ":at": unix(before.ReminderDue),
	}
	// A contact change since the read leaves the state, the window and
	// remind_at as they were: the history's length says it was not.
	cond := "#status = :status AND #window.#start = :start AND " + attrRemindAt + " = :at AND " + historyCondition(before, values)
	_, err = s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                 s.table,
		Item:                      item,
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  map[string]string{"#status": attrStatus, "#window": attrWindow, "#start": "start", "#history": attrHistory},
		ExpressionAttributeValues: values,
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return booking.Errorf(booking.InvalidTransition, "request %s was moved, reminded or changed just now", before.Code)
	}
	if err != nil {
		return fmt.Errorf("record the reminder of %s: %w", before.Code, err)
	}
	return nil
}

// remindCondition is the part of a move's condition that says the
// request's reminder is as read in before (still due at the same time, or
// none), setting its value in values.
func remindCondition(before booking.Request, values map[string]types.AttributeValue) string {
	if before.ReminderDue.IsZero() {
		return "attribute_not_exists(" + attrRemindAt + ")"
	}
	values[":remindAt"] = unix(before.ReminderDue)
	return attrRemindAt + " = :remindAt"
}
