// Package axetest checks the accessibility of the page a chromedp browser
// test shows: Check runs axe-core (npm axe-core, which make installs into
// .tools/axe-core) with the WCAG 2.0, 2.1 and 2.2 A and AA rules, and
// CheckTargets measures every link, button and form field against the
// 24×24 px minimum touch target. The person's pages use it
// (pkg/pages/browser_test.go), the web inbox and the booking form
// (infra/local), and any other page's browser test can:
//
//	chromedp.Do(tab, chromedp.Navigate(url))
//	t.Run("axe", func(t *testing.T) { axetest.Check(tab, t) })
//	axetest.CheckTargets(tab, t)
//
// Browser, Text, Click, Screenshot and CheckLang are the steps every
// browser test takes.
//
// Check fails its test when axe-core is not installed: the checks never
// pass by being left out. Run it in a subtest to keep the rest of a flow
// going past a page's violations.
package axetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Tags are the axe-core rule tags Check runs: WCAG 2.0, 2.1 and 2.2, levels
// A and AA (WCAG 2.2 added no A rule to axe; wcag22aa is target-size).
var Tags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"}

// MinTarget is the smallest width and height, in CSS pixels, CheckTargets
// accepts for a link, button or form field (WCAG 2.2, 2.5.8 Target Size
// (Minimum)).
const MinTarget = 24

// How axe-core is found.
const (
	// dirEnv names a folder holding axe.min.js, or an npm prefix that
	// axe-core is installed under.
	dirEnv = "AXE_CORE_DIR"
	// defaultDir is where the Makefile installs it, from the repository root.
	defaultDir = ".tools/axe-core"
	underNPM   = "node_modules/axe-core/axe.min.js"
)

// script is axe.min.js, read once per test binary.
var script struct {
	once sync.Once
	js   string
	err  error
}

// Violation is one rule a page breaks, with the elements that break it.
type Violation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	URL    string `json:"helpUrl"`
	Nodes  []Node `json:"nodes"`
}

// Node is one element that breaks a rule: its CSS selector path (nested for
// frames and shadow roots) and axe's summary of what to fix.
type Node struct {
	Target  json.RawMessage `json:"target"`
	Summary string          `json:"failureSummary"`
}

// Result is what one axe-core run found.
type Result struct {
	Violations []Violation `json:"violations"`
	Incomplete []string    `json:"incomplete"` // rules axe could not decide: for a person to look at
	Passes     int         `json:"passes"`     // rules passed
}

// Check runs axe-core with Tags on the page ctx (a chromedp context) shows
// and fails t with every violation: its rule, impact, help and the
// elements. Rules axe could not decide are logged. It injects axe.min.js
// with Runtime.evaluate, which a page's Content-Security-Policy does not
// govern, so a page that forbids scripts is checked as served. Without
// axe-core it fails t: the checks never pass by being left out.
func Check(ctx context.Context, t testing.TB) {
	t.Helper()
	res, err := Run(ctx)
	switch {
	case errors.Is(err, ErrNotInstalled):
		t.Fatalf("%v; the accessibility checks must run: make axe-core installs it", err)
	case err != nil:
		t.Fatalf("axe-core: %v", err)
	}
	if len(res.Incomplete) > 0 {
		t.Logf("axe-core could not decide (check by hand): %s", strings.Join(res.Incomplete, ", "))
	}
	for _, v := range res.Violations {
		t.Errorf("%s", v)
	}
}

// String is the violation as Check reports it.
func (v Violation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "axe %s (%s): %s (%s)", v.ID, v.Impact, v.Help, v.URL)
	for _, n := range v.Nodes {
		fmt.Fprintf(&b, "\n\t%s: %s", n.Target, strings.ReplaceAll(n.Summary, "\n", " "))
	}
	return b.String()
}

// ErrNotInstalled is Run's error when axe.min.js is not found.
var ErrNotInstalled = errors.New("axe-core is not installed")

// Run runs axe-core with Tags on the page ctx shows and returns what it
// found; Check is Run for a test.
func Run(ctx context.Context) (Result, error) {
	script.once.Do(func() { script.js, script.err = load() })
	if script.err != nil {
		return Result{}, script.err
	}
	tags, _ := json.Marshal(Tags)
	run := `axe.run(document, {runOnly: {type: "tag", values: ` + string(tags) + `}, resultTypes: ["violations"]})
		.then(r => ({
			violations: r.violations.map(v => ({id: v.id, impact: v.impact || "", help: v.help, helpUrl: v.helpUrl,
				nodes: v.nodes.map(n => ({target: n.target, failureSummary: n.failureSummary || ""}))})),
			incomplete: r.incomplete.map(v => v.id),
			passes: r.passes.length,
		}))`
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](script.js)); err != nil {
		return Result{}, fmt.Errorf("inject axe.min.js: %w", err)
	}
	return chromedp.Run(ctx, chromedp.Evaluate[Result](run, chromedp.EvalAwaitPromise))
}

