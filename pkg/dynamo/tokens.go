package dynamo

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Single-use tokens: a sign-in link's (a one-tap link's is one too), a
// new inbox address's confirmation and a pending sign-up's. Each is one
// item named by the token's hash (booking.WebTokenHash), never the token,
// under a key of its kind: a token looked up by another kind's route
// finds no item, and stays as it was, good at its own route. It is put on
// the condition that no item has its key (a 256-bit token does not
// repeat; a write that did would be a bug), and spent by a delete on the
// condition that it is there and live (expires_at > now: the TTL deletes
// lapsed items late), so of two spends at once one deletes it and the
// other finds its condition failed. See README.md.

// tokenKind is a kind of single-use token: where its items are.
type tokenKind struct {
	what   string // names the kind in errors
	prefix string // the item's pk: prefix and the token's hash
	sk     string
	// spendIf, when not "", is a further condition of a spend.
	spendIf string
}

var (
	// signInTokens are the sign-in links' tokens, a one-tap link's too.
	// An item with new_email is a new inbox address's confirmation
	// written before those had a key of their own (they live an hour): it
	// signs nobody in, and a sign-in leaves it.
	signInTokens = tokenKind{what: "sign-in token", prefix: prefixSignIn, sk: skSignIn,
		spendIf: "attribute_not_exists(" + attrNewEmail + ")"}
	// inboxEmailTokens confirm a new inbox address.
	inboxEmailTokens = tokenKind{what: "new inbox address's token", prefix: prefixEmailChange, sk: skEmailChange}
	// signupTokens are the pending sign-ups.
	signupTokens = tokenKind{what: "sign-up token", prefix: prefixSignup, sk: skSignup}
)

func (k tokenKind) key(tokenHash string) map[string]types.AttributeValue {
	return keyMap(k.prefix+tokenHash, k.sk)
}

// none is the answer for a token of the kind that is not there, or not
// live.
func (k tokenKind) none() error { return booking.Errorf(booking.NotFound, "no live %s", k.what) }

// putToken puts the item of the token of kind k with the given hash:
// attrs, and expires_at expires; on the condition that no item has its
// key.
func (s *Store) putToken(ctx context.Context, k tokenKind, tokenHash string, expires time.Time, attrs map[string]types.AttributeValue) error {
	item := k.key(tokenHash)
	maps.Copy(item, attrs)
	item[attrExpiresAt] = unix(expires)
	if err := s.putNew(ctx, item); err != nil {
		return fmt.Errorf("put a %s: %w", k.what, err)
	}
	return nil
}

// tokenSpend is the delete that spends the token of kind k with the given
// hash, on the condition that it is there and live at now: alone
// (spendToken) or in a transaction (CreateSignup).
func (s *Store) tokenSpend(k tokenKind, tokenHash string, now time.Time) *types.Delete {
	condition := "attribute_exists(pk) AND " + attrExpiresAt + " > :now"
	if k.spendIf != "" {
		condition += " AND " + k.spendIf
	}
	return &types.Delete{
		TableName:                 s.table,
		Key:                       k.key(tokenHash),
		ConditionExpression:       aws.String(condition),
		ExpressionAttributeValues: map[string]types.AttributeValue{":now": unix(now)},
	}
}

// spendToken deletes the token's item (tokenSpend) and returns it; a
// token that is not there or not live is NOT_FOUND.
func (s *Store) spendToken(ctx context.Context, k tokenKind, tokenHash string, now time.Time) (map[string]types.AttributeValue, error) {
	spend := s.tokenSpend(k, tokenHash, now)
	out, err := s.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 spend.TableName,
		Key:                       spend.Key,
		ConditionExpression:       spend.ConditionExpression,
		ExpressionAttributeValues: spend.ExpressionAttributeValues,
		ReturnValues:              types.ReturnValueAllOld,
	})
	var failed *types.ConditionalCheckFailedException
	if errors.As(err, &failed) {
		return nil, k.none()
	}
	if err != nil {
		return nil, fmt.Errorf("spend a %s: %w", k.what, err)
	}
	return out.Attributes, nil
}

// liveToken reads the token's item, strongly consistent; one whose
// expires_at is not after now is NOT_FOUND, even while the TTL has not
// deleted it yet. It decides nothing: a spend's condition does.
func (s *Store) liveToken(ctx context.Context, k tokenKind, tokenHash string, now time.Time) (map[string]types.AttributeValue, error) {
	item, err := s.get(ctx, k.prefix+tokenHash, k.sk)
	if err != nil {
		return nil, fmt.Errorf("get a %s: %w", k.what, err)
	}
	if item == nil {
		return nil, k.none()
	}
	at, err := unixAttr(item, attrExpiresAt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", k.what, err)
	}
	if !time.Unix(at, 0).After(now) {
		return nil, k.none()
	}
	return item, nil
}
