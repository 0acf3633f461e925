package pages_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/htmlpage/axetest"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/pages"
)

// TestBrowser drives Chromium, at a phone's size, through the person's
// pages of a deposit request to a preview business (simulated deposit),
// sent through the JSON API: open status_url, follow the payment link, pay,
// see the request sent and the deposit paid, open the cancel page, cancel,
// and open an unknown code's page; then see another request, accepted,
// offer "Add to calendar". Once in English, once in Spanish. Every
// page is checked with axe-core (WCAG 2.0-2.2 A and AA; its subtest skips
// without axe-core, see make axe-core) and for touch targets of at least
// 24×24 px. Screenshots go to artifacts/screenshots/.
func TestBrowser(t *testing.T) {
	shots := axetest.Screenshots(t)

	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	dynamotest.PutBusinesses(t, store, demoFile, nil)
	log := slog.New(slog.DiscardHandler)
	bookings := bookingtest.New(t, booking.Config{Store: store, SiteURL: srv.URL, Now: time.Now})
	pagesHandler := pages.New(pages.Config{Bookings: bookings, Log: log})
	mux.Handle("/api/", httpapi.New(bookings, log))
	mux.Handle("/r/", pagesHandler)
	mux.Handle("/pay/", pagesHandler)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	browser := axetest.Browser(ctx, t)

	b, err := bookings.Business(ctx, "mile-high-electric")
	if err != nil {
		t.Fatal(err)
	}
	windows, err := bookings.ArrivalWindows(ctx, b, booking.WindowQuery{Days: 14})
	if err != nil || len(windows.Windows) < 2 {
		t.Fatalf("windows: %v %v", windows, err)
	}
	tests := []struct {
		lang                                string
		waiting, payTitle, sent, depositSay string
		cancelled, notFound, addToCalendar  string
	}{
		{"en", "Waiting for your deposit", "Pay the deposit", "Request sent, not confirmed yet", "$25.00 paid on", "Your request is cancelled.", "Page not found", "Add to calendar"},
		{"es", "Esperando su depósito", "Pagar el depósito", "Solicitud enviada, aún sin confirmar", "$25.00 pagado el", "Su solicitud está cancelada.", "Página no encontrada", "Añadir al calendario"},
	}
	for i, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			body := `{"window_start":"` + windows.Windows[i].Start.Format(time.RFC3339) + `",` +
				`"address":{"street":"1 Test St","city":"Denver","zip":"80202"},` +
				`"contact":{"name":"Test Person","phone":"303555014` + string(rune('0'+i)) + `"},` +
				`"deposit_accepted":true,"language":"` + tt.lang + `"}`
			res, err := http.Post(srv.URL+"/api/v1/businesses/mile-high-electric/requests", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			var created booking.Created
			json.NewDecoder(res.Body).Decode(&created)
			res.Body.Close()
			if res.StatusCode != http.StatusCreated || created.Status != booking.StatusPendingPayment {
				t.Fatalf("create: got %d %+v, want 201 pending_payment", res.StatusCode, created)
			}

			tab, cancelTab := chromedp.NewContext(browser)
			defer cancelTab()
			// shot checks the page: axe-core in a subtest of its own, and
			// the touch targets (and screenshots it when a check failed:
			// axetest.Screenshot).
			shot := func(name string) {
				t.Helper()
				t.Run("axe "+name, func(t *testing.T) { axetest.Check(tab, t) })
				axetest.CheckTargets(tab, t)
				axetest.Screenshot(tab, t, shots, "pages-"+tt.lang+"-"+name)
			}
			text := func(sel string) string { t.Helper(); return axetest.Text(tab, t, sel) }
			click := func(sel string) { t.Helper(); axetest.Click(tab, t, sel) }

			// A phone's viewport, touch and all: headless Chromium's
			// window is never narrower than 500 px.
			if err := chromedp.Do(tab, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(tab, chromedp.Navigate(created.StatusURL)); err != nil {
				t.Fatal(err)
			}
			if w, err := chromedp.Run(tab, chromedp.Evaluate[int]("innerWidth")); err != nil || w != 390 {
				t.Fatalf("got a viewport %d px wide (%v), want a phone's 390", w, err)
			}
			if got := text("#state"); got != tt.waiting {
				t.Errorf("status page: got %q, want %q", got, tt.waiting)
			}
			shot("1-status")

			click("a#pay")
			if got := text("h1"); got != tt.payTitle {
				t.Errorf("payment page: got %q, want %q", got, tt.payTitle)
			}
			if loc, _ := chromedp.Run(tab, chromedp.Location()); loc != *created.PaymentURL {
				t.Errorf("got to %s, want the payment_url %s", loc, *created.PaymentURL)
			}
			shot("2-pay")

			click("button#pay")
			if got := text("#state"); got != tt.sent {
				t.Errorf("after paying: got %q, want %q", got, tt.sent)
			}
			if got := text("#deposit"); !strings.HasPrefix(got, tt.depositSay) {
				t.Errorf("after paying: got deposit %q, want %q...", got, tt.depositSay)
			}
			axetest.CheckLang(tab, t, "status", tt.lang)
			shot("3-paid")

			// The cancel button spells out what happens to the deposit
			// before the person confirms (not confirmed here).
			click("a#cancel")
			if got := text("#consequence"); !strings.Contains(got, "$25.00") {
				t.Errorf("cancel page: got %q, want the deposit's consequence", got)
			}
			shot("4-cancel")

			res, err = http.Get(created.APIURL)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var status booking.RequestStatus
			json.NewDecoder(res.Body).Decode(&status)
			if status.Status != booking.StatusNew || status.Deposit == nil || status.Deposit.State != booking.DepositPaid {
				t.Errorf("getServiceRequest: got %s, deposit %+v; want new, paid", status.Status, status.Deposit)
			}

			click("button#confirm")
			if got := text(".notice"); got != tt.cancelled {
				t.Errorf("after cancelling: got notice %q, want %q", got, tt.cancelled)
			}
			if got, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#state"), "data-state")); got.Value != string(booking.StatusCancelled) {
				t.Errorf("after cancelling: got state %q, want cancelled", got.Value)
			}
			shot("5-cancelled")

			// An unknown code's page, in the browser's language.
			acceptLanguage := func(ctx context.Context, target *chromedp.Target) (chromedp.Void, error) {
				_, err := cdp.Call(ctx, target, network.SetExtraHTTPHeaders,
					network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": tt.lang}})
				return chromedp.Void{}, err
			}
			if err := chromedp.Do(tab, acceptLanguage, chromedp.Navigate(srv.URL+"/r/XXXX-XXXX-XXXX")); err != nil {
				t.Fatal(err)
			}
			if got := text("h1"); got != tt.notFound {
				t.Errorf("unknown code: got %q, want %q", got, tt.notFound)
			}
			shot("6-not-found")

			// An accepted request offers "Add to calendar".
			body = `{"window_start":"` + windows.Windows[i+2].Start.Format(time.RFC3339) + `",` +
				`"address":{"street":"1 Test St","city":"Denver","zip":"80202"},` +
				`"contact":{"name":"Test Person","phone":"303555015` + string(rune('0'+i)) + `"},` +
				`"deposit_accepted":true,"language":"` + tt.lang + `"}`
			res, err = http.Post(srv.URL+"/api/v1/businesses/mile-high-electric/requests", "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			var accepted booking.Created
			json.NewDecoder(res.Body).Decode(&accepted)
			res.Body.Close()
			if _, err := bookings.PaySimulated(ctx, accepted.Code); err != nil {
				t.Fatal(err)
			}
			if _, err := bookingtest.Inbox(t, bookings, b.Slug).Move(ctx, accepted.Code, booking.ActionAccept, time.Time{}); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(tab, chromedp.Navigate(accepted.StatusURL)); err != nil {
				t.Fatal(err)
			}
			if got := text("#add-to-calendar"); got != tt.addToCalendar {
				t.Errorf("accepted: got %q, want %q", got, tt.addToCalendar)
			}
			shot("7-accepted")
		})
	}
}
