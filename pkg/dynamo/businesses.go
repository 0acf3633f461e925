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

// UpdateBusinessAt is UpdateBusiness, and a change of the window length
// only while no request holds a window at now or later: see
// booking.Store and README.md ("Window length"). A hold taken between its
// read of the holds and its write makes the write fail; it then reads
// again, a few times, before it gives up as contended.
func (s *Store) UpdateBusinessAt(ctx context.Context, slug string, now time.Time, change func(stored *booking.Business) (*booking.Business, error)) error {
	var err error
	for range windowChangeAttempts {
		if err = s.updateBusiness(ctx, slug, &now, change); !errors.Is(err, errHoldTaken) {
			return err
		}
	}
	return fmt.Errorf("put business %q: windows kept being taken while the window length changed: %w", slug, booking.ErrLiveRequestsAhead)
}

// windowChangeAttempts is how many times UpdateBusinessAt tries a change
// of window length that a hold taken meanwhile made fail.
const windowChangeAttempts = 4

// errHoldTaken: a hold was taken between a window-length change's read of
// the holds and its write.
var errHoldTaken = errors.New("a window hold was taken meanwhile")

// liveAheadSince is how far before now a hold's window may start and it
// still be live: the longest window the loader takes (720 minutes), and
// more.
const liveAheadSince = 24 * time.Hour

// holdsLiveAt reports whether any hold of the business is live at now (its
// expires_at after now: a hold lasts at most to its window's end).
func (s *Store) holdsLiveAt(ctx context.Context, slug string, now time.Time) (bool, error) {
	live := false
	err := s.queryHolds(ctx, slug, "sk BETWEEN :first AND :last", map[string]types.AttributeValue{
		":first": str(holdSK(now.Add(-liveAheadSince).Truncate(time.Second), 0)),
		":last":  str(prefixHold + "~"),
	}, func(_ time.Time, _ int, _ string, expires int64) {
		if expires > now.Unix() {
			live = true
		}
	})
	return live, err
}

// windowsItem is the update of the business's open count item that goes
// with a change of its window length to minutes: the length holds are
// taken on from then (takeOn). With takes (the count read before the read of
// the holds), only while no hold was taken since: see README.md.
func (s *Store) windowsItem(slug string, minutes int, takes *int64) types.TransactWriteItem {
	u := &types.Update{
		TableName:                 s.table,
		Key:                       keyMap(businessPK(slug), skOpen),
		UpdateExpression:          aws.String("SET window_minutes = :m"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":m": num(int64(minutes))},
	}
	switch {
	case takes == nil:
	case *takes == 0:
		u.ConditionExpression = aws.String("attribute_not_exists(takes) OR takes = :zero")
		u.ExpressionAttributeValues[":zero"] = num(0)
	default:
		u.ConditionExpression = aws.String("takes = :takes")
		u.ExpressionAttributeValues[":takes"] = num(*takes)
	}
	return types.TransactWriteItem{Update: u}
}

// windowTakes is how many holds were ever counted on the business's open
// count item (0 with none), read consistently.
func (s *Store) windowTakes(ctx context.Context, slug string) (int64, error) {
	item, err := s.get(ctx, businessPK(slug), skOpen)
	if err != nil || item == nil {
		return 0, err
	}
	if _, ok := item[attrTakes]; !ok {
		return 0, nil
	}
	return unixAttr(item, attrTakes)
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
			b.Slug, at[i].what, owner, booking.ErrSiteTaken, err)
	}
	return fmt.Errorf("put business %q: %w", b.Slug, err)
}

// claim is an item of PutBusiness's transaction that gives the business
// something only one business may have: a site, or its inbox_email. It is
// written on the condition that no other business has it.
type claim struct {
	what   string // what a failed condition means, up to the owner: "the site x is a site of"
	pk, sk string
}

