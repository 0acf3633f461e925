package dynamo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// What the mail service reported about addresses (booking.MailStore): per
// address, named by booking.EmailHash, one address item and one item per
// UTC day with a transient bounce. See README.md.
const (
	prefixMail       = "MAIL#"
	skMail           = "MAIL"
	prefixSoftBounce = "SOFT#"
	attrReason       = "reason"   // on the address item once undeliverable: booking.UndeliverableReason
	attrAt           = "at"       // with reason: when (RFC 3339)
	attrRequests     = "requests" // on the address item: SS of the request codes whose mail to it was reported
	softBounceDay    = "2006-01-02"
)

// mailPK is the partition of an address's items.
func mailPK(emailHash string) string { return prefixMail + emailHash }

// softBounceSK is the key of the record of a transient bounce on t's UTC day.
func softBounceSK(t time.Time) string { return prefixSoftBounce + t.UTC().Format(softBounceDay) }

// RecordUndeliverable sets reason and at unless the address item has them
// already, and adds requestCode to its requests, in one UpdateItem; the
// old item it returns says whether this call made the record.
func (s *Store) RecordUndeliverable(ctx context.Context, emailHash string, u booking.Undeliverable, requestCode string) (bool, error) {
	if !u.Reason.Valid() || u.At.IsZero() {
		return false, fmt.Errorf("record undeliverable: bad record %+v", u)
	}
	update := "SET #reason = if_not_exists(#reason, :reason), #at = if_not_exists(#at, :at)"
	values := map[string]types.AttributeValue{":reason": str(string(u.Reason)), ":at": str(u.At.UTC().Format(time.RFC3339))}
	if requestCode != "" {
		update += " ADD #requests :codes"
		values[":codes"] = &types.AttributeValueMemberSS{Value: []string{requestCode}}
	}
	names := map[string]string{"#reason": attrReason, "#at": attrAt}
	if requestCode != "" {
		names["#requests"] = attrRequests
	}
	out, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 s.table,
		Key:                       keyMap(mailPK(emailHash), skMail),
		UpdateExpression:          aws.String(update),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueAllOld,
	})
	if err != nil {
		return false, fmt.Errorf("record undeliverable: %w", err)
	}
	_, had := out.Attributes[attrReason]
	return !had, nil
}

// RecordTransientBounce puts the day's item (on attribute_not_exists: a
// day is recorded once), notes the request, then reads the days around.
// The days are in the key, so a redelivered event is the same item, and
// the read after the write sees every day recorded before it: of two
// events racing, the later read sees both.
func (s *Store) RecordTransientBounce(ctx context.Context, emailHash string, at time.Time, span time.Duration, requestCode string) ([]time.Time, error) {
	if at.IsZero() || span <= 0 {
		return nil, fmt.Errorf("record transient bounce: bad time %v or span %v", at, span)
	}
	pk := mailPK(emailHash)
	day := at.UTC().Truncate(24 * time.Hour)
	item := keyMap(pk, softBounceSK(day))
	// Kept for the span after its day, so it still counts for a bounce
	// that late; the TTL deletes it later still, and nothing waits for it.
	item[attrExpiresAt] = unix(day.Add(span + 24*time.Hour))
	_, err := s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           s.table,
		Item:                item,
		ConditionExpression: aws.String("attribute_not_exists(pk)"),
	})
	var failed *types.ConditionalCheckFailedException
	if err != nil && !errors.As(err, &failed) {
		return nil, fmt.Errorf("record transient bounce: %w", err)
	}
	if err := s.NoteMailRequest(ctx, emailHash, requestCode); err != nil {
		return nil, err
	}
	var days []time.Time
	p := dynamodb.NewQueryPaginator(s.client.Query, &dynamodb.QueryInput{
		TableName:              s.table,
		KeyConditionExpression: aws.String("pk = :pk AND sk BETWEEN :from AND :to"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str(pk), ":from": str(softBounceSK(day.Add(-span))), ":to": str(softBounceSK(day.Add(span))),
		},
		ConsistentRead: aws.Bool(true),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("read transient bounces: %w", err)
		}
		for _, it := range page.Items {
			sk, _ := it[attrSK].(*types.AttributeValueMemberS)
			if sk == nil {
				continue
			}
			d, err := time.Parse(softBounceDay, sk.Value[len(prefixSoftBounce):])
			if err != nil {
				return nil, fmt.Errorf("read transient bounces: bad key %q", sk.Value)
			}
			days = append(days, d)
		}
	}
	return days, nil
}

// NoteMailRequest adds requestCode to the address item's requests (a set:
// adding it twice is adding it once).
func (s *Store) NoteMailRequest(ctx context.Context, emailHash, requestCode string) error {
	if requestCode == "" {
		return nil
	}
	_, err := s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 s.table,
		Key:                       keyMap(mailPK(emailHash), skMail),
		UpdateExpression:          aws.String("ADD #requests :codes"),
		ExpressionAttributeNames:  map[string]string{"#requests": attrRequests},
		ExpressionAttributeValues: map[string]types.AttributeValue{":codes": &types.AttributeValueMemberSS{Value: []string{requestCode}}},
	})
	if err != nil {
		return fmt.Errorf("note mail request: %w", err)
	}
	return nil
}

