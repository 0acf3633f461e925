package main

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"

	"github.com/doorstep/doorstep/pkg/mcptools"
)

const serverJSONSynopsis = "mcp server-json --site-url URL --name NAME"

// registrySchemaURL is the MCP Registry's server.json schema this command
// writes to (testdata/server.schema.json is a copy).
const registrySchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// registryName is the registry's rule for a server's name: reverse DNS of
// a namespace the publisher proves it owns, a slash, then the server's own
// name.
var registryName = regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

// serverJSON is the MCP Registry's server.json: what the registry, the
// marketplaces and VS Code's MCP gallery read to list a deployment. Only
// the members a remote server needs (written by hand rather than with the
// registry module's types, which would raise golang.org/x/text and x/sys
// for every Lambda function).
type serverJSON struct {
	Schema      string         `json:"$schema"`
	Name        string         `json:"name"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Version     string         `json:"version"`
	WebsiteURL  string         `json:"websiteUrl"`
	Remotes     []serverRemote `json:"remotes"`
}

type serverRemote struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// mcpCommand runs "ctl mcp ...".
func (c *ctl) mcpCommand(args []string) error {
	if len(args) == 0 || args[0] != "server-json" {
		return usagef(serverJSONSynopsis, "mcp: want server-json")
	}
	fs := newFlagSet("mcp server-json")
	siteURL := fs.String("site-url", c.getenv("SITE_URL"), "")
	name := fs.String("name", "", "")
	if _, err := parseCommand(fs, serverJSONSynopsis, args[1:]); err != nil {
		return err
	}
	site, err := url.Parse(*siteURL)
	if *siteURL == "" || err != nil || site.Scheme != "https" || site.Host == "" || strings.TrimSuffix(site.Path, "/") != "" || site.RawQuery != "" || site.Fragment != "" {
		return usagef(serverJSONSynopsis, "--site-url: want the deployment's https address, such as https://book.example.com, got %q", *siteURL)
	}
	if len(*name) < 3 || len(*name) > 200 || !registryName.MatchString(*name) {
		return usagef(serverJSONSynopsis, "--name: want a reverse-DNS name such as com.example/doorstep, got %q", *name)
	}
	base := "https://" + site.Host
	doc := serverJSON{
		Schema:      registrySchemaURL,
		Name:        *name,
		Title:       mcptools.Title,
		Description: mcptools.Description,
		Version:     mcptools.Version,
		WebsiteURL:  base,
		Remotes:     []serverRemote{{Type: "streamable-http", URL: base + mcptools.Path}},
	}
	enc := json.NewEncoder(c.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
