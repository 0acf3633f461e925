package dynamo

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Store is the DynamoDB store of the booking domain. README.md describes its
// items.
type Store struct {
	client ops
	table  *string

	// pageSize limits the items a Query reads per page; 0 leaves it to
	// DynamoDB (1 MB). Tests lower it to cover pagination.
	pageSize int32

	businesses *businessCache // nil: every Business call reads the table
	// decoded spares decoding a business record read again unchanged.
	decoded decodedBusinesses
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
	s := &Store{client: opsOf(client), table: aws.String(table)}
	for _, o := range opts {
		o(s)
	}
	return s
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

func (s *Store) get(ctx context.Context, pk, sk string) (map[string]types.AttributeValue, error) {
	return getItem(ctx, s.client, s.table, pk, sk)
}

// getItem reads one item, strongly consistent; nil when there is none.
func getItem(ctx context.Context, client ops, table *string, pk, sk string) (map[string]types.AttributeValue, error) {
	return readItem(ctx, client, table, pk, sk, true)
}

// readItem reads one item, strongly consistent or not (half the read
// units); nil when there is none.
func readItem(ctx context.Context, client ops, table *string, pk, sk string, consistent bool) (map[string]types.AttributeValue, error) {
	out, err := client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      table,
		Key:            keyMap(pk, sk),
		ConsistentRead: aws.Bool(consistent),
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