// putBusinessTransaction builds the TransactWriteItems of PutBusiness: the
// business item (unless the stored one changed since it was read as old),
// a put of each site item and a delete of each site item of a site in
// oldSites but not in sites, and a put of the inbox_email's lookup item
// and a delete of oldEmail's when the address changed (each unless
// another business has the site or address). at names the claim of each
// item after the first.
func (s *Store) putBusinessTransaction(slug string, doc []byte, old map[string]types.AttributeValue,
	sites, oldSites []booking.SiteLink, email, oldEmail string) (*dynamodb.TransactWriteItemsInput, []claim) {
	names := make([]types.AttributeValue, len(sites))
	for i, site := range sites {
		names[i] = str(siteName(site))
	}
	item := keyMap(businessPK(slug), skProfile)
	item[attrDoc] = str(string(doc))
	item[attrSites] = &types.AttributeValueMemberL{Value: names}
	put := &types.Put{TableName: s.table, Item: item}
	switch oldDoc, ok := old[attrDoc]; {
	case old == nil:
		put.ConditionExpression = aws.String("attribute_not_exists(pk)")
	case ok:
		put.ConditionExpression = aws.String("doc = :doc")
		put.ExpressionAttributeValues = map[string]types.AttributeValue{":doc": oldDoc}
	default:
		put.ConditionExpression = aws.String("attribute_not_exists(doc)")
	}
	items := []types.TransactWriteItem{{Put: put}}
	at := []claim{{}}

	ours := aws.String("attribute_not_exists(pk) OR slug = :slug")
	slugValue := map[string]types.AttributeValue{":slug": str(slug)}
	take := func(c claim) {
		ci := keyMap(c.pk, c.sk)
		ci[attrSlug] = str(slug)
		items = append(items, types.TransactWriteItem{Put: &types.Put{
			TableName:                           s.table,
			Item:                                ci,
			ConditionExpression:                 ours,
			ExpressionAttributeValues:           slugValue,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}})
		at = append(at, c)
	}
	giveUp := func(c claim) {
		items = append(items, types.TransactWriteItem{Delete: &types.Delete{
			TableName:                           s.table,
			Key:                                 keyMap(c.pk, c.sk),
			ConditionExpression:                 ours,
			ExpressionAttributeValues:           slugValue,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}})
		at = append(at, c)
	}
	siteClaim := func(site booking.SiteLink) claim {
		return claim{what: "the site " + siteName(site) + " is a site of", pk: sitePK(site.Host), sk: siteSK(site.Path)}
	}
	for _, site := range sites {
		take(siteClaim(site))
	}
	for _, site := range oldSites {
		if !slices.Contains(sites, site) {
			giveUp(siteClaim(site))
		}
	}
	// The address itself stays out of errors: they reach logs.
	emailClaim := func(email string) claim {
		return claim{what: "its inbox_email is the inbox_email of", pk: inboxEmailPK(email), sk: skInboxEmail}
	}
	if email != "" {
		take(emailClaim(email))
	}
	if oldEmail != "" && (email == "" || booking.EmailHash(oldEmail) != booking.EmailHash(email)) {
		giveUp(emailClaim(oldEmail))
	}
	return &dynamodb.TransactWriteItemsInput{TransactItems: items}, at
}

// storedSites returns the sites a stored business item lists; none for no
// item, or for an item stored before site items existed.
func storedSites(item map[string]types.AttributeValue) ([]booking.SiteLink, error) {
	v, ok := item[attrSites]
	if !ok {
		return nil, nil
	}
	list, ok := v.(*types.AttributeValueMemberL)
	if !ok {
		return nil, fmt.Errorf("%s is not a list", attrSites)
	}
	sites := make([]booking.SiteLink, 0, len(list.Value))
	for _, e := range list.Value {
		name, ok := e.(*types.AttributeValueMemberS)
		if !ok {
			return nil, fmt.Errorf("%s holds a %T, want strings", attrSites, e)
		}
		sites = append(sites, parseSiteName(name.Value))
	}
	return sites, nil
}

