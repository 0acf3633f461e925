package dynamo

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Sign-up ({SITE_URL}/start): how many sign-up e-mails each address was
// sent on a day, the pending sign-ups (a token's hash, what was typed, a
// TTL) and how many businesses the stack created by sign-up in an hour.
// See README.md.

// signupHourCountTTL is how long the stack's count of an hour is kept
// after its hour starts: the hour is in its key, so it decides nothing
// after; it stays a little longer for an operator to look at.
const signupHourCountTTL = 2 * time.Hour

// CountSignupEmail adds one to the count of the address's UTC day unless
// it has reached limit: one conditional UpdateItem, as CountSignIn.
func (s *Store) CountSignupEmail(ctx context.Context, emailHash string, limit int, now time.Time) (bool, error) {
	return s.countInDay(ctx, "count a sign-up e-mail", prefixSignupEmails+emailHash, prefixDay, attrSignupEmails, limit, now)
}

// PutSignupToken puts a pending sign-up's item (putToken). It holds the
// address typed (the new business's inbox_email) until the TTL deletes
// it, at most SignupTTL after.
func (s *Store) PutSignupToken(ctx context.Context, rec booking.SignupRecord) error {
	return s.putToken(ctx, signupTokens, rec.TokenHash, rec.Expires, map[string]types.AttributeValue{
		attrName: str(rec.Name), attrTrade: str(rec.Trade), attrEmail: str(rec.Email),
	})
}

// SignupToken reads a pending sign-up (liveToken): strongly consistent,
// none once its expires_at is not after now.
func (s *Store) SignupToken(ctx context.Context, tokenHash string, now time.Time) (booking.SignupRecord, error) {
	item, err := s.liveToken(ctx, signupTokens, tokenHash, now)
	if err != nil {
		return booking.SignupRecord{}, err
	}
	rec := booking.SignupRecord{TokenHash: tokenHash}
	for _, f := range []struct {
		attr string
		to   *string
	}{{attrName, &rec.Name}, {attrTrade, &rec.Trade}, {attrEmail, &rec.Email}} {
		v, ok := item[f.attr].(*types.AttributeValueMemberS)
		if !ok {
			return booking.SignupRecord{}, fmt.Errorf("sign-up token: no %s", f.attr)
		}
		*f.to = v.Value
	}
	at, err := unixAttr(item, attrExpiresAt)
	if err != nil {
		return booking.SignupRecord{}, fmt.Errorf("sign-up token: %w", err)
	}
	rec.Expires = time.Unix(at, 0).UTC()
	return rec, nil
}

// SpendSignupToken deletes a pending sign-up on the condition that it is
// there and live (spendToken).
func (s *Store) SpendSignupToken(ctx context.Context, tokenHash string, now time.Time) error {
	_, err := s.spendToken(ctx, signupTokens, tokenHash, now)
	return err
}

// CreateSignup stores a business a sign-up makes: see booking.Store. It
// is one TransactWriteItems: the business item and its site and
// inbox_email items as PutBusiness writes a new business (the business
// item on the condition that there is none), the pending sign-up's spend
// (tokenSpend: on the condition that it is live), and the stack's count
// of the hour on the condition that it is under perHour. A transaction
// that conflicted with another is tried again (attempts).
func (s *Store) CreateSignup(ctx context.Context, b *booking.Business, tokenHash string, perHour int, now time.Time) error {
	if perHour < 1 {
		return fmt.Errorf("create a sign-up: perHour must be at least 1, got %d", perHour)
	}
	doc, err := booking.EncodeBusinessRecord(b)
	if err != nil {
		return fmt.Errorf("sign-up business %q: %w", b.Slug, err)
	}
	valid, err := booking.DecodeBusiness(doc)
	if err != nil {
		return err
	}
	in, at := s.putBusinessTransaction(b.Slug, doc, nil, valid.Sites(), nil, valid.InboxEmail, "")
	spend := len(in.TransactItems)
	in.TransactItems = append(in.TransactItems, types.TransactWriteItem{Delete: s.tokenSpend(signupTokens, tokenHash, now)})
	hour := now.UTC().Truncate(time.Hour)
	count := s.countUnder(prefixSignups, prefixHour+hour.Format(time.RFC3339), attrSignups, perHour)
	count.UpdateExpression = aws.String(aws.ToString(count.UpdateExpression) + ", " + attrExpiresAt + " = :expires")
	count.ExpressionAttributeValues[":expires"] = unix(hour.Add(signupHourCountTTL))
	counted := len(in.TransactItems)
	in.TransactItems = append(in.TransactItems, types.TransactWriteItem{Update: count})

	what := fmt.Sprintf("create the sign-up business %q", b.Slug)
	defer s.businesses.forget(b.Slug)
	return s.attempts(ctx, what, func(last bool) error {
		c, err := s.transact(ctx, what, in)
		switch {
		case err != nil:
			return err
		case c == nil:
			return nil
		case retryable(c.code):
			return errAgain
		}
		switch i := c.item; {
		case i == 0:
			return fmt.Errorf("%s: %w", what, booking.ErrSlugTaken)
		case i == spend:
			return signupTokens.none()
		case i == counted:
			return booking.Errorf(booking.RateLimited, "%d businesses signed up this hour", perHour)
		case i < len(at) && at[i].pk == inboxEmailPK(valid.InboxEmail):
			return fmt.Errorf("%s: %w", what, booking.ErrInboxEmailTaken)
		default: // a site item of another business at this slug's form
			return fmt.Errorf("%s: %s: %w", what, at[i].what, booking.ErrSlugTaken)
		}
	})
}
