package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// warmPaths are the calls whose warm path the path part measures: a
// function's TestWarmPath, and the targets issue 21 set.
var warmPaths = []struct {
	name, pkg          string
	maxFiles, maxFuncs int // 0: no target
	// maxGets is the most GetItem calls; 0: no target. A web accept reads
	// its session and its request, once each.
	maxGets int
	what    string
}{
	{"create", "./functions/create-service-request", 20, 60, 0, "a create (POST /api/v1/.../requests)"},
	{"web accept", "./functions/business-web", 0, 0, 2, "a web accept (POST /inbox/requests/{code}/accept)"},
}

// warmPathBenchmarks measures what one call runs once its function is warm:
// the files and functions of the project (pkg/ and functions/, not the
// test helpers) it runs, and the AWS calls it makes. Coverage counters
// cannot be reset inside a test binary, so each TestWarmPath runs twice
// with -covermode=count, once only warming, once warming then making the
// call: the blocks whose counts differ are the call's.
func warmPathBenchmarks(ctx context.Context, root, tmp string) ([]row, error) {
	var rows []row
	for _, p := range warmPaths {
		profiles := map[string]string{}
		var calls string
		for _, mode := range []string{"warm", "measure"} {
			profile := filepath.Join(tmp, "warmpath-"+strings.ReplaceAll(p.name, " ", "-")+"-"+mode+".out")
			args := []string{"test", "-count=1", "-v", "-covermode=count", "-coverpkg=./pkg/...,./functions/...",
				"-coverprofile=" + profile, "-run", "^TestWarmPath$", p.pkg}
			cmd := exec.CommandContext(ctx, "go", args...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), lambdatest.WarmPathVariable+"="+mode)
			out, err := cmd.CombinedOutput()
			if err != nil {
				return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
			}
			if mode == "measure" {
				for _, line := range strings.Split(string(out), "\n") {
					if rest, ok := strings.CutPrefix(line, lambdatest.WarmPathCalls+" "+p.name+": "); ok {
						calls = rest
					}
				}
			}
			profiles[mode] = profile
		}
		if calls == "" {
			return nil, fmt.Errorf("%s: TestWarmPath printed no %s line for %s", p.pkg, lambdatest.WarmPathCalls, p.name)
		}
		ran, err := warmPathDiff(ctx, root, tmp, profiles["warm"], profiles["measure"])
		if err != nil {
			return nil, err
		}
		files := map[string]bool{}
		for _, f := range ran {
			file, _, _ := strings.Cut(f, ":")
			files[file] = true
			progress("  %s ran %s", p.name, strings.TrimPrefix(f, "github.com/doorstep/doorstep/"))
		}
		r := row{group: "path", name: p.what, result: fmt.Sprintf("%d files, %d functions; AWS: %s", len(files), len(ran), calls)}
		switch {
		case p.maxFiles > 0:
			r.target = fmt.Sprintf("≤ %d files, ≤ %d functions", p.maxFiles, p.maxFuncs)
			r.verdict = verdict(len(files) <= p.maxFiles && len(ran) <= p.maxFuncs)
		case p.maxGets > 0:
			gets := 0
			for _, op := range strings.Fields(calls) {
				if op == "GetItem" {
					gets++
				}
			}
			r.target = fmt.Sprintf("≤ %d GetItem (the session, the request)", p.maxGets)
			r.verdict = verdict(gets <= p.maxGets)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// warmPathDiff writes the profile of the blocks whose count in measure
// exceeds that in warm, and returns the functions go tool cover finds
// covered in it ("file:line: name"), leaving out test helper packages (a
// folder named *test).
func warmPathDiff(ctx context.Context, root, tmp, warm, measure string) ([]string, error) {
	before, err := readCounts(warm)
	if err != nil {
		return nil, err
	}
	after, err := readCounts(measure)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("mode: set\n")
	for block, n := range after {
		ran := 0
		if n > before[block] {
			ran = 1
		}
		fmt.Fprintf(&b, "%s %d\n", block, ran)
	}
	diff := filepath.Join(tmp, filepath.Base(measure)+".diff")
	if err := os.WriteFile(diff, []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "go", "tool", "cover", "-func="+diff)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go tool cover -func: %w", err)
	}
	var ran []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] == "total:" || f[2] == "0.0%" {
			continue
		}
		if file, _, _ := strings.Cut(f[0], ":"); !testHelper(file) {
			ran = append(ran, f[0]+" "+f[1])
		}
	}
	return ran, nil
}

// readCounts reads a coverage profile: each block ("file:pos numStmts") and
// its count, summed where a block appears more than once.
func readCounts(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	counts := map[string]int{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		i := strings.LastIndexByte(line, ' ')
		if strings.HasPrefix(line, "mode:") || i < 0 {
			continue
		}
		n, err := strconv.Atoi(line[i+1:])
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", path, line, err)
		}
		counts[line[:i]] += n
	}
	return counts, s.Err()
}

// testHelper reports whether a file is in a package that only tests use
// (lambdatest, dynamotest, openapitest, ...).
func testHelper(file string) bool {
	parts := strings.Split(filepath.Dir(file), "/")
	for _, p := range parts {
		if strings.HasSuffix(p, "test") {
			return true
		}
	}
	return false
}