// claimOwner returns the slug on a claim's item, from the old item
// DynamoDB returned with a failed condition or, from engines that return
// none, by reading it.
func (s *Store) claimOwner(ctx context.Context, old map[string]types.AttributeValue, c claim) (string, error) {
	if len(old) == 0 {
		var err error
		if old, err = s.get(ctx, c.pk, c.sk); err != nil {
			return "", err
		}
	}
	owner, ok := old[attrSlug].(*types.AttributeValueMemberS)
	if !ok {
		return "", fmt.Errorf("item without %s", attrSlug)
	}
	return owner.Value, nil
}

// BusinessesAtHost returns the businesses with a site on host: one Query of
// the host's site items, then the business item of each slug they name. A
// site item whose business is gone, or no longer has a site on host, is
// passed over.
func (s *Store) BusinessesAtHost(ctx context.Context, host string) ([]*booking.Business, error) {
	p := dynamodb.NewQueryPaginator(s.client.Query, &dynamodb.QueryInput{
		TableName:                 s.table,
		KeyConditionExpression:    aws.String("pk = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(sitePK(host))},
		ProjectionExpression:      aws.String(attrSlug),
		ConsistentRead:            aws.Bool(true),
		Limit:                     s.limit(),
	})
	var slugs []string
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("query sites at %q: %w", host, err)
		}
		for _, item := range page.Items {
			slug, ok := item[attrSlug].(*types.AttributeValueMemberS)
			if !ok {
				return nil, fmt.Errorf("site item at %q without %s", host, attrSlug)
			}
			if !slices.Contains(slugs, slug.Value) {
				slugs = append(slugs, slug.Value)
			}
		}
	}
	var bs []*booking.Business
	for _, slug := range slugs {
		b, err := s.Business(ctx, slug)
		if err != nil && booking.ErrorCode(err) == booking.NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(b.Sites(), func(l booking.SiteLink) bool { return l.Host == host }) {
			bs = append(bs, b)
		}
	}
	return bs, nil
}

// BusinessByInboxEmail returns the business whose inbox_email is email:
// a GetItem of its lookup item (written by PutBusiness), then the business
// item it names. A lookup item whose business is gone, or no longer has
// that address, finds nothing.
func (s *Store) BusinessByInboxEmail(ctx context.Context, email string) (*booking.Business, error) {
	notFound := booking.Errorf(booking.NotFound, "no business has this inbox_email")
	item, err := s.get(ctx, inboxEmailPK(email), skInboxEmail)
	if err != nil {
		return nil, fmt.Errorf("get the business of an inbox_email: %w", err)
	}
	slug, ok := item[attrSlug].(*types.AttributeValueMemberS)
	if item == nil || !ok {
		return nil, notFound
	}
	b, err := s.Business(ctx, slug.Value)
	switch {
	case booking.ErrorCode(err) == booking.NotFound:
		return nil, notFound
	case err != nil:
		return nil, err
	}
	if b.InboxEmail == "" || booking.EmailHash(b.InboxEmail) != booking.EmailHash(email) {
		return nil, notFound
	}
	return b, nil
}

// Business returns the business with the given slug. The record is shared
// with the cache, when there is one: callers do not change it.
func (s *Store) Business(ctx context.Context, slug string) (*booking.Business, error) {
	if b, ok := s.businesses.get(slug); ok {
		return b, nil
	}
	item, err := s.get(ctx, businessPK(slug), skProfile)
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
	if b, ok := s.decoded.get(slug, doc.Value); ok {
		s.businesses.put(b)
		return b, nil
	}
	b, err := booking.DecodeBusiness([]byte(doc.Value))
	if err != nil {
		return nil, fmt.Errorf("stored business %q: %w", slug, err)
	}
	s.decoded.put(slug, doc.Value, b)
	s.businesses.put(b)
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
