package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/dynamo/dynamolocal"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// helperEnv makes the test binary the command withdynamodb runs
// (TestMain): it lists the tables of the engine it is given, writes the
// address to the file helperEnv names, and exits with helperStatus.
const (
	helperEnv    = "WITHDYNAMODB_TEST_HELPER"
	helperStatus = 3
)

func TestMain(m *testing.M) {
	if out := os.Getenv(helperEnv); out != "" {
		os.Exit(helper(out))
	}
	os.Exit(m.Run())
}

func helper(out string) int {
	endpoint := os.Getenv(dynamolocal.SharedEnv)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := dynamotest.NewClient(endpoint).ListTables(ctx, nil); err != nil {
		fmt.Fprintf(os.Stderr, "the engine at %q: %v\n", endpoint, err)
		return 1
	}
	if err := os.WriteFile(out, []byte(endpoint), 0o644); err != nil {
		return 1
	}
	return helperStatus
}

// The command runs with the address of an engine that answers, its exit
// status is withdynamodb's, and the engine is gone after it.
func TestRun(t *testing.T) {
	_, javaErr := dynamolocal.FindJava()
	_, _, jarErr := dynamolocal.FindJar()
	if err := errors.Join(javaErr, jarErr); err != nil {
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			t.Fatalf("DynamoDB Local must run when CI=true: %v", err)
		}
		t.Skipf("DynamoDB Local not available: %v; make test installs it", err)
	}
	out := t.TempDir() + "/endpoint"
	t.Setenv(helperEnv, out)
	var log bytes.Buffer
	if got := run([]string{os.Args[0]}, &log); got != helperStatus {
		t.Fatalf("got status %d, want the command's %d (%s)", got, helperStatus, log.String())
	}
	endpoint, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := dynamotest.NewClient(string(endpoint)).ListTables(ctx, nil); err == nil {
		t.Errorf("the engine at %s still answers after the command ended", endpoint)
	}
}
