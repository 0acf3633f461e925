package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/dynamo/dynamolocal"
)

// localServer is a local server a test starts and stops itself.
type localServer struct {
	base   string
	banner string // the lines it printed on start
	stop   func() error
}

// startServer runs the local server with args on a free port and returns
// once it answers; its banner is read until the line of the outbox.
func startServer(t *testing.T, args ...string) *localServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), pw)
		pw.CloseWithError(io.EOF)
		done <- err
	}()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("the server did not stop")
			return nil
		}
	}
	t.Cleanup(func() { stop() })
	lines := bufio.NewReader(pr)
	var banner strings.Builder
	for !strings.Contains(banner.String(), "/inbox ") {
		line, err := lines.ReadString('\n')
		banner.WriteString(line)
		if err != nil {
			t.Fatalf("the server stopped: %v; it printed %q; %v", err, banner.String(), stop())
		}
	}
	go io.Copy(io.Discard, lines)
	base := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(banner.String())
	if base == "" {
		t.Fatalf("got %q, want the address it listens on", banner.String())
	}
	return &localServer{base: base, banner: banner.String(), stop: stop}
}

// needDynamoDBLocal skips the test without Java or DynamoDB Local, or
// fails it when CI=true, where they must be there (make test installs
// them).
func needDynamoDBLocal(t *testing.T) {
	t.Helper()
	_, _, jarErr := dynamolocal.FindJar()
	_, javaErr := dynamolocal.FindJava()
	for _, err := range []error{jarErr, javaErr} {
		if err == nil {
			continue
		}
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			t.Fatalf("DynamoDB Local must run when CI=true: %v", err)
		}
		t.Skipf("DynamoDB Local not available: %v; run make dynamodb-local", err)
	}
}

