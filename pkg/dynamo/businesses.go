package dynamo

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// PutBusiness stores a business record, replacing the one with the same
// slug, together with its site items: one for each of its sites
// (booking.Business.Sites), and none left for a site it no longer has; and
// the lookup item of its inbox_email, none left for an address it no
// longer has. It refuses a record that booking.DecodeBusiness would refuse
// to read, and a site or inbox_email that another business has (store
// that business without it first).
//
// It is one TransactWriteItems; see README.md. Which site items to delete
// comes from the stored business item, read first. That read decides
// nothing a visitor races for: storing businesses is an operator's path,
// not a booking decision. The business item is written only if it is
// still as read, so a concurrent put of the same business makes this one
// fail (try again) rather than leave a site item behind.
func (s *Store) PutBusiness(ctx context.Context, b *booking.Business) error {
	return s.UpdateBusiness(ctx, b.Slug, func(*booking.Business) (*booking.Business, error) { return b, nil })
}

// UpdateBusiness stores the record change makes from the stored record of
// slug (nil when there is none), as PutBusiness stores one, on the
// condition that the stored record is still the one change was given: an
// edit of a stored record (an operator minting an inbox token, or keeping
// one while reloading a file) never undoes a change made in between; it
// fails instead, to be tried again.
func (s *Store) UpdateBusiness(ctx context.Context, slug string, change func(stored *booking.Business) (*booking.Business, error)) error {
	return s.updateBusiness(ctx, slug, nil, change)
}

// updateBusiness is UpdateBusiness, and with now UpdateBusinessAt.
func (s *Store) updateBusiness(ctx context.Context, slug string, now *time.Time, change func(stored *booking.Business) (*booking.Business, error)) error {
	old, err := s.get(ctx, businessPK(slug), skProfile)
	if err != nil {
		return fmt.Errorf("put business %q: read the stored record: %w", slug, err)
	}
	oldSites, err := storedSites(old)
	if err != nil {
		return fmt.Errorf("put business %q: stored record: %w", slug, err)
	}
	var stored *booking.Business
	if oldDoc, ok := old[attrDoc].(*types.AttributeValueMemberS); ok {
		if stored, err = booking.DecodeBusiness([]byte(oldDoc.Value)); err != nil {
			return fmt.Errorf("put business %q: stored record: %w", slug, err)
		}
	}
	changed, err := change(stored)
	if err != nil {
		return err
	}
	if changed.Slug != slug {
		return fmt.Errorf("put business %q: the changed record has the slug %q", slug, changed.Slug)
	}
	b := *changed
	b.KeepCrewsEver(stored) // see booking.Crews
	doc, err := booking.EncodeBusinessRecord(&b)
	if err != nil {
		return fmt.Errorf("business %q: %w", b.Slug, err)
	}
	valid, err := booking.DecodeBusiness(doc)
	if err != nil {
		return err
	}
	oldEmail := ""
	if stored != nil {
		oldEmail = stored.InboxEmail
	}
	in, at := s.putBusinessTransaction(b.Slug, doc, old, valid.Sites(), oldSites, valid.InboxEmail, oldEmail)
	windowsAt := -1
	if stored != nil && stored.ArrivalWindowMinutes != b.ArrivalWindowMinutes {
		// Holds are taken on the window length (holdSteps): from this
		// write on, only on the new one. With now, only while none is
		// live: the count of holds taken is read before the holds, and
		// the write's condition is that it is unchanged.
		var takes *int64
		if now != nil {
			n, err := s.windowTakes(ctx, b.Slug)
			if err != nil {
				return fmt.Errorf("put business %q: read its window holds: %w", b.Slug, err)
			}
			switch live, err := s.holdsLiveAt(ctx, b.Slug, *now); {
			case err != nil:
				return fmt.Errorf("put business %q: read its window holds: %w", b.Slug, err)
			case live:
				return booking.ErrLiveRequestsAhead
			}
			takes = &n
		}
		windowsAt = len(in.TransactItems)
		in.TransactItems = append(in.TransactItems, s.windowsItem(b.Slug, b.ArrivalWindowMinutes, takes))
		at = append(at, claim{})
	}
	_, err = s.client.TransactWriteItems(ctx, in)
	s.businesses.forget(b.Slug)
	if err == nil {
		// This store's next read of the business is its own write, even
		// when an eventually consistent read would still find the old one.
		s.businesses.put(valid)
		s.decoded.put(b.Slug, string(doc), valid)
		return nil
	}
	// The first item that did not pass says why.
	c := canceledBy(err, in)
	switch {
	case c == nil || c.code != reasonConditionalCheckFailed:
	case c.item == 0:
		return fmt.Errorf("put business %q: the stored record changed while this one was being stored; try again: %w: %w", b.Slug, booking.ErrBusinessChanged, err)
	case c.item == windowsAt:
		return fmt.Errorf("put business %q: %w", b.Slug, errHoldTaken)
	default:
		i := c.item
		owner, lookupErr := s.claimOwner(ctx, c.reasons[i].Item, at[i])
		if lookupErr != nil {
			return fmt.Errorf("put business %q: %s: %w", b.Slug, at[i].what, lookupErr)
		}
		return fmt.Errorf("put business %q: %s business %q; store that business without it first: %w: %w",
			b.Slug, at[i].what, owner, at[i].taken, err)
	}
	return fmt.Errorf("put business %q: %w", b.Slug, err)
}

