package main

import (
	"context"
	"encoding/csv"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
)

// TestBrowserPersonalData drives Chromium at a phone's size (390×844)
// through "Erase my details" and the inbox's CSV export on the local
// server's wiring, in English and in Spanish (a business whose
// default_language is es). A person sends two requests through the JSON
// API; they cancel one on its status page, then erase their details from
// it (the erase page, then its confirmation), and the status page says the
// details are erased. The business signs in with a link from the outbox,
// finds the erased request's page saying "details erased", is refused a
// range that is no range with the problem next to its field, then
// downloads the CSV of the month: the file holds the two requests, the
// erased one without the person's details, the other's name (which starts
// with =) neutralised. Last, it declines that other request and erases
// its details from the inbox (its erase page, then the button), and the
// request's page says the details are erased. Every page is checked with axe-core and for touch
// targets, and screenshotted to artifacts/screenshots/personal-{lang}-{n}-{page}.png.
func TestBrowserPersonalData(t *testing.T) {
	t.Parallel() // browser tests wait on Chromium more than they compute: two at a time
	shots := axetest.Screenshots(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var logs logBuffer
	businesses := demoBusinessesFor(t)
	srv := serveLocal(ctx, t, businesses, slog.New(slog.NewTextHandler(&logs, nil)), nil)
	chrome := axetest.Browser(ctx, t)

	tests := []struct {
		lang, slug, zip, city string
		eraseTitle, erased    string // the erase page's heading; the status page's notice after it (pkg/pages)
		inboxErased           string // the inbox's request page, where the name was (pkg/inboxweb)
		inboxErase, done      string // the inbox's erase page's heading; the request page's notice after it
		badDate               string // the export page's refusal of a date that is none
		header                string // the CSV's first column
		cancelled             string // the cancelled request's state in the CSV
	}{
		{"en", "desert-cool-hvac", "85004", "Phoenix", "Erase your details", "Your details are erased.",
			"Details erased", "Erase the person's details?", "The person's details are erased.",
			"Enter a date, such as 2026-11-01.", "Request code", "Cancelled"},
		{"es", "limpieza-la-estrella", "90026", "Los Angeles", "Borrar sus datos", "Sus datos están borrados.",
			"Datos borrados", "¿Borrar los datos de la persona?", "Los datos de la persona están borrados.",
			"Escriba una fecha, como 2026-11-01.", "Código de solicitud", "Cancelada"},
	}
	for i, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			b := businessOf(businesses, tt.slug)
			if b == nil || b.InboxEmail == "" || b.DefaultLanguage != tt.lang || b.BookingDeposit != nil {
				t.Fatalf("businesses.json: want %s with an inbox_email, default_language %s and no deposit, got %+v", tt.slug, tt.lang, b)
			}
			var avail booking.Availability
			getJSON(t, srv.URL+"/api/v1/businesses/"+tt.slug+"/availability?days=14", &avail)
			if len(avail.Windows) < 2 {
				t.Fatalf("availability: got %d windows, want 2 or more", len(avail.Windows))
			}
			send := func(w int, name, phone string) booking.Created {
				t.Helper()
				body := `{"window_start":"` + avail.Windows[w].Start.Format(time.RFC3339) + `",` +
					`"address":{"street":"9 Erase Ave","city":"` + tt.city + `","zip":"` + tt.zip + `"},` +
					`"contact":{"name":` + strconv.Quote(name) + `,"phone":"` + phone + `"},` +
					`"description":"Leave it by the door.","language":"` + tt.lang + `"}`
				return createRequest(t, srv.URL, tt.slug, body)
			}
			mine := send(0, "Erin Erase", "303555017"+itoa(i)[1:])
			formula := send(1, "=HYPERLINK(\"http://evil.example\")", "303555018"+itoa(i)[1:])

			p := newPhoneTab(t, chrome, shots, "personal-"+tt.lang, tt.lang, scriptsOn)

			// 1. The person cancels, then erases their details.
			p.open(mine.StatusURL)
			if p.count("a#erase") != 0 {
				t.Errorf("a live request offers to erase its details")
			}
			p.click("a#cancel")
			p.click("button#confirm")
			if got, _ := chromedp.Run(p.ctx, chromedp.AttributeValue(chromedp.CSS("#state"), "data-state")); got.Value != string(booking.StatusCancelled) {
				t.Fatalf("after cancelling: got state %q", got.Value)
			}
			p.check("cancelled")
			p.click("a#erase")
			if got := p.text("h1"); got != tt.eraseTitle {
				t.Errorf("erase page: got %q, want %q", got, tt.eraseTitle)
			}
			p.check("erase")
			p.click("button#confirm-erase")
			if got := p.text("p.notice"); got != tt.erased {
				t.Errorf("after erasing: got notice %q, want %q", got, tt.erased)
			}
			if p.count("#erased") != 1 || p.count("a#erase") != 0 {
				t.Errorf("after erasing: want the erased line and no erase link")
			}
			p.check("erased")

			// 2. The business signs in with a link from the outbox.
			signIn(t, p, srv.URL, b.InboxEmail)

			// 3. The erased request in the inbox: "details erased", never an error.
			p.open(srv.URL + "/inbox/requests/" + mine.Code)
			if got := p.text("h1"); !strings.HasPrefix(got, tt.inboxErased) {
				t.Errorf("inbox: the erased request's heading is %q, want it to start %q", got, tt.inboxErased)
			}
			if p.count("#erased") != 1 || p.count("a#erase") != 0 {
				t.Errorf("inbox: want the erased line and no erase link on an erased request")
			}
			p.check("inbox-erased")

			// 4. The export: a range that is none, then the month's CSV.
			p.click("a#export-link")
			p.check("export")
			p.open(srv.URL + "/inbox/export.csv?from=2026-02-30&to=2026-03-01")
			if got := p.text("#from-error"); got != tt.badDate {
				t.Errorf("export: got %q next to from, want %q", got, tt.badDate)
			}
			p.check("export-refused")
			p.open(srv.URL + "/inbox/export")
			dir := t.TempDir()
			progress := chromedp.Events(p.ctx, browser.DownloadProgress)
			enabled := true
			if err := chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				// In the tab's own browser context: the default one's behaviour is not its.
				_, err := chromedp.Call(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
					Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &enabled,
					BrowserContextID: chromedp.FromContext(p.ctx).BrowserContextID,
				})
				return err
			}), chromedp.Click(chromedp.CSS("button#download"))); err != nil {
				t.Fatal(err)
			}
			var file string
			for ev, err := range progress {
				if err != nil {
					t.Fatalf("download: %v", err)
				}
				if ev.State == browser.DownloadProgressStateCanceled {
					t.Fatal("download: cancelled")
				}
				if ev.State == browser.DownloadProgressStateCompleted {
					file = filepath.Join(dir, ev.GUID)
					break
				}
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
			if err != nil || len(rows) != 3 || rows[0][0] != tt.header {
				t.Fatalf("the downloaded CSV: %v, %d rows, want a header %q and 2 rows:\n%s", err, len(rows), tt.header, data)
			}
			byCode := map[string][]string{rows[1][0]: rows[1], rows[2][0]: rows[2]}
			if r := byCode[mine.Code]; r == nil || r[2] != tt.cancelled || r[6] != "" || r[9] != "" || r[19] == "" {
				t.Errorf("the erased request's row = %q, want %s with no details and when they were erased", r, tt.cancelled)
			}
			if r := byCode[formula.Code]; r == nil || r[6] != `'=HYPERLINK("http://evil.example")` || r[9] != "9 Erase Ave" {
				t.Errorf("the other request's row = %q, want its name neutralised and its street", r)
			}
			if strings.Contains(string(data), "Erin Erase") {
				t.Errorf("the CSV holds an erased name:\n%s", data)
			}

			// 5. The business declines the other request, then erases its
			// details from the inbox: the request's page, its erase page,
			// the button, the request's page again.
			p.open(srv.URL + "/inbox/requests/" + formula.Code)
			p.click("a#decline")
			p.click("button#confirm")
			p.click("a#erase")
			if got := p.text("h1"); got != tt.inboxErase {
				t.Errorf("inbox erase page: got %q, want %q", got, tt.inboxErase)
			}
			p.check("inbox-erase")
			p.click("button#confirm")
			if got := p.text("#notice"); got != tt.done {
				t.Errorf("after the inbox's erase: got notice %q, want %q", got, tt.done)
			}
			if got := p.text("h1"); !strings.HasPrefix(got, tt.inboxErased) {
				t.Errorf("after the inbox's erase: got heading %q, want it to start %q", got, tt.inboxErased)
			}
			if p.count("#erased") != 1 || p.count("a#erase") != 0 {
				t.Errorf("after the inbox's erase: want the erased line and no erase link")
			}
			p.check("inbox-erase-done")
		})
	}
	if log := logs.String(); strings.Contains(log, "Erin Erase") || strings.Contains(log, "3035550170") {
		t.Errorf("the server's log holds a contact value:\n%s", log)
	}
}
