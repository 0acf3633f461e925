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

// moveItems says where each item of a move transaction is; -1 for an item
// it does not have.
type moveItems struct {
	request, oldHold int
	newHold          [2]int // the new window's hold and checks: [first, end)
	counters         [2]int // the open counts' items: [first, end)
}

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

// MoveRequest stores a move of a request in one TransactWriteItems; see
// README.md. It runs again, after a jittered pause, when another
// transaction wrote the same items at the same moment, or when a hold
// changed between the read that found it and the write.
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
		in, at, err := s.moveTransaction(ctx, before, after, t, hold, now)
		if err != nil {
			return err
		}
		c, err := s.transact(ctx, what, in)
		if c == nil {
			return err
		}
		switch {
		case retryable(c.code):
		case c.item == at.request:
			return movedMeanwhile(before, t)
		case c.item >= at.counters[0] && c.item < at.counters[1]:
			return fmt.Errorf("move request %s: item %d: an open count is already zero: %w", before.Code, c.item, c.err)
		case c.item >= at.newHold[0] && c.item < at.newHold[1] && hold.room:
			// Another take got a slot since they were read: read again.
		case c.item >= at.newHold[0] && c.item < at.newHold[1]:
			return windowTaken()
		case c.item == at.oldHold:
			// The hold changed since it was read: read it again.
		default:
			return fmt.Errorf("move request %s: item %d: %w", before.Code, c.item, c.err)
		}
		switch {
		case !last:
			return errAgain
		case c.item >= at.newHold[0] && c.item < at.newHold[1]:
			// As a create does: a window others keep writing is taken.
			return windowTaken()
		}
		return booking.Errorf(booking.InvalidTransition, "request %s is being moved by someone else right now; read it again", before.Code)
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

// moveTransaction builds the TransactWriteItems of a move, taking the new
// window's hold as chosen. It reads the old window's holds to learn which
// slot this request holds, if it still holds one: the read decides only
// which hold to update or delete, and whether to; the hold's condition
// (it names this request) is checked in the transaction.
func (s *Store) moveTransaction(ctx context.Context, before, after booking.Request, t booking.Transition, hold holdChoice, now time.Time) (*dynamodb.TransactWriteItemsInput, moveItems, error) {
	at := moveItems{request: -1, oldHold: -1}
	e := t.Effects()
	pk := businessPK(before.BusinessSlug)
	var items []types.TransactWriteItem

	// 1. The request: from the expected state and window, to the new ones.
	put, err := s.requestMove(before, after, t, now)
	if err != nil {
		return nil, at, err
	}
	at.request = len(items)
	items = append(items, types.TransactWriteItem{Put: put})

	// 2. One open request fewer for the phone and, when the create counted
	// them, for the business and the e-mail.
	if e.DecrementPhone {
		at.counters[0] = len(items)
		items = append(items, s.uncount(pk, phoneSK(before.Contact.Phone)))
		if before.Counted {
			items = append(items, s.uncount(pk, skOpen))
			if before.Contact.Email != "" {
				items = append(items, s.uncount(pk, emailSK(before.BusinessSlug, before.Contact.Email)))
			}
		}
		at.counters[1] = len(items)
	}

	// 3. Not a genuine request: its phone and e-mail are blocked at the
	// business (a put, so marking twice is the same).
	if e.BlockContact {
		block := func(kind, value string) types.TransactWriteItem {
			item := keyMap(pk, blockSK(before.BusinessSlug, kind, value))
			item[attrRequestCode] = str(before.Code) // which request it came from
			return types.TransactWriteItem{Put: &types.Put{TableName: s.table, Item: item}}
		}
		items = append(items, block("phone", before.Contact.Phone))
		if before.Contact.Email != "" {
			items = append(items, block("email", before.Contact.Email))
		}
	}

	// 4. The new window's hold, as a create takes one.
	if e.MoveWindow {
		items, at.newHold = s.addHold(items, after, hold, now)
	}

	// 5. The old window's hold: kept to the window's end once the deposit
	// is paid (the request's own condition says the hold has not lapsed, so
	// it is still this request's), or released if this request still holds
	// it. A read finds the slot it is on.
	if !e.EndPaymentHold && !e.ReleaseHold && !e.MoveWindow {
		return &dynamodb.TransactWriteItemsInput{TransactItems: items}, at, nil
	}
	slot, err := s.heldSlot(ctx, before)
	if err != nil {
		return nil, at, err
	}
	switch {
	case slot < 0 && e.EndPaymentHold:
		return nil, at, fmt.Errorf("move request %s: no hold on its window names it", before.Code)
	case slot < 0:
		// Released already (the window lapsed and was taken by another).
		return &dynamodb.TransactWriteItemsInput{TransactItems: items}, at, nil
	}
	oldKey := keyMap(pk, holdSK(before.Window.Start, slot))
	ours := map[string]types.AttributeValue{":code": str(before.Code)}
	switch {
	case e.EndPaymentHold:
		at.oldHold = len(items)
		ours[":until"] = unix(after.HoldUntil())
		items = append(items, types.TransactWriteItem{Update: &types.Update{
			TableName:                 s.table,
			Key:                       oldKey,
			UpdateExpression:          aws.String("SET expires_at = :until"),
			ConditionExpression:       aws.String("request_code = :code"),
			ExpressionAttributeValues: ours,
		}})
	default:
		at.oldHold = len(items)
		items = append(items, types.TransactWriteItem{Delete: &types.Delete{
			TableName:                 s.table,
			Key:                       oldKey,
			ConditionExpression:       aws.String("request_code = :code"),
			ExpressionAttributeValues: ours,
		}})
	}
	return &dynamodb.TransactWriteItemsInput{TransactItems: items}, at, nil
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
	cond := "#status = :from AND #window.#start = :start"
	if t.From == booking.StatusPendingPayment {
		values[":now"] = unix(now)
		if t.Action == booking.ActionExpire {
			cond += " AND " + attrSweepAt + " <= :now"
		} else {
			cond += " AND " + attrSweepAt + " > :now"
		}
	}
	if t.From == booking.StatusAccepted {
		// A reminder recorded since the read changed neither the state nor
		// the window: its remind_at, as read, says it was not, so that this
		// put never drops its event.
		cond += " AND " + remindCondition(before, values)
	}
	return &types.Put{
		TableName:                 s.table,
		Item:                      item,
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  map[string]string{"#status": attrStatus, "#window": attrWindow, "#start": "start"},
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
	_, err = s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                s.table,
		Item:                     item,
		ConditionExpression:      aws.String("#status = :status AND #deposit.#state = :deposit"),
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
