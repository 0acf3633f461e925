// Package htmlpage holds what Doorstep's server-rendered HTML edges (the
// person's pages, the business's web inbox) share: a layout with its pages,
// the one inline style sheet and the Content-Security-Policy that allows
// only it, the security headers, and texts in en and es. It is apart from
// pkg/edge so that only the functions with pages link html/template (see
// the README's "Binary sizes").
package htmlpage

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
)

// Site is a set of pages: each is templates/<name>.html rendered inside
// templates/layout.html, styled by one inline style sheet.
type Site struct {
	templates map[string]*template.Template
	style     string
	csp       string
}

// New parses the layout and the named pages of files (templates/*.html);
// it panics on a template that does not parse, as template.Must does, since
// the templates are embedded in the binary.
func New(files fs.FS, style string, names ...string) *Site {
	s := &Site{templates: map[string]*template.Template{}, style: style}
	for _, name := range names {
		s.templates[name] = template.Must(template.New("layout.html").ParseFS(files, "templates/layout.html", "templates/"+name+".html"))
	}
	sum := sha256.Sum256([]byte(style))
	// Nothing but the one inline style sheet may style, script or load;
	// forms post to this site only; no framing.
	s.csp = "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
		"'; img-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
	return s
}

// CSS is the style sheet, for the layout's <style>.
func (s *Site) CSS() template.CSS { return template.CSS(s.style) }

// Headers answers next's requests with the pages' headers: no caching (the
// state changes, and the page is one person's), no referrer (a code or a
// token is in the address), the CSP, no sniffing, no indexing; a body is
// bounded to maxBody bytes.
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

// Render writes the page name with data. The page is rendered whole before
// anything is written, so a template error is a plain 500, never half a
// page.
func (s *Site) Render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := s.templates[name].Execute(&buf, data); err != nil {
		http.Error(w, "server error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

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
