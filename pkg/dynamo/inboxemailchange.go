package dynamo

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// A new inbox address (booking.Inbox.StartInboxEmailChange): on the
// business's partition, a count of the links to new addresses sent each
// UTC day; and each link's token, a single-use token of its own kind
// (tokens.go). See README.md.

// CountInboxEmailChange adds one to the count of now's UTC day of the
// business's links to new inbox addresses unless it has reached limit:
// one conditional UpdateItem, whose condition decides, as CountSignIn's
// does.
func (s *Store) CountInboxEmailChange(ctx context.Context, slug string, limit int, now time.Time) (bool, error) {
	return s.countInDay(ctx, "count a link to a new inbox address", businessPK(slug), prefixEmailChanges, attrEmailChanges, limit, now)
}

// PutInboxEmailToken puts a new inbox address's token's item (putToken).
func (s *Store) PutInboxEmailToken(ctx context.Context, rec booking.InboxEmailChangeRecord) error {
	return s.putToken(ctx, inboxEmailTokens, rec.TokenHash, rec.Expires, map[string]types.AttributeValue{
		attrSlug: str(rec.Slug), attrEmailHash: str(rec.EmailHash), attrNewEmail: str(rec.NewEmail),
	})
}

// SpendInboxEmailToken deletes a new inbox address's token's item on the
// condition that it is there and live (spendToken), and returns it. A
// token of another kind is not one: NOT_FOUND, and it stays.
func (s *Store) SpendInboxEmailToken(ctx context.Context, tokenHash string, now time.Time) (booking.InboxEmailChangeRecord, error) {
	item, err := s.spendToken(ctx, inboxEmailTokens, tokenHash, now)
	if err != nil {
		return booking.InboxEmailChangeRecord{}, err
	}
	rec := booking.InboxEmailChangeRecord{TokenHash: tokenHash}
	rec.Slug, rec.EmailHash, rec.Expires, err = signedInItem(item)
	if err != nil {
		return booking.InboxEmailChangeRecord{}, fmt.Errorf("%s: %w", inboxEmailTokens.what, err)
	}
	email, ok := item[attrNewEmail].(*types.AttributeValueMemberS)
	if !ok || email.Value == "" {
		return booking.InboxEmailChangeRecord{}, fmt.Errorf("%s: no %s", inboxEmailTokens.what, attrNewEmail)
	}
	rec.NewEmail = email.Value
	return rec, nil
}