// On its default engine the local server keeps everything in its data
// folder: a request, a business's session, a setting and a calendar feed
// address made before a restart are there after it, and the demo
// businesses are not loaded again over the business's change. A second
// server on the same folder is refused while the first runs. How fast it
// starts is make bench's to measure.
func TestLocalKeepsDataAcrossRestarts(t *testing.T) {
	needDynamoDBLocal(t)
	dir := t.TempDir()
	const slug, email = "desert-cool-hvac", "inbox@desert-cool-hvac.example.com"

	// Starting (DynamoDB Local, the table, the demo) takes seconds: the
	// target (10 s) is make bench's (its HTTP part times a start and a
	// restart); here the time is only logged, as a test on a loaded
	// machine cannot judge it.
	start := time.Now()
	srv := startServer(t, "--data", dir)
	t.Logf("the server answered %v after its start", time.Since(start).Round(time.Millisecond))
	if want := "Engine: DynamoDB Local, data in " + dir; !strings.Contains(srv.banner, want) {
		t.Fatalf("banner: got %q, want %q", srv.banner, want)
	}
	if !strings.Contains(srv.banner, "rm -rf "+dir) {
		t.Errorf("banner: got %q, want how to start again from nothing", srv.banner)
	}
	// The engine's own address, for the AWS CLI and make bench's ceiling.
	if !regexp.MustCompile(`(?m)^DynamoDB Local: http://127\.0\.0\.1:\d+ `).MatchString(srv.banner) {
		t.Errorf("banner: got %q, want DynamoDB Local's address", srv.banner)
	}

	// A second server on the same folder says the first is running.
	err := run(context.Background(), []string{"--addr", "127.0.0.1:0", "--data", dir}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "already running on "+dir) {
		t.Errorf("a second server on %s: got %v, want that one is already running", dir, err)
	}

	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	get := func(base, path string) (int, string) {
		t.Helper()
		res, err := browser.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(data)
	}
	post := func(base, path string, form url.Values) (int, string) {
		t.Helper()
		req, err := http.NewRequest("POST", base+path, strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", base) // as a browser sends it
		res, err := browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(data)
	}
	accepting := func(base string) bool {
		t.Helper()
		var avail struct {
			AcceptingRequests bool `json:"accepting_requests"`
		}
		status, body := get(base, "/api/v1/businesses/"+slug+"/availability?days=2")
		if err := json.Unmarshal([]byte(body), &avail); status != 200 || err != nil {
			t.Fatalf("availability: got %d %s", status, body)
		}
		return avail.AcceptingRequests
	}

	// 1. A request, through the JSON API.
	var avail struct{ Windows []struct{ Start string } }
	status, body := get(srv.base, "/api/v1/businesses/"+slug+"/availability?days=2")
	if err := json.Unmarshal([]byte(body), &avail); status != 200 || err != nil || len(avail.Windows) == 0 {
		t.Fatalf("availability: got %d %s", status, body)
	}
	res, err := http.Post(srv.base+"/api/v1/businesses/"+slug+"/requests", "application/json", strings.NewReader(
		`{"window_start":"`+avail.Windows[0].Start+`","address":{"street":"1 A St","zip":"85004"},"contact":{"name":"Jo","phone":"602-555-0100"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ Code string }
	err = json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	if res.StatusCode != 201 || err != nil || created.Code == "" {
		t.Fatalf("createServiceRequest: got %d %+v %v", res.StatusCode, created, err)
	}

	// 2. The business signs in with the link the outbox holds.
	if status, body := post(srv.base, "/inbox/sign-in", url.Values{"email": {email}}); status != 200 {
		t.Fatalf("sign-in form: got %d %s", status, body)
	}
	req, _ := http.NewRequest("GET", srv.base+"/dev/outbox", nil)
	req.Header.Set("Accept", "application/json")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	outbox, _ := io.ReadAll(res.Body)
	res.Body.Close()
	link := regexp.MustCompile(`/inbox/sign-in/[A-Za-z0-9_-]+`).FindString(string(outbox))
	if link == "" {
		t.Fatalf("/dev/outbox: no sign-in link in %s", outbox)
	}
	if status, body := post(srv.base, link, url.Values{}); status != 200 || !strings.Contains(body, created.Code) {
		t.Fatalf("sign-in link: got %d, want the inbox with %s: %s", status, created.Code, body)
	}

	// 3. It turns online requests off on the settings page.
	csrfField := regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	_, page := get(srv.base, "/inbox/settings")
	csrf := csrfField.FindStringSubmatch(page)
	if csrf == nil {
		t.Fatalf("settings: no csrf field in %s", page)
	}
	if status, body := post(srv.base, "/inbox/settings", url.Values{"csrf": {csrf[1]}, "accepting_requests": {"off"}}); status != 200 {
		t.Fatalf("settings, requests off: got %d %s", status, body)
	}
	if accepting(srv.base) {
		t.Fatal("availability: still accepting requests after the business turned them off")
	}

	// 4. It makes a calendar feed address.
	status, page = post(srv.base, "/inbox/settings/feed", url.Values{"csrf": {csrf[1]}})
	feed := regexp.MustCompile(`/calendar/` + slug + `\.[A-Za-z0-9_-]+\.ics`).FindString(page)
	if status != 200 || feed == "" || strings.Contains(feed, demoFeedSuffix) {
		t.Fatalf("new feed address: got %d and %q in %s", status, feed, page)
	}

	// Stop, start again on the same folder.
	if err := srv.stop(); err != nil {
		t.Fatalf("got %v on shutdown, want nil", err)
	}
	start = time.Now()
	again := startServer(t, "--data", dir)
	t.Logf("the server answered %v after its restart", time.Since(start).Round(time.Millisecond))
	if !strings.Contains(again.banner, "not loaded again") {
		t.Errorf("banner after a restart: got %q, want that the businesses were not loaded again", again.banner)
	}

	var kept struct{ Code, Status string }
	status, body = get(again.base, "/api/v1/requests/"+created.Code)
	if err := json.Unmarshal([]byte(body), &kept); status != 200 || err != nil || kept.Code != created.Code || kept.Status != "new" {
		t.Errorf("the request after a restart: got %d %s, want %s, new", status, body, created.Code)
	}
	// The session cookie still opens the inbox, which lists the request.
	if status, body := get(again.base, "/inbox"); status != 200 || !strings.Contains(body, created.Code) || strings.Contains(body, `action="/inbox/sign-in"`) {
		t.Errorf("the inbox after a restart: got %d, want the signed-in inbox with %s: %s", status, created.Code, body)
	}
	// The setting stays off: the demo business was not loaded over it.
	if accepting(again.base) {
		t.Error("after a restart the business accepts requests again: the demo was loaded over its change")
	}
	// The feed address still answers, and the demo's published one is
	// still the one replaced.
	if status, body := get(again.base, feed); status != 200 || !strings.Contains(body, "BEGIN:VCALENDAR") {
		t.Errorf("the feed address after a restart: got %d %s", status, body)
	}
	if status, _ := get(again.base, "/calendar/"+slug+demoFeedSuffix+".ics"); status == 200 {
		t.Error("the demo's published feed address answers again after a restart: the demo was loaded over the new one")
	}
	if _, err := os.Stat(filepath.Join(dir, "shared-local-instance.db")); err != nil {
		t.Errorf("the data folder: %v, want DynamoDB Local's shared database", err)
	}
}

// With --memory the local server writes nothing: no file appears in the
// folder it runs in, nor in its data folder.
func TestLocalMemoryWritesNothing(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(wd) })

	srv := startServer(t, "--memory")
	if !strings.Contains(srv.banner, "Engine: in memory") {
		t.Errorf("banner: got %q, want the in-memory engine", srv.banner)
	}
	// A sign-in e-mail: a write of the store and of the outbox.
	req, _ := http.NewRequest("POST", srv.base+"/inbox/sign-in", strings.NewReader("email=inbox%40desert-cool-hvac.example.com"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", srv.base)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("sign-in form: got %d, want 200", res.StatusCode)
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	var written []string
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if path != dir {
			written = append(written, path)
		}
		return nil
	})
	if len(written) > 0 {
		t.Errorf("--memory wrote %q", written)
	}
	if _, err := os.Stat(filepath.Join(wd, "..", "..", dataDirName, "local.lock")); err == nil {
		t.Logf("note: %s exists in the clone (from an earlier make run)", dataDirName)
	}
}

// Without Java the local server runs in memory, writes nothing, and its
// banner says so with the command that installs Java.
func TestLocalWithoutJavaRunsInMemory(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	dir := filepath.Join(t.TempDir(), "data")

	srv := startServer(t, "--data", dir)

	for _, want := range []string{"Engine: in memory", "Java was not found", installJava} {
		if !strings.Contains(srv.banner, want) {
			t.Errorf("banner: got %q, want %q", srv.banner, want)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the data folder: got %v, want none made", err)
	}
}
