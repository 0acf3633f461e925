package mcptools_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// The hints each tool publishes match what calling it does: a tool that
// says readOnlyHint true writes nothing, and the one that writes says it is
// neither read-only nor closed-world, and is destructive.
func TestAnnotationsMatchBehaviour(t *testing.T) {
	env := lambdatest.NewEnv(t)
	store := &countingStore{Store: env.Store}
	bookings := bookingtest.New(t, booking.Config{Store: store, SiteURL: lambdatest.SiteURL, Now: time.Now})
	tr := protoTransportsOver(t, bookings)[0]

	const slug = "desert-cool-hvac"
	b, err := env.Bookings.Business(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	a, err := env.Bookings.ArrivalWindows(context.Background(), b, booking.WindowQuery{Days: 2})
	if err != nil || len(a.Windows) == 0 {
		t.Fatalf("got %d windows, %v; want an open window at %s", len(a.Windows), err, slug)
	}
	arguments := map[string]string{
		"get_business":         `{"business":"` + slug + `"}`,
		"list_arrival_windows": `{"business":"` + slug + `","days":2}`,
		"get_request_status":   `{"code":"` + lambdatest.SampleRequestCode + `"}`,
		"request_service": `{"business":"` + slug + `","window_start":"` + a.Windows[0].Start.Format(time.RFC3339) +
			`","address":{"street":"1 Hint St","zip":"85004"},"contact":{"name":"Al","phone":"6025550111"}}`,
	}

	var list struct{ Tools []protoTool }
	protoResult(t, tr.send(t, http.MethodPost, protoHeaders("2025-11-25", "tools/list", ""), protoBody("2025-11-25", "tools/list", "")), &list)
	for _, tool := range list.Tools {
		t.Run(tool.Name, func(t *testing.T) {
			args, ok := arguments[tool.Name]
			if !ok {
				t.Fatalf("no arguments for %s: add them", tool.Name)
			}
			before := store.writes.Load()
			var got struct{ IsError bool }
			body := protoBody("2025-11-25", "tools/call", `"name":"`+tool.Name+`","arguments":`+args)
			protoResult(t, tr.send(t, http.MethodPost, protoHeaders("2025-11-25", "tools/call", tool.Name), body), &got)
			if got.IsError {
				t.Fatalf("got an error result, want the tool to work")
			}
			wrote := store.writes.Load() > before
			h := tool.Annotations
			if readOnly := h["readOnlyHint"] == true; readOnly == wrote {
				t.Errorf("got readOnlyHint %v, and the call wrote: %t", h["readOnlyHint"], wrote)
			}
			if wrote && (h["destructiveHint"] != true || h["openWorldHint"] != true || h["idempotentHint"] != false) {
				t.Errorf("got destructiveHint %v openWorldHint %v idempotentHint %v for a tool that sends a request to a business, want true, true, false",
					h["destructiveHint"], h["openWorldHint"], h["idempotentHint"])
			}
			if !wrote && (h["destructiveHint"] != false || h["openWorldHint"] != false) {
				t.Errorf("got destructiveHint %v openWorldHint %v for a tool that only reads Doorstep's records, want false, false",
					h["destructiveHint"], h["openWorldHint"])
			}
		})
	}
}
