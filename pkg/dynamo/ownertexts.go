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

// The confirmation of an owner's mobile number (booking.Inbox.
// StartOwnerPhone): on the business's partition, a count of the codes
// texted each UTC day, and the one code awaiting its answer, by its hash.
//
// A sign-in by a code texted to the owner's confirmed number
// (booking.Bookings.StartTextSignIn) keeps its own count and code, of the
// same shape, under their own keys: a confirmation and a sign-in never
// spend each other's code or count.
const (
	prefixPhoneCodes  = "PHONECODES#"  // + the UTC day: that day's count
	skPhoneCode       = "PHONECODE"    // the code awaiting its answer
	prefixSignInCodes = "SIGNINCODES#" // + the UTC day: that day's count of sign-in codes
	skSignInCode      = "SIGNINCODE"   // the sign-in code awaiting its answer
	attrPhoneCodes    = "phone_codes"  // on a day's count
	attrPhone         = "phone"        // on the code: the number it confirms
	attrCodeHash      = "code_hash"    // on the code: booking's hash of it
	attrTries         = "tries"        // on the code: wrong answers so far
)

// CountPhoneCode adds one to the count of now's UTC day of the business's
// confirmation texts unless it has reached limit: one conditional
// UpdateItem, whose condition decides, as CountSignIn's does.
func (s *Store) CountPhoneCode(ctx context.Context, slug string, limit int, now time.Time) (bool, error) {
	return s.countCodeOfDay(ctx, "count a confirmation text", slug, prefixPhoneCodes, limit, now)
}

// CountSignInCode is CountPhoneCode for the texts of sign-in codes: a
// count of its own.
func (s *Store) CountSignInCode(ctx context.Context, slug string, limit int, now time.Time) (bool, error) {
	return s.countCodeOfDay(ctx, "count a sign-in text", slug, prefixSignInCodes, limit, now)
}

func (s *Store) countCodeOfDay(ctx context.Context, what, slug, prefix string, limit int, now time.Time) (bool, error) {
	return s.countInDay(ctx, what, businessPK(slug), prefix, attrPhoneCodes, limit, now)
}

// PutPhoneCode puts the business's code item, replacing any before (a new
// code is the one that counts), with no tries yet.
func (s *Store) PutPhoneCode(ctx context.Context, rec booking.PhoneCodeRecord) error {
	return s.putCode(ctx, skPhoneCode, rec)
}

// PutSignInCode is PutPhoneCode for a sign-in code: its own item.
func (s *Store) PutSignInCode(ctx context.Context, rec booking.PhoneCodeRecord) error {
	return s.putCode(ctx, skSignInCode, rec)
}

func (s *Store) putCode(ctx context.Context, sk string, rec booking.PhoneCodeRecord) error {
	item := keyMap(businessPK(rec.Slug), sk)
	item[attrSlug] = str(rec.Slug)
	item[attrPhone] = str(rec.Phone)
	item[attrCodeHash] = str(rec.CodeHash)
	item[attrTries] = num(0)
	item[attrExpiresAt] = unix(rec.Expires)
	if _, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: s.table, Item: item}); err != nil {
		return fmt.Errorf("put a confirmation code: %w", err)
	}
	return nil
}

// SpendPhoneCode counts a try on the business's code item, on the
// condition that it is there, live (expires_at > now: the TTL deletes
// lapsed items late) and tried fewer than maxTries times, and only then
// deletes it on the condition that it holds codeHash and is live. The try
// is counted before the code is compared, each by its own conditional
// write, so that however many answers come at once, at most maxTries of
// them are compared with it; of two right answers at once, one deletes
// it. A try refused, or a wrong or lapsed code, is NOT_FOUND.
func (s *Store) SpendPhoneCode(ctx context.Context, slug, codeHash string, maxTries int, now time.Time) (booking.PhoneCodeRecord, error) {
	return s.spendCode(ctx, skPhoneCode, slug, codeHash, maxTries, now)
}

// SpendSignInCode is SpendPhoneCode for a sign-in code: its own item, its
// own tries.
func (s *Store) SpendSignInCode(ctx context.Context, slug, codeHash string, maxTries int, now time.Time) (booking.PhoneCodeRecord, error) {
	return s.spendCode(ctx, skSignInCode, slug, codeHash, maxTries, now)
}

func (s *Store) spendCode(ctx context.Context, sk, slug, codeHash string, maxTries int, now time.Time) (booking.PhoneCodeRecord, error) {
	key := keyMap(businessPK(slug), sk)
	notFound := booking.Errorf(booking.NotFound, "no live confirmation code matches")
	_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 s.table,
		Key:                       key,
		UpdateExpression:          aws.String("ADD " + attrTries + " :one"),
		ConditionExpression:       aws.String("attribute_exists(pk) AND expires_at > :now AND " + attrTries + " < :max"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":now": unix(now), ":max": num(int64(maxTries))},
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return booking.PhoneCodeRecord{}, notFound
	}
	if err != nil {
		return booking.PhoneCodeRecord{}, fmt.Errorf("count a try of a confirmation code: %w", err)
	}
	out, err := s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:           s.table,
		Key:                 key,
		ConditionExpression: aws.String("attribute_exists(pk) AND expires_at > :now AND " + attrCodeHash + " = :hash"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":now": unix(now), ":hash": str(codeHash),
		},
		ReturnValues: types.ReturnValueAllOld,
	})
	if errors.As(err, &failed) {
		return booking.PhoneCodeRecord{}, notFound
	}
	if err != nil {
		return booking.PhoneCodeRecord{}, fmt.Errorf("spend a confirmation code: %w", err)
	}
	phone, ok := out.Attributes[attrPhone].(*types.AttributeValueMemberS)
	if !ok {
		return booking.PhoneCodeRecord{}, fmt.Errorf("confirmation code without %s", attrPhone)
	}
	at, err := unixAttr(out.Attributes, attrExpiresAt)
	if err != nil {
		return booking.PhoneCodeRecord{}, fmt.Errorf("confirmation code: %w", err)
	}
	return booking.PhoneCodeRecord{Slug: slug, Phone: phone.Value, CodeHash: codeHash, Expires: time.Unix(at, 0).UTC()}, nil
}

// prefixOwnerNotice is, on the business's partition, the sort key of a
// message the owner was told once (booking.Bookings.ClaimOwnerBounceText),
// followed by what it was about.
const prefixOwnerNotice = "OWNERNOTICE#"

// ClaimOwnerNotice puts the business's item of the notice key on the
// condition that it is not there: of any number of calls, one puts it and
// gets true. The item has no expiry: a notice is about one event, told
// once.
func (s *Store) ClaimOwnerNotice(ctx context.Context, slug, key string) (bool, error) {
	item := keyMap(businessPK(slug), prefixOwnerNotice+key)
	err := s.putNew(ctx, item)
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("claim a notice to the owner: %w", err)
	}
	return true, nil
}
