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

// usedKey decodes the idempotency record that made the transaction fail,
// from the old item DynamoDB returned or, from engines that return none, by
// reading it. It returns nil when no live record is there (any more).
func (s *Store) usedKey(ctx context.Context, old map[string]types.AttributeValue, slug, key string, now time.Time) (*booking.IdempotencyRecord, error) {
	if len(old) == 0 {
		return s.IdempotencyRecord(ctx, slug, key, now)
	}
	return decodeIdempotency(old, key, now)
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
