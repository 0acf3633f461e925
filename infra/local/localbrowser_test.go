package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/notify"
)

// What every browser test starts with: the local server's own wiring
// (newHandler) on a test server, and a phone's tab of its own per
// language. A browser test is then
//
//	businesses := demoBusinessesFor(t)
//	srv := serveLocal(ctx, t, businesses, slog.New(slog.DiscardHandler), nil)
//	browser := axetest.Browser(ctx, t)
//	p := newPhoneTab(t, browser, axetest.Screenshots(t), "mine-en", "en", scriptsOff)
//	p.open(srv.URL + "/r/")
//	p.check("lookup")

// demoBusinessesFor returns the businesses make run serves
// (businesses.json), for a test to change before serveLocal.
func demoBusinessesFor(t *testing.T) []*booking.Business {
	t.Helper()
	businesses, err := loadBusinesses("")
	if err != nil {
		t.Fatal(err)
	}
	return businesses
}

// businessOf is the business of businesses with slug, nil when none.
func businessOf(businesses []*booking.Business, slug string) *booking.Business {
	for _, b := range businesses {
		if b.Slug == slug {
			return b
		}
	}
	return nil
}

// serveLocal serves newHandler over the businesses on a test server, whose
// URL is the site's, logging to log; wrap, unless nil, wraps the handler
// (to watch or delay what the browser sends). The server and its store
// close when t ends; the hold sweeper when ctx does.
func serveLocal(ctx context.Context, t *testing.T, businesses []*booking.Business, log *slog.Logger, wrap func(http.Handler) http.Handler) *httptest.Server {
	t.Helper()
	var handler http.Handler // newHandler needs the server's URL first
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	h, closeStore, err := newHandler(ctx, businesses, srv.URL, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeStore)
	if wrap != nil {
		h = wrap(h)
	}
	handler = h
	return srv
}

// scripting is whether a phoneTab runs the pages' JavaScript.
type scripting bool

const (
	// scriptsOff: the pages must work without JavaScript; it runs only
	// while axe-core (itself a script) checks a page.
	scriptsOff scripting = false
	scriptsOn  scripting = true
)

// phoneTab is a person's phone in a browser tab of its own (a browser
// context: no cookie carries over from another tab): 390×844, touch (headless
// Chromium's window is never narrower than 500 px), the person's
// Accept-Language, JavaScript as asked. It counts the pages the tab opens
// (top-level documents) and the taps the test makes (a choice, a button, a
// link, or a text field tapped to type in it), and numbers its
// screenshots: artifacts/screenshots/{prefix}-{n}-{step}.png.
type phoneTab struct {
	t       *testing.T
	ctx     context.Context
	lang    string
	shots   string
	prefix  string
	scripts scripting
	n       int
	pages   atomic.Int32
	taps    int
}

// newPhoneTab opens the tab, after removing the last run's screenshots of
// prefix (whose pages may have been numbered otherwise). It closes when t
// ends.
func newPhoneTab(t *testing.T, browser context.Context, shots, prefix, lang string, scripts scripting) *phoneTab {
	t.Helper()
	old, _ := filepath.Glob(filepath.Join(shots, prefix+"-*.png"))
	for _, f := range old {
		os.Remove(f)
	}
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &phoneTab{t: t, ctx: ctx, lang: lang, shots: shots, prefix: prefix, scripts: scripts}
	acceptLanguage := func(ctx context.Context, target *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, target, network.SetExtraHTTPHeaders,
			network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": lang}})
		return chromedp.Void{}, err
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), acceptLanguage); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*page.EventFrameNavigated); ok && e.Frame.ParentID == "" {
			p.pages.Add(1)
		}
	}); err != nil {
		t.Fatal(err)
	}
	p.setScripts(bool(scripts))
	return p
}

func (p *phoneTab) setScripts(on bool) {
	p.t.Helper()
	if _, err := chromedp.Call(p.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on}); err != nil {
		p.t.Fatal(err)
	}
}

// open opens an address as a link followed: a page, no tap.
func (p *phoneTab) open(url string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(url)); err != nil {
		p.t.Fatalf("open %s: %v", url, err)
	}
}

// check checks the page with axe-core, for touch targets and for its
// language, the tab's, at a phone's width, and screenshots it when a
// check failed (every page with DOORSTEP_SCREENSHOTS=all).
func (p *phoneTab) check(step string) {
	p.t.Helper()
	p.checkIn(step, p.lang)
}

