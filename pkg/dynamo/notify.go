package dynamo

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/notify"
)

// The notification ledger's keys, attributes and states, in the same table
// (see README.md).
const (
	prefixNotify = "NOTIFY#"
	skNotify     = "NOTIFY"
	prefixOptOut = "OPTOUT#"
	skOptOut     = "SMS"

	attrState      = "state"
	attrClaimToken = "claim_token"

	stateSending = "sending"
	stateSent    = "sent"
)

// Ledger is the notify.Ledger of the store's table.
type Ledger struct {
	client ops
	table  *string
}

var _ notify.Ledger = (*Ledger)(nil)

// NewLedger returns the ledger over the given table.
func NewLedger(client *dynamodb.Client, table string) *Ledger {
	return &Ledger{client: opsOf(client), table: aws.String(table)}
}

// Claim puts a claim on the message unless a live item is there: one
// conditional PutItem. A failed condition returns the item that was there,
// which says whether the message was sent or is being sent.
func (l *Ledger) Claim(ctx context.Context, id string, now time.Time) (notify.Claim, error) {
	token := rand.Text()
	until := now.Add(notify.ClaimLease)
	item := keyMap(prefixNotify+id, skNotify)
	item[attrState] = str(stateSending)
	item[attrClaimToken] = str(token)
	item[attrExpiresAt] = unix(until)
	for attempt := 0; attempt < 2; attempt++ {
		_, err := l.client.PutItem(ctx, &dynamodb.PutItemInput{
			TableName:                           l.table,
			Item:                                item,
			ConditionExpression:                 aws.String("attribute_not_exists(pk) OR expires_at <= :now"),
			ExpressionAttributeValues:           map[string]types.AttributeValue{":now": unix(now)},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		})
		if err == nil {
			return notify.Claim{State: notify.Claimed, Token: token, Until: time.Unix(until.Unix(), 0)}, nil
		}
		var failed *types.ConditionalCheckFailedException
		if !errors.As(err, &failed) {
			return notify.Claim{}, fmt.Errorf("claim message %s: %w", id, err)
		}
		old := failed.Item
		if len(old) == 0 { // engines that return no item (minidyn): read it
			if old, err = l.get(ctx, prefixNotify+id, skNotify); err != nil {
				return notify.Claim{}, fmt.Errorf("claim message %s: %w", id, err)
			}
			if old == nil {
				continue // deleted in between: try again
			}
		}
		expires, err := unixAttr(old, attrExpiresAt)
		if err != nil {
			return notify.Claim{}, fmt.Errorf("message %s: %w", id, err)
		}
		if expires <= now.Unix() {
			continue // lapsed in between: try again
		}
		state, _ := old[attrState].(*types.AttributeValueMemberS)
		if state != nil && state.Value == stateSent {
			return notify.Claim{State: notify.AlreadySent}, nil
		}
		return notify.Claim{State: notify.InFlight, Until: time.Unix(expires, 0)}, nil
	}
	return notify.Claim{}, fmt.Errorf("claim message %s: its item keeps changing", id)
}

// MarkSent turns the claim into the record that the message went out, kept
// notify.SentTTL, if the claim is still this one.
func (l *Ledger) MarkSent(ctx context.Context, id, token string, now time.Time) error {
	_, err := l.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 l.table,
		Key:                       keyMap(prefixNotify+id, skNotify),
		UpdateExpression:          aws.String("SET #state = :sent, expires_at = :until"),
		ConditionExpression:       aws.String("claim_token = :token"),
		ExpressionAttributeNames:  map[string]string{"#state": attrState},
		ExpressionAttributeValues: map[string]types.AttributeValue{":sent": str(stateSent), ":until": unix(now.Add(notify.SentTTL)), ":token": str(token)},
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return fmt.Errorf("mark message %s sent: the claim lapsed and was taken over", id)
	}
	if err != nil {
		return fmt.Errorf("mark message %s sent: %w", id, err)
	}
	return nil
}

// Release deletes the claim if it is still this one and still a claim.
// A claim that was taken over is not this caller's to release.
func (l *Ledger) Release(ctx context.Context, id, token string) error {
	_, err := l.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 l.table,
		Key:                       keyMap(prefixNotify+id, skNotify),
		ConditionExpression:       aws.String("claim_token = :token AND #state = :sending"),
		ExpressionAttributeNames:  map[string]string{"#state": attrState},
		ExpressionAttributeValues: map[string]types.AttributeValue{":token": str(token), ":sending": str(stateSending)},
	})
	var failed *types.ConditionalCheckFailedException
	if err != nil && !errors.As(err, &failed) {
		return fmt.Errorf("release message %s: %w", id, err)
	}
	return nil
}

// OptedOut reads the number's opt-out item, strongly consistent: a send
// is decided on it, and a STOP is honoured at once.
func (l *Ledger) OptedOut(ctx context.Context, phone string) (bool, error) {
	return l.optedOut(ctx, phone, true)
}

func (l *Ledger) optedOut(ctx context.Context, phone string, consistent bool) (bool, error) {
	item, err := readItem(ctx, l.client, l.table, prefixOptOut+phone, skOptOut, consistent)
	if err != nil {
		return false, fmt.Errorf("read opt-out: %w", err)
	}
	return item != nil, nil
}

// PageOptOuts reads numbers' opt-outs for a page that says whether a text
// goes to the person (the web inbox's request, the status page):
// eventually consistent, half the read units of the Ledger's own read. The
// page decides nothing; a STOP recorded in the last second shows on the
// next page, and the notifier, reading strongly, sends no text meanwhile.
type PageOptOuts struct{ ledger *Ledger }

// ForPages returns l's opt-outs as pages read them.
func (l *Ledger) ForPages() PageOptOuts { return PageOptOuts{l} }

// OptedOut reads the number's opt-out item, eventually consistent.
func (p PageOptOuts) OptedOut(ctx context.Context, phone string) (bool, error) {
	return p.ledger.optedOut(ctx, phone, false)
}

// RecordOptOut puts the number's opt-out item, keeping the time of the
// first opt-out when there was one.
func (l *Ledger) RecordOptOut(ctx context.Context, phone string, now time.Time) error {
	_, err := l.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 l.table,
		Key:                       keyMap(prefixOptOut+phone, skOptOut),
		UpdateExpression:          aws.String("SET opted_out_at = if_not_exists(opted_out_at, :at)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":at": str(now.UTC().Format(time.RFC3339))},
	})
	if err != nil {
		return fmt.Errorf("record opt-out: %w", err)
	}
	return nil
}

func (l *Ledger) get(ctx context.Context, pk, sk string) (map[string]types.AttributeValue, error) {
	return getItem(ctx, l.client, l.table, pk, sk)
}
