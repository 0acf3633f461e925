package dynamo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// CreateRequest stores r with its window hold, its counters, an hourly
// slot of its business and, when key is not nil, the idempotency record,
// in one transaction; see booking.Store and README.md.
func (s *Store) CreateRequest(ctx context.Context, r booking.Request, key *booking.IdempotencyRecord, limits booking.Limits, now time.Time) error {
	what := "create request " + r.Code
	if limits.PerHour < 1 || limits.Unanswered < 1 {
		return fmt.Errorf("%s: limits must be at least 1, got %+v", what, limits)
	}
	r.Counted = true // this create counts it against its business and its e-mail
	return s.attempts(ctx, what, func(last bool) error {
		// Which slot to take depends on a read of the slots. The read only
		// picks the slot to try; the slot's condition in the transaction
		// decides.
		slot, err := s.freeSlot(ctx, r.BusinessSlug, limits.PerHour, now)
		if err != nil {
			return err
		}
		hold, err := s.chooseHold(ctx, r, limits.Crews, now)
		if err != nil {
			return err
		}
		in, at, err := s.createTransaction(r, key, limits, slot, hold, now)
		if err != nil {
			return err
		}
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
		case c.item == at.blockPhone || c.item == at.blockEmail:
			return booking.Errorf(booking.RequestRefused, "this business takes no online request from this contact")
		case c.item == at.slot && slot.free:
			// Another create took the slot since it was read: read again.
		case c.item == at.slot:
			return &booking.Error{Code: booking.RateLimited, RetryAfter: slot.freeAt.Sub(now),
				Message: "this business has taken as many online requests as it takes in an hour"}
		case c.item == at.business:
			return &booking.Error{Code: booking.RateLimited, RetryAfter: unansweredRetry,
				Message: "this business has as many unanswered online requests as it takes at once"}
		case c.item == at.phone:
			return booking.Errorf(booking.TooManyOpen,
				"this phone number already has %d open requests with this business", booking.MaxOpenPerPhone)
		case c.item == at.email:
			return booking.Errorf(booking.TooManyOpen,
				"this e-mail address already has %d open requests with this business", booking.MaxOpenPerPhone)
		case c.item >= at.hold[0] && c.item < at.hold[1] && hold.room:
			// Another create took a slot since they were read: read again.
		case c.item >= at.hold[0] && c.item < at.hold[1]:
			return windowTaken()
		case c.item == at.request:
			return fmt.Errorf("create request %s: a request with this code exists: %w", r.Code, c.err)
		default:
			return fmt.Errorf("create request %s: item %d: %w", r.Code, c.item, c.err)
		}
		if last {
			return s.stillConflicted(ctx, r, key, now, at, c.reasons, why)
		}
		return errAgain
	})
}

// positions says where each item of a create transaction is; -1 for an item
// it does not have.
type positions struct {
	idempotency, blockPhone, blockEmail, slot, business, phone, email, request int
	hold                                                                       [2]int // the hold's take and checks: [first, end)
}

// contendedRetry is the Retry-After of a create that kept colliding with
// other creates at the same business.
const contendedRetry = 10 * time.Second

// unansweredRetry is the Retry-After of a business at its most unanswered
// requests: they end when it answers, which nobody can foresee.
const unansweredRetry = 15 * time.Minute

// slotChoice is the hourly slot a create tries to take: a free one, or,
// when none is, the one that frees first, at freeAt.
type slotChoice struct {
	slot   int
	free   bool
	freeAt time.Time
}

