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
// in one transaction: createSteps lists its items; see booking.Store and
// README.md.
func (s *Store) CreateRequest(ctx context.Context, r booking.Request, key *booking.IdempotencyRecord, limits booking.Limits, now time.Time) error {
	what := "create request " + r.Code
	if limits.PerHour < 1 || limits.Unanswered < 1 {
		return fmt.Errorf("%s: limits must be at least 1, got %+v", what, limits)
	}
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
		t, err := s.createSteps(r, key, limits, slot, hold, now)
		if err != nil {
			return err
		}
		return s.run(ctx, what, t, last)
	})
}

// createSteps is the transaction of a create: its items in the order
// their refusals take precedence, the first that fails deciding. Adding a
// condition to a create is adding its step here.
func (s *Store) createSteps(r booking.Request, key *booking.IdempotencyRecord, limits booking.Limits, slot slotChoice, hold holdChoice, now time.Time) (transaction, error) {
	r.Counted = true // this create counts it against its business and its e-mail
	pk := businessPK(r.BusinessSlug)
	keyed, err := s.keySteps(r.BusinessSlug, key, now)
	if err != nil {
		return nil, err
	}
	request, err := s.newRequestSteps(r)
	if err != nil {
		return nil, err
	}
	email := r.Contact.Email
	maxOpen := booking.MaxOpenPerPhone
	return slices.Concat(
		// The idempotency record, unless a live one is under the key: *KeyUsedError.
		keyed,
		// Neither the phone nor the e-mail blocked at the business: REQUEST_REFUSED.
		s.notBlocked(r, "phone", r.Contact.Phone),
		ifSet(email, s.notBlocked(r, "email", email)),
		// One of the business's hourly slots, taken for an hour: RATE_LIMITED.
		s.slotSteps(pk, slot, now),
		// One more unanswered request at the business: RATE_LIMITED; and
		// its hold counted on the window length: INVALID_WINDOW.
		s.openCountSteps(r, limits.Unanswered),
		// One more open request for the phone, and the e-mail: TOO_MANY_OPEN.
		s.countSteps(pk, phoneSK(r.Contact.Phone), maxOpen, errTooManyOpenPhone, nil),
		ifSet(email, s.countSteps(pk, emailSK(r.BusinessSlug, email), maxOpen, errTooManyOpenEmail, nil)),
		// The window's hold, and its slots kept free (crews): WINDOW_TAKEN.
		s.holdSteps(r, hold, now, takenIfConflicted),
		// The request, unless its code is taken.
		request,
	), nil
}

// CreateTransaction is the TransactWriteItems that CreateRequest sends
// for r without an idempotency key, taking the given hourly slot, at a
// business of one crew (no read of the window's holds): for infra/bench,
// whose floor sends it with the bare client, so that it times the very
// transaction of a create.
func (s *Store) CreateTransaction(r booking.Request, limits booking.Limits, slot int, now time.Time) (*dynamodb.TransactWriteItemsInput, error) {
	if limits.Crews.Ever != 1 {
		return nil, fmt.Errorf("create transaction of %s: crews %+v, want one crew ever", r.Code, limits.Crews)
	}
	t, err := s.createSteps(r, nil, limits, slotChoice{slot: slot, free: true}, holdChoice{}, now)
	if err != nil {
		return nil, err
	}
	return t.input(), nil
}

// ifSet is steps when value is set, none when it is empty: the steps of an
// e-mail address, which a request may lack.
func ifSet(value string, steps []step) []step {
	if value == "" {
		return nil
	}
	return steps
}

// keySteps puts the idempotency record under key, unless a live one is
// there: its failed condition returns the stored record, which the create
// answers with (*booking.KeyUsedError); a record that lapsed in between
// frees the key, and the create runs again. None without a key.
func (s *Store) keySteps(slug string, key *booking.IdempotencyRecord, now time.Time) ([]step, error) {
	if key == nil {
		return nil, nil
	}
	response, err := json.Marshal(key.Response)
	if err != nil {
		return nil, fmt.Errorf("encode idempotent response: %w", err)
	}
	item := keyMap(businessPK(slug), idempotencySK(key.Key))
	item[attrBodyHash] = str(key.BodyHash)
	item[attrResponse] = str(string(response))
	item[attrExpiresAt] = unix(key.Expires)
	return []step{{
		item: types.TransactWriteItem{Put: &types.Put{
			TableName:                           s.table,
			Item:                                item,
			ConditionExpression:                 aws.String("attribute_not_exists(pk) OR expires_at <= :now"),
			ExpressionAttributeValues:           map[string]types.AttributeValue{":now": unix(now)},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}},
		failed: func(ctx context.Context, f failure) error {
			if err := s.usedKey(ctx, f.old, slug, key.Key, now); err != nil {
				return err
			}
			return fmt.Errorf("%w: the idempotency record is gone", errAgain) // the key is free again
		},
		// Read afresh: a conflict returns no old item, and the one a failed
		// condition returned had lapsed. No live record: no answer.
		stuck: func(ctx context.Context, _ failure) error { return s.usedKey(ctx, nil, slug, key.Key, now) },
	}}, nil
}

