package dynamo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Store is the DynamoDB store of the booking domain. See the package
// documentation for its items.
type Store struct {
	client *dynamodb.Client
	table  *string

	// pageSize limits the items a Query reads per page; 0 leaves it to
	// DynamoDB (1 MB). Tests lower it to cover pagination.
	pageSize int32

	businesses *businessCache // nil: every Business call reads the table
}

var _ booking.Store = (*Store)(nil)

// Option configures a Store.
type Option func(*Store)

// WithBusinessCache keeps each business record read for ttl (see
// BusinessCacheTTL), measured on now, so that a warm function does not read
// the same record on every call.
func WithBusinessCache(ttl time.Duration, now func() time.Time) Option {
	return func(s *Store) { s.businesses = newBusinessCache(ttl, now) }
}

// New returns the store over the given table.
func New(client *dynamodb.Client, table string, opts ...Option) *Store {
	s := &Store{client: client, table: aws.String(table)}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Transaction retries: a transaction cancelled because another one was
// writing the same items at the same moment is tried again, up to
// maxAttempts times in all, after a jittered pause that starts at
// firstBackoff and doubles up to maxBackoff.
const (
	maxAttempts  = 8
	firstBackoff = 5 * time.Millisecond
	maxBackoff   = 200 * time.Millisecond
)

// Cancellation reason codes of TransactWriteItems.
const (
	reasonNone                   = "None"
	reasonConditionalCheckFailed = "ConditionalCheckFailed"
	reasonTransactionConflict    = "TransactionConflict"
	reasonThrottling             = "ThrottlingError"
	reasonThroughputExceeded     = "ProvisionedThroughputExceeded"
)

// PutBusiness stores a business record, replacing the one with the same
// slug, together with its site items: one for each of its sites
// (booking.Business.Sites), and none left for a site it no longer has. It
// refuses a record that booking.DecodeBusiness would refuse to read, and a
// site that another business has (store that business without it first).
//
// It is one TransactWriteItems; see the package documentation. Which site
// items to delete comes from the stored business item, read first. That read
// decides nothing a visitor races for: storing businesses is an operator's
// path, not a booking decision. The business item is written only if it is
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
	b, err := change(stored)
	if err != nil {
		return err
	}
	if b.Slug != slug {
		return fmt.Errorf("put business %q: the changed record has the slug %q", slug, b.Slug)
	}
	doc, err := booking.EncodeBusinessRecord(b)
	if err != nil {
		return fmt.Errorf("business %q: %w", b.Slug, err)
	}
	valid, err := booking.DecodeBusiness(doc)
	if err != nil {
		return err
	}
	in, at := s.putBusinessTransaction(b.Slug, doc, valid.Sites(), old, oldSites)
	_, err = s.client.TransactWriteItems(ctx, in)
	s.businesses.forget(b.Slug)
	if err == nil {
		return nil
	}
	var canceled *types.TransactionCanceledException
	if !errors.As(err, &canceled) || len(canceled.CancellationReasons) != len(in.TransactItems) {
		return fmt.Errorf("put business %q: %w", b.Slug, err)
	}
	// The first item that did not pass says why.
	i, code := firstFailure(canceled.CancellationReasons)
	switch {
	case code != reasonConditionalCheckFailed:
	case i == 0:
		return fmt.Errorf("put business %q: the stored record changed while this one was being stored; try again: %w", b.Slug, err)
	default:
		owner, lookupErr := s.siteOwner(ctx, canceled.CancellationReasons[i].Item, at[i])
		if lookupErr != nil {
			return fmt.Errorf("put business %q: site %s: %w", b.Slug, at[i], lookupErr)
		}
		return fmt.Errorf("put business %q: the site %s is a site of business %q; store that business without it first: %w",
			b.Slug, at[i], owner, err)
	}
	return fmt.Errorf("put business %q: %w", b.Slug, err)
}