// checkIn is check for a page in lang, whatever the tab's.
func (p *phoneTab) checkIn(step, lang string) {
	p.t.Helper()
	p.n++
	name := itoa(p.n) + "-" + step
	if p.scripts == scriptsOff {
		p.setScripts(true)
		defer p.setScripts(false)
	}
	p.t.Run("axe "+name, func(t *testing.T) { axetest.Check(p.ctx, t) })
	axetest.CheckTargets(p.ctx, p.t)
	axetest.CheckLang(p.ctx, p.t, step, lang)
	axetest.Screenshot(p.ctx, p.t, p.shots, p.prefix+"-"+name)
}

// soon bounds a look at the page: what is not there fails the test soon.
func (p *phoneTab) soon() (context.Context, context.CancelFunc) {
	return context.WithTimeout(p.ctx, 15*time.Second)
}

func (p *phoneTab) text(sel string) string {
	p.t.Helper()
	ctx, cancel := p.soon()
	defer cancel()
	return axetest.Text(ctx, p.t, sel)
}

func (p *phoneTab) attr(sel, name string) string {
	p.t.Helper()
	ctx, cancel := p.soon()
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(sel), name))
	if err != nil {
		p.t.Fatalf("%s's %s: %v", sel, name, err)
	}
	return v.Value
}

// click taps a button or a link and waits for the page it opens.
func (p *phoneTab) click(sel string) {
	p.t.Helper()
	p.taps++
	ctx, cancel := p.soon()
	defer cancel()
	axetest.Click(ctx, p.t, sel)
}

// tick taps a choice.
func (p *phoneTab) tick(sel string) {
	p.t.Helper()
	p.taps++
	ctx, cancel := p.soon()
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("tick %s: %v", sel, err)
	}
}

// typeIn taps a text field and types in it.
func (p *phoneTab) typeIn(sel, value string) {
	p.t.Helper()
	p.taps++
	ctx, cancel := p.soon()
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(sel), value)); err != nil {
		p.t.Fatalf("type in %s: %v", sel, err)
	}
}

// count is how many elements sel matches.
func (p *phoneTab) count(sel string) int {
	p.t.Helper()
	c, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`document.querySelectorAll("`+sel+`").length`))
	if err != nil {
		p.t.Fatal(err)
	}
	return c
}

// displayed is whether sel's element is displayed (its CSS display is not
// none).
func (p *phoneTab) displayed(sel string) bool {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`getComputedStyle(document.querySelector("`+sel+`")).display !== "none"`))
	if err != nil {
		p.t.Fatalf("is %s shown: %v", sel, err)
	}
	return v
}

func (p *phoneTab) location() string {
	p.t.Helper()
	loc, err := chromedp.Run(p.ctx, chromedp.Location())
	if err != nil {
		p.t.Fatal(err)
	}
	return loc
}

// signIn signs the business with the inbox address email in, in the tab,
// with the link the local server's outbox holds.
func signIn(t *testing.T, p *phoneTab, base, email string) {
	t.Helper()
	p.open(base + "/inbox")
	p.typeIn("#email", email)
	p.click("button#send")
	link := fromOutbox(t, base, "sign-in link to "+email, signInLink, func(m notify.Message) bool {
		return m.Kind == inboxweb.KindSignIn && m.To == email
	})
	p.follow(link, "", "button#sign-in")
}

// outboxAt returns the messages the local server at base keeps instead of
// sending them (/dev/outbox), newest first.
func outboxAt(t *testing.T, base string) []notify.Message {
	t.Helper()
	var box struct{ Messages []notify.Message }
	getJSON(t, base+"/dev/outbox", &box)
	return box.Messages
}

// fromOutbox returns what pattern finds (a link, a code) in the newest
// message of the local outbox at base that match accepts and whose body
// has it; without one the test fails, saying it found no what.
func fromOutbox(t *testing.T, base, what string, pattern *regexp.Regexp, match func(notify.Message) bool) string {
	t.Helper()
	for _, m := range outboxAt(t, base) {
		if !match(m) {
			continue
		}
		if found := pattern.FindString(m.Body); found != "" {
			return found
		}
	}
	t.Fatalf("outbox: no %s", what)
	return ""
}

// follow taps a link from an e-mail or a text (counted as a tap), checks
// the page it opens as step (unless step is ""), then presses each of
// press in turn, as the person does.
func (p *phoneTab) follow(link, step string, press ...string) {
	p.t.Helper()
	p.taps++
	p.open(link)
	if step != "" {
		p.check(step)
	}
	for _, sel := range press {
		p.click(sel)
	}
}
