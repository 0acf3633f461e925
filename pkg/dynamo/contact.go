package dynamo

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// attrHistory is booking.Request's history attribute (L of M).
const attrHistory = "history"

// ChangeContact stores a way to hear back added to a request (see
// booking.Store) in one TransactWriteItems: contactSteps lists its items.
// The request's put is conditioned on its history's length as read: every
// write of a request appends an event, so of two changes made from one
// read, one passes, and booking.MaxContactChanges, which the domain counts
// in that history, cannot be passed by changes at once.
func (s *Store) ChangeContact(ctx context.Context, before, after booking.Request, now time.Time) error {
	what := "change the contact of request " + before.Code
	return s.attempts(ctx, what, func(last bool) error {
		steps, err := s.contactSteps(before, after, now)
		if err != nil {
			return err
		}
		return s.run(ctx, what, steps, last)
	})
}

// historyCondition is the condition that the stored request's history
// has the length it had as before was read, adding its value to values;
// the expression's names must map #history to attrHistory. Every write of
// a request but the erasure appends an event, the contact change's and the
// reminder's too, which change neither the state nor the window: a put
// from a read made before one of them is refused, and never drops it.
func historyCondition(before booking.Request, values map[string]types.AttributeValue) string {
	if n := len(before.History); n > 0 {
		values[":events"] = num(int64(n))
		return "size(#history) = :events"
	}
	return "attribute_not_exists(#history)" // stored before history was kept
}

// contactSteps is the transaction of ChangeContact, in precedence order.
func (s *Store) contactSteps(before, after booking.Request, now time.Time) (transaction, error) {
	old, email := before.Contact.Email, after.Contact.Email
	// The count moves to another mailbox only: a new tag on the same
	// mailbox (or another case) is the same counter, already counted.
	sameMailbox := old != "" && email != "" && countedEmailSK(before) == emailSK(after.BusinessSlug, email)
	if email != old && email != "" && !sameMailbox {
		after.MailboxCounted = true // counted below by its mailbox, if at all
	}
	item, err := requestItem(after)
	if err != nil {
		return nil, err
	}
	start, err := attributevalue.Marshal(before.Window.Start)
	if err != nil {
		return nil, fmt.Errorf("encode window start: %w", err)
	}
	values := map[string]types.AttributeValue{":status": str(string(before.Status)), ":start": start}
	cond := "#status = :status AND #window.#start = :start AND " + historyCondition(before, values)
	if before.Status.Open() {
		// Still waiting for its deposit, or for an answer: not lapsed.
		values[":now"] = unix(now)
		cond += " AND " + attrSweepAt + " > :now"
	}
	changed := refuse(booking.Errorf(booking.InvalidTransition,
		"request %s changed just now (it was moved, or its contact changed); read it again", before.Code))
	steps := []step{{
		item: types.TransactWriteItem{Put: &types.Put{
			TableName:                 s.table,
			Item:                      item,
			ConditionExpression:       aws.String(cond),
			ExpressionAttributeNames:  map[string]string{"#status": attrStatus, "#window": attrWindow, "#start": "start", "#history": attrHistory},
			ExpressionAttributeValues: values,
		}},
		failed: changed,
	}}
	if email != old && email != "" {
		pk := businessPK(after.BusinessSlug)
		var counts []step
		if before.Status.Open() && before.Counted && !sameMailbox {
			// As a create counts an open request against its e-mail's
			// mailbox; the old one is counted off as it was counted.
			counts = s.countSteps(pk, emailSK(after.BusinessSlug, email), booking.MaxOpenPerPhone, errTooManyOpenEmail, nil)
			if old != "" {
				counts = append(counts, step{item: s.uncount(pk, countedEmailSK(before))})
			}
		}
		steps = slices.Concat(steps,
			// The address not blocked at the business: REQUEST_REFUSED.
			s.notBlocked(after, "email", email),
			// One more open request for the address: TOO_MANY_OPEN.
			counts)
	}
	busy := refuse(booking.Errorf(booking.InvalidTransition,
		"request %s is being changed by someone else right now; read it again", before.Code))
	for i := range steps {
		steps[i].stuck = busy
	}
	return steps, nil
}
