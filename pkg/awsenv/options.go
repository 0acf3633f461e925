package awsenv

import (
	"context"
	"slices"

	"github.com/aws/smithy-go/middleware"
)

type apiOptionsKey struct{}

// WithAPIOptions returns a context under which the AWS clients a function
// builds at start (dynamo.NewClient, sesmail.NewClient, smstext.NewClient,
// the Stripe secret's reader) get opts added to their middleware stacks, as
// aws.Config.APIOptions: how a test records every call a function's
// handlers make (lambdatest.Env.Record). In a Lambda function the context
// carries none.
func WithAPIOptions(ctx context.Context, opts ...func(*middleware.Stack) error) context.Context {
	return context.WithValue(ctx, apiOptionsKey{}, append(APIOptions(ctx), opts...))
}

// APIOptions returns the options WithAPIOptions put in ctx, a copy.
func APIOptions(ctx context.Context) []func(*middleware.Stack) error {
	opts, _ := ctx.Value(apiOptionsKey{}).([]func(*middleware.Stack) error)
	return slices.Clone(opts)
}
