package mcptools_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestStatusTellsOfAnUndeliverableAddress: once the person's address is
// recorded undeliverable, get_request_status says "Our e-mail to j…@…
// could not be delivered", whether anything still reaches the person
// (booking.PersonReach), and that status_url takes another address;
// before, it says nothing of it. The structured status is unchanged.
func TestStatusTellsOfAnUndeliverableAddress(t *testing.T) {
	ctx := context.Background()
	_, bookings, text := statusSession(t)
	b, err := bookings.Business(ctx, "split-day-plumbing")
	if err != nil {
		t.Fatal(err)
	}
	a, err := bookings.ArrivalWindows(ctx, b, booking.WindowQuery{From: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), Days: 1})
	if err != nil || len(a.Windows) < 2 {
		t.Fatalf("windows: %v, %v", a, err)
	}
	tests := []struct {
		name    string
		email   string
		sms     bool
		want    []string
		notWant []string
	}{
		{"e-mail only", "jo.typo@example.com", false,
			[]string{"Our e-mail to j…@… could not be delivered: nobody will write to the person about this request, and the business is told to call them.",
				"give them status_url (https://book.example.com/r/", "they can give another e-mail address, which replaces the one that failed."},
			[]string{"jo.typo", "still told by text"}},
		{"e-mail and texts", "jill.typo@example.com", true,
			[]string{"Our e-mail to j…@… could not be delivered: the person is still told by text.", "another e-mail address"},
			[]string{"jill.typo", "nobody will write"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := requestArgs(a.Windows[i].Start.Format(time.RFC3339), "323555014"+string(rune('2'+i)))
			args["contact"] = map[string]any{"name": "Ana Ruiz", "phone": "323555014" + string(rune('2'+i)), "email": tt.email, "sms_consent": tt.sms}
			created := text("request_service", with(args, "business", "split-day-plumbing"))
			code := regexp.MustCompile(`[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}`).FindString(created)
			if code == "" {
				t.Fatalf("request_service: no code in %q", created)
			}
			before := text("get_request_status", map[string]any{"code": code})
			if strings.Contains(before, "could not be delivered") {
				t.Fatalf("before the bounce: got %q", before)
			}
			if _, err := bookings.RecordMailEvent(ctx, booking.MailEvent{Kind: booking.MailBounced, Email: tt.email, At: toolsStart, RequestCode: code}); err != nil {
				t.Fatal(err)
			}
			got := text("get_request_status", map[string]any{"code": code})
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("got %q, want %q in it", got, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("got %q, want no %q in it", got, w)
				}
			}
		})
	}
}
