package lambdatest

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/aws/aws-lambda-go/events"
)

// LogCheckValuesVar names the environment variable that functions'
// TestLogsHoldNoSecrets sets when it runs every function's tests: the file
// to which these helpers add, one a line, each request code, phone number
// and token a test creates or is answered with, so that the check finds
// them in the logs by value as well as by their shapes.
const LogCheckValuesVar = "DOORSTEP_LOG_CHECK_VALUES"

var noteMu sync.Mutex

// Note adds values (request codes, phone numbers, e-mail addresses,
// tokens) to the file LogCheckValuesVar names; without it, it does
// nothing. A test that mints a secret of its own passes it here.
func Note(values ...string) {
	path := os.Getenv(LogCheckValuesVar)
	if path == "" {
		return
	}
	var b strings.Builder
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" && !strings.ContainsAny(v, "\n\r") {
			b.WriteString(v + "\n")
		}
	}
	noteMu.Lock()
	defer noteMu.Unlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		panic("lambdatest: " + LogCheckValuesVar + ": " + err.Error())
	}
	defer f.Close()
	if _, err := f.WriteString(b.String()); err != nil {
		panic("lambdatest: " + LogCheckValuesVar + ": " + err.Error())
	}
}

// noteResponse notes what an HTTP answer hands its caller that opens
// something: a created request's code (the JSON "code") and each cookie's
// token (a session's; a language's "es" opens nothing).
func noteResponse(res events.APIGatewayV2HTTPResponse) {
	if os.Getenv(LogCheckValuesVar) == "" {
		return
	}
	var body struct {
		Code string `json:"code"`
	}
	if json.Unmarshal([]byte(res.Body), &body) == nil {
		Note(body.Code)
	}
	header := http.Header{}
	for _, c := range res.Cookies {
		header.Add("Set-Cookie", c)
	}
	for k, v := range res.Headers {
		if strings.EqualFold(k, "Set-Cookie") {
			header.Add("Set-Cookie", v)
		}
	}
	for _, c := range (&http.Response{Header: header}).Cookies() {
		if len(c.Value) >= 16 { // a session's token, not a language
			Note(c.Value)
		}
	}
}
