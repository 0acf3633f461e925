// Package htmlpage is the one foundation of Doorstep's server-rendered HTML
// edges (the person's pages, the payment page, the business's web inbox,
// the visitor's booking form): the layout every page is rendered in, the
// base style sheet, rendering, the language choice, the config defaults,
// the security headers with the Content-Security-Policy that allows only
// the page's own style sheet, and texts in en and es. Its test helpers are
// in pagetest and axetest. It is apart from pkg/edge so that only the
// functions with pages link html/template (docs/performance.md: the
// bootstrap sizes).
package htmlpage

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/doorstep/doorstep/pkg/display"
)

//go:embed layout.html
var layout embed.FS

//go:embed base.css
var baseStyle string

// Site is a set of pages: each is templates/<name>.html of the site's files
// rendered inside this package's layout.html, styled by one inline style
// sheet (base.css, then the site's own rules).
type Site struct {
	templates map[string]*template.Template
	style     string
	csp       string // with frame-ancestors 'none'
	hash      string // the style sheet's CSP source
}

// Page is what the layout renders: the language, the title, the labels in
// that language, the footer's words, the link to the same page in the
// other language (if any), the site's header view (its "nav" template;
// nil for none) and the page's own view (its "content" template).
type Page struct {
	Lang       string
	Title      string
	CSS        template.CSS // set by Render
	L          map[string]string
	Footer     string
	Switch     string // the same page in the other language, "" for none
	SwitchText string // the switch's words, in the other language
	Nav        any
	Body       any
}

// New parses the layout and the named pages of files (templates/*.html).
// templates/shared.html, when the site has one, is parsed with every page:
// it defines the parts its pages share, and "nav", a header above <main>,
// for a site that has one. Every page may call typed (Typed) on what a
// person typed that it shows back: {{typed .Name 100}}. New panics on
// a template that does not parse, as template.Must does, since the
// templates are embedded in the binary.
func New(files fs.FS, style string, names ...string) *Site {
	style = baseStyle + style
	s := &Site{templates: map[string]*template.Template{}, style: style}
	_, sharedErr := fs.Stat(files, "templates/shared.html")
	for _, name := range names {
		t := template.Must(template.New("layout.html").Funcs(template.FuncMap{"typed": Typed}).ParseFS(layout, "layout.html"))
		patterns := []string{"templates/" + name + ".html"}
		if sharedErr == nil {
			patterns = append(patterns, "templates/shared.html")
		}
		s.templates[name] = template.Must(t.ParseFS(files, patterns...))
	}
	sum := sha256.Sum256([]byte(style))
	s.hash = "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	s.csp = s.policy("'none'")
	return s
}

// Typed is what a page shows back of s, a value a person typed or a link
// carried: at most max characters, the field's maxlength. A refused value
// of 10,000 characters does not come back whole; the refusal beside the
// field says it was too long.
func Typed(s string, max int) string {
	for i := range s {
		if max == 0 {
			return s[:i]
		}
		max--
	}
	return s
}

// TypedQuery cuts each value of q as Typed does, to max characters, and
// returns q: for a link that repeats the query another link carried, such
// as a page's language switch.
func TypedQuery(q url.Values, max int) url.Values {
	for _, vs := range q {
		for i, v := range vs {
			vs[i] = Typed(v, max)
		}
	}
	return q
}

// policy is the Content-Security-Policy of a page that frameAncestors may
// frame: nothing but the one inline style sheet may style, script or load;
// forms post to this site only.
func (s *Site) policy(frameAncestors string) string {
	return "default-src 'none'; style-src " + s.hash + "; img-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors " + frameAncestors
}

// CSS is the style sheet, for the layout's <style>.
func (s *Site) CSS() template.CSS { return template.CSS(s.style) }

// Style is the style sheet as served: what a page weighs besides its HTML.
func (s *Site) Style() string { return s.style }

// Headers answers next's requests with the pages' headers: no caching (the
// state changes, and the page is one person's), no referrer (a code or a
// token is in the address), the CSP (which refuses every frame, see
// AllowFraming), no sniffing, no indexing; a body is bounded to maxBody
// bytes.
func (s *Site) Headers(maxBody int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Robots-Tag", "noindex")
		h.Set("Content-Security-Policy", s.csp)
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		next.ServeHTTP(w, r)
	})
}

