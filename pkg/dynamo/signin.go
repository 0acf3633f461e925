package dynamo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// The web inbox's sign-in: how many links each address was sent this
// hour, the links' tokens (single-use, tokens.go) and the sessions.
// Tokens are named by their hash only (booking.WebTokenHash); addresses by
// booking.EmailHash. See README.md.

// signInCountTTL is how long a sign-in count is kept after its hour
// starts: its hour is in its key, so it decides nothing after the hour; it
// stays a little longer for an operator to look at.
const signInCountTTL = 2 * time.Hour

// CountSignIn adds one to the count of the address's hour unless it has
// reached limit: one conditional UpdateItem, whose condition decides. The
// hour is in the key, so an earlier hour's count, lapsed but not yet
// deleted by the TTL, is another item and counts for nothing.
func (s *Store) CountSignIn(ctx context.Context, emailHash string, limit int, now time.Time) (bool, error) {
	pk, sk := signInCountKey(emailHash, now)
	return s.countInPeriod(ctx, "count a sign-in", pk, sk, attrSignIns, limit, now.UTC().Truncate(time.Hour).Add(signInCountTTL))
}

// countInPeriod adds one to the number attr of the item under the key
// unless it has reached limit (countUnder, as one UpdateItem whose
// condition decides), and sets the item's expires_at to expires: the count
// of a period named in its key (an hour, a day), which decides nothing
// once another period has begun, so that the TTL's lateness is harmless.
// It reports whether the count was under limit; what names the count in
// errors.
func (s *Store) countInPeriod(ctx context.Context, what, pk, sk, attr string, limit int, expires time.Time) (bool, error) {
	if limit < 1 {
		return false, fmt.Errorf("%s: limit must be at least 1, got %d", what, limit)
	}
	count := s.countUnder(pk, sk, attr, limit)
	count.ExpressionAttributeValues[":expires"] = unix(expires)
	_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 count.TableName,
		Key:                       count.Key,
		UpdateExpression:          aws.String(aws.ToString(count.UpdateExpression) + ", " + attrExpiresAt + " = :expires"),
		ConditionExpression:       count.ConditionExpression,
		ExpressionAttributeValues: count.ExpressionAttributeValues,
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", what, err)
	}
	return true, nil
}

// dayCountTTL is how long a count of a UTC day is kept after the day
// starts: the day is in its key, so it decides nothing after it; it stays
// a little longer for an operator to look at.
const dayCountTTL = 48 * time.Hour

// countInDay is countInPeriod for a count of now's UTC day: the item
// under pk and the sort key prefix and the day (YYYY-MM-DD), kept
// dayCountTTL after the day starts.
func (s *Store) countInDay(ctx context.Context, what, pk, prefix, attr string, limit int, now time.Time) (bool, error) {
	day := now.UTC().Truncate(24 * time.Hour)
	return s.countInPeriod(ctx, what, pk, prefix+day.Format(time.DateOnly), attr, limit, day.Add(dayCountTTL))
}

// attrNewEmail is, on a new inbox address's token, the address it
// confirms (booking.Inbox.StartInboxEmailChange).
const attrNewEmail = "new_email"

// PutSignInToken puts a sign-in token's item (putToken): a sign-in
// link's, or a one-tap link's with its request.
func (s *Store) PutSignInToken(ctx context.Context, rec booking.SignInRecord) error {
	attrs := map[string]types.AttributeValue{attrSlug: str(rec.Slug), attrEmailHash: str(rec.EmailHash)}
	if rec.Code != "" {
		attrs[attrRequestCode] = str(rec.Code) // a one-tap link's request
	}
	return s.putToken(ctx, signInTokens, rec.TokenHash, rec.Expires, attrs)
}

