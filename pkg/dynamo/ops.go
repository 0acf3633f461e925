package dynamo

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// ops are the DynamoDB operations the store and the ledger call: the
// client's methods as method values, never the client itself.
//
// Why: a *Store goes into an interface (booking.Store), and a binary that
// links text/template or html/template (pages, business-web) turns off the
// linker's pruning of exported methods, since templates call methods by
// name through reflect. The linker then keeps every exported method of
// every type reachable from an interface's dynamic type, fields included:
// holding a *dynamodb.Client in a field kept all its ~60 operations, with
// their serializers and types (about 3 MB), in those binaries. Func fields
// name only their own parameter types. Calls read the same:
// s.client.GetItem(ctx, in).
type ops struct {
	GetItem            func(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem            func(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	UpdateItem         func(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	DeleteItem         func(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
	Query              queryFunc
	Scan               scanFunc
	TransactWriteItems func(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error)
}

func opsOf(c *dynamodb.Client) ops {
	// Each call's failures that outlived the SDK's retries for the
	// engine's load are booking.ServerBusy (busy.go).
	return ops{
		GetItem:            classified(c.GetItem),
		PutItem:            classified(c.PutItem),
		UpdateItem:         classified(c.UpdateItem),
		DeleteItem:         classified(c.DeleteItem),
		Query:              classified(c.Query),
		Scan:               classified(c.Scan),
		TransactWriteItems: classified(c.TransactWriteItems),
	}
}

// queryFunc is a client's Query, and so a dynamodb.QueryAPIClient for the
// SDK's paginator.
type queryFunc func(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)

func (f queryFunc) Query(ctx context.Context, in *dynamodb.QueryInput, opts ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return f(ctx, in, opts...)
}

// scanFunc is a client's Scan, and so a dynamodb.ScanAPIClient.
type scanFunc func(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error)

func (f scanFunc) Scan(ctx context.Context, in *dynamodb.ScanInput, opts ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return f(ctx, in, opts...)
}