// load reads axe.min.js from AXE_CORE_DIR, or from .tools/axe-core under
// the repository root.
func load() (string, error) {
	base := os.Getenv(dirEnv)
	if base == "" {
		root, err := repoRoot()
		if err != nil {
			return "", err
		}
		base = filepath.Join(root, defaultDir)
	}
	for _, path := range []string{filepath.Join(base, "axe.min.js"), filepath.Join(base, underNPM)} {
		if js, err := os.ReadFile(path); err == nil {
			return string(js), nil
		}
	}
	return "", fmt.Errorf("%w: no axe.min.js in %s or under %s (set %s to use another folder)",
		ErrNotInstalled, base, filepath.Join(base, filepath.Dir(underNPM)), dirEnv)
}

// repoRoot walks up from the working directory to the folder with go.mod.
func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod in %s or above it", wd)
		}
		dir = parent
	}
}

// Target is a link, button or form field smaller than MinTarget.
type Target struct {
	Element string  `json:"element"` // tag, id (or name) and text, to find it by
	Width   float64 `json:"width"`
	Height  float64 `json:"height"`
}

// Targets returns every visible a, button, input, select, textarea and
// summary on the page ctx shows whose box is narrower or lower than
// MinTarget CSS pixels, as laid out at the browser's current size. A link
// that wraps over lines is measured line by line.
func Targets(ctx context.Context) ([]Target, error) {
	js := fmt.Sprintf(`(() => {
		const min = %d, small = [];
		for (const el of document.querySelectorAll("a[href], button, input, select, textarea, summary")) {
			if (el.type === "hidden" || el.getClientRects().length === 0) continue;
			const s = getComputedStyle(el);
			if (s.visibility === "hidden" || s.display === "none") continue;
			const label = (el.textContent || el.getAttribute("aria-label") || el.value || "").trim().slice(0, 40);
			const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : el.name ? "[name=" + el.name + "]" : "") + " " + JSON.stringify(label);
			for (const r of el.getClientRects()) {
				if (r.width < min || r.height < min) small.push({element: name, width: r.width, height: r.height});
			}
		}
		return small;
	})()`, MinTarget)
	return chromedp.Run(ctx, chromedp.Evaluate[[]Target](js))
}

// CheckTargets fails t with every link, button or form field on the page
// ctx shows that is smaller than MinTarget×MinTarget CSS pixels (Targets).
// Unlike axe's target-size rule it allows no exception for links inside a
// sentence: a thumb on a phone needs the room either way.
func CheckTargets(ctx context.Context, t testing.TB) {
	t.Helper()
	small, err := Targets(ctx)
	if err != nil {
		t.Fatalf("measure touch targets: %v", err)
	}
	for _, s := range small {
		t.Errorf("touch target %s is %.1f×%.1f px, want at least %d×%d", s.Element, s.Width, s.Height, MinTarget, MinTarget)
	}
}

// Chromium returns the path of a Chromium or Chrome binary for a browser
// test. Without one the test fails: make browser installs chromium, and
// the browser tests must run.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Fatal("no chromium found; the browser tests must run: make browser installs it (apt-get install chromium)")
	return ""
}

// Screenshots returns the ignored folder, artifacts/screenshots at the
// repository's root, that the browser tests save their screenshots in,
// made if it is missing.
func Screenshots(t testing.TB) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "artifacts", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Browser starts Chromium (found by Chromium) under ctx with a phone's
// 390×844 window, and returns the browser's context for chromedp.NewContext
// to open tabs in. The browser ends with the test.
func Browser(ctx context.Context, t testing.TB) context.Context {
	t.Helper()
	bin := Chromium(t)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.WindowSize(390, 844))...)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browser); err != nil { // starts the browser
		t.Fatalf("start %s: %v", bin, err)
	}
	return browser
}

// Text returns the text of the first element sel matches in the tab,
// trimmed, and fails the test when there is none.
func Text(tab context.Context, t testing.TB, sel string) string {
	t.Helper()
	s, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// Click clicks the first element sel matches in the tab and waits for the
// page it leads to to load; it fails the test when that does not happen.
func Click(tab context.Context, t testing.TB, sel string) {
	t.Helper()
	if _, err := chromedp.Run(tab, chromedp.WaitEvent(page.LoadEventFired, nil, chromedp.Click(chromedp.CSS(sel)))); err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// ScreenshotsEnv names the variable that, set to "all", has Screenshot
// save every page a browser test checks. Otherwise it saves only the pages
// whose checks failed: a full-page screenshot takes about a sixth of a
// browser test's time (75 ms a page on a 2-core machine).
const ScreenshotsEnv = "DOORSTEP_SCREENSHOTS"

// Screenshot saves a full-page screenshot of the tab as dir/name.png
// (dir: Screenshots) when t has failed, or for every page when
// ScreenshotsEnv is "all"; call it after the page's checks. It fails the
// test when it cannot.
func Screenshot(tab context.Context, t testing.TB, dir, name string) {
	t.Helper()
	if !t.Failed() && os.Getenv(ScreenshotsEnv) != "all" {
		return
	}
	png, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// CheckLang fails the test unless the page in the tab says it is in lang
// (<html lang>); page names the page in the failure.
func CheckLang(tab context.Context, t testing.TB, page, lang string) {
	t.Helper()
	if got, err := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("html"), "lang")); err != nil || got.Value != lang {
		t.Errorf("%s: got <html lang=%q> (%v), want %q", page, got.Value, err, lang)
	}
}
