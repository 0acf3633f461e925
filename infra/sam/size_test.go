package sam

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// MaxBootstrapBytes is the most a function's bootstrap may weigh, built as
// the Makefile builds it (linux/arm64): its cold start grows with it
// (docs/performance.md).
const MaxBootstrapBytes = 12_000_000

// TestBootstrapSizes builds every function as make build does (the
// Makefile's GO_BUILD, read with make -n) into a temporary folder, all in
// one go build, which builds them in parallel and reuses the build cache,
// and fails on any bootstrap over MaxBootstrapBytes. It logs each size.
func TestBootstrapSizes(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed, so the Makefile's build cannot be read")
	}
	builds, err := makeGoBuilds("build")
	if err != nil {
		t.Fatalf("make -n build: %v", err)
	}
	if len(builds) == 0 {
		t.Fatal("make -n build runs no go build")
	}
	cmd, pkgs := builds[0].cmd, []string{}
	for _, b := range builds {
		if b.cmd != cmd {
			t.Fatalf("make build builds %s with %q and %s with %q: want one GO_BUILD", builds[0].pkg, cmd, b.pkg, b.cmd)
		}
		pkgs = append(pkgs, b.pkg)
	}
	dir := t.TempDir()
	// go build -o <folder>/ writes each main package to <folder>/<name>.
	build := exec.Command("sh", "-c", cmd+" -o "+dir+"/ "+strings.Join(pkgs, " "))
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build.Args[2], err, out)
	}
	for _, pkg := range pkgs {
		name := filepath.Base(pkg)
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		t.Logf("%-24s %10d bytes", name, fi.Size())
		if fi.Size() > MaxBootstrapBytes {
			t.Errorf("%s: bootstrap is %d bytes, over %d", name, fi.Size(), MaxBootstrapBytes)
		}
	}
}