// AllowFraming lets the page about to be written be framed by the origin
// of site (a business's own url), and by nothing else; a site that is no
// absolute http(s) URL leaves the page refusing every frame.
func (s *Site) AllowFraming(w http.ResponseWriter, site string) {
	if origin, ok := Origin(site); ok {
		w.Header().Set("Content-Security-Policy", s.policy(origin))
	}
}

// Origin returns the origin of an absolute http or https URL, as browsers
// write it in an Origin header and as one CSP source: scheme://host[:port]
// in lower case, without the scheme's default port; ok is false for
// anything else (another scheme, user info, a host of other characters).
func Origin(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	host, port := strings.ToLower(u.Hostname()), u.Port()
	switch {
	case scheme != "http" && scheme != "https":
		return "", false
	case scheme == "http" && port == "80", scheme == "https" && port == "443":
		port = ""
	}
	for _, c := range host {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == ':') {
			return "", false
		}
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // IPv6
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, true
}

// Render writes the page name with p. The page is rendered whole before
// anything is written, so a template error is a plain 500, never half a
// page.
func (s *Site) Render(w http.ResponseWriter, status int, name string, p Page) {
	p.CSS = s.CSS()
	buf := buffers.Get().(*bytes.Buffer)
	defer buffers.Put(buf)
	buf.Reset()
	if err := s.templates[name].Execute(buf, p); err != nil {
		http.Error(w, "server error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// buffers are the pages' buffers, reused: a page is some 10 KB, which a
// new buffer would grow to, zeroed, each time.
var buffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 16<<10)) }}

// Texts are the words of a set of pages, by language ("en", "es") and key.
type Texts map[string]map[string]string

// T returns the text key in lang (in English when lang has none),
// formatted with args.
func (t Texts) T(lang, key string, args ...any) string {
	s, ok := t[lang][key]
	if !ok {
		s = t["en"][key]
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// Languages are the languages pages are written in.
var Languages = []string{"en", "es"}

// AcceptLanguage picks es or en from the Accept-Language header, in the
// order the browser lists them; en when it names neither.
func AcceptLanguage(r *http.Request) string {
	return Choose(r, Languages, "en")
}

// Choose picks the language of a page from offered (a subset of
// Languages): the one asked for with ?lang=, else the first the browser's
// Accept-Language names, else def.
func Choose(r *http.Request, offered []string, def string) string {
	has := func(l string) bool {
		for _, o := range offered {
			if o == l {
				return true
			}
		}
		return false
	}
	if l := r.URL.Query().Get("lang"); has(l) {
		return l
	}
	// Values: API Gateway's adapter splits a header at its commas.
	for _, tag := range strings.Split(strings.Join(r.Header.Values("Accept-Language"), ","), ",") {
		tag, _, _ = strings.Cut(strings.TrimSpace(tag), ";")
		primary, _, _ := strings.Cut(strings.ToLower(tag), "-")
		if has(primary) {
			return primary
		}
	}
	return def
}

// Other is the language a page's switch offers.
func Other(lang string) string {
	if lang == "es" {
		return "en"
	}
	return "es"
}

// Defaults fills the clock and the logger an edge's Config leaves nil:
// time.Now, and a logger that discards.
func Defaults(now *func() time.Time, log **slog.Logger) {
	if *now == nil {
		*now = time.Now
	}
	if *log == nil {
		*log = slog.New(slog.DiscardHandler)
	}
}

// TelURL is the tel: link of a phone number in international format
// (+digits), for an href; "" for anything else, which is then shown as
// text only.
func TelURL(phone string) template.URL {
	digits, ok := strings.CutPrefix(phone, "+")
	if !ok || digits == "" {
		return ""
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return ""
		}
	}
	return template.URL("tel:+" + digits) // +digits only: safe in an href
}

// Phone writes a business's phone (international format, +digits) for
// people, (512) 555-0142 for a US number, with its tel: link; a phone that
// is not +digits is shown as it is, with no link.
func Phone(p string) (string, template.URL) {
	link := TelURL(p)
	if link == "" {
		return p, ""
	}
	return display.Phone(p), link
}

// Escape escapes s for HTML text or a quoted attribute value exactly as
// html/template does ({{.}} there): a page's hot part written in Go (a
// week's days on the booking form) matches the rest byte for byte.
func Escape(s string) string { return htmlEscaper.Replace(s) }

var htmlEscaper = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;")
