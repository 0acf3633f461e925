package mcptools_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestNobodyWillWrite: request_service for a person who gave no e-mail and
// allowed no texts says so, and tells the assistant to give them
// status_url to keep; with either way it says nothing of it. The response's
// fields are the same in every case.
func TestNobodyWillWrite(t *testing.T) {
	f := newToolsFixture(t)
	listed, _, isErr := f.call(t, "list_arrival_windows", map[string]any{"business": "split-day-plumbing", "days": 7})
	if isErr {
		t.Fatalf("list_arrival_windows: %v", listed)
	}
	windows, _ := listed["windows"].([]any)
	if len(windows) < 4 {
		t.Fatalf("%d windows, want 4", len(windows))
	}
	const silent = "nobody will write to them"
	tests := []struct {
		name    string
		contact map[string]any
		want    bool
	}{
		{"no e-mail, no texts", map[string]any{"name": "Ana Ruiz", "phone": "3235550161"}, true},
		{"texts declined, e-mail blank", map[string]any{"name": "Ana Ruiz", "phone": "3235550162", "email": " ", "sms_consent": false}, true},
		{"an e-mail", map[string]any{"name": "Ana Ruiz", "phone": "3235550163", "email": "ana@example.com"}, false},
		{"texts", map[string]any{"name": "Ana Ruiz", "phone": "3235550164", "sms_consent": true}, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := windows[i].(map[string]any)["start"].(string)
			args := with(with(requestArgs(start, ""), "contact", tt.contact), "business", "split-day-plumbing")
			structured, text, isErr := f.call(t, "request_service", args)
			if isErr {
				t.Fatalf("got an error result %v: %s", structured, text)
			}
			statusURL, _ := structured["status_url"].(string)
			said := strings.Contains(text, silent) && strings.Contains(text, "Give them status_url ("+statusURL+") to keep")
			if said != tt.want {
				t.Errorf("says nobody will write and to keep %s: %v, want %v\n%s", statusURL, said, tt.want, text)
			}
			if !tt.want && strings.Contains(text, silent) {
				t.Errorf("got %q, want nothing about nobody writing", text)
			}
			var keys []string
			for k := range structured {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if got, want := fmt.Sprint(keys), "[api_url code payment_url status status_url]"; got != want {
				t.Errorf("structuredContent keys %s, want %s", got, want)
			}
		})
	}
}
