package dynamo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// uncount is the update that counts a request off an open count.
func (s *Store) uncount(pk, sk string) types.TransactWriteItem {
	return types.TransactWriteItem{Update: &types.Update{
		TableName:                 s.table,
		Key:                       keyMap(pk, sk),
		UpdateExpression:          aws.String("SET open_count = open_count - :one"),
		ConditionExpression:       aws.String("open_count >= :one"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1)},
	}}
}

// MoveRequest stores a move of a request in one TransactWriteItems:
// moveSteps lists its items; see README.md. It runs again, after a
// jittered pause, when another transaction wrote the same items at the
// same moment, or when a hold changed between the read that found it and
// the write.
func (s *Store) MoveRequest(ctx context.Context, before, after booking.Request, t booking.Transition, crews booking.Crews, now time.Time) error {
	what := "move request " + before.Code
	return s.attempts(ctx, what, func(last bool) error {
		var hold holdChoice
		if t.Effects().MoveWindow {
			var err error
			if hold, err = s.chooseHold(ctx, after, crews, now); err != nil {
				return err
			}
		}
		steps, err := s.moveSteps(ctx, before, after, t, hold, now)
		if err != nil {
			return err
		}
		return s.run(ctx, what, steps, last)
	})
}

// movedMeanwhile answers a move whose request item failed its condition:
// the request is no longer as it was read.
func movedMeanwhile(r booking.Request, t booking.Transition) error {
	if t.From == booking.StatusPendingPayment && t.Action != booking.ActionExpire {
		return booking.Errorf(booking.InvalidTransition,
			"request %s is no longer %s (it was moved just now, or its payment hold lapsed); read it again", r.Code, t.From)
	}
	return booking.Errorf(booking.InvalidTransition,
		"request %s is no longer %s with this window: it was moved just now; read it again", r.Code, t.From)
}

// moveSteps is the transaction of a move, in precedence order, taking the
// new window's hold as chosen. It reads the old window's holds to learn
// which slot this request holds, if it still holds one: the read decides
// only which hold to update or delete, and whether to; the hold's
// condition (it names this request) is checked in the transaction. After
// the last attempt, the first step still failing answers: the new
// window's hold that it is taken, any other that someone else is moving
// the request.
func (s *Store) moveSteps(ctx context.Context, before, after booking.Request, t booking.Transition, hold holdChoice, now time.Time) (transaction, error) {
	e := t.Effects()
	request, err := s.requestMove(before, after, t, now)
	if err != nil {
		return nil, err
	}
	var old []step
	if e.EndPaymentHold || e.ReleaseHold || e.MoveWindow {
		if old, err = s.oldHoldSteps(ctx, before, after, e); err != nil {
			return nil, err
		}
	}
	var counts, blocks, newHold []step
	if e.DecrementPhone {
		counts = s.uncountSteps(before)
	}
	if e.BlockContact {
		blocks = s.blockSteps(before)
	}
	if e.MoveWindow {
		// As a create's, but at the last attempt any failure says taken;
		// counted on the window length, on the open count item that the
		// move may update already (one update per item).
		newHold = s.holdSteps(after, hold, now, refuse(errWindowTaken))
		i := slices.IndexFunc(counts, func(st step) bool {
			return st.item.Update != nil && st.item.Update.Key[attrSK].(*types.AttributeValueMemberS).Value == skOpen
		})
		if i >= 0 {
			takeOn(counts[i].item.Update, after)
			counts[i].failed = s.orWindowLength(after, counts[i].failed)
		} else {
			newHold = append([]step{s.takeStep(after)}, newHold...)
		}
	}
	steps := slices.Concat(
		// The request, from the state and window it was read with: INVALID_TRANSITION.
		[]step{{item: types.TransactWriteItem{Put: request}, failed: refuse(movedMeanwhile(before, t))}},
		// One open request fewer for its phone (and business and e-mail).
		counts,
		// Not genuine: its phone and e-mail blocked at the business.
		blocks,
		// The new window's hold, as a create takes one: WINDOW_TAKEN.
		newHold,
		// The old window's hold, released or kept; changed since its read: run again.
		old,
	)
	busy := refuse(booking.Errorf(booking.InvalidTransition, "request %s is being moved by someone else right now; read it again", before.Code))
	for i := range steps {
		if steps[i].stuck == nil {
			steps[i].stuck = busy
		}
	}
	return steps, nil
}

// uncountSteps count r off the open count of its phone and, when its
// create counted it, of its business and its e-mail: one open request
// fewer. A count already at zero is an error.
func (s *Store) uncountSteps(r booking.Request) []step {
	pk := businessPK(r.BusinessSlug)
	sks := []string{phoneSK(r.Contact.Phone)}
	if r.Counted {
		sks = append(sks, skOpen)
		if r.Contact.Email != "" {
			sks = append(sks, emailSK(r.BusinessSlug, r.Contact.Email))
		}
	}
	steps := make([]step, len(sks))
	for i, sk := range sks {
		steps[i] = step{item: s.uncount(pk, sk), failed: func(_ context.Context, f failure) error {
			return fmt.Errorf("move request %s: item %d: an open count is already zero: %w", r.Code, f.index, f.err)
		}}
	}
	return steps
}

// blockSteps block the phone and e-mail of r, a request that is not
// genuine, at its business: a put, so marking twice is the same.
func (s *Store) blockSteps(r booking.Request) []step {
	block := func(kind, value string) step {
		item := keyMap(businessPK(r.BusinessSlug), blockSK(r.BusinessSlug, kind, value))
		item[attrRequestCode] = str(r.Code) // which request it came from
		return step{item: types.TransactWriteItem{Put: &types.Put{TableName: s.table, Item: item}}}
	}
	steps := []step{block("phone", r.Contact.Phone)}
	if r.Contact.Email != "" {
		steps = append(steps, block("email", r.Contact.Email))
	}
	return steps
}

// oldHoldSteps update or delete the hold of before on its window: kept to
// the window's end once the deposit is paid (the request's own condition
// says the hold has not lapsed, so it is still this request's), or
// released if this request still holds it. A read finds the slot it is
// on; a hold changed since that read runs the move again.
func (s *Store) oldHoldSteps(ctx context.Context, before, after booking.Request, e booking.Effects) ([]step, error) {
	slot, err := s.heldSlot(ctx, before)
	if err != nil {
		return nil, err
	}
	switch {
	case slot < 0 && e.EndPaymentHold:
		return nil, fmt.Errorf("move request %s: no hold on its window names it", before.Code)
	case slot < 0:
		return nil, nil // released already (the window lapsed and was taken by another)
	}
	key := keyMap(businessPK(before.BusinessSlug), holdSK(before.Window.Start, slot))
	ours := map[string]types.AttributeValue{":code": str(before.Code)}
	var item types.TransactWriteItem
	if e.EndPaymentHold {
		ours[":until"] = unix(after.HoldUntil())
		item.Update = &types.Update{
			TableName:                 s.table,
			Key:                       key,
			UpdateExpression:          aws.String("SET expires_at = :until"),
			ConditionExpression:       aws.String("request_code = :code"),
			ExpressionAttributeValues: ours,
		}
	} else {
		item.Delete = &types.Delete{
			TableName:                 s.table,
			Key:                       key,
			ConditionExpression:       aws.String("request_code = :code"),
			ExpressionAttributeValues: ours,
		}
	}
	return []step{{item: item, failed: refuse(errAgain)}}, nil
}

// requestMove is the write of the request item in a move: the whole
// request as it is after the move, put on the condition that the stored one
// is still in the move's from state with before's window (and, from
// pending_payment, that the payment hold has lapsed for an expiry and has
// not for anything else; from accepted, that its reminder is as read).
// Every move changes the state or the window, so two moves from the same
// request as read cannot both pass, and nothing one of them wrote is lost;
// the reminder's write changes neither, so its remind_at is pinned too. A put, not an update: the request leaves the
// sweep index by leaving out its keys.
func (s *Store) requestMove(before, after booking.Request, t booking.Transition, now time.Time) (*types.Put, error) {
	item, err := requestItem(after)
	if err != nil {
		return nil, err
	}
	oldStart, err := attributevalue.Marshal(before.Window.Start)
	if err != nil {
		return nil, fmt.Errorf("encode window start: %w", err)
	}
	values := map[string]types.AttributeValue{":from": str(string(t.From)), ":start": oldStart}
	// A contact change since the read changes neither the state, nor the
	// window, nor remind_at: the history's length says it was not.
	cond := "#status = :from AND #window.#start = :start AND " + historyCondition(before, values)
	if t.From == booking.StatusPendingPayment {
		values[":now"] = unix(now)
		if t.Action == booking.ActionExpire {
			cond += " AND " + attrSweepAt + " <= :now"
		} else {
			cond += " AND " + attrSweepAt + " > :now"
		}
	}
	if t.From == booking.StatusAccepted || t.From == booking.StatusNew {
		// A reminder (or, of a new request, the business's nudge) recorded
		// since the read changed neither the state nor the window: its
		// remind_at, as read, says it was not, so that this put never drops
		// its event.
		cond += " AND " + remindCondition(before, values)
	}
	return &types.Put{
		TableName:                 s.table,
		Item:                      item,
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  map[string]string{"#status": attrStatus, "#window": attrWindow, "#start": "start", "#history": attrHistory},
		ExpressionAttributeValues: values,
	}, nil
}

// RecordLatePayment puts the request as after on the condition that the
// stored one still has before's state and deposit state; see
// booking.Store.
func (s *Store) RecordLatePayment(ctx context.Context, before, after booking.Request) error {
	item, err := requestItem(after)
	if err != nil {
		return err
	}
	cond := "#status = :status AND #deposit.#state = :deposit"
	if before.Erased.IsZero() {
		cond += " AND attribute_not_exists(erased)" // never puts back details erased since the read
	}
	_, err = s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                s.table,
		Item:                     item,
		ConditionExpression:      aws.String(cond),
		ExpressionAttributeNames: map[string]string{"#status": attrStatus, "#deposit": "deposit", "#state": "state"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":status": str(string(before.Status)), ":deposit": str(before.Deposit.State),
		},
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return booking.Errorf(booking.InvalidTransition, "request %s was moved just now", before.Code)
	}
	if err != nil {
		return fmt.Errorf("record late payment of %s: %w", before.Code, err)
	}
	return nil
}
