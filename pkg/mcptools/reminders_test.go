package mcptools_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/mcptools"
)

// TestStatusRemindersOfAnOffer: get_request_status tells the assistant
// what an offer of another window means (issue 20): a new request the
// business moved is accepted at the new window, and the person may cancel;
// one stored new after a move is still not confirmed.
func TestStatusRemindersOfAnOffer(t *testing.T) {
	ctx := context.Background()
	store, bookings, text := statusSession(t)

	b, err := bookings.Business(ctx, "split-day-plumbing")
	if err != nil {
		t.Fatal(err)
	}
	a, err := bookings.ArrivalWindows(ctx, b, booking.WindowQuery{From: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), Days: 1})
	if err != nil || len(a.Windows) < 2 {
		t.Fatalf("windows: %v, %v", a, err)
	}
	created := text("request_service", with(requestArgs(a.Windows[0].Start.Format(time.RFC3339), "3235550142"), "business", "split-day-plumbing"))
	code := regexp.MustCompile(`[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}`).FindString(created)
	if code == "" {
		t.Fatalf("request_service: no code in %q", created)
	}
	if got := text("get_request_status", map[string]any{"code": code}); !strings.Contains(got, "Not confirmed yet") || strings.Contains(got, "another arrival window") {
		t.Errorf("new: got %q, want only that it is not confirmed", got)
	}
	if _, err := bookingtest.Inbox(t, bookings, b.Slug).Move(ctx, code, booking.ActionMove, a.Windows[1].Start); err != nil {
		t.Fatal(err)
	}
	got := text("get_request_status", map[string]any{"code": code})
	for _, want := range []string{`"status":"accepted"`, `"changed_by_business":true`,
		"Confirmed at another arrival window than the one asked for", "they may cancel", "business_moves_the_window"} {
		if !strings.Contains(got, want) {
			t.Errorf("after the offer: got %q, want %q in it", got, want)
		}
	}
	if strings.Contains(got, "Not confirmed yet") {
		t.Errorf("after the offer: got %q, want no 'Not confirmed yet'", got)
	}

	// A request stored new after a move, before offers accepted it (such
	// records stay new): not confirmed, at the window the business set.
	legacy := booking.Request{
		Code: booking.NewCode(), BusinessSlug: b.Slug, Status: booking.StatusNew, ChangedByBusiness: true,
		ServiceID: b.Services[0].ID, ServiceName: b.Services[0].Name, Window: a.Windows[0],
		Address: booking.Address{Street: "1 Sample St", ZIP: b.ServiceArea.ZIPCodes[0]},
		Contact: booking.Contact{Name: "Sample Person", Phone: "3235550143"},
		Urgency: "soon", Language: "en", Created: toolsStart,
	}
	if err := store.CreateRequest(ctx, legacy, nil, bookingtest.Unlimited, toolsStart); err != nil {
		t.Fatal(err)
	}
	got = text("get_request_status", map[string]any{"code": legacy.Code})
	for _, want := range []string{`"status":"new"`, "Not confirmed yet", "moved the arrival window before confirming"} {
		if !strings.Contains(got, want) {
			t.Errorf("stored new after a move: got %q, want %q in it", got, want)
		}
	}
}

// statusSession serves the tool server over minidyn with the test
// businesses at toolsStart, connects the SDK's client to it, and returns
// its store, the service and a call that returns a tool's text (failing the
// test on an error or an isError result).
func statusSession(t *testing.T) (*dynamo.Store, *booking.Bookings, func(name string, args map[string]any) string) {
	t.Helper()
	ctx := context.Background()
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	dynamotest.PutBusinesses(t, store, "../booking/testdata/businesses.json", nil)
	bookings := bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://book.example.com", Now: func() time.Time { return toolsStart }})
	srv := httptest.NewServer(mcptools.New(bookings, slog.New(slog.NewTextHandler(io.Discard, nil))))
	t.Cleanup(srv.Close)
	session, err := mcp.NewClient(&mcp.Implementation{Name: "doorstep-test", Version: "1.0.0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return store, bookings, func(name string, args map[string]any) string {
		t.Helper()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", name, err, res)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
}
