// Package functions holds the one test that looks across every Lambda
// function of functions/: that none logs a request code, a token, an
// e-mail address or a phone number in clear. Each function's own tests
// feed it the sample events of events/ (pkg/lambdaenv/lambdatest); this
// test runs them all again with their log output captured and reads it.
package functions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// The shapes of what a log must never hold: an e-mail address; a North
// American phone number, ten digits with or without separators and +1
// (an area code and an exchange begin with 2-9, which keeps a Unix time
// out); a request code as booking.NewCode writes it (three dashed groups
// of four Crockford base32 characters); a sign-in, session or CSRF token
// or an inbox or feed token's secret (32 random bytes, 43 characters of
// base64url). Each stands alone: a request id's or a hash's hex is not a
// phone number.
var (
	emailShape = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+`)
	phoneShape = regexp.MustCompile(`(^|[^0-9A-Za-z])(\+?1[ .-]?)?\(?[2-9][0-9]{2}\)?[ .-]?[2-9][0-9]{2}[ .-]?[0-9]{4}([^0-9A-Za-z]|$)`)
	codeShape  = regexp.MustCompile(`(^|[^0-9A-Za-z-])[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}([^0-9A-Za-z-]|$)`)
	tokenShape = regexp.MustCompile(`(^|[^A-Za-z0-9_-])[A-Za-z0-9_-]{43}([^A-Za-z0-9_-]|$)`)

	secretShapes = []struct {
		name string
		re   *regexp.Regexp
	}{{"e-mail address", emailShape}, {"phone number", phoneShape}, {"request code", codeShape}, {"token", tokenShape}}
)

// testEvent is a line of go test -json.
type testEvent struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// TestLogsHoldNoSecrets runs the tests of every function in functions/
// (each folder with a main.go: a new function is taken in as it comes)
// with go test -json, which hands over what each wrote to stderr, where a
// function logs (lambdaenv.Logger); it fails, with their output, when any
// of those tests fails (make test runs the functions' tests here only,
// not twice). Every JSON log line must be free of
// the shapes above and of each value the tests noted
// (lambdatest.LogCheckValuesVar: the codes they created or were answered
// with, their phones, the session cookies they were given). Each
// function's tests must have logged something, so that the test cannot
// pass by capturing nothing.
func TestLogsHoldNoSecrets(t *testing.T) {
	mains, err := filepath.Glob("*/main.go")
	if err != nil || len(mains) == 0 {
		t.Fatalf("got functions %v (%v), want every folder of functions/", mains, err)
	}
	root := lambdatest.RepoRoot(t)
	var packages []string
	for _, m := range mains {
		packages = append(packages, "./functions/"+filepath.Dir(m))
	}
	valuesFile := filepath.Join(t.TempDir(), "values")
	args := []string{"test", "-json", "-count=1"}
	if tags := buildTags(); tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.Command("go", append(args, packages...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), lambdatest.LogCheckValuesVar+"="+valuesFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()

	logs := map[string][]string{}   // function -> its log lines
	output := map[string][]string{} // test (function/Test) -> what it printed
	var failed []string             // the tests that failed, function/Test
	scan := bufio.NewScanner(bytes.NewReader(out))
	scan.Buffer(nil, 1<<20)
	for scan.Scan() {
		var e testEvent
		if json.Unmarshal(scan.Bytes(), &e) != nil {
			continue
		}
		function := filepath.Base(e.Package)
		test := function + "/" + e.Test
		switch e.Action {
		case "fail":
			failed = append(failed, test)
		case "output":
			output[test] = append(output[test], e.Output)
			if isLogLine(e.Output) {
				logs[function] = append(logs[function], e.Test+": "+strings.TrimSpace(e.Output))
			}
		}
	}
	// make test runs the functions' tests here only, so a failure of one
	// is told as go test would tell it.
	for _, test := range failed {
		t.Errorf("%s failed:\n%s", test, strings.Join(output[test], ""))
	}
	if runErr != nil || len(failed) > 0 {
		t.Fatalf("go test %v: %v\n%s", packages, runErr, stderr.String())
	}

	values := noted(t, valuesFile)
	if len(values) == 0 {
		t.Errorf("got no value noted in %s, want the codes and phones the tests made", lambdatest.LogCheckValuesVar)
	}
	for _, m := range mains {
		function := filepath.Dir(m)
		t.Run(function, func(t *testing.T) {
			lines := logs[function]
			if len(lines) == 0 {
				t.Fatalf("got no log line from %s's tests, want its handler's lines", function)
			}
			for _, line := range lines {
				for _, s := range secretShapes {
					if found := s.re.FindString(line); found != "" {
						t.Errorf("got a %s (%s) in %s", s.name, strings.Trim(found, `"/ :=`), line)
					}
				}
				for _, v := range values {
					if strings.Contains(line, v) {
						t.Errorf("got %s, which a test created or was given, in %s", v, line)
					}
				}
			}
		})
	}
}