// UndeliverableEmail reads the address item eventually consistent (half
// the read units): what a page shows decides nothing, and a record written
// in the last second is shown on the next page. An item without a reason
// (transient bounces short of the rule, requests noted) is no record.
func (s *Store) UndeliverableEmail(ctx context.Context, email string) (*booking.Undeliverable, error) {
	return s.undeliverableEmail(ctx, email, false)
}

// UndeliverableEmailNow is UndeliverableEmail strongly consistent: it
// finds a record written just before it (the owner's text is decided on
// it).
func (s *Store) UndeliverableEmailNow(ctx context.Context, email string) (*booking.Undeliverable, error) {
	return s.undeliverableEmail(ctx, email, true)
}

func (s *Store) undeliverableEmail(ctx context.Context, email string, consistent bool) (*booking.Undeliverable, error) {
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      s.table,
		Key:            keyMap(mailPK(booking.EmailHash(email)), skMail),
		ConsistentRead: aws.Bool(consistent),
	})
	if err != nil {
		return nil, fmt.Errorf("read undeliverable e-mail: %w", err)
	}
	reason, _ := out.Item[attrReason].(*types.AttributeValueMemberS)
	if reason == nil {
		return nil, nil
	}
	at, _ := out.Item[attrAt].(*types.AttributeValueMemberS)
	if at == nil {
		return nil, fmt.Errorf("read undeliverable e-mail: no %s", attrAt)
	}
	t, err := time.Parse(time.RFC3339, at.Value)
	if err != nil {
		return nil, fmt.Errorf("read undeliverable e-mail: %w", err)
	}
	u := &booking.Undeliverable{Reason: booking.UndeliverableReason(reason.Value), At: t.UTC()}
	if !u.Reason.Valid() {
		return nil, fmt.Errorf("read undeliverable e-mail: unknown reason %q", reason.Value)
	}
	return u, nil
}

// ForgetMailRequest reads the address item and then, in one conditional
// write: deletes it when requestCode is its one request (then its
// transient-bounce days), or takes requestCode from its requests when
// others stay. The read decides only the write to try; the write's
// condition (the same set as read, in size and in holding the code)
// decides, and when it fails because the set changed, it reads again.
// Each write does all it does at once, so an erasure stopped between them
// leaves nothing half done; a code that is not there is nothing to do.
func (s *Store) ForgetMailRequest(ctx context.Context, emailHash, requestCode string) error {
	if requestCode == "" {
		return nil
	}
	pk := mailPK(emailHash)
	names := map[string]string{"#requests": attrRequests}
	var failed *types.ConditionalCheckFailedException
	// Each failed condition is another erasure (or a note) that passed:
	// erasures racing for one address all end within as many rounds as
	// there are of them.
	for range 32 {
		item, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
			TableName: s.table, Key: keyMap(pk, skMail), ConsistentRead: aws.Bool(true),
		})
		if err != nil {
			return fmt.Errorf("forget mail request: %w", err)
		}
		set, _ := item.Item[attrRequests].(*types.AttributeValueMemberSS)
		if set == nil || !slices.Contains(set.Value, requestCode) {
			return nil // not noted: nothing to forget
		}
		// minidyn evaluates contains() on a missing attribute as an
		// error, so every condition starts from a set that was read.
		values := map[string]types.AttributeValue{":code": str(requestCode), ":n": num(int64(len(set.Value)))}
		cond := aws.String("attribute_exists(#requests) AND contains(#requests, :code) AND size(#requests) = :n")
		if len(set.Value) == 1 {
			_, err = s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
				TableName: s.table, Key: keyMap(pk, skMail), ConditionExpression: cond,
				ExpressionAttributeNames: names, ExpressionAttributeValues: values,
			})
			if err == nil {
				return s.deleteSoftBounces(ctx, pk)
			}
		} else {
			values[":codes"] = &types.AttributeValueMemberSS{Value: []string{requestCode}}
			_, err = s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
				TableName: s.table, Key: keyMap(pk, skMail), UpdateExpression: aws.String("DELETE #requests :codes"),
				ConditionExpression: cond, ExpressionAttributeNames: names, ExpressionAttributeValues: values,
			})
			if err == nil {
				return nil
			}
		}
		if !errors.As(err, &failed) {
			return fmt.Errorf("forget mail request: %w", err)
		}
	}
	return fmt.Errorf("forget mail request: the address's requests kept changing")
}

// deleteSoftBounces deletes the address's transient-bounce days.
func (s *Store) deleteSoftBounces(ctx context.Context, pk string) error {
	p := dynamodb.NewQueryPaginator(s.client.Query, &dynamodb.QueryInput{
		TableName:              s.table,
		KeyConditionExpression: aws.String("pk = :pk AND begins_with(sk, :soft)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str(pk), ":soft": str(prefixSoftBounce),
		},
		ProjectionExpression: aws.String("pk, sk"),
		ConsistentRead:       aws.Bool(true),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("forget transient bounces: %w", err)
		}
		for _, it := range page.Items {
			if _, err := s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: s.table, Key: map[string]types.AttributeValue{attrPK: it[attrPK], attrSK: it[attrSK]}}); err != nil {
				return fmt.Errorf("forget transient bounces: %w", err)
			}
		}
	}
	return nil
}
