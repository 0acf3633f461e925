package mcptools_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/mcptools"
)

// TestDaysOffAndNotice: list_arrival_windows leaves out a business's day
// off and the windows within its notice, and request_service refuses them
// with the JSON API's codes; get_business shows neither.
func TestDaysOffAndNotice(t *testing.T) {
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	dynamotest.PutBusinesses(t, store, "../booking/testdata/businesses.json", func(b *booking.Business) {
		if b.Slug == "split-day-plumbing" {
			// toolsStart is Thursday 16:00 in Los Angeles: 20 hours'
			// notice reaches Friday 12:00; Monday is off.
			b.DaysOff = []booking.DayOff{{From: "2026-11-23", Note: "Private note"}}
			b.MinNoticeMinutes = 20 * 60
		}
	})
	bookings := bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://book.example.com", Now: func() time.Time { return toolsStart }})
	srv := httptest.NewServer(mcptools.New(bookings, slog.New(slog.NewTextHandler(io.Discard, nil))))
	t.Cleanup(srv.Close)
	session, err := mcp.NewClient(&mcp.Implementation{Name: "doorstep-test", Version: "1.0.0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	f := &toolsFixture{session: session}

	for _, tt := range []struct {
		from string
		want int
	}{{"2026-11-20", 2}, {"2026-11-23", 0}, {"2026-11-24", 4}} {
		out, text, isErr := f.call(t, "list_arrival_windows", map[string]any{"business": "split-day-plumbing", "from": tt.from, "days": 1})
		if isErr {
			t.Fatalf("list_arrival_windows %s: %s", tt.from, text)
		}
		if got := len(out["windows"].([]any)); got != tt.want {
			t.Errorf("list_arrival_windows %s: got %d windows, want %d: %v", tt.from, got, tt.want, out["windows"])
		}
	}
	for _, tt := range []struct{ window, want string }{
		{"2026-11-20T10:00:00-08:00", "TOO_LATE"},
		{"2026-11-23T08:00:00-08:00", "INVALID_WINDOW"},
	} {
		_, text, isErr := f.call(t, "request_service", with(requestArgs(tt.window, "3235550142"), "business", "split-day-plumbing"))
		if !isErr || refusedCode(text) != tt.want {
			t.Errorf("request_service %s: got %s, want %s", tt.window, text, tt.want)
		}
	}
	out, text, isErr := f.call(t, "get_business", map[string]any{"business": "split-day-plumbing"})
	if isErr || out["slug"] != "split-day-plumbing" {
		t.Fatalf("get_business: got %v %s", out, text)
	}
	for _, k := range []string{"days_off", "min_notice_minutes"} {
		if _, ok := out[k]; ok {
			t.Errorf("get_business shows %s", k)
		}
	}
}
