package mcptools

import (
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/doorstep/doorstep/pkg/booking"
)

// A refused call is a normal result with isError true and no
// structuredContent: a tool's structuredContent must match its
// outputSchema, and the official clients (TypeScript SDK v1, the MCP
// Inspector) throw on a result that does not, so the assistant would never
// see WINDOW_TAKEN at the very moment it should offer another window. The
// text starts with the JSON API's code, then its message, then what the
// assistant should do next.
func refusal(code booking.Code, message string, retryAfter time.Duration) *mcp.CallToolResult {
	text := string(code) + ": " + message
	if !strings.HasSuffix(text, ".") {
		text += "."
	}
	if next := nextSteps[code]; next != "" {
		text += " " + next
	}
	if retryAfter > 0 && retryAfter < time.Minute {
		text += fmt.Sprintf(" Try again in %d seconds at the earliest.", int((retryAfter+time.Second-1)/time.Second))
	} else if retryAfter > 0 {
		text += fmt.Sprintf(" Try again in %d minutes at the earliest.", int((retryAfter+time.Minute-1)/time.Minute))
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// nextSteps says, for each code a tool can give, what the assistant should
// do next.
var nextSteps = map[booking.Code]string{
	booking.NotFound:             "Check the business's slug or link (get_business takes the slug or any link to its site), or the request code, with the person.",
	booking.InvalidRequest:       "Correct the arguments as the message says and call the tool again.",
	booking.InvalidWindow:        "Call list_arrival_windows and send one window's start unchanged as window_start.",
	booking.InvalidDate:          "Send from as YYYY-MM-DD in the business's time zone, or leave it out for today.",
	booking.InvalidName:          "Ask the person for their name.",
	booking.InvalidPhone:         "Ask the person for their 10-digit US phone number.",
	booking.InvalidEmail:         "Ask the person to spell their e-mail address again, or leave it out.",
	booking.InvalidAddress:       "Ask the person for the street address where the work is.",
	booking.InvalidZIP:           "Ask the person for the 5-digit ZIP code where the work is.",
	booking.OutOfArea:            "Tell the person the business does not serve that ZIP code (service_area in get_business); they may call the business to ask.",
	booking.ServiceUnavailable:   "Use a service id from get_business, or leave service_id out and describe the need in description.",
	booking.DepositTerms:         "Tell the person the deposit's amount and rules (booking_deposit in get_business) and ask whether they agree; send deposit_accepted: true only if they do.",
	booking.TooLate:              "That window can no longer be requested: call list_arrival_windows and offer the person a later window.",
	booking.WindowTaken:          "Someone else just took that window: call list_arrival_windows and offer the person another window.",
	booking.TooManyOpen:          "Tell the person they already have requests waiting for the business's answer: wait for it, or call the business (phone in get_business).",
	booking.BookingPaused:        "Tell the person to call the business instead (phone in get_business).",
	booking.IdempotencyKeyReused: "Reuse an idempotency_key only to retry the same request; send a new key for a different one.",
	booking.RateLimited:          "The business is taking no more online requests for now: tell the person to call it (phone in get_business) or try later.",
	booking.RequestRefused:       "Tell the person to call the business (phone in get_business).",
	booking.ServerError:          "Retry the same call once; for request_service, with the same idempotency_key.",
	booking.ServerBusy:           "The service is busy: retry the same call in a few seconds; for request_service, with the same idempotency_key (a retry never sends the request twice).",
}