// putBusinessTransaction builds the TransactWriteItems of PutBusiness: the
// business item (unless the stored one changed since it was read as old),
// a put of each site item and a delete of each site item of a site in
// oldSites but not in sites (each unless another business has the site).
// at names the site of each item after the first.
func (s *Store) putBusinessTransaction(slug string, doc []byte, sites []booking.SiteLink,
	old map[string]types.AttributeValue, oldSites []booking.SiteLink) (*dynamodb.TransactWriteItemsInput, []booking.SiteLink) {
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
	at := []booking.SiteLink{{}}

	ours := aws.String("attribute_not_exists(pk) OR slug = :slug")
	slugValue := map[string]types.AttributeValue{":slug": str(slug)}
	for _, site := range sites {
		si := keyMap(sitePK(site.Host), siteSK(site.Path))
		si[attrSlug] = str(slug)
		items = append(items, types.TransactWriteItem{Put: &types.Put{
			TableName:                           s.table,
			Item:                                si,
			ConditionExpression:                 ours,
			ExpressionAttributeValues:           slugValue,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}})
		at = append(at, site)
	}
	for _, site := range oldSites {
		if slices.Contains(sites, site) {
			continue
		}
		items = append(items, types.TransactWriteItem{Delete: &types.Delete{
			TableName:                           s.table,
			Key:                                 keyMap(sitePK(site.Host), siteSK(site.Path)),
			ConditionExpression:                 ours,
			ExpressionAttributeValues:           slugValue,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}})
		at = append(at, site)
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

// siteOwner returns the slug on a site item, from the old item DynamoDB
// returned with a failed condition or, from engines that return none, by
// reading it.
func (s *Store) siteOwner(ctx context.Context, old map[string]types.AttributeValue, site booking.SiteLink) (string, error) {
	if len(old) == 0 {
		var err error
		if old, err = s.get(ctx, sitePK(site.Host), siteSK(site.Path)); err != nil {
			return "", err
		}
	}
	owner, ok := old[attrSlug].(*types.AttributeValueMemberS)
	if !ok {
		return "", fmt.Errorf("site item without %s", attrSlug)
	}
	return owner.Value, nil
}

// BusinessesAtHost returns the businesses with a site on host: one Query of
// the host's site items, then the business item of each slug they name. A
// site item whose business is gone, or no longer has a site on host, is
// passed over.
func (s *Store) BusinessesAtHost(ctx context.Context, host string) ([]*booking.Business, error) {
	p := dynamodb.NewQueryPaginator(s.client, &dynamodb.QueryInput{
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
	b, err := booking.DecodeBusiness([]byte(doc.Value))
	if err != nil {
		return nil, fmt.Errorf("stored business %q: %w", slug, err)
	}
	s.businesses.put(b)
	return b, nil
}

// Request returns the stored request with the given (canonical) code.
func (s *Store) Request(ctx context.Context, code string) (*booking.Request, error) {
	item, err := s.get(ctx, requestPK(code), skRequest)
	if err != nil {
		return nil, fmt.Errorf("get request %q: %w", code, err)
	}
	if item == nil {
		return nil, booking.Errorf(booking.NotFound, "no request has the code %q", code)
	}
	var r booking.Request
	if err := attributevalue.UnmarshalMapWithOptions(item, &r, jsonNamesDecoding); err != nil {
		return nil, fmt.Errorf("stored request %q: %w", code, err)
	}
	return &r, nil
}

// IdempotencyRecord returns the live record under key at the business, or
// nil. A record whose expiry is not after now is lapsed, even when the TTL
// has not deleted it yet.
func (s *Store) IdempotencyRecord(ctx context.Context, slug, key string, now time.Time) (*booking.IdempotencyRecord, error) {
	item, err := s.get(ctx, businessPK(slug), idempotencySK(key))
	if err != nil {
		return nil, fmt.Errorf("get idempotency record: %w", err)
	}
	return decodeIdempotency(item, key, now)
}

// HeldWindows returns the start instants, in UTC, of the windows of the
// business starting in [from, to) that a hold covers at now.
func (s *Store) HeldWindows(ctx context.Context, slug string, from, to, now time.Time) ([]time.Time, error) {
	// Hold keys have whole seconds: the first one in range is at or after
	// from rounded up, the last one before to rounded up.
	first, last := ceilSecond(from), ceilSecond(to).Add(-time.Second)
	if last.Before(first) {
		return nil, nil // BETWEEN refuses a range whose ends are reversed
	}
	p := dynamodb.NewQueryPaginator(s.client, &dynamodb.QueryInput{
		TableName:              s.table,
		KeyConditionExpression: aws.String("pk = :pk AND sk BETWEEN :first AND :last"),
		FilterExpression:       aws.String("expires_at > :now"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":    str(businessPK(slug)),
			":first": str(holdSK(first)),
			":last":  str(holdSK(last)),
			":now":   unix(now),
		},
		ProjectionExpression: aws.String(attrSK),
		ConsistentRead:       aws.Bool(true),
		Limit:                s.limit(),
	})
	var held []time.Time
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("query holds of %q: %w", slug, err)
		}
		for _, item := range page.Items {
			sk, _ := item[attrSK].(*types.AttributeValueMemberS)
			if sk == nil {
				return nil, fmt.Errorf("hold of %q without %s", slug, attrSK)
			}
			start, ok := parseHoldSK(sk.Value)
			if !ok {
				return nil, fmt.Errorf("hold of %q: bad sort key %q", slug, sk.Value)
			}
			held = append(held, start)
		}
	}
	return held, nil
}

func (s *Store) limit() *int32 {
	if s.pageSize <= 0 {
		return nil
	}
	return aws.Int32(s.pageSize)
}

func ceilSecond(t time.Time) time.Time {
	if u := t.Truncate(time.Second); u.Before(t) {
		return u.Add(time.Second)
	}
	return t
}

// CreateRequest stores r with its window hold, its phone counter increment
// and, when key is not nil, the idempotency record, in one transaction. See
// the package documentation.
func (s *Store) CreateRequest(ctx context.Context, r booking.Request, key *booking.IdempotencyRecord, now time.Time) error {
	in, at, err := s.createTransaction(r, key, now)
	if err != nil {
		return err
	}
	return s.transact(ctx, "create request "+r.Code,
		func() (*dynamodb.TransactWriteItemsInput, error) { return in, nil },
		func(i int, reason types.CancellationReason, err error) (bool, error) {
			return s.canceled(ctx, r, key, now, at, i, reason, err)
		},
		func(reasons []types.CancellationReason, err error) error {
			return s.stillConflicted(ctx, r, key, now, at, reasons, err)
		})
}

// transact runs the TransactWriteItems that build makes until it passes.
// When it is cancelled, the first item that did not pass decides: a
// conflict with another transaction writing the same items at the same
// moment, or throttling, runs it again after a jittered pause (from
// firstBackoff doubling up to maxBackoff); a failed condition is for
// failed to explain, and it may say to run again too; anything else is an
// error. After maxAttempts cancelled runs, exhausted says what to answer.
// build runs before each attempt, so a transaction that depends on a read
// is built on a fresh one.
func (s *Store) transact(ctx context.Context, what string,
	build func() (*dynamodb.TransactWriteItemsInput, error),
	failed func(i int, reason types.CancellationReason, err error) (again bool, _ error),
	exhausted func(reasons []types.CancellationReason, err error) error) error {
	backoff := firstBackoff
	for attempt := 1; ; attempt++ {
		in, err := build()
		if err != nil {
			return err
		}
		_, err = s.client.TransactWriteItems(ctx, in)
		if err == nil {
			return nil
		}
		var canceled *types.TransactionCanceledException
		if !errors.As(err, &canceled) || len(canceled.CancellationReasons) != len(in.TransactItems) {
			return fmt.Errorf("%s: %w", what, err)
		}
		reasons := canceled.CancellationReasons
		switch i, code := firstFailure(reasons); {
		case i < 0:
			return fmt.Errorf("%s: %w", what, err)
		case retryable(code):
		case code != reasonConditionalCheckFailed:
			return fmt.Errorf("%s: item %d: %s: %w", what, i, code, err)
		default:
			var again bool
			if again, err = failed(i, reasons[i], err); !again {
				return err
			}
		}
		if attempt == maxAttempts {
			return exhausted(reasons, err)
		}
		if err := sleep(ctx, backoff/2+rand.N(backoff/2+1)); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// firstFailure returns the index and reason code of the first item of a
// cancelled transaction that did not pass; -1 when no item says why.
func firstFailure(reasons []types.CancellationReason) (int, string) {
	for i, r := range reasons {
		if code := aws.ToString(r.Code); code != "" && code != reasonNone {
			return i, code
		}
	}
	return -1, ""
}

// retryable reports whether a cancellation reason leaves the answer open:
// running the transaction again may pass.
func retryable(code string) bool {
	return code == reasonTransactionConflict || code == reasonThrottling || code == reasonThroughputExceeded
}

// positions says where each item of a create transaction is; -1 for an item
// it does not have.
type positions struct{ idempotency, counter, hold, request int }

// canceled explains a create transaction whose item i failed its
// condition: a used idempotency key, a phone at its most open requests, a
// held window. again is true when the answer is still open (the key's record
// lapsed in between) and the transaction should run again.
func (s *Store) canceled(ctx context.Context, r booking.Request, key *booking.IdempotencyRecord, now time.Time,
	at positions, i int, reason types.CancellationReason, err error) (again bool, _ error) {
	switch i {
	case at.idempotency:
		rec, err := s.usedKey(ctx, reason.Item, r.BusinessSlug, key.Key, now)
		if err != nil {
			return false, err
		}
		if rec == nil {
			// The record lapsed in between: the key is free again.
			return true, fmt.Errorf("create request %s: idempotency record gone", r.Code)
		}
		return false, &booking.KeyUsedError{Record: *rec}
	case at.counter:
		return false, booking.Errorf(booking.TooManyOpen,
			"this phone number already has %d open requests with this business", booking.MaxOpenPerPhone)
	case at.hold:
		return false, windowTaken()
	case at.request:
		return false, fmt.Errorf("create request %s: a request with this code exists: %w", r.Code, err)
	}
	return false, fmt.Errorf("create request %s: item %d: %w", r.Code, i, err)
}

// stillConflicted answers a create whose last attempt still conflicted with
// other transactions. A window that others keep writing is taken; a key that
// others keep writing is used if a live record can be read under it.
func (s *Store) stillConflicted(ctx context.Context, r booking.Request, key *booking.IdempotencyRecord, now time.Time,
	at positions, reasons []types.CancellationReason, err error) error {
	if at.idempotency >= 0 && aws.ToString(reasons[at.idempotency].Code) != reasonNone {
		rec, lookupErr := s.IdempotencyRecord(ctx, r.BusinessSlug, key.Key, now)
		if lookupErr != nil {
			return lookupErr
		}
		if rec != nil {
			return &booking.KeyUsedError{Record: *rec}
		}
	}
	if i, code := firstFailure(reasons); i == at.hold && code == reasonTransactionConflict {
		return windowTaken()
	}
	return fmt.Errorf("create request %s: still conflicting after %d attempts: %w", r.Code, maxAttempts, err)
}

func windowTaken() error {
	return booking.Errorf(booking.WindowTaken, "this arrival window was just taken; pick another one")
}

// createTransaction builds the TransactWriteItems of CreateRequest, and says
// where each item is in it.
func (s *Store) createTransaction(r booking.Request, key *booking.IdempotencyRecord, now time.Time) (*dynamodb.TransactWriteItemsInput, positions, error) {
	at := positions{idempotency: -1}
	pk := businessPK(r.BusinessSlug)
	var items []types.TransactWriteItem

	// 1. The idempotency record, unless a live one is there.
	if key != nil {
		response, err := json.Marshal(key.Response)
		if err != nil {
			return nil, at, fmt.Errorf("encode idempotent response: %w", err)
		}
		item := keyMap(pk, idempotencySK(key.Key))
		item[attrBodyHash] = str(key.BodyHash)
		item[attrResponse] = str(string(response))
		item[attrExpiresAt] = unix(key.Expires)
		at.idempotency = len(items)
		items = append(items, types.TransactWriteItem{Put: &types.Put{
			TableName:                           s.table,
			Item:                                item,
			ConditionExpression:                 aws.String("attribute_not_exists(pk) OR expires_at <= :now"),
			ExpressionAttributeValues:           map[string]types.AttributeValue{":now": unix(now)},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		}})
	}

	// 2. One more open request for the phone, unless it has the most.
	at.counter = len(items)
	items = append(items, types.TransactWriteItem{Update: &types.Update{
		TableName:           s.table,
		Key:                 keyMap(pk, phoneSK(r.Contact.Phone)),
		UpdateExpression:    aws.String("SET open_count = if_not_exists(open_count, :zero) + :one"),
		ConditionExpression: aws.String("attribute_not_exists(open_count) OR open_count < :max"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":zero": num(0),
			":one":  num(1),
			":max":  num(booking.MaxOpenPerPhone),
		},
	}})

	// 3. The window hold, unless a live one is there.
	at.hold = len(items)
	items = append(items, types.TransactWriteItem{Put: s.takeHold(r, now)})

	// 4. The request, unless its code is taken.
	request, err := requestItem(r)
	if err != nil {
		return nil, at, err
	}
	at.request = len(items)
	items = append(items, types.TransactWriteItem{Put: &types.Put{
		TableName:           s.table,
		Item:                request,
		ConditionExpression: aws.String("attribute_not_exists(pk)"),
	}})

	return &dynamodb.TransactWriteItemsInput{TransactItems: items}, at, nil
}

// takeHold is the put of the hold of r on its window, on the condition
// that no live hold is there: how a create and a window move take one.
func (s *Store) takeHold(r booking.Request, now time.Time) *types.Put {
	hold := keyMap(businessPK(r.BusinessSlug), holdSK(r.Window.Start))
	hold[attrRequestCode] = str(r.Code)
	hold[attrExpiresAt] = unix(r.HoldUntil())
	return &types.Put{
		TableName:                 s.table,
		Item:                      hold,
		ConditionExpression:       aws.String("attribute_not_exists(pk) OR expires_at <= :now"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":now": unix(now)},
	}
}

// requestItem is the item of request r: its JSON fields as attributes, and
// the keys of the indexes it is in (the inbox once the business sees it,
// the sweep while it waits for its deposit).
func requestItem(r booking.Request) (map[string]types.AttributeValue, error) {
	item, err := attributevalue.MarshalMapWithOptions(r, jsonNamesEncoding)
	if err != nil {
		return nil, fmt.Errorf("encode request %s: %w", r.Code, err)
	}
	if r.HoldExpires.IsZero() {
		delete(item, attrHoldExpires) // omitzero in JSON; the encoder only knows omitempty
	}
	item[attrPK] = str(requestPK(r.Code))
	item[attrSK] = str(skRequest)
	if r.SeenByBusiness() {
		item[attrInboxSlug] = str(r.BusinessSlug)
	}
	if r.Status == booking.StatusPendingPayment {
		item[attrSweepShard] = str(sweepShard(r.Code))
		item[attrSweepAt] = unix(r.HoldExpires)
	}
	return item, nil
}

// usedKey decodes the idempotency record that made the transaction fail,
// from the old item DynamoDB returned or, from engines that return none, by
// reading it. It returns nil when no live record is there (any more).
func (s *Store) usedKey(ctx context.Context, old map[string]types.AttributeValue, slug, key string, now time.Time) (*booking.IdempotencyRecord, error) {
	if len(old) == 0 {
		return s.IdempotencyRecord(ctx, slug, key, now)
	}
	return decodeIdempotency(old, key, now)
}

// decodeIdempotency decodes an idempotency item; nil when item is nil or
// lapsed at now.
func decodeIdempotency(item map[string]types.AttributeValue, key string, now time.Time) (*booking.IdempotencyRecord, error) {
	if item == nil {
		return nil, nil
	}
	expires, err := unixAttr(item, attrExpiresAt)
	if err != nil {
		return nil, fmt.Errorf("idempotency record %q: %w", key, err)
	}
	if expires <= now.Unix() {
		return nil, nil
	}
	hash, _ := item[attrBodyHash].(*types.AttributeValueMemberS)
	response, _ := item[attrResponse].(*types.AttributeValueMemberS)
	if hash == nil || response == nil {
		return nil, fmt.Errorf("idempotency record %q: missing %s or %s", key, attrBodyHash, attrResponse)
	}
	rec := &booking.IdempotencyRecord{Key: key, BodyHash: hash.Value, Expires: time.Unix(expires, 0).UTC()}
	if err := json.Unmarshal([]byte(response.Value), &rec.Response); err != nil {
		return nil, fmt.Errorf("idempotency record %q: %s: %w", key, attrResponse, err)
	}
	return rec, nil
}

func unixAttr(item map[string]types.AttributeValue, name string) (int64, error) {
	n, ok := item[name].(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("no number %s", name)
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

// get reads one item, strongly consistent; nil when there is none.
func (s *Store) get(ctx context.Context, pk, sk string) (map[string]types.AttributeValue, error) {
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      s.table,
		Key:            keyMap(pk, sk),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, err
	}
	if len(out.Item) == 0 {
		return nil, nil
	}
	return out.Item, nil
}

// The request item's attributes are named as booking.Request's JSON fields.
func jsonNamesEncoding(o *attributevalue.EncoderOptions) { o.TagKey = "json" }
func jsonNamesDecoding(o *attributevalue.DecoderOptions) { o.TagKey = "json" }

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
