package dynamo

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// BusinessRequests queries the inbox index: the business's requests sent in
// [q.From, q.To), newest first, filtered by state. It reads until it has a
// full page or the range is done. The cursor is the key of the last request
// of the page, as base64url JSON; a cursor of another business, or one
// outside the query's range, is refused (decodeCursor).
func (s *Store) BusinessRequests(ctx context.Context, q booking.RequestQuery) (booking.RequestPage, error) {
	from, last := q.From.UTC().Format(time.RFC3339), ceilSecond(q.To).Add(-time.Second).UTC().Format(time.RFC3339)
	start, err := decodeCursor(q.Cursor, q.Slug, from, last)
	if err != nil {
		return booking.RequestPage{}, err
	}
	names := map[string]string{"#created": attrCreated}
	values := map[string]types.AttributeValue{
		":slug": str(q.Slug),
		":from": str(from),
		":last": str(last),
	}
	in := &dynamodb.QueryInput{
		TableName:                 s.table,
		IndexName:                 aws.String(indexInbox),
		KeyConditionExpression:    aws.String("inbox_slug = :slug AND #created BETWEEN :from AND :last"),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ScanIndexForward:          aws.Bool(false),
		ExclusiveStartKey:         start,
		Limit:                     aws.Int32(int32(q.Limit)),
	}
	if len(q.Statuses) > 0 {
		names["#status"] = attrStatus
		placeholders := make([]string, len(q.Statuses))
		for i, st := range q.Statuses {
			placeholders[i] = ":s" + strconv.Itoa(i)
			values[placeholders[i]] = str(string(st))
		}
		in.FilterExpression = aws.String("#status IN (" + strings.Join(placeholders, ", ") + ")")
	}
	if s.pageSize > 0 {
		in.Limit = aws.Int32(min(s.pageSize, int32(q.Limit)))
	}

	var page booking.RequestPage
	for {
		out, err := s.client.Query(ctx, in)
		if err != nil {
			return booking.RequestPage{}, fmt.Errorf("query requests of %q: %w", q.Slug, err)
		}
		for i, item := range out.Items {
			var r booking.Request
			if err := attributevalue.UnmarshalMapWithOptions(item, &r, jsonNamesDecoding); err != nil {
				return booking.RequestPage{}, fmt.Errorf("stored request: %w", err)
			}
			page.Requests = append(page.Requests, r)
			if len(page.Requests) == q.Limit {
				if i < len(out.Items)-1 || len(out.LastEvaluatedKey) > 0 {
					page.Next = encodeCursor(r)
				}
				return page, nil
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return page, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// cursor is the position after which the next page starts: the last
// request's table key and its created, all the inbox index needs besides
// the business, which the query names.
type cursor struct {
	Code    string `json:"c"`
	Created string `json:"t"`
	Slug    string `json:"b"`
}

func encodeCursor(r booking.Request) string {
	data, _ := json.Marshal(cursor{Code: r.Code, Created: r.Created.UTC().Format(time.RFC3339), Slug: r.BusinessSlug})
	return base64.RawURLEncoding.EncodeToString(data)
}

// decodeCursor checks a cursor against the query before it becomes the
// query's start key, since DynamoDB refuses a start key outside the key
// condition (a ValidationException, which would be a SERVER_ERROR): it must
// name the query's business, a request code, and a created instant in the
// query's range [from, last], written as the list writes it (RFC 3339, UTC,
// whole seconds), so that it compares within the range as the index's
// strings do. Anything else is INVALID_REQUEST. A cursor that passes
// is a position in the business's own list, which it may read anyway: a
// forged one shows it nothing it could not list.
func decodeCursor(s, slug, from, last string) (map[string]types.AttributeValue, error) {
	if s == "" {
		return nil, nil
	}
	bad := booking.Errorf(booking.InvalidRequest, "cursor is not one this list gave; start again without it")
	data, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, bad
	}
	var c cursor
	if err := json.Unmarshal(data, &c); err != nil || c.Slug != slug {
		return nil, bad
	}
	if _, ok := booking.CanonicalCode(c.Code); !ok {
		return nil, bad
	}
	created, err := time.Parse(time.RFC3339, c.Created)
	if err != nil || created.UTC().Format(time.RFC3339) != c.Created || c.Created < from || c.Created > last {
		return nil, bad
	}
	if code, _ := booking.CanonicalCode(c.Code); code != c.Code {
		return nil, bad
	}
	key := keyMap(requestPK(c.Code), skRequest)
	key[attrInboxSlug] = str(slug)
	key[attrCreated] = str(c.Created)
	return key, nil
}

// Lapsed queries each shard of the sweep index for requests that lapsed at
// or before now (sweep_at: a pending_payment request's hold expiry, a new
// one's window start), a page at a time. The index is eventually
// consistent: a request just paid or answered may still be listed, and the
// move's own check turns it away.
func (s *Store) Lapsed(ctx context.Context, now time.Time, fn func(codes []string) error) error {
	return s.dueCodes(ctx, indexSweep, attrSweepShard, attrSweepAt, prefixSweep, sweepShards, now, fn)
}

// dueCodes queries each of the shards of a sparse index of requests keyed
// by shardAttr (shardPrefix and the shard number) and atAttr (Unix
// seconds), and passes fn the codes of the requests due at or before now,
// a page at a time.
func (s *Store) dueCodes(ctx context.Context, index, shardAttr, atAttr, shardPrefix string, shards int, now time.Time, fn func(codes []string) error) error {
	for shard := range shards {
		p := dynamodb.NewQueryPaginator(s.client.Query, &dynamodb.QueryInput{
			TableName:              s.table,
			IndexName:              aws.String(index),
			KeyConditionExpression: aws.String(shardAttr + " = :shard AND " + atAttr + " <= :now"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":shard": str(shardPrefix + strconv.Itoa(shard)),
				":now":   unix(now),
			},
			Limit: s.limit(),
		})
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				return fmt.Errorf("query the %s index: %w", index, err)
			}
			codes := make([]string, 0, len(page.Items))
			for _, item := range page.Items {
				pk, _ := item[attrPK].(*types.AttributeValueMemberS)
				if pk == nil || !strings.HasPrefix(pk.Value, prefixRequest) {
					return fmt.Errorf("%s index item without a request key: %v", index, item[attrPK])
				}
				codes = append(codes, strings.TrimPrefix(pk.Value, prefixRequest))
			}
			if len(codes) > 0 {
				if err := fn(codes); err != nil {
					return err
				}
			}
		}
	}
	return nil
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

// AddSweepKeys gives each request stored new without sweep keys (stored
// before new requests had them) the keys requestItem now gives it, so that
// the sweep finds it once its window starts, and returns how many it gave
// them to. It scans the whole table: an operator's one-off (infra/ctl),
// never a request path. Each write is conditional on the request being
// still new with the window it was read with and still keyless; one moved
// meanwhile is left to its move, which put it whole.
func (s *Store) AddSweepKeys(ctx context.Context) (int, error) {
	added := 0
	err := s.scanRequests(ctx, "requests without sweep keys", "#status = :new AND attribute_not_exists("+attrSweepAt+")",
		map[string]string{"#status": attrStatus},
		map[string]types.AttributeValue{":new": str(string(booking.StatusNew))},
		func(r booking.Request) error {
			start, err := attributevalue.Marshal(r.Window.Start)
			if err != nil {
				return fmt.Errorf("encode window start: %w", err)
			}
			_, err = s.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
				TableName:           s.table,
				Key:                 keyMap(requestPK(r.Code), skRequest),
				UpdateExpression:    aws.String("SET " + attrSweepShard + " = :shard, " + attrSweepAt + " = :at"),
				ConditionExpression: aws.String("#status = :new AND #window.#start = :start AND attribute_not_exists(" + attrSweepAt + ")"),
				ExpressionAttributeNames: map[string]string{
					"#status": attrStatus, "#window": attrWindow, "#start": "start",
				},
				ExpressionAttributeValues: map[string]types.AttributeValue{
					":shard": str(sweepShard(r.Code)), ":at": unix(r.LapsesAt()),
					":new": str(string(booking.StatusNew)), ":start": start,
				},
			})
			var failed *types.ConditionalCheckFailedException
			switch {
			case errors.As(err, &failed):
				return nil // moved meanwhile
			case err != nil:
				return fmt.Errorf("add sweep keys to %s: %w", r.Code, err)
			}
			added++
			return nil
		})
	return added, err
}

