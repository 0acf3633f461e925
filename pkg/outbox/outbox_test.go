package outbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/dynamo/embedded"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/outbox"
)

func message(i int, channel notify.Channel) notify.Message {
	return notify.Message{
		ID: fmt.Sprintf("7K3M-Q9TD-2HXA#%d/received/person/%s", i, channel), Kind: notify.KindReceived,
		Audience: notify.AudiencePerson, Channel: channel, To: "ana@example.com", Language: "en",
		Subject: "Request received", Body: "Lakeview Plumbing received your request.",
	}
}

func TestOutbox(t *testing.T) {
	var logs bytes.Buffer
	o := outbox.New(2, slog.New(slog.NewJSONHandler(&logs, nil)))
	ctx := context.Background()
	if err := o.SendEmail(ctx, message(0, notify.ChannelEmail)); err != nil {
		t.Fatal(err)
	}
	if err := o.SendText(ctx, message(1, notify.ChannelSMS)); err != nil {
		t.Fatal(err)
	}
	if err := o.SendEmail(ctx, message(2, notify.ChannelEmail)); err != nil {
		t.Fatal(err)
	}

	var ids []string
	for _, m := range o.Messages() {
		ids = append(ids, m.ID)
	}
	if want := []string{message(2, notify.ChannelEmail).ID, message(1, notify.ChannelSMS).ID}; !slices.Equal(ids, want) {
		t.Errorf("got %v, want the last two, newest first: %v", ids, want)
	}
	if n := strings.Count(logs.String(), "\n"); n != 3 {
		t.Errorf("got %d log lines, want one per message:\n%s", n, logs.String())
	}
	if strings.Contains(logs.String(), "ana@example.com") || strings.Contains(logs.String(), "received your request") {
		t.Errorf("got a recipient or a text in the log, want neither:\n%s", logs.String())
	}

	t.Run("GET", func(t *testing.T) {
		rec := httptest.NewRecorder()
		o.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, outbox.Path, nil))
		var body struct{ Messages []notify.Message }
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || len(body.Messages) != 2 ||
			body.Messages[0] != message(2, notify.ChannelEmail) {
			t.Fatalf("got %d %s %s, want 200 application/json with the two messages, newest first", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
		}
	})
	t.Run("POST", func(t *testing.T) {
		rec := httptest.NewRecorder()
		o.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, outbox.Path, nil))
		if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" || !strings.Contains(rec.Body.String(), "METHOD_NOT_ALLOWED") {
			t.Fatalf("got %d Allow %q %s, want 405 METHOD_NOT_ALLOWED with Allow: GET, HEAD", rec.Code, rec.Header().Get("Allow"), rec.Body)
		}
	})
}

// TestLocalWiring is the local server's notifications as its report
// proposes to wire them: the bookings over notify.Notifying(store), the outbox
// as both senders, the ledger in the same embedded table. Sending a request
// and accepting it fill the outbox with exactly what the stream would send.
func TestLocalWiring(t *testing.T) {
	ctx := context.Background()
	const table, siteURL = "doorstep", "http://127.0.0.1:8080"
	client, err := embedded.NewTable(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	store := dynamo.New(client, table)
	dynamotest.PutBusinesses(t, store, "../../infra/local/businesses.json", nil)

	log := slog.New(slog.DiscardHandler)
	box := outbox.New(100, log)
	notifier := &notify.Notifier{
		Composer:   notify.Composer{SiteURL: siteURL, PreviewInbox: "preview@doorstep.localhost"},
		Businesses: store, Email: box, SMS: box, Ledger: dynamo.NewLedger(client, table), Log: log, Now: time.Now,
	}
	watched := notify.Notifying(store, notifier, log)
	bookings := bookingtest.New(t, booking.Config{Store: watched, SiteURL: siteURL, Now: time.Now})

	const slug = "desert-cool-hvac"
	b, err := bookings.Business(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	a, err := bookings.ArrivalWindows(ctx, b, booking.WindowQuery{Days: 14})
	if err != nil || len(a.Windows) == 0 {
		t.Fatalf("got %v, %v, want open windows", a, err)
	}
	lang := "es"
	created, _, err := bookings.CreateRequest(ctx, b, booking.CreateInput{
		WindowStart: a.Windows[0].Start,
		Address:     booking.Address{Street: "1820 N 7th St", ZIP: "85006"},
		Contact:     booking.Contact{Name: "Jordan Lee", Phone: "(602) 555-0147", Email: "jordan@example.com", SMSConsent: true},
		Language:    &lang,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bookingtest.Inbox(t, bookings, b.Slug).Move(ctx, created.Code, booking.ActionAccept, time.Time{}); err != nil {
		t.Fatal(err)
	}

	var got []string
	for _, m := range box.Messages() {
		got = append(got, fmt.Sprintf("%s -> %s (%s)", m.ID, m.To, m.Language))
	}
	c := created.Code
	want := []string{
		c + "#1/confirmed/person/sms -> +16025550147 (es)",
		c + "#1/confirmed/person/email -> jordan@example.com (es)",
		c + "#0/new_request/business/email -> inbox@desert-cool-hvac.example.com (en)",
		c + "#0/received/person/sms -> +16025550147 (es)",
		c + "#0/received/person/email -> jordan@example.com (es)",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if m := box.Messages()[0]; !strings.Contains(m.Body, siteURL+"/r/"+c) || !strings.HasSuffix(m.Body, "Responda STOP para no recibir más") {
		t.Errorf("got text %q, want the status_url and the opt-out hint", m.Body)
	}

	// The same change again (a stream retry) sends nothing more.
	r, err := store.Request(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	before := *r
	before.History = before.History[:1]
	before.Status = booking.StatusNew
	if err := notifier.Notify(ctx, &before, *r); err != nil {
		t.Fatal(err)
	}
	if n := len(box.Messages()); n != len(want) {
		t.Errorf("got %d messages after the same change again, want still %d", n, len(want))
	}
}
