// Package secretenv reads a secret from AWS Secrets Manager when a function
// starts: one GetSecretValue with the function's role, from the secret's
// own region. Secrets are never in the environment, the template or the
// repository: the environment names them by ARN.
package secretenv

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/doorstep/doorstep/pkg/awsenv"
)

// Read returns the SecretString of the secret whose ARN is arn.
// SECRETS_MANAGER_ENDPOINT (optional) stands in for the service: a local
// Secrets Manager for tests and sam local invoke.
func Read(ctx context.Context, getenv func(string) string, arn string) (string, error) {
	region, ok := Region(arn)
	if !ok {
		return "", fmt.Errorf("must be a Secrets Manager secret's ARN (arn:aws:secretsmanager:<region>:<account>:secret:<name>), got %q", arn)
	}
	cfg, err := awsenv.Config(ctx, getenv, "secretsmanager", false)
	if err != nil {
		return "", err
	}
	cfg.Region = region // the secret's own region
	return value(ctx, cfg, strings.TrimSpace(getenv("SECRETS_MANAGER_ENDPOINT")), arn)
}

// Region returns the region of a Secrets Manager secret's ARN.
func Region(arn string) (string, bool) {
	parts := strings.SplitN(arn, ":", 7)
	if len(parts) != 7 || parts[0] != "arn" || parts[2] != "secretsmanager" || parts[3] == "" || parts[5] != "secret" || parts[6] == "" {
		return "", false
	}
	return parts[3], true
}

// value reads the secret's string with the SDK's Secrets Manager client:
// one call. A non-empty endpoint stands in for the service (tests).
func value(ctx context.Context, cfg aws.Config, endpoint, arn string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	sm := secretsmanager.NewFromConfig(cfg, func(o *secretsmanager.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	})
	out, err := sm.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(arn)})
	if err != nil {
		return "", fmt.Errorf("get secret value: %w", err)
	}
	if aws.ToString(out.SecretString) == "" {
		return "", errors.New("get secret value: no SecretString in the answer")
	}
	return aws.ToString(out.SecretString), nil
}
