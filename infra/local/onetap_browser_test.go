package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
	"github.com/doorstep/doorstep/pkg/notify"
)

// oneTapLink is the one-tap link of a new request's e-mail: a sign-in
// link that comes back to the request.
var oneTapLink = regexp.MustCompile(`https?://\S+/inbox/sign-in/[A-Za-z0-9_-]+\?next=\S+`)

// TestBrowserOneTap drives Chromium, at a phone's size, in English and in
// Spanish: a person sends a request; the owner, signed out, opens the
// link of the new-request e-mail from the local outbox, taps its one
// button, lands on the request and accepts it. It counts the taps from
// the e-mail to the accepted request, and every page is checked with
// axe-core and for touch targets.
func TestBrowserOneTap(t *testing.T) {
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	businesses, err := loadBusinesses("")
	if err != nil {
		t.Fatal(err)
	}
	var logs logBuffer
	handler, closeStore, err := newHandler(ctx, businesses, srv.URL, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore()
	browser := axetest.Browser(ctx, t)

	tests := []struct {
		lang, slug, service, zip string
		open, state              string // the link's page's heading; the request's page's state, accepted
		done                     string // the notice after accepting
	}{
		{"en", "desert-cool-hvac", "ac-tune-up", "85004", "Open the request", "Accepted",
			"Accepted. The person is told by e-mail."},
		{"es", "limpieza-la-estrella", "standard-cleaning", "90026", "Abrir la solicitud", "Aceptada",
			"Aceptada. Se le avisa a la persona por correo electrónico."},
	}
	for i, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			// A person sends a request (with an e-mail, no texts).
			var avail booking.Availability
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug+"/availability?days=14", &avail)
			if len(avail.Windows) == 0 {
				t.Fatal("no open window")
			}
			body := `{"window_start":"` + avail.Windows[0].Start.Format(time.RFC3339) + `",` +
				`"address":{"street":"1 Test St","zip":"` + tt.zip + `"},` +
				`"contact":{"name":"Tap Person","phone":"602555017` + string(rune('0'+i)) + `","email":"tap-` + tt.lang + `@example.com"},` +
				`"service_id":"` + tt.service + `","language":"` + tt.lang + `"}`
			res, err := http.Post(srv.URL+"/api/v1/businesses/"+tt.slug+"/requests", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			var created booking.Created
			json.NewDecoder(res.Body).Decode(&created)
			res.Body.Close()
			if res.StatusCode != http.StatusCreated {
				t.Fatalf("create: got %d, want 201", res.StatusCode)
			}

			// The new-request e-mail, in the outbox.
			var outbox struct{ Messages []notify.Message }
			getJSON(t, srv.URL+"/dev/outbox", &outbox)
			link := ""
			for _, m := range outbox.Messages {
				if m.Kind == notify.KindNewRequest && strings.Contains(m.Subject, created.Code) {
					link = oneTapLink.FindString(m.Body)
				}
			}
			if link == "" {
				t.Fatalf("outbox: no new-request e-mail with a one-tap link for %s", created.Code)
			}

			tab, cancelTab := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
			defer cancelTab()
			acceptLanguage := func(ctx context.Context, target *chromedp.Target) (chromedp.Void, error) {
				_, err := cdp.Call(ctx, target, network.SetExtraHTTPHeaders,
					network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": tt.lang}})
				return chromedp.Void{}, err
			}
			if err := chromedp.Do(tab, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile), acceptLanguage); err != nil {
				t.Fatal(err)
			}
			n := 0
			shot := func(name string) {
				t.Helper()
				n++
				axetest.Screenshot(tab, t, shots, "onetap-"+tt.lang+"-"+itoa(n)+"-"+name)
				t.Run("axe "+itoa(n)+"-"+name, func(t *testing.T) { axetest.Check(tab, t) })
				axetest.CheckTargets(tab, t)
				axetest.CheckLang(tab, t, name, tt.lang)
			}
			taps := 0
			click := func(sel string) { t.Helper(); taps++; axetest.Click(tab, t, sel) }
			text := func(sel string) string { t.Helper(); return axetest.Text(tab, t, sel) }

			// Signed out, the owner taps the link in the e-mail ...
			taps++
			if err := chromedp.Do(tab, chromedp.Navigate(link)); err != nil {
				t.Fatalf("open the link: %v", err)
			}
			if got := text("h1"); got != tt.open {
				t.Errorf("the link's page: got %q, want %q", got, tt.open)
			}
			shot("link")
			// ... taps its one button, and is on the request, signed in ...
			click("button#sign-in")
			if got, _ := chromedp.Run(tab, chromedp.Evaluate[string]("location.pathname")); got != "/inbox/requests/"+created.Code {
				t.Fatalf("after the button: at %q, want the request's page", got)
			}
			shot("request")
			// ... and accepts it.
			click("button#accept")
			if got := text(".notice"); got != tt.done {
				t.Errorf("after accepting: got notice %q, want %q", got, tt.done)
			}
			if got := text("h1#state"); !strings.HasSuffix(got, tt.state) {
				t.Errorf("after accepting: got %q, want it %s", got, tt.state)
			}
			shot("accepted")
			if taps != 3 {
				t.Errorf("got %d taps from the e-mail to an accepted request, want 3", taps)
			}
			t.Logf("%s: %d taps from the new-request e-mail to an accepted request", tt.lang, taps)
			if token := strings.TrimPrefix(strings.Split(link, "?")[0], srv.URL+"/inbox/sign-in/"); strings.Contains(logs.String(), token) {
				t.Error("the server's log holds the link's token")
			}
		})
	}
}
