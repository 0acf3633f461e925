package main

import (
	"context"
	"crypto/rand"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// probeClientRequestToken finds out whether the engine honours
// TransactWriteItems' ClientRequestToken as DynamoDB documents it: the
// same call sent again with the same token within 10 minutes succeeds
// without being applied again. The SDK fills the token in once per call
// (its idempotency-token middleware runs at Initialize, before the retry
// loop), so every retry of one call carries the same token. The probe adds
// 1 to a counter twice under one token; honoured, the counter is 1. The
// item is deleted after.
func probeClientRequestToken(ctx context.Context, client *dynamodb.Client, table string) (bool, error) {
	key := map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: "CHAOS#probe"},
		"sk": &types.AttributeValueMemberS{Value: "TOKEN"},
	}
	// A token of its own: DynamoDB keeps a token for 10 minutes per
	// account, whatever the table, and refuses it with other parameters
	// (IdempotentParameterMismatchException), as DynamoDB Local does for
	// the probes of one run's test binaries, which share it.
	token := "probe-" + rand.Text()
	in := func() *dynamodb.TransactWriteItemsInput {
		return &dynamodb.TransactWriteItemsInput{
			ClientRequestToken: aws.String(token),
			TransactItems: []types.TransactWriteItem{{Update: &types.Update{
				TableName:                 aws.String(table),
				Key:                       key,
				UpdateExpression:          aws.String("ADD n :one"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
			}}},
		}
	}
	for i := range 2 {
		if _, err := client.TransactWriteItems(ctx, in()); err != nil {
			return false, fmt.Errorf("ClientRequestToken probe, call %d: %w", i+1, err)
		}
	}
	out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return false, fmt.Errorf("ClientRequestToken probe: %w", err)
	}
	n, _ := out.Item["n"].(*types.AttributeValueMemberN)
	if _, err := client.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String(table), Key: key}); err != nil {
		return false, fmt.Errorf("ClientRequestToken probe: %w", err)
	}
	if n == nil {
		return false, fmt.Errorf("ClientRequestToken probe: no counter after two calls")
	}
	return n.Value == "1", nil
}
