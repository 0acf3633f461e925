package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The cold start, as Lambda reports it: each function's bootstrap (amd64)
// run by the Lambda runtime interface emulator (aws-lambda-rie, AWS's own,
// make bench installs it), which logs the platform's reports of the first
// invocation of a new process: INIT REPORT (durationMs: from starting the
// bootstrap to its first call for an event, Lambda's Init Duration) and
// INVOKE RTDONE (the invocation's duration). Each run starts a new
// emulator and so a new process.
//
// The emulator's own REPORT line is not used: its Init Duration is the
// time to hand the init to the sandbox (about 0.03 ms, the init runs
// after it) and its Duration is the init and the invocation together.
// The functions reach DynamoDB on an in-process minidyn holding the demo
// businesses, and every other AWS service on a stub that answers each call
// with an empty success (a secret for Secrets Manager).

// targetInit: every function's Init Duration, median, within 10 ms.
const targetInit = 10 * time.Millisecond

// coldStartEvents is the event of each function's first invocation
// (events/). Every function has one (TestColdStartEvents).
var coldStartEvents = map[string]string{
	"book-form":              "book-form.json",
	"business-inbox":         "business-inbox-list.json",
	"business-web":           "business-web-inbox.json",
	"calendar-feed":          "calendar-feed.json",
	"create-service-request": "create-service-request.json",
	"expire-holds":           "expire-holds.json",
	"get-business":           "get-business.json",
	"get-openapi":            "get-openapi.json",
	"get-service-request":    "get-service-request.json",
	"list-arrival-windows":   "list-arrival-windows.json",
	"mail-events":            "mail-events-permanent-bounce.json",
	"mcp":                    "mcp-tools-list.json",
	"notify":                 "notify-dynamodb-stream.json",
	"pages":                  "pages-status.json",
	"payment-webhook":        "payment-webhook.json",
	"refund-deposits":        "refund-deposits-stream.json",
}

// rieVersion is the emulator make bench installs (go install, pinned).
const rieVersion = "v0.0.0-20261030222936-bef5c4ba774d"

// findRIE returns the emulator: $AWS_LAMBDA_RIE, .tools/aws-lambda-rie/
// (where make bench installs it) or aws-lambda-rie on PATH.
func findRIE(root string) (string, error) {
	if p := os.Getenv("AWS_LAMBDA_RIE"); p != "" {
		return p, nil
	}
	if p := filepath.Join(root, ".tools", "aws-lambda-rie", "aws-lambda-rie"); fileExists(p) {
		return p, nil
	}
	if p, err := exec.LookPath("aws-lambda-rie"); err == nil {
		return p, nil
	}
	return "", errors.New("aws-lambda-rie is not installed (make bench installs it: go install github.com/aws/aws-lambda-runtime-interface-emulator/cmd/aws-lambda-rie@" + rieVersion + ")")
}

func fileExists(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}

// The emulator's reports of the init and of the invocation (log level
// info).
var (
	initReport = regexp.MustCompile(`INIT REPORT\(durationMs: ([0-9.]+)\)`)
	invokeDone = regexp.MustCompile(`INVOKE RTDONE\(status: ([a-z]+)[^)]*duration: ([0-9.]+)ms\)`)
)

// coldStart is one cold start's init and invocation, and whether the
// function answered with an error (the figures count all the same).
type coldStart struct {
	init, duration time.Duration
	failed         bool
}

