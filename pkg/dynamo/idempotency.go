package dynamo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// IdempotencyRecord returns the live record under key at the business, or
// nil. A record whose expiry is not after now is lapsed, even when the TTL
// has not deleted it yet.
func (s *Store) IdempotencyRecord(ctx context.Context, slug, key string, now time.Time) (*booking.IdempotencyRecord, error) {
	item, err := s.get(ctx, businessPK(slug), idempotencySK(key))
	if err != nil {
		return nil, fmt.Errorf("get idempotency record: %w", err)
	}
	return decodeIdempotency(item, key, now)
}

// usedKey decides whether an idempotency key of a create is used: it
// returns a *booking.KeyUsedError carrying the live record under the key,
// nil when none is there (any more), or the error that kept it from
// knowing. old is the item DynamoDB returned with a failed condition;
// without one (engines that return none, or a conflict) the record is read.
func (s *Store) usedKey(ctx context.Context, old map[string]types.AttributeValue, slug, key string, now time.Time) error {
	var rec *booking.IdempotencyRecord
	var err error
	if len(old) == 0 {
		rec, err = s.IdempotencyRecord(ctx, slug, key, now)
	} else {
		rec, err = decodeIdempotency(old, key, now)
	}
	if err != nil || rec == nil {
		return err
	}
	return &booking.KeyUsedError{Record: *rec}
}

// decodeIdempotency decodes an idempotency item; nil when item is nil or
// lapsed at now.
func decodeIdempotency(item map[string]types.AttributeValue, key string, now time.Time) (*booking.IdempotencyRecord, error) {
	if item == nil {
		return nil, nil
	}
	expires, err := unixAttr(item, attrExpiresAt)
	if err != nil {
		return nil, fmt.Errorf("idempotency record %q: %w", key, err)
	}
	if expires <= now.Unix() {
		return nil, nil
	}
	hash, _ := item[attrBodyHash].(*types.AttributeValueMemberS)
	response, _ := item[attrResponse].(*types.AttributeValueMemberS)
	if hash == nil || response == nil {
		return nil, fmt.Errorf("idempotency record %q: missing %s or %s", key, attrBodyHash, attrResponse)
	}
	rec := &booking.IdempotencyRecord{Key: key, BodyHash: hash.Value, Expires: time.Unix(expires, 0).UTC()}
	if err := json.Unmarshal([]byte(response.Value), &rec.Response); err != nil {
		return nil, fmt.Errorf("idempotency record %q: %s: %w", key, attrResponse, err)
	}
	return rec, nil
}