// scanRequests scans the whole table, with consistent reads, for the
// request items that also match filter (with its names and values; nil
// when none), and calls fn with each, until there are no more or fn
// fails. An operator's tool (infra/ctl), never a request path; what names
// the requests looked for in errors.
func (s *Store) scanRequests(ctx context.Context, what, filter string, names map[string]string,
	values map[string]types.AttributeValue, fn func(booking.Request) error) error {
	expr := "begins_with(pk, :request) AND sk = :sk"
	if filter != "" {
		expr += " AND " + filter
	}
	all := map[string]types.AttributeValue{":request": str(prefixRequest), ":sk": str(skRequest)}
	maps.Copy(all, values)
	p := dynamodb.NewScanPaginator(s.client.Scan, &dynamodb.ScanInput{
		TableName:                 s.table,
		FilterExpression:          aws.String(expr),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: all,
		ConsistentRead:            aws.Bool(true),
		Limit:                     s.limit(),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("scan for %s: %w", what, err)
		}
		for _, item := range page.Items {
			var r booking.Request
			if err := attributevalue.UnmarshalMapWithOptions(item, &r, jsonNamesDecoding); err != nil {
				return fmt.Errorf("stored request: %w", err)
			}
			if err := fn(r); err != nil {
				return err
			}
		}
	}
	return nil
}
