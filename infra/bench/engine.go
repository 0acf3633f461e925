package main

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/dynamo"
)

// The engine's own ceiling: the bare SDK calls each HTTP operation cannot
// avoid, made in loops by as many workers as wrk has connections, for as
// long as a wrk run, against the local server's own DynamoDB Local, right
// after the wrk runs. The HTTP targets on DynamoDB Local are ratios to it
// (docs/performance.md: the HTTP throughput on DynamoDB Local).

// localTable is infra/local's table.
const localTable = "doorstep"

// Engine targets: each operation's throughput as a fraction of the
// throughput of the engine calls it cannot avoid, at the same concurrency.
// The business is served from the business cache (10 s), so a listing is
// one Query of the holds and a create one Query of the hourly slots and
// one TransactWriteItems.
const (
	targetListOfEngine   = 0.50
	targetCreateOfEngine = 0.50
)

// engineRun is one loop's calls per second and errors.
type engineRun struct {
	rps    float64
	errors int64
}

// engineLoop runs call in workers goroutines for d, and counts.
func engineLoop(ctx context.Context, workers int, d time.Duration, call func(ctx context.Context, worker, i int) error) engineRun {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var done, failed atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				if err := call(ctx, w, i); err != nil {
					if ctx.Err() != nil {
						return
					}
					failed.Add(1)
					continue
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	return engineRun{rps: float64(done.Load()) / time.Since(start).Seconds(), errors: failed.Load()}
}

// engineCeilings measures, on the DynamoDB Local at endpoint: GetItem of
// the business (getBusiness's read when its cache has lapsed), the
// listing's Query of the holds (eventually consistent, as the store), and
// a create's engine calls: the Query of the hourly slots (strongly
// consistent) then a TransactWriteItems of as many conditional puts of new
// items as a create's transaction has items.
func engineCeilings(ctx context.Context, endpoint string, o options, createItems int) (get, list, create engineRun, err error) {
	client := dynamo.NewClientFromConfig(aws.Config{Region: dynamo.DefaultRegion, Credentials: dynamo.LocalCredentials()}, endpoint)
	table := aws.String(localTable)
	key := func(pk, sk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: pk}, "sk": &types.AttributeValueMemberS{Value: sk}}
	}
	if _, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: table, Key: key("BUSINESS#"+getSlug, "PROFILE")}); err != nil {
		return get, list, create, fmt.Errorf("the local server's DynamoDB Local at %s: %w", endpoint, err)
	}
	progress("HTTP: the engine's ceiling, GetItem business (%d workers, %s)", o.connections, o.duration)
	get = engineLoop(ctx, o.connections, o.duration, func(ctx context.Context, _, _ int) error {
		_, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: table, Key: key("BUSINESS#"+getSlug, "PROFILE")})
		return err
	})
	now := time.Now().UTC()
	progress("HTTP: the engine's ceiling, Query of 14 days of holds (%d workers, %s)", o.connections, o.duration)
	list = engineLoop(ctx, o.connections, o.duration, func(ctx context.Context, _, _ int) error {
		_, err := client.Query(ctx, &dynamodb.QueryInput{
			TableName:              table,
			KeyConditionExpression: aws.String("pk = :pk AND sk BETWEEN :first AND :last"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":pk":    &types.AttributeValueMemberS{Value: "BUSINESS#" + listSlug},
				":first": &types.AttributeValueMemberS{Value: "HOLD#" + now.AddDate(0, 0, -1).Format(time.RFC3339)},
				":last":  &types.AttributeValueMemberS{Value: "HOLD#" + now.AddDate(0, 0, 15).Format(time.RFC3339) + "#~"},
			},
			ProjectionExpression: aws.String("sk, request_code, expires_at"),
		})
		return err
	})
	progress("HTTP: the engine's ceiling, Query of the hourly slots + TransactWriteItems of %d puts (%d workers, %s)", createItems, o.connections, o.duration)
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	create = engineLoop(ctx, o.connections, o.duration, func(ctx context.Context, w, i int) error {
		if _, err := client.Query(ctx, &dynamodb.QueryInput{
			TableName:              table,
			KeyConditionExpression: aws.String("pk = :pk AND begins_with(sk, :prefix)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":pk": &types.AttributeValueMemberS{Value: "BUSINESS#" + wrkCreateSlug}, ":prefix": &types.AttributeValueMemberS{Value: "RATE#"},
			},
			ConsistentRead: aws.Bool(true),
		}); err != nil {
			return err
		}
		items := make([]types.TransactWriteItem, createItems)
		for j := range items {
			item := key(fmt.Sprintf("BENCHENGINE#%s#%d#%d", run, w, i), "ITEM#"+strconv.Itoa(j))
			item["data"] = &types.AttributeValueMemberS{Value: "a create's item"}
			items[j] = types.TransactWriteItem{Put: &types.Put{TableName: table, Item: item, ConditionExpression: aws.String("attribute_not_exists(pk)")}}
		}
		_, err := client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
		return err
	})
	return get, list, create, nil
}
