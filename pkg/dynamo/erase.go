package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// The erase index: a fourth sparse index, of the ended requests not yet
// erased, by erase_shard (ERASE#0 to ERASE#7) and erase_at, the time their
// personal data's time started (booking.Request.PersonalDataFrom); keys
// only. A request enters it when a move ends it and leaves it when it is
// erased. The days to keep are applied when the sweep queries (erase_at
// <= now - days), so changing PersonalDataDays needs no rewrite.
const (
	indexErase     = "erase"
	attrEraseShard = "erase_shard" // while ended and not erased: the erase index's key
	attrEraseAt    = "erase_at"    // while ended and not erased: booking.Request.PersonalDataFrom (N, Unix seconds)
	prefixErase    = "ERASE#"
	eraseShards    = 8
	attrErased     = "erased"
)

// eraseShard is the partition of the erase index under which the ended
// request with the given code waits for its erasure.
func eraseShard(code string) string { return shardOf(prefixErase, eraseShards, code) }

// eraseKeys adds the erase index's keys to item, the item of r,
// while r has ended and is not erased.
func eraseKeys(item map[string]types.AttributeValue, r booking.Request) {
	if r.Erased.IsZero() {
		delete(item, attrErased) // omitzero in JSON; the encoder only knows omitempty
	}
	if from := r.PersonalDataFrom(); !from.IsZero() {
		item[attrEraseShard] = str(eraseShard(r.Code))
		item[attrEraseAt] = unix(from)
	}
}

// EndedBy queries each shard of the erase index for requests
// that ended at or before t, a page at a time; see booking.ErasureStore.
func (s *Store) EndedBy(ctx context.Context, t time.Time, fn func(codes []string) error) error {
	return s.dueCodes(ctx, indexErase, attrEraseShard, attrEraseAt, prefixErase, eraseShards, t, fn)
}

// EraseRequest deletes what else names before's contact and key, then puts
// after on the condition that the stored request is as before was read;
// see booking.ErasureStore. The deletes come first, each on its own
// condition, so that an erasure stopped between them and the put is
// finished by erasing again: once the put has passed, nothing is left.
func (s *Store) EraseRequest(ctx context.Context, before, after booking.Request) error {
	pk := businessPK(before.BusinessSlug)
	zero := map[string]types.AttributeValue{":zero": num(0)}
	var deletes []*dynamodb.DeleteItemInput
	// An open count at zero says only that the contact once asked; a count
	// above zero is another open request's, and stays until that one ends.
	counted := func(sk string) *dynamodb.DeleteItemInput {
		return &dynamodb.DeleteItemInput{
			TableName: s.table, Key: keyMap(pk, sk),
			ConditionExpression:       aws.String("attribute_not_exists(pk) OR " + attrOpenCount + " <= :zero"),
			ExpressionAttributeValues: zero,
		}
	}
	if before.Contact.Phone != "" {
		deletes = append(deletes, counted(phoneSK(before.Contact.Phone)))
	}
	if before.Contact.Email != "" {
		deletes = append(deletes, counted(countedEmailSK(before)))
	}
	if before.IdempotencyKey != "" {
		// Only while it is this request's: a lapsed key may have been used again.
		deletes = append(deletes, &dynamodb.DeleteItemInput{
			TableName: s.table, Key: keyMap(pk, idempotencySK(before.IdempotencyKey)),
			ConditionExpression:       aws.String("attribute_not_exists(pk) OR contains(#response, :code)"),
			ExpressionAttributeNames:  map[string]string{"#response": attrResponse},
			ExpressionAttributeValues: map[string]types.AttributeValue{":code": str(`"code":"` + before.Code + `"`)},
		})
	}
	for _, d := range deletes {
		_, err := s.client.DeleteItem(ctx, d)
		var failed *types.ConditionalCheckFailedException
		if err != nil && !errors.As(err, &failed) {
			return fmt.Errorf("erase request %s: delete %v: %w", before.Code, d.Key[attrSK], err)
		}
	}

	item, err := requestItem(after)
	if err != nil {
		return err
	}
	start, err := attributevalue.Marshal(before.Window.Start)
	if err != nil {
		return fmt.Errorf("encode window start: %w", err)
	}
	cond := []string{"attribute_not_exists(" + attrErased + ")", "#status = :status", "#window.#start = :start"}
	names := map[string]string{"#status": attrStatus, "#window": attrWindow, "#start": "start"}
	values := map[string]types.AttributeValue{":status": str(string(before.Status)), ":start": start}
	if before.Deposit != nil {
		// A late payment's refund is recorded on an ended request.
		cond = append(cond, "#deposit.#state = :deposit")
		names["#deposit"], names["#state"] = "deposit", "state"
		values[":deposit"] = str(before.Deposit.State)
	}
	_, err = s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                 s.table,
		Item:                      item,
		ConditionExpression:       aws.String(strings.Join(cond, " AND ")),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return booking.Errorf(booking.InvalidTransition, "request %s was erased or changed just now; read it again", before.Code)
	}
	if err != nil {
		return fmt.Errorf("erase request %s: %w", before.Code, err)
	}
	return nil
}

// RequestsByContact scans the table for the requests of a phone or an
// e-mail address; see booking.ErasureStore. The e-mail is compared in any
// case, so the filter reads every request and the comparison is here.
func (s *Store) RequestsByContact(ctx context.Context, phone, email string, fn func(booking.Request) error) error {
	if phone == "" && email == "" {
		return nil
	}
	return s.scanRequests(ctx, "a contact's requests", "", nil, nil, func(r booking.Request) error {
		if (phone != "" && r.Contact.Phone == phone) || (email != "" && strings.EqualFold(r.Contact.Email, email)) {
			return fn(r)
		}
		return nil
	})
}

// AddEraseKeys gives each ended request stored before ended requests had
// erase keys (and not erased) the keys requestItem now gives it, so that
// the sweep erases its details in time, and returns how many it gave them
// to. It scans the whole table: an operator's one-off (infra/ctl), never a
// request path. Each write is conditional on the request being still in
// the state it was read in, not erased and keyless.
func (s *Store) AddEraseKeys(ctx context.Context) (int, error) {
	keyless := "attribute_not_exists(" + attrEraseAt + ") AND attribute_not_exists(" + attrErased + ")"
	added := 0
	err := s.scanRequests(ctx, "ended requests without erase keys", keyless, nil, nil, func(r booking.Request) error {
		from := r.PersonalDataFrom()
		if from.IsZero() {
			return nil // not ended
		}
		_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                s.table,
			Key:                      keyMap(requestPK(r.Code), skRequest),
			UpdateExpression:         aws.String("SET " + attrEraseShard + " = :shard, " + attrEraseAt + " = :at"),
			ConditionExpression:      aws.String("#status = :status AND " + keyless),
			ExpressionAttributeNames: map[string]string{"#status": attrStatus},
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":shard": str(eraseShard(r.Code)), ":at": unix(from), ":status": str(string(r.Status)),
			},
		})
		var failed *types.ConditionalCheckFailedException
		switch {
		case errors.As(err, &failed):
			return nil // changed meanwhile: its write gave it its keys
		case err != nil:
			return fmt.Errorf("add erase keys to %s: %w", r.Code, err)
		}
		added++
		return nil
	})
	return added, err
}
