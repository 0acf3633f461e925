package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/truora/minidyn/server"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

// Lambda targets.
const (
	targetBinaryBytes = 12_000_000 // 12 MB, decimal, for every arm64 bootstrap
	budgetArch        = "arm64"    // what the functions run on (template.yaml's Architectures)
	coldStartTable    = "doorstep"
)

// fallbackGoBuild is the Makefile's GO_BUILD, used only when make cannot
// be asked (the test keeps the two in step).
var fallbackGoBuild = "GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build -tags lambda.norpc,nethttpomithttp2 -trimpath -ldflags='-s -w'"

func lambdaBenchmarks(ctx context.Context, root, tmp string, o options) ([]row, error) {
	env, flags, source, err := lambdaGoBuild(ctx, root)
	if err != nil {
		return nil, err
	}
	var rows []row
	bins := map[string]string{} // arch -> folder of the binaries
	for _, arch := range []string{"arm64", "amd64"} {
		progress("Lambda: building functions/* for linux/%s (%s)", arch, source)
		dir := filepath.Join(tmp, "lambda", arch)
		if err := buildFunctions(ctx, root, dir, arch, env, flags); err != nil {
			return nil, err
		}
		bins[arch] = dir
		r, err := sizeRows(dir, arch)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}

	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return append(rows, row{group: "Lambda", name: "cold start", result: "-",
			verdict: "not run: needs a linux/amd64 machine to run the amd64 binary"}), nil
	}
	progress("Lambda: %d cold starts of each function (amd64) in the Lambda runtime interface emulator", o.runs)
	r, err := rieColdStarts(ctx, root, bins["amd64"], o.runs)
	if err != nil {
		return nil, err
	}
	return append(rows, r...), nil
}

// lambdaGoBuild returns the environment and flags of the Makefile's go build
// of a Lambda binary (GO_BUILD), as make -n build prints it, without -o and
// the package.
func lambdaGoBuild(ctx context.Context, root string) (env, flags []string, source string, err error) {
	line, source := fallbackGoBuild, "flags of the fallback GO_BUILD"
	cmd := exec.CommandContext(ctx, "make", "-s", "-n", "build")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, " go build ") {
				line, source = l, "flags of make -n build"
				break
			}
		}
	}
	env, flags, err = parseGoBuild(line)
	return env, flags, source, err
}

// parseGoBuild splits "K=V ... go build flags... [-o out] [package]" into
// its environment and its flags.
func parseGoBuild(line string) (env, flags []string, err error) {
	words, err := shellWords(line)
	if err != nil {
		return nil, nil, err
	}
	i := 0
	for ; i < len(words) && strings.Contains(words[i], "=") && !strings.HasPrefix(words[i], "-"); i++ {
		env = append(env, words[i])
	}
	if i+1 >= len(words) || words[i] != "go" || words[i+1] != "build" {
		return nil, nil, fmt.Errorf("not a go build command: %q", line)
	}
	rest := words[i+2:]
	if n := len(rest); n > 0 && !strings.HasPrefix(rest[n-1], "-") && (n < 2 || rest[n-2] != "-o") {
		rest = rest[:n-1] // the package
	}
	for j := 0; j < len(rest); j++ {
		if rest[j] == "-o" {
			j++ // and its value
			continue
		}
		flags = append(flags, rest[j])
	}
	return env, flags, nil
}

// shellWords splits a command line on blanks, honouring single and double
// quotes (enough for a Makefile's go build line).
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unbalanced quote in %q", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// buildFunctions builds the packages (every functions/<name> when none
// are named) into dir/<name> for linux/arch with the Makefile's
// environment and flags.
func buildFunctions(ctx context.Context, root, dir, arch string, env, flags []string, pkgs ...string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if len(pkgs) == 0 {
		pkgs = []string{"./functions/..."}
	}
	args := append(append(append([]string{"build"}, flags...), "-o", dir+string(filepath.Separator)), pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = root
	cmd.Env = os.Environ()
	for _, kv := range env {
		if strings.HasPrefix(kv, "GOARCH=") {
			kv = "GOARCH=" + arch
		}
		cmd.Env = append(cmd.Env, kv)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s go %s: %w\n%s", strings.Join(env, " "), strings.Join(args, " "), err, out)
	}
	return nil
}

// sizeRows reports the binaries of dir, one row per size (the API
// functions link the same code and come out the same size), in bytes as
// the README's table gives them. The budget is the arm64 binaries' (the
// template's Architectures): an amd64 binary, built for the cold start
// below, is reported without a target.
func sizeRows(dir, arch string) ([]row, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	bySize := map[int64][]string{}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		bySize[info.Size()] = append(bySize[info.Size()], e.Name())
	}
	sizes := make([]int64, 0, len(bySize))
	for s := range bySize {
		sizes = append(sizes, s)
	}
	slices.Sort(sizes)
	var rows []row
	for _, s := range sizes {
		names := bySize[s]
		sort.Strings(names)
		r := row{
			group:  "Lambda",
			name:   fmt.Sprintf("bootstrap size, linux/%s: %s", arch, strings.Join(names, ", ")),
			result: fmt.Sprintf("%s bytes (%.2f MB)", thousands(float64(s)), float64(s)/1e6),
		}
		if arch == budgetArch {
			r.target, r.verdict = "≤ "+thousands(targetBinaryBytes)+" bytes", verdict(s <= targetBinaryBytes)
			if s > targetBinaryBytes {
				r.overBudget = names
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// overBudget returns the functions whose arm64 bootstrap the rows found
// over targetBinaryBytes, sorted: make bench fails when there is one.
func overBudget(rows []row) []string {
	var names []string
	for _, r := range rows {
		names = append(names, r.overBudget...)
	}
	slices.Sort(names)
	return names
}

// percentile is the nearest-rank percentile of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}

// seededMinidyn runs minidyn in this process on a loopback port, with the
// table holding the demo businesses.
func seededMinidyn(ctx context.Context, root string) (string, func(), error) {
	f, err := os.Open(filepath.Join(root, "infra", "local", "businesses.json"))
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	businesses, err := booking.LoadBusinesses(f)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: server.NewServer(), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	endpoint := "http://" + ln.Addr().String()
	client, err := dynamo.NewClient(ctx, endpoint)
	if err == nil {
		err = dynamo.CreateTable(ctx, client, coldStartTable)
	}
	store := dynamo.New(client, coldStartTable)
	for _, b := range businesses {
		if err != nil {
			break
		}
		err = store.PutBusiness(ctx, b)
	}
	if err != nil {
		srv.Close()
		return "", nil, fmt.Errorf("seed minidyn: %w", err)
	}
	return endpoint, func() { srv.Close() }, nil
}

func lastLines(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
