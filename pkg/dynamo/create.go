package dynamo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// CreateRequest stores r with its window hold, its phone counter increment
// and, when key is not nil, the idempotency record, in one transaction. See
// README.md.
func (s *Store) CreateRequest(ctx context.Context, r booking.Request, key *booking.IdempotencyRecord, now time.Time) error {
	in, at, err := s.createTransaction(r, key, now)
	if err != nil {
		return err
	}
	what := "create request " + r.Code
	for attempt := 1; ; attempt++ {
		c, err := s.transact(ctx, what, in)
		if c == nil {
			return err
		}
		why := c.err
		switch {
		case retryable(c.code):
		case c.item == at.idempotency:
			if err := s.usedKey(ctx, c.reasons[c.item].Item, r.BusinessSlug, key.Key, now); err != nil {
				return err
			}
			// The record lapsed in between: the key is free again.
			why = fmt.Errorf("create request %s: idempotency record gone", r.Code)
		case c.item == at.counter:
			return booking.Errorf(booking.TooManyOpen,
				"this phone number already has %d open requests with this business", booking.MaxOpenPerPhone)
		case c.item == at.hold:
			return windowTaken()
		case c.item == at.request:
			return fmt.Errorf("create request %s: a request with this code exists: %w", r.Code, c.err)
		default:
			return fmt.Errorf("create request %s: item %d: %w", r.Code, c.item, c.err)
		}
		if attempt == maxAttempts {
			return s.stillConflicted(ctx, r, key, now, at, c.reasons, why)
		}
		if err := pause(ctx, what, attempt); err != nil {
			return err
		}
	}
}

// positions says where each item of a create transaction is; -1 for an item
// it does not have.
type positions struct{ idempotency, counter, hold, request int }

// stillConflicted answers a create whose last attempt still conflicted with
// other transactions. A window that others keep writing is taken; a key that
// others keep writing is used if a live record can be read under it.
func (s *Store) stillConflicted(ctx context.Context, r booking.Request, key *booking.IdempotencyRecord, now time.Time,
	at positions, reasons []types.CancellationReason, err error) error {
	if at.idempotency >= 0 && aws.ToString(reasons[at.idempotency].Code) != reasonNone {
		// Read afresh: a conflict returns no old item, and the one a failed
		// condition returned had lapsed.
		if err := s.usedKey(ctx, nil, r.BusinessSlug, key.Key, now); err != nil {
			return err
		}
	}
	if i, code := firstFailure(reasons); i == at.hold && code == reasonTransactionConflict {
		return windowTaken()
	}
	return fmt.Errorf("create request %s: still conflicting after %d attempts: %w", r.Code, maxAttempts, err)
}

func windowTaken() error {
	return booking.Errorf(booking.WindowTaken, "this arrival window was just taken; pick another one")
}

// createTransaction builds the TransactWriteItems of CreateRequest, and says
// where each item is in it.
func (s *Store) createTransaction(r booking.Request, key *booking.IdempotencyRecord, now time.Time) (*dynamodb.TransactWriteItemsInput, positions, error) {
	at := positions{idempotency: -1}
	pk := businessPK(r.BusinessSlug)
	var items []types.TransactWriteItem

	// 1. The idempotency record, unless a live one is there.
	if key != nil {
		response, err := json.Marshal(key.Response)
		if err != nil {
			return nil, at, fmt.Errorf("encode idempotent response: %w", err)
		}
		item := keyMap(pk, idempotencySK(key.Key))
		item[attrBodyHash] = str(key.BodyHash)
		item[attrResponse] = str(string(response))
		item[attrExpiresAt] = unix(key.Expires)
		at.idempotency = len(items)
		items = append(items, types.TransactWriteItem{Put: &types.Put{
			TableName:                           s.table,
			Item:                                item,
			ConditionExpression:                 aws.String("attribute_not_exists(pk) OR expires_at <= :now"),
			ExpressionAttributeValues:           map[string]types.AttributeValue{":now": unix(now)},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}})
	}

	// 2. One more open request for the phone, unless it has the most.
	at.counter = len(items)
	items = append(items, types.TransactWriteItem{Update: &types.Update{
		TableName:           s.table,
		Key:                 keyMap(pk, phoneSK(r.Contact.Phone)),
		UpdateExpression:    aws.String("SET open_count = if_not_exists(open_count, :zero) + :one"),
		ConditionExpression: aws.String("attribute_not_exists(open_count) OR open_count < :max"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":zero": num(0),
			":one":  num(1),
			":max":  num(booking.MaxOpenPerPhone),
		},
	}})

	// 3. The window hold, unless a live one is there.
	at.hold = len(items)
	items = append(items, types.TransactWriteItem{Put: s.takeHold(r, now)})

	// 4. The request, unless its code is taken.
	request, err := requestItem(r)
	if err != nil {
		return nil, at, err
	}
	at.request = len(items)
	items = append(items, types.TransactWriteItem{Put: &types.Put{
		TableName:           s.table,
		Item:                request,
		ConditionExpression: aws.String("attribute_not_exists(pk)"),
	}})

	return &dynamodb.TransactWriteItemsInput{TransactItems: items}, at, nil
}

// requestItem is the item of request r: its JSON fields as attributes, and
// the keys of the indexes it is in (the inbox once the business sees it,
// the sweep while it waits for its deposit).
func requestItem(r booking.Request) (map[string]types.AttributeValue, error) {
	item, err := attributevalue.MarshalMapWithOptions(r, jsonNamesEncoding)
	if err != nil {
		return nil, fmt.Errorf("encode request %s: %w", r.Code, err)
	}
	if r.HoldExpires.IsZero() {
		delete(item, attrHoldExpires) // omitzero in JSON; the encoder only knows omitempty
	}
	item[attrPK] = str(requestPK(r.Code))
	item[attrSK] = str(skRequest)
	if r.SeenByBusiness() {
		item[attrInboxSlug] = str(r.BusinessSlug)
	}
	if r.Status == booking.StatusPendingPayment {
		item[attrSweepShard] = str(sweepShard(r.Code))
		item[attrSweepAt] = unix(r.HoldExpires)
	}
	return item, nil
}
