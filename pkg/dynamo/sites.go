package dynamo

import (
	"context"
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// claim is an item of PutBusiness's transaction that gives the business
// something only one business may have: a site, or its inbox_email. It is
// written on the condition that no other business has it.
type claim struct {
	what   string // what a failed condition means, up to the owner: "the site x is a site of"
	pk, sk string
	// taken is the refusal a failed condition wraps: booking.ErrSiteTaken
	// for a site (the offer's details page names the url), and
	// booking.ErrTakenByAnother for both (a new inbox address's link).
	taken error
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
		return claim{what: "the site " + siteName(site) + " is a site of", pk: sitePK(site.Host), sk: siteSK(site.Path),
			taken: fmt.Errorf("%w: %w", booking.ErrSiteTaken, booking.ErrTakenByAnother)}
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
		return claim{what: "its inbox_email is the inbox_email of", pk: inboxEmailPK(email), sk: skInboxEmail, taken: booking.ErrTakenByAnother}
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