// freeSlot reads the business's hourly slots and picks one to take: a free
// one (never taken, or taken more than an hour before now), at random so
// that creates at once try different ones, or, when none is free, the one
// that frees first. perHour slots give at most perHour creates in any
// hour: a slot taken is taken for an hour.
func (s *Store) freeSlot(ctx context.Context, slug string, perHour int, now time.Time) (slotChoice, error) {
	until := make([]int64, perHour) // 0: never taken
	p := dynamodb.NewQueryPaginator(s.client.Query, &dynamodb.QueryInput{
		TableName:              s.table,
		KeyConditionExpression: aws.String("pk = :pk AND begins_with(sk, :prefix)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str(businessPK(slug)), ":prefix": str(prefixRate),
		},
		ConsistentRead: aws.Bool(true),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return slotChoice{}, fmt.Errorf("read the hourly slots of %q: %w", slug, err)
		}
		for _, item := range page.Items {
			sk, _ := item[attrSK].(*types.AttributeValueMemberS)
			if sk == nil {
				continue
			}
			i, err := strconv.Atoi(strings.TrimPrefix(sk.Value, prefixRate))
			if err != nil || i < 0 || i >= perHour {
				continue // a slot of a higher limit, since lowered
			}
			if until[i], err = unixAttr(item, attrUsedUntil); err != nil {
				return slotChoice{}, fmt.Errorf("hourly slot %d of %q: %w", i, slug, err)
			}
		}
	}
	var free []int
	first := 0
	for i, u := range until {
		if u <= now.Unix() {
			free = append(free, i)
		}
		if u < until[first] {
			first = i
		}
	}
	if len(free) > 0 {
		return slotChoice{slot: free[rand.N(len(free))], free: true}, nil
	}
	return slotChoice{slot: first, freeAt: time.Unix(until[first], 0)}, nil
}

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
	conflicted := func(i int) bool { return i >= 0 && aws.ToString(reasons[i].Code) == reasonTransactionConflict }
	switch {
	case slices.ContainsFunc(reasons[at.hold[0]:at.hold[1]], func(r types.CancellationReason) bool {
		code := aws.ToString(r.Code)
		return code == reasonTransactionConflict || code == reasonConditionalCheckFailed
	}):
		return windowTaken()
	case conflicted(at.slot) || conflicted(at.business):
		// So many creates at once at one business that they keep
		// colliding: more than its limits let through anyway.
		return &booking.Error{Code: booking.RateLimited, RetryAfter: contendedRetry,
			Message: "this business is taking many online requests right now"}
	}
	return fmt.Errorf("create request %s: still conflicting after %d attempts: %w", r.Code, maxAttempts, err)
}

func windowTaken() error {
	return booking.Errorf(booking.WindowTaken, "this arrival window was just taken; pick another one")
}

