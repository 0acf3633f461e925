package dynamo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/awsenv"
)

// DefaultRegion is the region used when the environment configures none.
const DefaultRegion = awsenv.DefaultRegion

// NewClient returns a DynamoDB client configured from the environment as
// Lambda sets it (awsenv.Config). A non-empty endpoint (DYNAMODB_ENDPOINT)
// points the client at another engine, such as DynamoDB Local or minidyn;
// without one, the endpoint the environment configures as the SDK's config
// package would read it does (awsenv.Endpoint: AWS_ENDPOINT_URL_DYNAMODB,
// else AWS_ENDPOINT_URL, unless AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true),
// as an endpoint set in code wins over the SDK's configuration. Pointed
// elsewhere, the client signs with fixed fake credentials when the
// environment has none. Otherwise missing credentials are an error here, at
// start. The client gets the API options ctx carries (awsenv.WithAPIOptions).
func NewClient(ctx context.Context, endpoint string) (*dynamodb.Client, error) {
	if endpoint == "" {
		var err error
		if endpoint, err = awsenv.Endpoint(os.Getenv, dynamodb.ServiceID); err != nil {
			return nil, fmt.Errorf("dynamodb client: %w", err)
		}
	}
	cfg, err := awsenv.Config(ctx, os.Getenv, "dynamodb", endpoint != "")
	if err != nil {
		return nil, err
	}
	return NewClientFromConfig(cfg, endpoint), nil
}

// NewClientFromConfig returns a DynamoDB client of cfg, pointed at endpoint
// when it is not empty. A client of a local engine has the SDK's
// client-side retry quota turned off (a local engine has no fleet to
// protect, and the quota would turn a burst of concurrent retries into
// failures), and so is the response checksum check, which local engines do
// not support.
func NewClientFromConfig(cfg aws.Config, endpoint string) *dynamodb.Client {
	if cfg.Region == "" {
		cfg.Region = DefaultRegion
	}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
			o.Retryer = LocalRetryer()
			// minidyn sends no X-Amz-Crc32 header, and DynamoDB Local none
			// on errors; the SDK then checks the body against 0 and logs a
			// warning for every such response (aws/aws-sdk-go-v2#3545).
			o.DisableValidateResponseChecksum = true
		}
	})
}

// LocalCredentials are the fake credentials used with a local engine
// (awsenv.LocalCredentials).
func LocalCredentials() aws.CredentialsProvider { return awsenv.LocalCredentials() }

// LocalRetryer is the SDK's standard retryer without its client-side retry
// quota (a token bucket shared by every call of a client, which runs dry
// when many calls retry at once), for clients of a local engine.
func LocalRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.RateLimiter = ratelimit.None
	})
}

// CreateTable creates the store's table (pk and sk, both strings, and the
// inbox, sweep, remind and erase indexes; billed per request) for local runs and tests, waits until it can be used and turns on
// the TTL on expires_at. An existing table is fine. Engines without TTL
// support (minidyn) are fine too: expiry is checked on every read anyway.
func CreateTable(ctx context.Context, client *dynamodb.Client, table string) error {
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(table),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(attrPK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(attrSK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(attrInboxSlug), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(attrCreated), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(attrSweepShard), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(attrSweepAt), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String(attrRemindShard), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(attrRemindAt), AttributeType: types.ScalarAttributeTypeN},
			{AttributeName: aws.String(attrEraseShard), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(attrEraseAt), AttributeType: types.ScalarAttributeTypeN},
		},
		KeySchema: keySchema(attrPK, attrSK),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{
				IndexName:  aws.String(indexInbox),
				KeySchema:  keySchema(attrInboxSlug, attrCreated),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
			},
			{
				IndexName:  aws.String(indexSweep),
				KeySchema:  keySchema(attrSweepShard, attrSweepAt),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			},
			{
				IndexName:  aws.String(indexRemind),
				KeySchema:  keySchema(attrRemindShard, attrRemindAt),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			},
			{
				IndexName:  aws.String(indexErase), // erase.go
				KeySchema:  keySchema(attrEraseShard, attrEraseAt),
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			},
		},
		BillingMode: types.BillingModePayPerRequest,
	})
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return fmt.Errorf("create table %s: %w", table, err)
	}
	if err := waitUsable(ctx, client, table); err != nil {
		return err
	}
	// minidyn has no TTL calls, and a table whose TTL is on already refuses
	// to turn it on again: either way there is nothing to do.
	_, _ = client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: aws.String(table),
		TimeToLiveSpecification: &types.TimeToLiveSpecification{
			AttributeName: aws.String(attrExpiresAt),
			Enabled:       aws.Bool(true),
		},
	})
	return nil
}

func keySchema(hash, rangeKey string) []types.KeySchemaElement {
	return []types.KeySchemaElement{
		{AttributeName: aws.String(hash), KeyType: types.KeyTypeHash},
		{AttributeName: aws.String(rangeKey), KeyType: types.KeyTypeRange},
	}
}

// waitUsable polls DescribeTable until the table is ACTIVE. minidyn reports
// no status at all, which counts as ready; the SDK's TableExistsWaiter would
// wait for ever there.
func waitUsable(ctx context.Context, client *dynamodb.Client, table string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	delay := 50 * time.Millisecond
	for {
		out, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
		var notFound *types.ResourceNotFoundException
		switch {
		case err == nil && out.Table != nil &&
			(out.Table.TableStatus == types.TableStatusActive || out.Table.TableStatus == ""):
			return nil
		case err != nil && !errors.As(err, &notFound):
			return fmt.Errorf("describe table %s: %w", table, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("table %s: not active: %w", table, ctx.Err())
		case <-time.After(delay):
		}
		delay = min(2*delay, 2*time.Second)
	}
}
