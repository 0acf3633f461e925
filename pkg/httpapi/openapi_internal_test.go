package httpapi

import (
	"strings"
	"testing"
)

func TestYAMLToJSON(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		want    string
		wantErr string // a piece of the error; "" for none
	}{
		{"keys keep their order", "b: 1\na: 2\nc: 3\n", `{"b":1,"a":2,"c":3}`, ""},
		{"scalars", "s: text\nq: '200'\ni: 8\nf: 1.5\nt: true\nn: null\ntilde: ~\n", `{"s":"text","q":"200","i":8,"f":1.5,"t":true,"n":null,"tilde":null}`, ""},
		{"numeric key is text", "200: ok\n", `{"200":"ok"}`, ""},
		{"sequences", "a: [1, x, [true]]\nb: []\nc: {}\n", `{"a":[1,"x",[true]],"b":[],"c":{}}`, ""},
		{"HTML and unicode as they are", "d: <b>a & b</b> — ñ\n", `{"d":"<b>a & b</b> — ñ"}`, ""},
		{"escapes", "d: \"tab\\tquote\\\"\\n\"\n", `{"d":"tab\tquote\"\n"}`, ""},
		{"block text", "d: |\n  one\n  two\n", `{"d":"one\ntwo\n"}`, ""},
		{"a date stays text", "d: 2026-11-23\n", `{"d":"2026-11-23"}`, ""},
		{"version stays text", "openapi: 3.1.0\n", `{"openapi":"3.1.0"}`, ""},
		{"anchors and aliases", "a: &x {k: v}\nb: *x\n", `{"a":{"k":"v"},"b":{"k":"v"}}`, ""},
		{"infinity", "f: .inf\n", "", "has no JSON form"},
		{"binary", "b: !!binary aGk=\n", "", "have no JSON form"},
		{"merge key", "a: &x {k: v}\nb:\n  <<: *x\n", "", "plain scalar"},
		{"mapping key", "? [a]\n: v\n", "", "plain scalar"},
		{"not YAML", "a: [\n", "", "yaml"},
		{"empty", "", "", "one YAML document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := yamlToJSON([]byte(tt.yaml))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %s, %v, want an error with %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %s, %v, want %s", got, err, tt.want)
			}
		})
	}
}

// BenchmarkOpenAPIToJSON measures the one conversion a process does on the
// first request for the document (not in its init: most functions never
// serve it).
func BenchmarkOpenAPIToJSON(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := yamlToJSON(openapiYAML); err != nil {
			b.Fatal(err)
		}
	}
}