// createTransaction builds the TransactWriteItems of CreateRequest, and says
// where each item is in it. The items are in the order their refusals take
// precedence: the first that fails decides.
func (s *Store) createTransaction(r booking.Request, key *booking.IdempotencyRecord, limits booking.Limits, slot slotChoice, hold holdChoice, now time.Time) (*dynamodb.TransactWriteItemsInput, positions, error) {
	at := positions{idempotency: -1, blockEmail: -1, email: -1}
	pk := businessPK(r.BusinessSlug)
	var items []types.TransactWriteItem
	add := func(pos *int, item types.TransactWriteItem) {
		*pos = len(items)
		items = append(items, item)
	}
	nowValue := map[string]types.AttributeValue{":now": unix(now)}

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
		add(&at.idempotency, types.TransactWriteItem{Put: &types.Put{
			TableName:                           s.table,
			Item:                                item,
			ConditionExpression:                 aws.String("attribute_not_exists(pk) OR expires_at <= :now"),
			ExpressionAttributeValues:           nowValue,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}})
	}

	// 2. Neither the phone nor the e-mail is blocked at the business.
	notBlocked := func(kind, value string) types.TransactWriteItem {
		return types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
			TableName:           s.table,
			Key:                 keyMap(pk, blockSK(r.BusinessSlug, kind, value)),
			ConditionExpression: aws.String("attribute_not_exists(pk)"),
		}}
	}
	add(&at.blockPhone, notBlocked("phone", r.Contact.Phone))
	if r.Contact.Email != "" {
		add(&at.blockEmail, notBlocked("email", r.Contact.Email))
	}

	// 3. One of the business's hourly slots, taken for an hour.
	until := now.Add(time.Hour)
	slotItem := keyMap(pk, rateSK(slot.slot))
	slotItem[attrUsedUntil] = unix(until)
	slotItem[attrExpiresAt] = unix(until)
	add(&at.slot, types.TransactWriteItem{Put: &types.Put{
		TableName:                 s.table,
		Item:                      slotItem,
		ConditionExpression:       aws.String("attribute_not_exists(pk) OR used_until <= :now"),
		ExpressionAttributeValues: nowValue,
	}})

	// 4. One more open request for the business, the phone and the e-mail,
	// unless one of them has the most.
	add(&at.business, types.TransactWriteItem{Update: s.countOpen(pk, skOpen, limits.Unanswered)})
	add(&at.phone, types.TransactWriteItem{Update: s.countOpen(pk, phoneSK(r.Contact.Phone), booking.MaxOpenPerPhone)})
	if r.Contact.Email != "" {
		add(&at.email, types.TransactWriteItem{Update: s.countOpen(pk, emailSK(r.BusinessSlug, r.Contact.Email), booking.MaxOpenPerPhone)})
	}

	// 5. The window hold, on a slot with no live hold, and the checks that
	// the window keeps room for no more than its crews.
	items, at.hold = s.addHold(items, r, hold, now)

	// 6. The request, unless its code is taken.
	request, err := requestItem(r)
	if err != nil {
		return nil, at, err
	}
	add(&at.request, types.TransactWriteItem{Put: &types.Put{
		TableName:           s.table,
		Item:                request,
		ConditionExpression: aws.String("attribute_not_exists(pk)"),
	}})

	return &dynamodb.TransactWriteItemsInput{TransactItems: items}, at, nil
}

// countOpen adds one to the open count under the key, unless it is at max.
func (s *Store) countOpen(pk, sk string, max int) *types.Update {
	return s.countUnder(pk, sk, attrOpenCount, max)
}

// countUnder adds one to the number attr of the item under the key (0 when
// it has none), on the condition that it is below max.
func (s *Store) countUnder(pk, sk, attr string, max int) *types.Update {
	return &types.Update{
		TableName:           s.table,
		Key:                 keyMap(pk, sk),
		UpdateExpression:    aws.String("SET " + attr + " = if_not_exists(" + attr + ", :zero) + :one"),
		ConditionExpression: aws.String("attribute_not_exists(" + attr + ") OR " + attr + " < :max"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":zero": num(0),
			":one":  num(1),
			":max":  num(int64(max)),
		},
	}
}

// RecordLimitHit puts the record that a limit of the business refused a
// request in now's clock hour, unless one is there: see booking.Store. The
// record's insert on the table's stream is what tells the business
// (streams.Notify); it lasts two days.
func (s *Store) RecordLimitHit(ctx context.Context, slug string, now time.Time) (bool, error) {
	item := keyMap(businessPK(slug), limitHitSK(now))
	item[attrSlug] = str(slug)
	item[attrExpiresAt] = unix(now.Add(48 * time.Hour))
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           s.table,
		Item:                item,
		ConditionExpression: aws.String("attribute_not_exists(pk)"),
	})
	var exists *types.ConditionalCheckFailedException
	if errors.As(err, &exists) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("record a limit hit of %q: %w", slug, err)
	}
	return true, nil
}

// requestItem is the item of request r: its JSON fields as attributes, and
// the keys of the indexes it is in (the inbox once the business sees it,
// the sweep while it waits for its deposit or for the business's answer,
// the remind index while its reminder is to be sent).
// Every write of a request puts this whole item, so a request leaves an
// index by a put without its keys.
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
	if at := r.LapsesAt(); !at.IsZero() {
		item[attrSweepShard] = str(sweepShard(r.Code))
		item[attrSweepAt] = unix(at)
	}
	remindKeys(item, r)
	return item, nil
}
