package inboxweb

import (
	"net/http"
	"strings"

	"github.com/doorstep/doorstep/pkg/htmlpage"
)

// sameSite refuses (403, plain text) a form posted from anywhere but this
// site, whose origin is siteOrigin (scheme, host and port): a browser's
// Sec-Fetch-Site must be same-origin (or none: typed by the person), and
// an Origin, when sent, must be this whole origin, scheme included. With
// neither Sec-Fetch-Site nor Origin (an older browser, curl), a Referer of
// this origin must say where the form comes from; without any of the
// three, or with a foreign one, the form is refused. Nothing else is
// trusted: the session's CSRF token is checked after this, on every form.
// Only a POST is a form; any other method passes (to its page, or to the
// 404 of a method no page has).
func sameSite(siteOrigin string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		self := siteOrigin
		if self == "" { // no SITE_URL: the address the request was sent to
			scheme := "http"
			if r.TLS != nil {
				scheme = "https"
			}
			self = origin(scheme + "://" + r.Host)
		}
		if !fromSite(r.Header, self) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte("this form must be sent from " + self + "; nothing changed\n"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// fromSite reports whether the request's headers show that it comes from
// the origin self.
func fromSite(h http.Header, self string) bool {
	fetchSite, hasFetchSite := header(h, "Sec-Fetch-Site")
	if hasFetchSite && fetchSite != "same-origin" && fetchSite != "none" {
		return false
	}
	if o, ok := header(h, "Origin"); ok {
		// A browser sends Origin: null on a form of a page whose
		// referrer policy is no-referrer (as every page here is): only
		// its Sec-Fetch-Site, already checked, then tells where it is
		// from.
		if o == "null" {
			return hasFetchSite
		}
		return self != "" && origin(o) == self
	}
	if hasFetchSite {
		return true
	}
	ref, ok := header(h, "Referer")
	return ok && self != "" && origin(ref) == self
}

// header returns the one value of the header name; ok is false when it is
// absent, empty or sent more than once.
func header(h http.Header, name string) (string, bool) {
	v := h.Values(name)
	if len(v) != 1 || strings.TrimSpace(v[0]) == "" {
		return "", false
	}
	return strings.TrimSpace(v[0]), true
}

// origin is the origin of the URL u (htmlpage.Origin); "" when u has
// none.
func origin(u string) string {
	o, _ := htmlpage.Origin(u)
	return o
}
