package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamolocal"
	"github.com/doorstep/doorstep/pkg/dynamo/embedded"
)

// dataDirName is the folder of the clone that make run keeps its data in
// (git ignores it).
const dataDirName = ".data"

// installJava is the one command the banner gives a machine without Java.
const installJava = "sudo apt-get install -y openjdk-17-jre-headless"

// localStore is the table the local server runs on.
type localStore struct {
	client *dynamodb.Client
	// empty is true when the table held nothing at start: only then are
	// the businesses loaded into it.
	empty bool
	// about is what the banner says of the engine and the data, one line
	// each.
	about []string
	close func()
}

// openStore opens the local server's table: on DynamoDB Local with its data
// in o.data (by default .data in the clone), or in this process (minidyn)
// with --memory, or when Java or DynamoDB Local is missing, which the
// banner then says, with how to install it.
func openStore(ctx context.Context, o options) (*localStore, error) {
	if o.memory {
		return memoryStore(ctx, "Engine: in memory (minidyn, --memory): nothing is written to disk, and everything is gone when the server stops.")
	}
	dir := o.data
	if dir == "" {
		if testing.Testing() {
			// A test must never write into the clone's own data.
			return nil, errors.New("a test runs the local server with --memory or --data DIR")
		}
		root, err := dynamolocal.RepoRoot()
		if err != nil {
			return nil, fmt.Errorf("the data folder: %w (or pass --data DIR)", err)
		}
		dir = filepath.Join(root, dataDirName)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	// Without Java or DynamoDB Local the server runs as with --memory, and
	// writes nothing either.
	_, javaErr := dynamolocal.FindJava()
	_, _, jarErr := dynamolocal.FindJar()
	switch {
	case javaErr != nil:
		return memoryStore(ctx, "Engine: in memory (minidyn): nothing is kept when the server stops, because Java was not found (DynamoDB Local needs Java 17 or later). To keep the data in "+dir+", install Java: "+installJava)
	case errors.Is(jarErr, dynamolocal.ErrNotInstalled):
		return memoryStore(ctx, "Engine: in memory (minidyn): nothing is kept when the server stops, because DynamoDB Local is not installed. To keep the data in "+dir+", install it: make dynamodb-local (make run does)")
	case jarErr != nil:
		return nil, jarErr
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := lockDataDir(dir)
	if err != nil {
		return nil, err
	}
	engine, err := dynamolocal.Start(dynamolocal.Options{DBPath: dir})
	if err != nil {
		unlock()
		return nil, err
	}
	client := engine.Client()
	empty, err := emptyTable(ctx, client)
	if err != nil {
		engine.Stop()
		unlock()
		return nil, fmt.Errorf("DynamoDB Local: %w", err)
	}
	return &localStore{
		client: client,
		empty:  empty,
		about: []string{
			"Engine: DynamoDB Local, data in " + dir + " (kept between runs)",
			"Start again from nothing: stop the server, then rm -rf " + dir,
			// Its own address, for the AWS CLI (and make bench, which
			// measures the engine's own throughput on it).
			"DynamoDB Local: " + aws.ToString(client.Options().BaseEndpoint) + " (table " + tableName + "; aws dynamodb --endpoint-url " +
				aws.ToString(client.Options().BaseEndpoint) + " describe-table --table-name " + tableName + ")",
		},
		close: func() { engine.Stop(); unlock() },
	}, nil
}

// memoryStore is a new table on minidyn in this process.
func memoryStore(ctx context.Context, about string) (*localStore, error) {
	client, err := embedded.NewTable(ctx, tableName)
	if err != nil {
		return nil, fmt.Errorf("embedded DynamoDB: %w", err)
	}
	return &localStore{client: client, empty: true, about: []string{about}, close: func() {}}, nil
}

// emptyTable creates the table when it is not there and reports whether it
// holds no item.
func emptyTable(ctx context.Context, client *dynamodb.Client) (bool, error) {
	if err := dynamo.CreateTable(ctx, client, tableName); err != nil {
		return false, err
	}
	out, err := client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(tableName), Limit: aws.Int32(1)})
	if err != nil {
		return false, err
	}
	return len(out.Items) == 0, nil
}

// lockDataDir makes sure one local server at a time uses dir: the lock is
// the operating system's on dir/local.lock, so it ends with the process
// however that ends. The file holds the process ID, for the message.
func lockDataDir(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, "local.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		data, _ := os.ReadFile(path)
		f.Close()
		who := "another local server"
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			who += " (process " + strconv.Itoa(pid) + ")"
		}
		return nil, fmt.Errorf("%s is already running on %s: stop it first, or start this one with --data DIR or --memory", who, dir)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() { f.Close() }, nil
}
