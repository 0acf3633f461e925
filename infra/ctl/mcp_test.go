package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ctl mcp server-json prints a server.json that the MCP Registry's own
// schema (2025-12-11, testdata/server.schema.json; see testdata/SOURCES)
// takes, naming the deployment's tool server as a streamable-http remote.
func TestMCPServerJSON(t *testing.T) {
	schema := registrySchema(t)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantURL  string
	}{
		{"site", []string{"--site-url", "https://book.example.com", "--name", "com.example/doorstep"}, 0, "https://book.example.com/mcp"},
		{"trailing slash", []string{"--site-url", "https://book.example.com/", "--name", "io.github.acme/doorstep-booking"}, 0, "https://book.example.com/mcp"},
		{"with a port", []string{"--name", "com.example/doorstep", "--site-url", "https://book.example.com:8443"}, 0, "https://book.example.com:8443/mcp"},
		{"http", []string{"--site-url", "http://book.example.com", "--name", "com.example/doorstep"}, 2, ""},
		{"a path", []string{"--site-url", "https://example.com/book", "--name", "com.example/doorstep"}, 2, ""},
		{"a query", []string{"--site-url", "https://example.com/?x=1", "--name", "com.example/doorstep"}, 2, ""},
		{"no site", []string{"--name", "com.example/doorstep"}, 2, ""},
		{"no name", []string{"--site-url", "https://book.example.com"}, 2, ""},
		{"name without namespace", []string{"--site-url", "https://book.example.com", "--name", "doorstep"}, 2, ""},
		{"name with two slashes", []string{"--site-url", "https://book.example.com", "--name", "com.example/a/b"}, 2, ""},
		{"an argument", []string{"--site-url", "https://book.example.com", "--name", "com.example/doorstep", "extra"}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"mcp", "server-json"}, tt.args...), &stdout, &stderr)
			if code != tt.wantCode {
				t.Fatalf("got exit %d (%s), want %d", code, stderr.String(), tt.wantCode)
			}
			if tt.wantCode != 0 {
				if stdout.Len() != 0 || stderr.Len() == 0 {
					t.Errorf("got stdout %q and stderr %q, want only a reason on stderr", stdout.String(), stderr.String())
				}
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(stdout.Bytes()))
			if err != nil {
				t.Fatalf("not JSON: %v: %s", err, stdout.String())
			}
			if err := schema.Validate(doc); err != nil {
				t.Errorf("the registry's schema refuses it: %v\n%s", err, stdout.String())
			}
			var got serverJSON
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Remotes) != 1 || got.Remotes[0].Type != "streamable-http" || got.Remotes[0].URL != tt.wantURL {
				t.Errorf("got remotes %+v, want one streamable-http remote at %s", got.Remotes, tt.wantURL)
			}
			if got.Title == "" || got.Description == "" || got.Version == "" || got.Schema != registrySchemaURL {
				t.Errorf("got %+v, want title, description, version and the schema's address", got)
			}
		})
	}
}

// registrySchema compiles testdata/server.schema.json, asserting formats
// (uri) as the registry does.
func registrySchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/server.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := doc.(map[string]any)["$id"].(string); id != registrySchemaURL {
		t.Fatalf("testdata/server.schema.json is %q, want %s", id, registrySchemaURL)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(registrySchemaURL, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(registrySchemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
