package axetest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
)

// bad breaks a rule of each kind Check and CheckTargets look for: no lang,
// a field without a label (and of the browser's default height, under 24
// px), text too faint to read, and buttons too small and too close to tap.
const bad = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bad</title>
<style>.faint{color:#bbb} .tiny{width:12px;height:12px;padding:0;border:0;margin:0}</style></head>
<body><main><h1>Bad</h1>
<p class="faint">Hard to read.</p>
<form><input type="text" name="name"></form>
<p><button class="tiny" type="button" aria-label="One"></button><button class="tiny" type="button" aria-label="Two"></button></p>
</main></body></html>`

// good breaks none.
const good = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Good</title>
<style>a,button,input{display:inline-block;min-height:32px}</style></head>
<body><main><h1>Good</h1>
<form><label for="name">Name</label> <input id="name" type="text" name="name"> <button type="submit">Send</button></form>
<p><a href="/">Home</a></p>
</main></body></html>`

// TestCheck runs axe-core on a page that breaks the rules and one that
// does not, both served with a CSP that forbids every script, as the
// person's pages are.
func TestCheck(t *testing.T) {
	bin := axetest.Chromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/bad" {
			w.Write([]byte(bad))
			return
		}
		w.Write([]byte(good))
	}))
	t.Cleanup(srv.Close)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox)...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(allocCtx)
	defer cancelTab()
	if err := chromedp.Do(tab, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), chromedp.Navigate(srv.URL+"/bad")); err != nil {
		t.Fatal(err)
	}

	res, err := axetest.Run(tab)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range res.Violations {
		ids = append(ids, v.ID)
		if len(v.Nodes) == 0 || v.Help == "" || v.Impact == "" {
			t.Errorf("violation %s: want its help, impact and elements, got %+v", v.ID, v)
		}
	}
	for _, want := range []string{"html-has-lang", "label", "color-contrast", "target-size"} {
		if !slices.Contains(ids, want) {
			t.Errorf("bad page: got violations %v, want %s among them", ids, want)
		}
	}
	small, err := axetest.Targets(tab)
	if err != nil || len(small) != 3 || small[0].Element != `input[name=name] ""` || small[0].Height >= 24 ||
		small[1].Element != `button "One"` || small[1].Width != 12 || small[1].Height != 12 || small[2].Element != `button "Two"` {
		t.Errorf("bad page: got small targets %+v (%v), want the browser's default text field and the two 12×12 buttons", small, err)
	}

	if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+"/good")); err != nil {
		t.Fatal(err)
	}
	if res, err := axetest.Run(tab); err != nil || len(res.Violations) != 0 || res.Passes == 0 {
		t.Errorf("good page: got %+v (%v), want rules passed and no violation", res, err)
	}
	axetest.Check(tab, t)
	axetest.CheckTargets(tab, t)

	// A page whose checks passed is not saved; a failed one is, and every
	// one is with DOORSTEP_SCREENSHOTS=all.
	dir := t.TempDir()
	tests := []struct {
		name, env string
		failed    bool
		want      bool
	}{
		{"passed", "", false, false},
		{"failed", "", true, true},
		{"passed, all asked", "all", false, true},
	}
	for _, tt := range tests {
		t.Run("screenshot "+tt.name, func(t *testing.T) {
			t.Setenv(axetest.ScreenshotsEnv, tt.env)
			axetest.Screenshot(tab, failedTB{TB: t, failed: tt.failed}, dir, tt.name)
			_, err := os.Stat(filepath.Join(dir, tt.name+".png"))
			if got := err == nil; got != tt.want {
				t.Errorf("saved: got %v, want %v", got, tt.want)
			}
		})
	}
}

// failedTB is t, failed or not as a check before it would have left it.
type failedTB struct {
	testing.TB
	failed bool
}

func (f failedTB) Failed() bool { return f.failed }
