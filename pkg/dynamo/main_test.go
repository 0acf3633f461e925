package dynamo_test

import (
	"testing"

	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }
