package main

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

//go:embed report.lua
var reportLua []byte

//go:embed create.lua
var createLua []byte

//go:embed businesses.json
var benchBusinesses []byte

// The businesses the HTTP runs ask for: a demo business for getBusiness, and
// the two of businesses.json for the others.
const (
	getSlug    = "desert-cool-hvac"
	listSlug   = "bench-split-day-electric" // 08-12 and 13-17 every day, 60-minute windows
	createSlug = "bench-round-the-clock-hvac"
	// wrkCreateSlug is createSlug's twin with its limits at their most
	// (1,000 requests an hour and unanswered): wrk's creates, hundreds a
	// run, would be refused after createSlug's tenth (429), as DynamoDB's
	// conditions enforce its default limits.
	wrkCreateSlug = "bench-open-door-hvac"
	createZIP     = "85006"
	createSvc     = "ac-not-cooling"
	// createSlug's windows: 15 minutes, every quarter hour of every day (its
	// zone, America/Phoenix, is a whole number of hours from UTC), for 365
	// days; the run spreads its requests over the next 364 days of them.
	createStep  = 15 * time.Minute
	createSlots = 364 * 24 * 4
)

// httpEngine is the engine the local server of the HTTP rows runs on:
// make run's default.
const httpEngine = "DynamoDB Local on disk"

// HTTP targets, as fractions of the ceiling's requests per second.
const (
	targetGet    = 0.60
	targetList   = 0.40
	targetCreate = 0.10
)

// ceilingBody is the bare handler's answer: 1 KiB of JSON.
var ceilingBody = func() []byte {
	const prefix, suffix = `{"data":"`, `"}` + "\n"
	return []byte(prefix + strings.Repeat("x", 1024-len(prefix)-len(suffix)) + suffix)
}()

// wrkResult is the line the wrk scripts' done hooks print.
type wrkResult map[string]float64

func (r wrkResult) rps() float64 {
	if r["duration_us"] == 0 {
		return 0
	}
	return r["requests"] / (r["duration_us"] / 1e6)
}

func (r wrkResult) errors() float64 {
	return r["non2xx3xx"] + r["connect"] + r["read"] + r["write"] + r["timeout"]
}

var wrkLine = regexp.MustCompile(`(?m)^DOORSTEP_WRK (.*)$`)

func parseWrk(out string) (wrkResult, error) {
	m := wrkLine.FindStringSubmatch(out)
	if m == nil {
		return nil, errors.New("no DOORSTEP_WRK line in the output of wrk")
	}
	r := wrkResult{}
	for _, kv := range strings.Fields(m[1]) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("wrk report %q: %w", kv, err)
		}
		r[k] = n
	}
	return r, nil
}

func httpBenchmarks(ctx context.Context, root, tmp string, o options) ([]row, error) {
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		note := "not run: wrk is not installed (make bench installs it with apt-get)"
		return []row{{group: "HTTP", name: "wrk runs", result: "-", verdict: note}}, nil
	}
	scripts := map[string]string{"report": filepath.Join(tmp, "report.lua"), "create": filepath.Join(tmp, "create.lua")}
	if err := os.WriteFile(scripts["report"], reportLua, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(scripts["create"], createLua, 0o644); err != nil {
		return nil, err
	}

	progress("HTTP: building and starting the local server (infra/local)")
	fixture, err := writeFixture(root, tmp)
	if err != nil {
		return nil, err
	}
	// make run's start on a fresh data folder, then its restart on the data
	// the start made: each from exec to its first answer. The operations
	// are then measured on a server started on a fresh folder of its own.
	bin, err := buildLocal(ctx, root, tmp)
	if err != nil {
		return nil, err
	}
	var started, restarted time.Duration
	for _, took := range []*time.Duration{&started, &restarted} {
		_, _, t, stop, err := startLocal(ctx, bin, tmp, fixture, filepath.Join(tmp, "local-data-restarted"))
		if err != nil {
			return nil, err
		}
		stop()
		*took = t
	}
	local, engineURL, _, stopLocal, err := startLocal(ctx, bin, tmp, fixture, filepath.Join(tmp, "local-data"))
	if err != nil {
		return nil, err
	}
	defer stopLocal()
	ceiling, stopCeiling, err := startCeiling()
	if err != nil {
		return nil, err
	}
	defer stopCeiling()

	getURL := local + "/api/v1/businesses/" + getSlug
	listURL := local + "/api/v1/businesses/" + listSlug + "/availability?days=14"
	createURL := local + "/api/v1/businesses/" + wrkCreateSlug + "/requests"
	windows, err := checkEndpoints(ctx, ceiling, getURL, listURL)
	if err != nil {
		return nil, err
	}

	runWrk := func(name, url, script string, args ...string) (wrkResult, error) {
		progress("HTTP: wrk %s (%d threads, %d connections, %s)", name, o.threads, o.connections, o.duration)
		return wrkRun(ctx, wrk, url, script, o.threads, o.connections, o.duration, args...)
	}
	// Warm both servers up (not reported).
	for _, url := range []string{ceiling, getURL} {
		if _, err := wrkRun(ctx, wrk, url, scripts["report"], o.threads, o.connections, time.Second); err != nil {
			return nil, err
		}
	}
	ceil, err := runWrk("ceiling: bare net/http, 1 KiB JSON", ceiling, scripts["report"])
	if err != nil {
		return nil, err
	}
	get, err := runWrk("getBusiness", getURL, scripts["report"])
	if err != nil {
		return nil, err
	}
	list, err := runWrk("listArrivalWindows, 14 days", listURL, scripts["report"])
	if err != nil {
		return nil, err
	}
	first := time.Now().Truncate(createStep).Add(2 * createStep)
	create, err := runWrk("createServiceRequest", createURL, scripts["create"],
		"/api/v1/businesses/"+wrkCreateSlug+"/requests",
		strconv.FormatInt(first.Unix(), 10), strconv.Itoa(int(createStep/time.Second)), strconv.Itoa(createSlots),
		strconv.Itoa(o.threads), createZIP, createSvc)
	if err != nil {
		return nil, err
	}

	load := fmt.Sprintf("wrk -t%d -c%d -d%s", o.threads, o.connections, o.duration)
	rows := []row{{
		group:  "HTTP",
		name:   "make run's start: from exec to the first answer, DynamoDB Local on disk, a fresh data folder (built beforehand)",
		result: fmt.Sprintf("%.1f s", started.Seconds()),
		target: fmt.Sprintf("≤ %.0f s", maxStart.Seconds()), verdict: verdict(started <= maxStart),
	}, {
		group:  "HTTP",
		name:   "make run's restart on that data folder: from exec to the first answer",
		result: fmt.Sprintf("%.1f s", restarted.Seconds()),
		target: fmt.Sprintf("≤ %.0f s", maxStart.Seconds()), verdict: verdict(restarted <= maxStart),
	}, {
		group:  "HTTP",
		name:   "ceiling: bare net/http handler, fixed 1 KiB JSON (" + load + ")",
		result: fmt.Sprintf("%s req/s, p99 %s%s", thousands(ceil.rps()), micros(ceil["p99_us"]), errNote(ceil)),
	}}
	op := func(name string, r wrkResult, target float64, extra string) row {
		ratio := r.rps() / ceil.rps()
		return row{
			group:   "HTTP",
			name:    name,
			result:  fmt.Sprintf("%s req/s, p99 %s, %.0f%% of ceiling%s%s", thousands(r.rps()), micros(r["p99_us"]), 100*ratio, extra, errNote(r)),
			target:  fmt.Sprintf("≥ %.0f%% of ceiling", 100*target),
			verdict: verdict(ratio >= target && r.errors() == 0),
		}
	}
	rows = append(rows,
		op("getBusiness "+getSlug+", "+httpEngine, get, targetGet, ""),
		op(fmt.Sprintf("listArrivalWindows, 14 days (%d windows), %s", windows, httpEngine), list, targetList, ""),
	)
	// For create, 4xx answers are counted by the script; the 201 share is
	// the figure, and errNote would repeat it.
	answered := create["s201"] + create["s409"] + create["s429"] + create["s4xx"] + create["sother"]
	c := op("createServiceRequest, "+httpEngine+" (distinct window, phone and key each)", create, targetCreate,
		fmt.Sprintf(", 201: %.1f%% (%s of %s; 409: %s, 429: %s, other: %s)",
			100*create["s201"]/max(answered, 1), thousands(create["s201"]), thousands(answered),
			thousands(create["s409"]), thousands(create["s429"]), thousands(create["s4xx"]+create["sother"])))
	c.result = strings.TrimSuffix(c.result, errNote(create)) + socketNote(create)
	c.verdict = verdict(create.rps()/ceil.rps() >= targetCreate && create["s201"] == answered && socketErrors(create) == 0)
	rows = append(rows, c)

	// The same operations against the engine's own ceiling, measured now
	// on the local server's DynamoDB Local.
	if engineURL == "" {
		return append(rows, row{group: "HTTP", name: "the engine's ceiling", result: "-", verdict: "not run: the local server gave no DynamoDB Local address"}), nil
	}
	eGet, eList, eCreate, err := engineCeilings(ctx, engineURL, o, wrkCreateItems)
	if err != nil {
		return nil, err
	}
	workers := fmt.Sprintf("%d workers, %s", o.connections, o.duration)
	rows = append(rows,
		row{group: "HTTP", name: "engine ceiling: bare SDK GetItem of the business, DynamoDB Local of the rows above (" + workers + ")",
			result: fmt.Sprintf("%s calls/s%s; getBusiness above, served from the business cache, %.1fx it", thousands(eGet.rps), engineErrNote(eGet), get.rps()/eGet.rps)},
		engineRow(fmt.Sprintf("listArrivalWindows vs the engine's ceiling: bare SDK Query of 14 days of holds (%s)", workers), list, eList, targetListOfEngine),
		engineRow(fmt.Sprintf("createServiceRequest vs the engine's ceiling: bare SDK Query of the hourly slots + TransactWriteItems of %d puts (%s)", wrkCreateItems, workers), create, eCreate, targetCreateOfEngine),
	)
	rows[len(rows)-1].verdict = verdict(create.rps()/eCreate.rps >= targetCreateOfEngine && create["s201"] == answered && socketErrors(create) == 0 && eCreate.errors == 0)
	return rows, nil
}

// wrkCreateItems is the items of create.lua's creates' transaction: the
// idempotency record, the phone's block check and open count, the hourly
// slot, the business's open count, the window's hold and the request
// (pkg/dynamo's createSteps; no e-mail).
const wrkCreateItems = 7

func engineRow(name string, r wrkResult, e engineRun, target float64) row {
	ratio := r.rps() / e.rps
	return row{
		group:   "HTTP",
		name:    name,
		result:  fmt.Sprintf("engine %s calls/s%s; the operation %s req/s: %.0f%% of it", thousands(e.rps), engineErrNote(e), thousands(r.rps()), 100*ratio),
		target:  fmt.Sprintf("≥ %.0f%% of the engine's ceiling", 100*target),
		verdict: verdict(ratio >= target && r.errors() == 0 && e.errors == 0),
	}
}

func engineErrNote(e engineRun) string {
	if e.errors == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s calls failed)", thousands(float64(e.errors)))
}

func errNote(r wrkResult) string {
	if r.errors() == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s non-2xx, %s socket errors)", thousands(r["non2xx3xx"]), thousands(socketErrors(r)))
}

func socketErrors(r wrkResult) float64 {
	return r["connect"] + r["read"] + r["write"] + r["timeout"]
}

func socketNote(r wrkResult) string {
	if socketErrors(r) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s socket errors)", thousands(socketErrors(r)))
}

// wrkRun runs wrk against url with a script and returns its report. Its
// arguments after -- go to the script's init.
func wrkRun(ctx context.Context, wrk, url, script string, threads, connections int, d time.Duration, args ...string) (wrkResult, error) {
	ctx, cancel := context.WithTimeout(ctx, d+30*time.Second)
	defer cancel()
	cmdArgs := []string{
		"-t", strconv.Itoa(threads), "-c", strconv.Itoa(connections),
		"-d", fmt.Sprintf("%ds", int(d.Round(time.Second)/time.Second)),
		"--timeout", "5s", "--latency", "-s", script, url,
	}
	if len(args) > 0 {
		cmdArgs = append(append(cmdArgs, "--"), args...)
	}
	cmd := exec.CommandContext(ctx, wrk, cmdArgs...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("wrk %s: %w\n%s", strings.Join(cmdArgs, " "), err, out)
	}
	return parseWrk(string(out))
}

