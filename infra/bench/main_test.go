package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// The fallback build line is the Makefile's, and both parse to the flags
// the Lambda binaries are built with.
func TestGoBuildMatchesMakefile(t *testing.T) {
	wantEnv := []string{"GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0"}
	wantFlags := []string{"-tags", "lambda.norpc,nethttpomithttp2", "-trimpath", "-ldflags=-s -w"}
	env, flags, err := parseGoBuild(fallbackGoBuild)
	if err != nil || !slices.Equal(env, wantEnv) || !slices.Equal(flags, wantFlags) {
		t.Fatalf("fallback: got %q %q %v, want %q %q", env, flags, err, wantEnv, wantFlags)
	}

	makefile, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(makefile), "GO_BUILD := "+fallbackGoBuild+"\n") {
		t.Errorf("the Makefile's GO_BUILD is not %q: update fallbackGoBuild", fallbackGoBuild)
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	env, flags, source, err := lambdaGoBuild(context.Background(), filepath.Join("..", ".."))
	if err != nil || source != "flags of make -n build" || !slices.Equal(env, wantEnv) || !slices.Equal(flags, wantFlags) {
		t.Fatalf("make -n build: got %q %q %q %v", env, flags, source, err)
	}
}

func TestParseGoBuild(t *testing.T) {
	env, flags, err := parseGoBuild(`A=1 go build -tags "x y" -o bin/f/bootstrap ./functions/f`)
	if err != nil || !slices.Equal(env, []string{"A=1"}) || !slices.Equal(flags, []string{"-tags", "x y"}) {
		t.Fatalf("got %q %q %v", env, flags, err)
	}
	if _, _, err := parseGoBuild("go vet ./..."); err == nil {
		t.Fatal("go vet parsed as a build")
	}
}

// The bench businesses load next to the demo businesses (unique slugs and
// sites), and have what the HTTP runs rely on.
func TestFixture(t *testing.T) {
	dir := t.TempDir()
	path, err := writeFixture(filepath.Join("..", ".."), dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bs, err := booking.LoadBusinesses(f)
	if err != nil {
		t.Fatal(err)
	}
	bySlug := map[string]*booking.Business{}
	for _, b := range bs {
		bySlug[b.Slug] = b
	}
	for _, slug := range []string{getSlug, listSlug, createSlug} {
		if bySlug[slug] == nil {
			t.Fatalf("no business %s", slug)
		}
	}
	c := bySlug[createSlug]
	if c.ArrivalWindowMinutes != int(createStep/time.Minute) || c.BooksUpToDaysAhead < createSlots/(24*4)+1 ||
		c.BookingDeposit != nil || !c.AcceptingRequests || !slices.Contains(c.ServiceArea.ZIPCodes, createZIP) {
		t.Errorf("%s cannot take %d requests of 15-minute windows without a deposit", createSlug, createSlots)
	}
	// Every quarter hour of the create run is a window start.
	now := time.Now()
	first := now.Truncate(createStep).Add(2 * createStep)
	for _, at := range []time.Time{first, first.Add(createStep * (createSlots - 1))} {
		if _, ok := c.WindowAt(at, now); !ok {
			t.Errorf("%s: no window at %s", createSlug, at)
		}
	}
}

func TestParseWrk(t *testing.T) {
	r, err := parseWrk("Running 5s test\n  2 threads\nDOORSTEP_WRK requests=1000 duration_us=2000000 p50_us=100 p99_us=900 non2xx3xx=0 connect=0 read=0 write=0 timeout=0 s201=990\n")
	if err != nil {
		t.Fatal(err)
	}
	if r.rps() != 500 || r["p99_us"] != 900 || r["s201"] != 990 || r.errors() != 0 {
		t.Fatalf("got %v", r)
	}
	if _, err := parseWrk("no report"); err == nil {
		t.Fatal("want an error without a report line")
	}
}

func TestParseGoBench(t *testing.T) {
	out := "goos: linux\nBenchmarkWindows-2   \t   73443\t     15743 ns/op\t    8416 B/op\t      15 allocs/op\n" +
		"BenchmarkCreateValidation/all-2 \t 221979\t 5518 ns/op\t 1704 B/op\t 49 allocs/op\nPASS\n"
	got := parseGoBench(out)
	want := []goBench{{"BenchmarkWindows", 15743, 8416, 15}, {"BenchmarkCreateValidation/all", 5518, 1704, 49}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
}

func TestCeilingBody(t *testing.T) {
	if len(ceilingBody) != 1024 {
		t.Fatalf("got %d bytes, want 1024", len(ceilingBody))
	}
}

// TestSizeRows: every arm64 binary is held to the budget, and one over it
// is named, so that make bench fails; amd64 ones are reported only.
func TestSizeRows(t *testing.T) {
	tests := []struct {
		name         string
		arch         string
		sizes        map[string]int64
		wantVerdicts []string
		wantOver     []string
	}{
		{"arm64 within", "arm64", map[string]int64{"a": 9_000_000, "b": 9_000_000, "c": targetBinaryBytes},
			[]string{"met", "met"}, nil},
		{"arm64 one byte over", "arm64", map[string]int64{"a": 9_000_000, "pages": targetBinaryBytes + 1},
			[]string{"met", "missed"}, []string{"pages"}},
		{"amd64 has no target", "amd64", map[string]int64{"a": 13_000_000}, []string{""}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, size := range tt.sizes {
				f, err := os.Create(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if err := f.Truncate(size); err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
			rows, err := sizeRows(dir, tt.arch)
			if err != nil {
				t.Fatal(err)
			}
			var verdicts []string
			for _, r := range rows {
				verdicts = append(verdicts, r.verdict)
			}
			if !slices.Equal(verdicts, tt.wantVerdicts) {
				t.Errorf("got verdicts %q, want %q", verdicts, tt.wantVerdicts)
			}
			if got := overBudget(rows); !slices.Equal(got, tt.wantOver) {
				t.Errorf("got over budget %q, want %q", got, tt.wantOver)
			}
		})
	}
}