// Business returns the business with the given slug: the caller's own
// copy (booking.Business.Clone), which it may change without changing
// what the caches hand the next caller.
func (s *Store) Business(ctx context.Context, slug string) (*booking.Business, error) {
	b, err := s.business(ctx, slug, false)
	if err != nil {
		return nil, err
	}
	return b.Clone(), nil
}

// PublicBusiness returns the business with the given slug as the caches
// keep it, shared with every other caller: the public side only reads it,
// and the copy Business makes (about a third of a getBusiness's time above
// its GetItem) is not made.
func (s *Store) PublicBusiness(ctx context.Context, slug string) (*booking.Business, error) {
	return s.business(ctx, slug, false)
}

// OwnBusiness returns the business with the given slug read strongly
// consistent, past the business cache (which it leaves as it is): the
// owner's own pages show a change stored by another process (the
// operator's approval) at once, not BusinessCacheTTL later. The caller's
// own copy, as Business's.
func (s *Store) OwnBusiness(ctx context.Context, slug string) (*booking.Business, error) {
	b, err := s.business(ctx, slug, true)
	if err != nil {
		return nil, err
	}
	return b.Clone(), nil
}

// decodeBusiness decodes a stored business record; tests count its calls.
var decodeBusiness = booking.DecodeBusiness

// business returns the business with the given slug as the caches keep
// it: shared, never to be changed. Fresh reads it strongly consistent and
// neither reads nor fills the business cache (only the decoded one, which
// is keyed by the stored document itself).
func (s *Store) business(ctx context.Context, slug string, fresh bool) (*booking.Business, error) {
	if !fresh {
		if b, ok := s.businesses.get(slug); ok {
			return b, nil
		}
	}
	// Eventually consistent, half a strongly consistent read's units: the
	// record is an operator's or its business's settings, never a booking
	// decision (DynamoDB's conditions make those), and a warm function
	// already serves it up to BusinessCacheTTL old; a store that changed
	// it serves its own change from the cache (UpdateBusiness). The
	// owner's pages read it fresh (OwnBusiness).
	item, err := readItem(ctx, s.client, s.table, businessPK(slug), skProfile, fresh)
	if err != nil {
		return nil, fmt.Errorf("get business %q: %w", slug, err)
	}
	if item == nil {
		return nil, booking.Errorf(booking.NotFound, "no business has the slug %q", slug)
	}
	doc, ok := item[attrDoc].(*types.AttributeValueMemberS)
	if !ok {
		return nil, fmt.Errorf("business %q: stored item has no %s", slug, attrDoc)
	}
	b, ok := s.decoded.get(slug, doc.Value)
	if !ok {
		if b, err = decodeBusiness([]byte(doc.Value)); err != nil {
			return nil, fmt.Errorf("stored business %q: %w", slug, err)
		}
		s.decoded.put(slug, doc.Value, b)
	}
	if !fresh {
		s.businesses.put(b)
	}
	return b, nil
}

// EachBusiness calls fn with every business in the table, validated, in no
// order, until there are no more or fn fails: a Scan of the whole table
// with consistent reads, for the operator's tools (ctl businesses list),
// never a request path.
func (s *Store) EachBusiness(ctx context.Context, fn func(*booking.Business) error) error {
	p := dynamodb.NewScanPaginator(s.client.Scan, &dynamodb.ScanInput{
		TableName:                 s.table,
		FilterExpression:          aws.String("begins_with(pk, :business) AND sk = :sk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":business": str(prefixBusiness), ":sk": str(skProfile)},
		ConsistentRead:            aws.Bool(true),
		Limit:                     s.limit(),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("scan for businesses: %w", err)
		}
		for _, item := range page.Items {
			doc, ok := item[attrDoc].(*types.AttributeValueMemberS)
			if !ok {
				return fmt.Errorf("stored business %v: no doc", item["pk"])
			}
			b, err := booking.DecodeBusiness([]byte(doc.Value))
			if err != nil {
				return fmt.Errorf("stored business: %w", err)
			}
			if err := fn(b); err != nil {
				return err
			}
		}
	}
	return nil
}