// writeFixture writes the demo businesses plus businesses.json's into one
// file for --businesses.
func writeFixture(root, tmp string) (string, error) {
	demo, err := os.ReadFile(filepath.Join(root, "infra", "local", "businesses.json"))
	if err != nil {
		return "", err
	}
	var all, extra []json.RawMessage
	if err := json.Unmarshal(demo, &all); err != nil {
		return "", fmt.Errorf("infra/local/businesses.json: %w", err)
	}
	if err := json.Unmarshal(benchBusinesses, &extra); err != nil {
		return "", fmt.Errorf("infra/bench/businesses.json: %w", err)
	}
	data, err := json.Marshal(append(all, extra...))
	if err != nil {
		return "", err
	}
	path := filepath.Join(tmp, "businesses.json")
	return path, os.WriteFile(path, data, 0o644)
}

var listenLine = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)

// maxStart is make run's start target: the server answers within 10 s of
// its start, from a warm build (issue 28).
const maxStart = 10 * time.Second

// buildLocal builds infra/local into tmp.
func buildLocal(ctx context.Context, root, tmp string) (string, error) {
	bin := filepath.Join(tmp, "local")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./infra/local")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./infra/local: %w\n%s", err, out)
	}
	return bin, nil
}

// startLocal runs the local server bin on a free loopback port with the
// fixture and its data in data, as make run does. It returns the server's
// base URL, its DynamoDB Local's ("" if it runs on none), how long it took
// from exec to its first answer, and a function that stops it.
func startLocal(ctx context.Context, bin, tmp, fixture, data string) (string, string, time.Duration, func(), error) {
	logPath := filepath.Join(tmp, "local.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return "", "", 0, nil, err
	}
	// make run's default engine: DynamoDB Local with its data on disk.
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--businesses", fixture, "--data", data)
	cmd.Stderr = logFile // the access log: one line per request
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return "", "", 0, nil, err
	}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return "", "", 0, nil, err
	}
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		logFile.Close()
	}
	lines := make(chan [2]string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		var base, engine string
		for sc.Scan() {
			if m := listenLine.FindStringSubmatch(sc.Text()); m != nil {
				base = m[1]
			}
			if m := engineLine.FindStringSubmatch(sc.Text()); m != nil {
				engine = m[1]
			}
			// The banner follows the engine's lines.
			if base != "" && strings.HasPrefix(sc.Text(), "Demo businesses:") {
				break
			}
		}
		lines <- [2]string{base, engine}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case got := <-lines:
		if got[0] == "" {
			break
		}
		res, err := http.Get(got[0] + "/api/v1/businesses/" + getSlug)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return got[0], got[1], time.Since(began), stop, nil
			}
			err = fmt.Errorf("GET getBusiness: %s", res.Status)
		}
		stop()
		return "", "", 0, nil, fmt.Errorf("the local server's first answer: %w", err)
	case <-time.After(2 * time.Minute): // DynamoDB Local starts in seconds, or in half a minute on a busy machine
	case <-ctx.Done():
	}
	stop()
	logTail, _ := os.ReadFile(logPath)
	return "", "", 0, nil, fmt.Errorf("the local server did not start:\n%s", logTail)
}

// engineLine is the local server's line that gives DynamoDB Local's address.
var engineLine = regexp.MustCompile(`^DynamoDB Local: (http://127\.0\.0\.1:\d+)`)

// startCeiling serves the bare handler on a free loopback port, with the
// same server timeouts as the local server.
func startCeiling() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(ceilingBody)
		}),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       60 * time.Second,
	}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/", func() { srv.Close() }, nil
}

// checkEndpoints makes sure each URL answers 200 before wrk runs, and
// returns how many windows the listing holds.
func checkEndpoints(ctx context.Context, ceiling, getURL, listURL string) (int, error) {
	var windows int
	for _, url := range []string{ceiling, getURL, listURL} {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return 0, err
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return 0, err
		}
		if res.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("GET %s: %d %s", url, res.StatusCode, body)
		}
		if url == listURL {
			var av struct{ Windows []json.RawMessage }
			if err := json.Unmarshal(body, &av); err != nil || len(av.Windows) == 0 {
				return 0, fmt.Errorf("GET %s: want windows, got %s", url, body)
			}
			windows = len(av.Windows)
		}
	}
	return windows, nil
}