// rieColdStarts times runs cold starts of each function in binDir (one
// warm-up first, not counted) and makes a row per function.
func rieColdStarts(ctx context.Context, root, binDir string, runs int) ([]row, error) {
	rie, err := findRIE(root)
	if err != nil {
		return []row{{group: "Lambda", name: "cold start", result: "-", verdict: "not run: " + err.Error()}}, nil
	}
	endpoint, stopEngine, err := seededMinidyn(ctx, root)
	if err != nil {
		return nil, err
	}
	defer stopEngine()
	stub, stopStub, err := startAWSStub()
	if err != nil {
		return nil, err
	}
	defer stopStub()
	env := functionEnv(coldStartTable, endpoint, stub, "https://book.example.com", 128)
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range coldStartEvents {
			if !yield(name) {
				return
			}
		}
	})
	var rows []row
	for _, name := range names {
		event, err := os.ReadFile(filepath.Join(root, "events", coldStartEvents[name]))
		if err != nil {
			return nil, err
		}
		bin := filepath.Join(binDir, name)
		var inits, durations, totals []time.Duration
		failed := 0
		for i := 0; i <= runs; i++ {
			c, err := rieColdStartOnce(ctx, rie, bin, append(slices.Clone(env), "AWS_LAMBDA_FUNCTION_NAME="+name), event)
			if err != nil {
				return nil, fmt.Errorf("cold start of %s: %w", name, err)
			}
			if i == 0 {
				continue
			}
			inits, durations, totals = append(inits, c.init), append(durations, c.duration), append(totals, c.init+c.duration)
			if c.failed {
				failed++
			}
		}
		note := ""
		if failed > 0 {
			note = fmt.Sprintf("; the invocation answered with an error %d of %d times", failed, runs)
		}
		rows = append(rows, row{
			group: "Lambda",
			name:  fmt.Sprintf("cold start, %s (linux/amd64, aws-lambda-rie, %d runs): Init Duration (INIT REPORT); first invocation (INVOKE RTDONE); their sum", name, runs),
			result: fmt.Sprintf("init median %s (p90 %s); invocation median %s (p90 %s); sum median %s%s",
				msString(percentile(inits, 50)), msString(percentile(inits, 90)),
				msString(percentile(durations, 50)), msString(percentile(durations, 90)), msString(percentile(totals, 50)), note),
			target:  fmt.Sprintf("init ≤ %s (median)", msString(targetInit)),
			verdict: verdict(percentile(inits, 50) <= targetInit),
		})
	}
	return rows, nil
}

func msString(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

// functionEnv is a function's environment under the emulator: its table on
// the DynamoDB at dynamoEndpoint (with the local engines' fake credentials
// and region), every other AWS service on the stub, and memoryMB as
// Lambda's AWS_LAMBDA_FUNCTION_MEMORY_SIZE (the emulator reports it; it
// limits nothing).
func functionEnv(table, dynamoEndpoint, stub, siteURL string, memoryMB int) []string {
	return []string{
		"TABLE_NAME=" + table,
		"SITE_URL=" + siteURL,
		"DYNAMODB_ENDPOINT=" + dynamoEndpoint,
		"AWS_ENDPOINT_URL=" + stub,
		"SECRETS_MANAGER_ENDPOINT=" + stub,
		"AWS_REGION=us-east-1",
		"AWS_DEFAULT_REGION=us-east-1",
		"AWS_ACCESS_KEY_ID=doorstep",
		"AWS_SECRET_ACCESS_KEY=doorstep",
		"PAYMENTS=simulated",
		"SENDER_EMAIL=notify@book.example.com",
		"PREVIEW_INBOX_EMAIL=preview@book.example.com",
		"SMS_ORIGINATION_IDENTITY=+18005550199",
		"FORM_SECRET_ARN=arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep-form",
		"STRIPE_SECRET_ARN=",
		fmt.Sprintf("AWS_LAMBDA_FUNCTION_MEMORY_SIZE=%d", memoryMB),
		"AWS_LAMBDA_FUNCTION_TIMEOUT=10",
		"TZ=:UTC",
		"PATH=/usr/bin:/bin",
	}
}

// rieColdStartOnce starts the emulator on bin, invokes it once with event
// and reads its reports.
func rieColdStartOnce(ctx context.Context, rie, bin string, env []string, event []byte) (coldStart, error) {
	e, err := startEmulator(rie, bin, env, nil)
	if err != nil {
		return coldStart{}, err
	}
	defer e.stop()
	deadline := time.Now().Add(10 * time.Second)
	status, body, err := e.invoke(ctx, "", event)
	if err != nil {
		return coldStart{}, err
	}
	c, err := waitReport(&e.out, deadline)
	if err != nil {
		return c, err
	}
	c.failed = c.failed || status != http.StatusOK || bytes.Contains(body, []byte(`"errorMessage"`)) || bytes.Contains(body, []byte(`"statusCode":5`))
	return c, nil
}

// emulator is aws-lambda-rie running one function's bootstrap.
type emulator struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed when the emulator has exited
	url    string        // the invoke URL
	out    syncBuffer    // the emulator's and the function's output
}

