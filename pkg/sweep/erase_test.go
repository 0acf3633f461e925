package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

// TestSweepErases runs the sweep at fixed times over two requests
// cancelled at T, with personal details kept 30 days: a second before
// T+30d nothing is erased; at T+30d both are, and the log line says so;
// the sweep after erases nothing.
func TestSweepErases(t *testing.T) {
	ended := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) {
			ctx := context.Background()
			client, table := eng.Open(t)
			store := dynamo.New(client, table)
			clock := ended
			bookings := bookingtest.New(t, booking.Config{Store: store, SiteURL: booking.NoSiteURL,
				Now: func() time.Time { return clock }, PersonalDataDays: 30})
			var codes []string
			for i := range 2 {
				code := pendingRequest(t, store, ended.Add(-time.Duration(i+1)*time.Minute))
				if _, err := bookings.CustomerCancel(ctx, code); err != nil {
					t.Fatal(err)
				}
				codes = append(codes, code)
			}
			due := ended.AddDate(0, 0, 30)
			for _, step := range []struct {
				at         time.Time
				wantErased int
			}{{due.Add(-time.Second), 0}, {due, 2}, {due.Add(time.Minute), 0}} {
				var logs bytes.Buffer
				report, err := Sweep(ctx, bookings, step.at, slog.New(slog.NewJSONHandler(&logs, nil)))
				if err != nil || report.Erased != step.wantErased {
					t.Fatalf("sweep at %s = %+v, %v; want %d erased", step.at, report, err, step.wantErased)
				}
				var line map[string]any
				if err := json.Unmarshal([]byte(strings.TrimSpace(logs.String())), &line); err != nil || line["erased"] != float64(step.wantErased) {
					t.Errorf("log %s, want erased %d", logs.String(), step.wantErased)
				}
			}
			for _, code := range codes {
				r, err := store.Request(ctx, code)
				if err != nil || r.Erased.IsZero() || r.Contact.Name != "" || r.Address.Street != "" || r.Address.ZIP != "78701" {
					t.Errorf("%s after the sweeps: %+v, %v; want erased, ZIP kept", code, r, err)
				}
			}
		})
	}
}

// TestSweepErasesUndeliverable: an address recorded undeliverable (SES
// reported mail about two requests to it) keeps its record while one of
// them is not erased, and loses it with the last one's erasure.
func TestSweepErasesUndeliverable(t *testing.T) {
	ended := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	const email = "Gone@Example.com"
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) {
			ctx := context.Background()
			client, table := eng.Open(t)
			store := dynamo.New(client, table)
			clock := ended
			bookings := bookingtest.New(t, booking.Config{Store: store, SiteURL: booking.NoSiteURL,
				Now: func() time.Time { return clock }, PersonalDataDays: 30})
			var codes []string
			for i := range 2 {
				clock = ended.AddDate(0, 0, i) // the second ends a day later
				code := pendingRequestTo(t, store, clock.Add(-time.Minute), email)
				if _, err := bookings.CustomerCancel(ctx, code); err != nil {
					t.Fatal(err)
				}
				codes = append(codes, code)
			}
			// The first request's confirmation bounced; the second's was
			// not sent, the address being suppressed by then.
			for i, kind := range []booking.MailEventKind{booking.MailBounced, booking.MailSuppressed} {
				ev := booking.MailEvent{Kind: kind, Email: email, At: ended.Add(-time.Hour), RequestCode: codes[i]}
				if _, err := bookings.RecordMailEvent(ctx, ev); err != nil {
					t.Fatal(err)
				}
			}
			due := ended.AddDate(0, 0, 30)
			for _, step := range []struct {
				at         time.Time
				wantErased int
				wantRecord bool
			}{{due, 1, true}, {due.AddDate(0, 0, 1), 1, false}} {
				report, err := Sweep(ctx, bookings, step.at, slog.New(slog.NewJSONHandler(&bytes.Buffer{}, nil)))
				if err != nil || report.Erased != step.wantErased {
					t.Fatalf("sweep at %s = %+v, %v; want %d erased", step.at, report, err, step.wantErased)
				}
				u, err := store.UndeliverableEmail(ctx, email)
				if err != nil || (u != nil) != step.wantRecord {
					t.Errorf("after the sweep at %s: record %+v, %v; want one: %v", step.at, u, err, step.wantRecord)
				}
			}
		})
	}
}

// pendingRequestTo is pendingRequest with an e-mail address.
func pendingRequestTo(t *testing.T, store *dynamo.Store, created time.Time, email string) string {
	t.Helper()
	start := created.Add(48 * time.Hour).Truncate(time.Hour)
	r := booking.Request{
		Code: booking.NewCode(), BusinessSlug: "austin-rapid-plumbing", Status: booking.StatusPendingPayment,
		ServiceName: booking.LocalText{EN: "Other service"},
		Window:      booking.Window{Date: start.Format("2006-01-02"), Start: start, End: start.Add(2 * time.Hour)},
		Address:     booking.Address{Street: "1 Sample St", ZIP: "78701"},
		Contact:     booking.Contact{Name: "Sample Person", Phone: "5125550101", Email: email},
		Urgency:     "soon", Language: "en",
		Deposit:     &booking.DepositRecord{AmountCents: 4900, Currency: "usd", State: booking.DepositDue},
		HoldExpires: created.Add(30 * time.Minute), Created: created,
	}
	if err := store.CreateRequest(context.Background(), r, nil, bookingtest.Unlimited, created); err != nil {
		t.Fatal(err)
	}
	return r.Code
}