// notBlocked checks that the contact of the kind ("phone", "email") is not
// blocked at r's business (booking.Bookings.BlockContacts).
func (s *Store) notBlocked(r booking.Request, kind, value string) []step {
	return []step{{
		item: types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
			TableName:           s.table,
			Key:                 keyMap(businessPK(r.BusinessSlug), blockSK(r.BusinessSlug, kind, value)),
			ConditionExpression: aws.String("attribute_not_exists(pk)"),
		}},
		failed: refuse(errBlocked),
	}}
}

// slotSteps takes the chosen hourly slot of the business for an hour,
// unless it is taken. Taken since the read found it free, the create runs
// again; taken when none was free, the business is at requests_per_hour
// until the slot frees. Still conflicting, the business is contended.
func (s *Store) slotSteps(pk string, slot slotChoice, now time.Time) []step {
	until := now.Add(time.Hour)
	item := keyMap(pk, rateSK(slot.slot))
	item[attrUsedUntil] = unix(until)
	item[attrExpiresAt] = unix(until)
	return []step{{
		item: types.TransactWriteItem{Put: &types.Put{
			TableName:                 s.table,
			Item:                      item,
			ConditionExpression:       aws.String("attribute_not_exists(pk) OR used_until <= :now"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":now": unix(now)},
		}},
		failed: staleOr(slot.free, &booking.Error{Code: booking.RateLimited, RetryAfter: slot.freeAt.Sub(now),
			Message: "this business has taken as many online requests as it takes in an hour"}),
		crowded: errContended,
	}}
}

// countSteps adds one to the open count under the key, unless it is at
// max: full answers that; crowded, if not nil, a count that keeps
// conflicting.
func (s *Store) countSteps(pk, sk string, max int, full, crowded error) []step {
	return []step{{item: types.TransactWriteItem{Update: s.countUnder(pk, sk, attrOpenCount, max)}, failed: refuse(full), crowded: crowded}}
}

// openCountSteps adds one to the business's open count, unless it is at
// max (RATE_LIMITED), and counts r's hold on its window length, unless the
// business has another now (INVALID_WINDOW: takeOn).
func (s *Store) openCountSteps(r booking.Request, max int) []step {
	u := s.countUnder(businessPK(r.BusinessSlug), skOpen, attrOpenCount, max)
	takeOn(u, r)
	return []step{{item: types.TransactWriteItem{Update: u}, failed: s.orWindowLength(r, refuse(errUnanswered)), crowded: errContended}}
}

// The refusals of a create's steps: each made once, as no answer carries
// anything of the request (an hourly slot's refusal does: its RetryAfter).
var (
	errBlocked = booking.Errorf(booking.RequestRefused, "this business takes no online request from this contact")
	// errUnanswered: the business has its most unanswered requests.
	errUnanswered = &booking.Error{Code: booking.RateLimited, RetryAfter: unansweredRetry,
		Message: "this business has as many unanswered online requests as it takes at once"}
	errTooManyOpenPhone = booking.ErrTooManyOpenPhone
	errTooManyOpenEmail = booking.ErrTooManyOpenEmail
	// errContended: creates at one business so many at once that they keep
	// colliding, more than its limits let through anyway.
	errContended = &booking.Error{Code: booking.RateLimited, RetryAfter: contendedRetry,
		Message: "this business is taking many online requests right now"}
	errWindowTaken = booking.Errorf(booking.WindowTaken, "this arrival window was just taken; pick another one")
)

// newRequestSteps puts the new request r, unless its code is taken.
func (s *Store) newRequestSteps(r booking.Request) ([]step, error) {
	item, err := requestItem(r)
	if err != nil {
		return nil, err
	}
	return []step{{
		item: types.TransactWriteItem{Put: &types.Put{
			TableName:           s.table,
			Item:                item,
			ConditionExpression: aws.String("attribute_not_exists(pk)"),
		}},
		failed: func(_ context.Context, f failure) error {
			return fmt.Errorf("create request %s: a request with this code exists: %w", r.Code, f.err)
		},
	}}, nil
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
	eraseKeys(item, r) // erase.go
	return item, nil
}
