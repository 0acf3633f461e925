package dynamotest

import (
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/doorstep/doorstep/pkg/dynamo/dynamolocal"
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

// startLocal returns the engine dynamolocal.SharedEnv names, which stays
// up and is shared with the run's other test binaries (each on tables of
// its own: newTable), or starts DynamoDB Local in memory on a free loopback
// port (see dynamolocal.Start); stop kills the one it started.
func startLocal() (endpoint string, stop func(), err error) {
	e, ok := dynamolocal.Shared()
	if !ok {
		e, err = dynamolocal.Start(dynamolocal.Options{})
	}
	if err != nil {
		return "", nil, err
	}
	return e.Endpoint, e.Stop, nil
}
