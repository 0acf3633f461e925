package dynamotest

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

func TestMinidyn(t *testing.T) {
	client, table := Minidyn(t)
	out, err := client.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil || aws.ToString(out.Table.TableName) != table {
		t.Errorf("DescribeTable(%s) = %v, want the table", table, err)
	}
}

func TestLocalNeedsMain(t *testing.T) {
	// This package's tests have no TestMain.
	if _, err := localEndpoint(); err != errNoMain {
		t.Errorf("localEndpoint() = %v, want errNoMain", err)
	}
}
