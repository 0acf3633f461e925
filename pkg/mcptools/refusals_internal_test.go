package mcptools

import (
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/doorstep/doorstep/pkg/booking"
)

// A busy store is a refusal with SERVER_BUSY, what to do next and when,
// in seconds: never a JSON-RPC error, never "SERVER_ERROR".
func TestRefusalServerBusy(t *testing.T) {
	tests := []struct {
		name     string
		code     booking.Code
		wait     string
		wantText []string
	}{
		{"busy", booking.ServerBusy, "1s", []string{"SERVER_BUSY: ", "same idempotency_key", "Try again in 1 seconds at the earliest."}},
		{"rate limited", booking.RateLimited, "90s", []string{"RATE_LIMITED: ", "Try again in 2 minutes at the earliest."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wait, _ := time.ParseDuration(tt.wait)
			res := refusal(tt.code, "message", wait)
			if !res.IsError || res.StructuredContent != nil || len(res.Content) != 1 {
				t.Fatalf("got %+v, want an isError result with one text and no structuredContent", res)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			for _, want := range tt.wantText {
				if !strings.Contains(text, want) {
					t.Errorf("got %q, want it to hold %q", text, want)
				}
			}
		})
	}
}