// SpendSignInToken deletes a sign-in token's item on the condition that
// it is there and live (spendToken), and returns the item it deleted. A
// token of another kind is not one: NOT_FOUND, and it stays.
func (s *Store) SpendSignInToken(ctx context.Context, tokenHash string, now time.Time) (booking.SignInRecord, error) {
	item, err := s.spendToken(ctx, signInTokens, tokenHash, now)
	if err != nil {
		return booking.SignInRecord{}, err
	}
	rec := booking.SignInRecord{TokenHash: tokenHash}
	rec.Slug, rec.EmailHash, rec.Expires, err = signedInItem(item)
	if err != nil {
		return booking.SignInRecord{}, fmt.Errorf("sign-in token: %w", err)
	}
	if code, ok := item[attrRequestCode].(*types.AttributeValueMemberS); ok {
		rec.Code = code.Value
	}
	return rec, nil
}

// PutSession puts a session's item, on the condition that no item has its
// key.
func (s *Store) PutSession(ctx context.Context, rec booking.SessionRecord) error {
	item := keyMap(sessionPK(rec.TokenHash), skSession)
	item[attrSlug] = str(rec.Slug)
	item[attrEmailHash] = str(rec.EmailHash)
	item[attrCSRF] = str(rec.CSRF)
	item[attrExpiresAt] = unix(rec.Expires)
	if err := s.putNew(ctx, item); err != nil {
		return fmt.Errorf("put a session: %w", err)
	}
	return nil
}

// Session reads a session's item, strongly consistent; one whose
// expires_at is not after now has ended, even while the TTL has not
// deleted it yet.
func (s *Store) Session(ctx context.Context, tokenHash string, now time.Time) (booking.SessionRecord, error) {
	item, err := s.get(ctx, sessionPK(tokenHash), skSession)
	if err != nil {
		return booking.SessionRecord{}, fmt.Errorf("get a session: %w", err)
	}
	if item == nil {
		return booking.SessionRecord{}, booking.Errorf(booking.NotFound, "no live session")
	}
	rec := booking.SessionRecord{TokenHash: tokenHash}
	rec.Slug, rec.EmailHash, rec.Expires, err = signedInItem(item)
	if err != nil {
		return booking.SessionRecord{}, fmt.Errorf("session: %w", err)
	}
	if !rec.Expires.After(now) {
		return booking.SessionRecord{}, booking.Errorf(booking.NotFound, "no live session")
	}
	csrf, ok := item[attrCSRF].(*types.AttributeValueMemberS)
	if !ok || csrf.Value == "" {
		return booking.SessionRecord{}, fmt.Errorf("session without %s", attrCSRF)
	}
	rec.CSRF = csrf.Value
	return rec, nil
}

// EndSession deletes a session's item; there being none is no error.
func (s *Store) EndSession(ctx context.Context, tokenHash string) error {
	_, err := s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: s.table,
		Key:       keyMap(sessionPK(tokenHash), skSession),
	})
	if err != nil {
		return fmt.Errorf("end a session: %w", err)
	}
	return nil
}

// putNew puts item on the condition that no item has its key.
func (s *Store) putNew(ctx context.Context, item map[string]types.AttributeValue) error {
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           s.table,
		Item:                item,
		ConditionExpression: aws.String("attribute_not_exists(pk)"),
	})
	return err
}

// signedInItem reads what a sign-in token's item, a new inbox address's
// token's and a session's item share: the business, the address's hash
// and the expiry.
func signedInItem(item map[string]types.AttributeValue) (slug, emailHash string, expires time.Time, err error) {
	s, ok := item[attrSlug].(*types.AttributeValueMemberS)
	if !ok {
		return "", "", time.Time{}, fmt.Errorf("no %s", attrSlug)
	}
	h, ok := item[attrEmailHash].(*types.AttributeValueMemberS)
	if !ok {
		return "", "", time.Time{}, fmt.Errorf("no %s", attrEmailHash)
	}
	at, err := unixAttr(item, attrExpiresAt)
	if err != nil {
		return "", "", time.Time{}, err
	}
	return s.Value, h.Value, time.Unix(at, 0).UTC(), nil
}
