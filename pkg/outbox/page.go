package outbox

import (
	"embed"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/doorstep/doorstep/pkg/htmlpage"
	"github.com/doorstep/doorstep/pkg/notify"
)

// The outbox in a browser: a page of the messages kept, newest first,
// whose links (a sign-in link, a status page) can be tapped on a phone.
// curl and the tests, which send no Accept of text/html, get the JSON.

//go:embed templates/*.html
var templateFiles embed.FS

// style is the page's own rules, over htmlpage's base style sheet.
const style = `.messages{list-style:none;margin:0;padding:0}
.message{margin:.75rem 0;padding:.75rem;border:1px solid #d0d7de;border-radius:8px}
.message h2{margin:.25rem 0;font-size:1.05rem}
.meta{margin:0;font-size:.9rem;color:#57606a;overflow-wrap:anywhere}
.badge{display:inline-block;padding:0 .4rem;border-radius:4px;background:#eef1f4;color:#1b1f24;font-weight:600}
.body{white-space:pre-wrap;overflow-wrap:anywhere;margin:.5rem 0 0}
.body a,#as-json{display:inline-block;min-height:24px;color:#0b57d0}
a{color:#0b57d0}`

var site = htmlpage.New(templateFiles, style, "outbox")

// link finds the web addresses in a message's plain text.
var link = regexp.MustCompile(`https?://[^\s<>"]+`)

// pageView is the outbox page.
type pageView struct {
	Keep     int
	JSON     string
	Messages []messageView
}

// messageView is one message, its body cut into text and links.
type messageView struct {
	Anchor                            string
	Kind, Audience, Channel, Language string
	To, Subject                       string
	Parts                             []bodyPart
}

// bodyPart is a run of a message's text, or a link in it (URL set).
type bodyPart struct {
	Text string
	URL  string // html/template checks it as any href
}

// wantsPage reports whether r asks for HTML before JSON: a browser does
// (Accept: text/html,...); curl (*/*) and Go's http.Get (none) do not,
// nor does ?format=json (the page's own link to the JSON).
func wantsPage(r *http.Request) bool {
	if r.URL.Query().Get("format") == "json" {
		return false
	}
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		media, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		switch strings.ToLower(strings.TrimSpace(media)) {
		case "text/html", "application/xhtml+xml":
			return true
		case "application/json":
			return false
		}
	}
	return false
}

// servePage writes the page of messages, newest first, with the pages'
// headers (htmlpage: no caching, no referrer, a CSP that runs no script).
func (o *Outbox) servePage(w http.ResponseWriter, _ *http.Request, messages []notify.Message) {
	v := pageView{Keep: o.keep, JSON: Path + "?format=json"}
	for i, m := range messages {
		v.Messages = append(v.Messages, messageView{
			Anchor: "m" + strconv.Itoa(len(messages)-i), Kind: string(m.Kind), Audience: string(m.Audience),
			Channel: string(m.Channel), Language: pageLanguage(m.Language), To: m.To, Subject: m.Subject,
			Parts: bodyParts(m.Body),
		})
	}
	site.Render(w, http.StatusOK, "outbox", htmlpage.Page{Lang: "en", Title: "Outbox · Doorstep (local)", Footer: "Local only: never deployed.", Body: v})
}

// pageLanguage is a message's language as a lang attribute: en or es.
func pageLanguage(lang string) string {
	if lang == "es" {
		return "es"
	}
	return "en"
}

// bodyParts cuts a plain-text body into text and the links it holds;
// the full stop or parenthesis that ends a sentence is not the link's.
func bodyParts(body string) []bodyPart {
	var parts []bodyPart
	rest := body
	for {
		loc := link.FindStringIndex(rest)
		if loc == nil {
			break
		}
		u := strings.TrimRight(rest[loc[0]:loc[1]], ".,;:!?)]")
		end := loc[0] + len(u)
		if loc[0] > 0 {
			parts = append(parts, bodyPart{Text: rest[:loc[0]]})
		}
		parts = append(parts, bodyPart{Text: u, URL: u})
		rest = rest[end:]
	}
	if rest != "" {
		parts = append(parts, bodyPart{Text: rest})
	}
	return parts
}
