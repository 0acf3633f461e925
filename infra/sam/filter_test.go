package sam

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNotifyStreamFilter checks that NotifyFunction's stream filter passes
// exactly the records its handler acts on (streams.Notify): puts of request
// items, the insert of a limit hit's record, which tells the business
// once an hour that its limits refused requests, and the insert of an
// outgoing message (dynamo.Outgoing); and nothing else of the
// table (holds, counters, keys, the ledger, a limit hit's removal by TTL).
func TestNotifyStreamFilter(t *testing.T) {
	tp := loadTemplate(t)
	patterns := streamPatterns(t, tp, "NotifyFunctionStream")
	// Lambda takes at most 5 filters for a DynamoDB stream.
	if len(patterns) == 0 || len(patterns) > 5 {
		t.Fatalf("got %d filters, want 1 to 5", len(patterns))
	}
	tests := []struct {
		event, pk, sk string
		want          bool
	}{
		{"INSERT", "REQUEST#7K3M-Q9TD-2HXA", "REQUEST", true},
		{"MODIFY", "REQUEST#7K3M-Q9TD-2HXA", "REQUEST", true},
		{"REMOVE", "REQUEST#7K3M-Q9TD-2HXA", "REQUEST", false},
		{"INSERT", "BUSINESS#desert-cool-hvac", "LIMITHIT#2026-11-23T16:00:00Z", true},
		{"MODIFY", "BUSINESS#desert-cool-hvac", "LIMITHIT#2026-11-23T16:00:00Z", false},
		{"REMOVE", "BUSINESS#desert-cool-hvac", "LIMITHIT#2026-11-23T16:00:00Z", false},
		{"INSERT", "REQUEST#7K3M-Q9TD-2HXA", "LIMITHIT#2026-11-23T16:00:00Z", false},
		{"INSERT", "BUSINESS#desert-cool-hvac", "PROFILE", false},
		{"INSERT", "BUSINESS#desert-cool-hvac", "HOLD#2026-11-24T15:00:00Z", false},
		{"INSERT", "BUSINESS#desert-cool-hvac", "RATE#3", false},
		{"MODIFY", "BUSINESS#desert-cool-hvac", "OPEN", false},
		{"INSERT", "BUSINESS#desert-cool-hvac", "IDEMPOTENCY#3f9c1e2a-first-try", false},
		{"INSERT", "NOTIFY#limit#desert-cool-hvac#2026-11-23T16:00:00Z/limit_reached/business/email", "NOTIFY", false},
		{"INSERT", "NOTIFY#7K3M-Q9TD-2HXA#0/received/person/email", "NOTIFY", false},
		{"INSERT", "OUTGOING#sign-in/desert-cool-hvac/1795452067000/business/email", "MESSAGE", true},
		{"MODIFY", "OUTGOING#sign-in/desert-cool-hvac/1795452067000/business/email", "MESSAGE", false},
		{"REMOVE", "OUTGOING#sign-in/desert-cool-hvac/1795452067000/business/email", "MESSAGE", false},
		{"INSERT", "OUTGOING#sign-in/desert-cool-hvac/1795452067000/business/email", "OTHER", false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %s %s", tt.event, tt.pk, tt.sk), func(t *testing.T) {
			rec := map[string]any{"eventName": tt.event, "dynamodb": map[string]any{"Keys": map[string]any{
				"pk": map[string]any{"S": tt.pk}, "sk": map[string]any{"S": tt.sk},
			}}}
			if got := passes(patterns, rec); got != tt.want {
				t.Errorf("got passed %v, want %v", got, tt.want)
			}
		})
	}
	// The sample events of the notify function: what its tests feed the
	// handler is what the filter lets through, and no more.
	for file, want := range map[string][]string{
		"notify-dynamodb-stream.json": {
			"4421584500000000017450439092", "4421584500000000017450439127", "4421584500000000017450439163", "4421584500000000017450439188",
		},
		"notify-limit-hit-stream.json": {
			"4421584500000000017450440011", "4421584500000000017450440023", "4421584500000000017450440037", "4421584500000000017450440049",
		},
		"notify-outgoing-stream.json": {"4421584500000000017450441011", "4421584500000000017450441023"},
	} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(root, "events", file))
			if err != nil {
				t.Fatal(err)
			}
			var e struct{ Records []map[string]any }
			if err := json.Unmarshal(data, &e); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, rec := range e.Records {
				if passes(patterns, rec) {
					got = append(got, rec["dynamodb"].(map[string]any)["SequenceNumber"].(string))
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("got passed %v, want %v", got, want)
			}
		})
	}
	// Refunds take no limit hit.
	hit := map[string]any{"eventName": "INSERT", "dynamodb": map[string]any{"Keys": map[string]any{
		"pk": map[string]any{"S": "BUSINESS#desert-cool-hvac"}, "sk": map[string]any{"S": "LIMITHIT#2026-11-23T16:00:00Z"},
	}}}
	if passes(streamPatterns(t, tp, "RefundDepositsFunctionStream"), hit) {
		t.Error("RefundDepositsFunctionStream passes a limit hit's insert, want only refunds")
	}
}

// streamPatterns returns the filter patterns of a stream mapping, decoded.
func streamPatterns(t *testing.T, tp template, id string) []map[string]any {
	t.Helper()
	m := tp.resources[id]
	if m == nil {
		t.Fatalf("no resource %s", id)
	}
	var patterns []map[string]any
	for _, f := range items(field(m, "Properties", "FilterCriteria", "Filters")) {
		var p map[string]any
		if err := json.Unmarshal([]byte(plain(field(f, "Pattern"))), &p); err != nil {
			t.Fatalf("%s: pattern %q: %v", id, plain(field(f, "Pattern")), err)
		}
		patterns = append(patterns, p)
	}
	return patterns
}

// passes reports whether a record (the stream's JSON, as Lambda filters
// it) matches any of the patterns.
func passes(patterns []map[string]any, rec map[string]any) bool {
	return slices.ContainsFunc(patterns, func(p map[string]any) bool { return matches(p, rec) })
}

// matches evaluates the part of Lambda's event filtering syntax the
// template uses: nested objects, and at the leaves a list of values and
// {"prefix": ...}, one of which the record's value must match. Any other
// operator fails the test's premise, so it never matches.
func matches(pattern map[string]any, v any) bool {
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for key, want := range pattern {
		got, ok := obj[key]
		if !ok {
			return false
		}
		switch want := want.(type) {
		case map[string]any:
			if !matches(want, got) {
				return false
			}
		case []any:
			if !slices.ContainsFunc(want, func(w any) bool { return leafMatches(w, got) }) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func leafMatches(want, got any) bool {
	if op, ok := want.(map[string]any); ok {
		prefix, isPrefix := op["prefix"].(string)
		s, isString := got.(string)
		return len(op) == 1 && isPrefix && isString && strings.HasPrefix(s, prefix)
	}
	return want == got
}
