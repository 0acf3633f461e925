// Package awsenv builds the AWS SDK configuration of a Lambda function from
// its environment, as Lambda sets it, without the SDK's config package (see
// Config), and applies the SDK's endpoint variables itself (see Endpoint).
package awsenv

import (
	"context"
	"errors"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// DefaultRegion is the region used when the environment configures none.
const DefaultRegion = "us-east-1"

// LocalCredentials are the fake credentials used with a local engine or a
// test's stand-in for an AWS endpoint. They are letters only: DynamoDB
// Local refuses other characters, and it keeps the data of each access key
// and region apart.
func LocalCredentials() aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider("doorstep", "doorstep", "")
}

// Config returns the configuration getenv describes: AWS_REGION (or
// AWS_DEFAULT_REGION) and the role's credentials in AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, as Lambda sets them. That is
// what the SDK's default chain resolves to in Lambda; building it directly
// keeps the SDK's config package, and the STS, SSO and sign-in clients it
// links, out of every function binary (about 1 MB each) and off the cold
// start. Tools that want profiles (infra/ctl) use the config package
// themselves. local says the client
// talks to a local engine or a stand-in (its endpoint is set): without
// credentials in the environment it then signs with LocalCredentials.
// Otherwise missing credentials are an error, at start, naming service.
// The options WithAPIOptions put in ctx (a test's call recorder) are on
// every client built from it.
func Config(ctx context.Context, getenv func(string) string, service string, local bool) (aws.Config, error) {
	cfg := aws.Config{Region: firstSet(getenv("AWS_REGION"), getenv("AWS_DEFAULT_REGION"), DefaultRegion)}
	switch id, secret := getenv("AWS_ACCESS_KEY_ID"), getenv("AWS_SECRET_ACCESS_KEY"); {
	case id != "" && secret != "":
		cfg.Credentials = credentials.NewStaticCredentialsProvider(id, secret, getenv("AWS_SESSION_TOKEN"))
	case local:
		cfg.Credentials = LocalCredentials()
	default:
		return aws.Config{}, errors.New(service + " client: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set (Lambda sets them; elsewhere set them, or point the client at a local endpoint)")
	}
	cfg.APIOptions = APIOptions(ctx)
	return cfg, nil
}

func firstSet(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
