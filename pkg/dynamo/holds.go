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
