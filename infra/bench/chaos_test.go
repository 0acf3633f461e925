package main

import "testing"

func TestParseChaos(t *testing.T) {
	tail := "Operations run: 20000\n  create  7000\nDynamoDB calls: 70000; faults injected: 7100 (10.1%)\n  ThrottlingException (400)  1200\nViolations by invariant:\n  nothing is stored on a refusal  %d\n"
	tests := []struct {
		name        string
		out         string
		wantVerdict string
		wantErr     bool
	}{
		{"none", tail + "0 violations\n", "met", false},
		{"some", tail + "3 violations\n", "missed", false},
		{"cut short", "Operations run: 20000\n", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := parseChaos(tt.out)
			if (err != nil) != tt.wantErr {
				t.Fatalf("got error %v, want one: %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if got := rows[0].result; got != "20,000" {
				t.Errorf("operations: got %q, want 20,000", got)
			}
			if got := rows[1].result; got != "7100 of 70000 (10.1%)" {
				t.Errorf("faults: got %q", got)
			}
			if got := rows[2].verdict; got != tt.wantVerdict {
				t.Errorf("violations verdict: got %q, want %q", got, tt.wantVerdict)
			}
		})
	}
}