// startEmulator starts the emulator on bin with env and waits until it
// listens. A non-empty wrap runs it under a command first (wrap's last
// word is followed by the emulator's command line). The emulator's two
// ports are chosen free just before it binds them, so another process may
// take one first: the emulator then exits, and it is started again on
// others.
func startEmulator(rie, bin string, env, wrap []string) (*emulator, error) {
	var err error
	for range 5 {
		var e *emulator
		if e, err = startEmulatorOnce(rie, bin, env, wrap); err == nil {
			return e, nil
		}
	}
	return nil, err
}

func startEmulatorOnce(rie, bin string, env, wrap []string) (*emulator, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	apiAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	args := append(slices.Clone(wrap), rie, "--log-level", "info", "--runtime-interface-emulator-address", addr, "--runtime-api-address", apiAddr, bin)
	e := &emulator{cmd: exec.Command(args[0], args[1:]...), exited: make(chan struct{}),
		url: "http://" + addr + "/2015-03-31/functions/function/invocations"}
	e.cmd.Env = env
	e.cmd.Stdout, e.cmd.Stderr = &e.out, &e.out
	ownGroup(e.cmd) // the emulator and the function, ended together
	if err := e.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		_ = e.cmd.Wait()
		close(e.exited)
	}()
	// The emulator binds its runtime API, then its invoke address.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		select {
		case <-e.exited:
			return nil, fmt.Errorf("the emulator exited at start:\n%s", lastLines(e.out.String(), 10))
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return e, nil
		}
		if time.Now().After(deadline) {
			e.stop()
			return nil, fmt.Errorf("the emulator did not listen on %s:\n%s", addr, lastLines(e.out.String(), 10))
		}
	}
}

// stop ends the emulator and the function.
func (e *emulator) stop() {
	killGroup(e.cmd)
	<-e.exited
}

// invoke sends event to the function as Lambda's Invoke API would, with id
// as its request ID when not empty, waiting up to 10 s for the emulator to
// listen, and returns the emulator's status and the function's answer.
func (e *emulator) invoke(ctx context.Context, id string, event []byte) (int, []byte, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		callCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
		req, _ := http.NewRequestWithContext(callCtx, http.MethodPost, e.url, bytes.NewReader(event))
		if id != "" {
			req.Header.Set("X-Amzn-RequestId", id)
		}
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			cancel()
			return res.StatusCode, body, err
		}
		cancel()
		if time.Now().After(deadline) || ctx.Err() != nil {
			return 0, nil, fmt.Errorf("the emulator did not answer: %v\n%s", err, lastLines(e.out.String(), 10))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitReport waits for the init's and the invocation's reports in out.
func waitReport(out *syncBuffer, deadline time.Time) (coldStart, error) {
	for {
		text := out.String()
		i, d := initReport.FindStringSubmatch(text), invokeDone.FindStringSubmatch(text)
		if i != nil && d != nil {
			init, _ := strconv.ParseFloat(i[1], 64)
			dur, _ := strconv.ParseFloat(d[2], 64)
			return coldStart{init: time.Duration(init * 1e6), duration: time.Duration(dur * 1e6), failed: d[1] != "success"}, nil
		}
		if strings.Contains(out.String(), "Init failed") {
			return coldStart{}, fmt.Errorf("the function failed to start:\n%s", lastLines(out.String(), 10))
		}
		if time.Now().After(deadline) {
			return coldStart{}, fmt.Errorf("no INIT REPORT and INVOKE RTDONE from the emulator:\n%s", lastLines(out.String(), 10))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// syncBuffer is a bytes.Buffer two processes' output can be written to.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startAWSStub answers every AWS call but DynamoDB's (SES, SMS, Secrets
// Manager) with a success: a form key for GetSecretValue, a message ID
// otherwise.
func startAWSStub() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		target := r.Header.Get("X-Amz-Target")
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		if strings.HasSuffix(target, ".GetSecretValue") {
			_, _ = io.WriteString(w, `{"ARN":"arn:aws:secretsmanager:us-east-1:123456789012:secret:doorstep-form","Name":"doorstep-form","SecretString":"a-form-key-of-at-least-32-characters-0123456789"}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"MessageId":"doorstep-bench"}`)
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}
