package edge_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in       string
		want     string
		wantCode booking.Code
	}{
		{"", "", booking.InvalidDate},
		{"2026-12-01", "2026-12-01", ""},
		{"2026-2-01", "", booking.InvalidDate},
		{"2026-02-30", "", booking.InvalidDate},
		{"2026-11-23T00:00:00Z", "", booking.InvalidDate},
		{"tomorrow", "", booking.InvalidDate},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := edge.ParseDate("from", tt.in)
			if tt.wantCode != "" {
				if code := booking.ErrorCode(err); code != tt.wantCode {
					t.Fatalf("got %v, want %s", err, tt.wantCode)
				}
				return
			}
			if err != nil || got.Format(time.DateOnly) != tt.want {
				t.Fatalf("got %s, %v, want %s", got.Format(time.DateOnly), err, tt.want)
			}
		})
	}
}

func TestParseDays(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"", 7, true}, {"1", 1, true}, {"14", 14, true},
		{"0", 0, false}, {"15", 0, false}, {"-1", 0, false}, {"7.5", 0, false}, {"seven", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := edge.ParseDays(tt.in)
			if (err == nil) != tt.ok || got != tt.want {
				t.Fatalf("got %d, %v, want %d (ok %v)", got, err, tt.want, tt.ok)
			}
			if err != nil && booking.ErrorCode(err) != booking.InvalidRequest {
				t.Fatalf("got code %s, want %s", booking.ErrorCode(err), booking.InvalidRequest)
			}
		})
	}
}

func TestParseInboxQuery(t *testing.T) {
	day := func(s string) time.Time {
		return time.Date(2026, 11, 0, 0, 0, 0, 0, time.UTC).AddDate(0, 0, int(s[0]-'0'))
	}
	tests := []struct {
		name                            string
		status, from, to, limit, cursor string
		want                            booking.InboxQuery
		wantCode                        booking.Code
		wantMessage                     string
	}{
		{name: "nothing", want: booking.InboxQuery{Limit: booking.DefaultPageSize}},
		{name: "everything", status: "new, accepted", from: "2026-11-01", to: "2026-11-03", limit: "10", cursor: "abc",
			want: booking.InboxQuery{Statuses: []booking.Status{booking.StatusNew, booking.StatusAccepted}, From: day("1"), To: day("3"), Limit: 10, Cursor: "abc"}},
		{name: "a state no business sees", status: "new,pending_payment", wantCode: booking.InvalidRequest,
			wantMessage: `status "pending_payment": want one or more of new, `},
		{name: "status before from", status: "bogus", from: "x", wantCode: booking.InvalidRequest},
		{name: "from before to", from: "x", to: "y", wantCode: booking.InvalidDate, wantMessage: `from must be a date as YYYY-MM-DD, got "x"`},
		{name: "to", to: "2026-11-31", wantCode: booking.InvalidDate, wantMessage: `to must be a date as YYYY-MM-DD, got "2026-11-31"`},
		{name: "to before limit", to: "y", limit: "0", wantCode: booking.InvalidDate},
		{name: "limit too large", limit: "101", wantCode: booking.InvalidRequest, wantMessage: "limit must be a whole number from 1 to 100"},
		{name: "limit not a number", limit: "ten", wantCode: booking.InvalidRequest, wantMessage: "limit must be a whole number from 1 to 100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := edge.ParseInboxQuery(tt.status, tt.from, tt.to, tt.limit, tt.cursor)
			if code := booking.ErrorCode(err); err != nil && code != tt.wantCode || err == nil && tt.wantCode != "" {
				t.Fatalf("got %v, want %s", err, tt.wantCode)
			}
			if err != nil {
				if msg := booking.ErrorMessage(err); !strings.Contains(msg, tt.wantMessage) {
					t.Fatalf("got message %q, want it to hold %q", msg, tt.wantMessage)
				}
				return
			}
			if !equalQueries(got, tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func equalQueries(a, b booking.InboxQuery) bool {
	return slices.Equal(a.Statuses, b.Statuses) && a.From.Equal(b.From) && a.To.Equal(b.To) && a.Limit == b.Limit && a.Cursor == b.Cursor
}

// A 10 KB bad value gets a message that repeats at most an excerpt of it
// (booking.Excerpt: 40 characters).
func TestParseErrorsRepeatAnExcerpt(t *testing.T) {
	long := func(prefix string) string { return prefix + strings.Repeat("9", 10<<10) }
	tests := []struct {
		name string
		call func() error
		want booking.Code
	}{
		{"date", func() error { _, err := edge.ParseDate("from", long("")); return err }, booking.InvalidDate},
		{"days", func() error { _, err := edge.ParseDays(long("")); return err }, booking.InvalidRequest},
		{"status", func() error { _, err := edge.ParseInboxQuery(long(""), "", "", "", ""); return err }, booking.InvalidRequest},
		{"window_start", func() error { _, err := edge.WindowStart(long("2026-")); return err }, booking.InvalidWindow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if got := booking.ErrorCode(err); err == nil || got != tt.want {
				t.Fatalf("got %s (%v), want %s", got, err, tt.want)
			}
			msg := booking.ErrorMessage(err)
			if strings.Contains(msg, strings.Repeat("9", 41)) {
				t.Errorf("got message %q, want at most 40 characters of the input", msg)
			}
			if len(msg) > 200 {
				t.Errorf("got a message of %d bytes, want at most 200: %q", len(msg), msg)
			}
		})
	}
}