// isLogLine reports whether output is a line of the JSON log (pkg/logjson)
// or an EMF metric line written on it.
func isLogLine(output string) bool {
	var line map[string]any
	if json.Unmarshal([]byte(output), &line) != nil {
		return false
	}
	_, level := line["level"]
	_, msg := line["msg"]
	return level && msg
}

// noted reads the values the tests noted, each also in the forms a log
// might hold it: a code without its dashes, a phone's digits alone.
func noted(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var values []string
	for v := range strings.Lines(string(data)) {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		values = append(values, v)
		if digits := strings.Map(keepDigit, v); len(digits) >= 10 && strings.Trim(v, "0123456789+-(). ") == "" {
			values = append(values, digits[len(digits)-10:]) // a phone
		}
		if codeShape.MatchString(v) {
			values = append(values, strings.ReplaceAll(v, "-", "")) // a code
		}
	}
	slices.Sort(values)
	return slices.Compact(values)
}

func keepDigit(r rune) rune {
	if r >= '0' && r <= '9' {
		return r
	}
	return -1
}

// buildTags are the build tags this test was built with (make test's
// lambda.norpc,nethttpomithttp2), for the functions' tests too.
func buildTags() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, s := range info.Settings {
		if s.Key == "-tags" {
			return s.Value
		}
	}
	return ""
}

// TestSecretShapes: the shapes find what a log must not hold, written as
// the code writes it, and leave what a log holds by design.
func TestSecretShapes(t *testing.T) {
	tests := []struct {
		name string
		line string
		want bool
	}{
		{"a code", `{"msg":"x","code":"7K3M-Q9TD-2HXA"}`, true},
		{"a code in a message id", `"error":"message H2QS-8CZR-5TWN#0/received/person/email: ses"`, true},
		{"an address", `"error":"identities failed the check: sam.ortiz@example.net"`, true},
		{"ten digits", `"to":"6025550177"`, true},
		{"+1 and ten digits", `"to":"+16025550177"`, true},
		{"a phone as typed", `"phone":"(602) 555-0177"`, true},
		{"a session token", `"cookie":"session=q3Jx-2b_Zt8mR0vY7cK1sWn4dLpE9aHf6uGiOoTjB5A"`, true},
		{"an inbox token", `"token":"desert-cool-hvac.q3Jx-2b_Zt8mR0vY7cK1sWn4dLpE9aHf6uGiOoTjB5A"`, true},
		{"a request id", `"request_id":"213c562631257fbc"`, false},
		{"a LogRef", `"request":"1e27f2df8bb6","message":"f8f8d4846ba2#0/received/person/sms"`, false},
		{"a Lambda request id", `"request_id":"c6af9ac6-7b61-11e6-9a41-93e8deadbeef"`, false},
		{"a Unix time and an EMF timestamp", `"expires_at":1764633600,"_aws":{"Timestamp":1796171984864}`, false},
		{"a stream sequence number", `"sequence_number":"4421584500000000017450439127"`, false},
		{"a SHA-256", `"hash":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"`, false},
		{"a business slug and a route", `"business":"desert-cool-hvac","route":"GET /r/{code}"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var found []string
			for _, s := range secretShapes {
				if s.re.MatchString(tt.line) {
					found = append(found, s.name)
				}
			}
			if got := len(found) > 0; got != tt.want {
				t.Errorf("got %v (%v), want %v", got, found, tt.want)
			}
		})
	}
}
