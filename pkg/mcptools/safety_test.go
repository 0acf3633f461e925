package mcptools_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestEveryAnswerNosniff: every answer of the tool server, whoever wrote
// it (the transport, the SDK, a tool), carries X-Content-Type-Options:
// nosniff.
func TestEveryAnswerNosniff(t *testing.T) {
	const v = "2025-06-18"
	tests := []struct {
		name, method, body string
	}{
		{"initialize", http.MethodPost, protoBody(v, "initialize", `"protocolVersion":"`+v+`","capabilities":{},"clientInfo":{"name":"t","version":"1"}`)},
		{"tools/list", http.MethodPost, protoBody(v, "tools/list", `"cursor":null`)},
		{"a tool result", http.MethodPost, protoBody(v, "tools/call", `"name":"get_business","arguments":{"business":"desert-cool-hvac"}`)},
		{"a refused tool call", http.MethodPost, protoBody(v, "tools/call", `"name":"get_business","arguments":{"business":"no-such-business"}`)},
		{"unknown tool", http.MethodPost, protoBody(v, "tools/call", `"name":"nope","arguments":{}`)},
		{"unknown method", http.MethodPost, protoBody(v, "no/such", `"x":1`)},
		{"not JSON", http.MethodPost, `{`},
		{"a batch", http.MethodPost, `[]`},
		{"GET", http.MethodGet, ""},
		{"preflight", http.MethodOptions, ""},
	}
	for _, tr := range protoTransports(t) {
		for _, tt := range tests {
			t.Run(tr.name+"/"+tt.name, func(t *testing.T) {
				res := tr.send(t, tt.method, protoHeaders(v, "tools/call", "get_business"), tt.body)
				if got := res.header.Get("X-Content-Type-Options"); got != "nosniff" {
					t.Fatalf("got X-Content-Type-Options %q (status %d), want nosniff", got, res.status)
				}
			})
		}
	}
}

// TestErrorMessagesCut: a JSON-RPC error never repeats more than a short
// part of what was sent, even where the SDK writes the message.
func TestErrorMessagesCut(t *testing.T) {
	const v = "2025-06-18"
	long := strings.Repeat("9", 10<<10)
	tests := []struct {
		name, params string
	}{
		{"unknown tool", `"name":"` + long + `","arguments":{}`},
		{"an argument of the wrong type", `"name":"get_business","arguments":{"business":` + long + `}`},
		{"an argument out of its schema", `"name":"list_arrival_windows","arguments":{"business":"desert-cool-hvac","days":"` + long + `"}`},
		{"a tool's refusal", `"name":"get_request_status","arguments":{"code":"` + long + `"}`},
	}
	for _, tr := range protoTransports(t) {
		for _, tt := range tests {
			t.Run(tr.name+"/"+tt.name, func(t *testing.T) {
				res := tr.send(t, http.MethodPost, protoHeaders(v, "tools/call", "get_business"), protoBody(v, "tools/call", tt.params))
				if strings.Contains(res.body, strings.Repeat("9", 121)) {
					t.Fatalf("got an answer of %d bytes repeating more than 120 characters of the input: %.300s", len(res.body), res.body)
				}
				if len(res.body) > 2000 {
					t.Fatalf("got an answer of %d bytes, want a short one: %.300s", len(res.body), res.body)
				}
			})
		}
	}
}
