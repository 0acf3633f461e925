package booking

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestOwnerSettingsLoad: owner_phone, text_me and the nudge delays are
// checked at load (texts need a confirmed number), private (never in
// getBusiness's answer) and kept in the stored record.
func TestOwnerSettingsLoad(t *testing.T) {
	tests := []struct {
		name    string
		set     map[string]any
		wantErr string
	}{
		{"none", nil, ""},
		{"texts of every request", map[string]any{"owner_phone": "5125550142", "text_me": "all"}, ""},
		{"urgent ones, and delays", map[string]any{"owner_phone": "5125550142", "text_me": "urgent", "nudge_minutes": 60, "nudge_urgent_minutes": 5}, ""},
		{"a number, no texts", map[string]any{"owner_phone": "5125550142"}, ""},
		{"texts without a number", map[string]any{"text_me": "all"}, "text_me"},
		{"not a choice", map[string]any{"owner_phone": "5125550142", "text_me": "sometimes"}, "text_me"},
		{"a number as typed", map[string]any{"owner_phone": "(512) 555-0142"}, "owner_phone"},
		{"a negative delay", map[string]any{"nudge_minutes": -1}, "nudge_minutes"},
		{"a delay past a week", map[string]any{"nudge_urgent_minutes": 7*24*60 + 1}, "nudge_urgent_minutes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := testRecords(t)[0]
			for k, v := range tt.set {
				m[k] = v
			}
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			b, err := DecodeBusiness(data)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			public, _ := json.Marshal(b)
			stored, err := EncodeBusinessRecord(b)
			if err != nil {
				t.Fatal(err)
			}
			for k := range tt.set {
				if strings.Contains(string(public), k) {
					t.Errorf("getBusiness's answer has %s: %s", k, public)
				}
				if !strings.Contains(string(stored), `"`+k+`"`) {
					t.Errorf("the stored record lacks %s: %s", k, stored)
				}
			}
		})
	}
}
