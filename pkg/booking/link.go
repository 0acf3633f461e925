package booking

import (
	"context"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SiteLink is a link to a page of a web site, reduced to what names the
// page: the host and the path, both in lower case.
//
// Host has no "www." prefix and no default port (a non-default port stays,
// as in "acme.example.com:8443"). Path is cleaned (no "." or ".." segments,
// no repeated or trailing slash, percent-escapes of unreserved characters
// decoded), "" for the site's root; the query and fragment are dropped.
type SiteLink struct {
	Host string
	Path string
}

// String is the link as host and path ("acme.example.com/book").
func (l SiteLink) String() string { return l.Host + l.Path }

// maxLinkLength bounds the links ParseSiteLink reads: room for a page
// address with tracking parameters, and a cap on the work a caller can ask.
const maxLinkLength = 2048

// ParseSiteLink reads a link to a page of a site as people paste it:
// https://, http:// or no scheme, any letter case, with or without "www.",
// a trailing slash, a query or a fragment. It refuses anything else: other
// schemes (ftp:, javascript:, mailto:), a user name (user@host), spaces or
// control characters, backslashes, an empty host, a host that is not a DNS
// name with at least one dot, a port that is not a number from 1 to 65535,
// and malformed percent-escapes.
func ParseSiteLink(s string) (SiteLink, bool) {
	if s == "" || len(s) > maxLinkLength || !utf8.ValidString(s) {
		return SiteLink{}, false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == '\\' {
			return SiteLink{}, false
		}
	}
	// Host names are ASCII: lower-case only ASCII letters here, so that no
	// other character turns into one (the Kelvin sign into "k"), and let the
	// host check refuse whatever is not ASCII. The path is lowered below.
	s = asciiLower(s)

	defaultPorts := []string{"443", "80"} // no scheme: either is the default
	switch {
	case strings.HasPrefix(s, "https://"):
		s, defaultPorts = s[len("https://"):], []string{"443"}
	case strings.HasPrefix(s, "http://"):
		s, defaultPorts = s[len("http://"):], []string{"80"}
	case strings.Contains(s, "://"):
		return SiteLink{}, false // another scheme
	case strings.HasPrefix(s, "//"):
		s = s[2:] // a scheme-relative link
	}

	// The authority runs to the first "/", "?" or "#". A scheme such as
	// "javascript:" or "mailto:" without "//" lands here too, and fails as a
	// port that is not a number or as a user name.
	authority, rest := s, ""
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		authority, rest = s[:i], s[i:]
	}
	if strings.Contains(authority, "@") {
		return SiteLink{}, false
	}
	host, port, hasPort := strings.Cut(authority, ":")
	host = strings.TrimSuffix(host, ".") // the fully qualified spelling
	for bare, ok := strings.CutPrefix(host, "www."); ok && strings.Contains(bare, "."); bare, ok = strings.CutPrefix(host, "www.") {
		host = bare
	}
	if !isHostName(host) {
		return SiteLink{}, false
	}
	if hasPort {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port[0] == '+' {
			return SiteLink{}, false
		}
		if p := strconv.Itoa(n); !slices.Contains(defaultPorts, p) {
			host += ":" + p
		}
	}

	p := rest
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	p, ok := normalizePath(strings.ToLower(p))
	if !ok {
		return SiteLink{}, false
	}
	return SiteLink{Host: host, Path: p}, true
}

// isHostName reports whether h is a lower-case DNS name of two labels or
// more: letters, digits and inner hyphens, each label 1 to 63 characters.
func isHostName(h string) bool {
	if len(h) > 253 || !strings.Contains(h, ".") {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// normalizePath decodes the percent-escapes of unreserved characters (so
// "%2e%2e" is "..", as a browser reads it), keeps the others in lower case,
// and cleans the path. The root is "".
func normalizePath(p string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+2 >= len(p) || !isHex(p[i+1]) || !isHex(p[i+2]) {
			return "", false
		}
		v := unhex(p[i+1])<<4 | unhex(p[i+2])
		if isUnreserved(v) {
			b.WriteByte(byte(unicode.ToLower(rune(v))))
		} else {
			b.WriteString(p[i : i+3]) // already lower case
		}
		i += 2
	}
	cleaned := path.Clean("/" + b.String())
	if cleaned == "/" {
		return "", true
	}
	return cleaned, true
}

// asciiLower lower-cases the ASCII letters of s and nothing else.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, s)
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'a' + 10
}

// isUnreserved reports whether c is an unreserved URI character (RFC 3986),
// which a percent-escape spells the same as the character itself.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// Sites returns the business's sites: its url and its booking_url, parsed,
// without repeats. A business that passed Validate has at least one.
func (b *Business) Sites() []SiteLink {
	var sites []SiteLink
	for _, u := range []string{b.URL, b.BookingURL} {
		l, ok := ParseSiteLink(u)
		if ok && !slices.Contains(sites, l) {
			sites = append(sites, l)
		}
	}
	return sites
}

// OwnsLink reports whether l names a page of one of the business's sites:
// the same host, and the site's path or a path under it on a segment
// boundary ("/book" owns "/book" and "/book/confirm", not "/bookkeeping").
func (b *Business) OwnsLink(l SiteLink) bool {
	_, ok := b.ownedBy(l)
	return ok
}

// ownedBy returns the business's site that owns l with the longest path.
func (b *Business) ownedBy(l SiteLink) (SiteLink, bool) {
	var best SiteLink
	found := false
	for _, s := range b.Sites() {
		if s.owns(l) && (!found || len(s.Path) > len(best.Path)) {
			best, found = s, true
		}
	}
	return best, found
}

// owns reports whether l is the site s or a page under it.
func (s SiteLink) owns(l SiteLink) bool {
	if l.Host != s.Host {
		return false
	}
	return s.Path == "" || l.Path == s.Path || strings.HasPrefix(l.Path, s.Path+"/")
}

// IsSlug reports whether s has the form of a business slug: lowercase
// letters, digits and single dashes. A slug has no dot, so no string is both
// a slug and a site link.
func IsSlug(s string) bool { return len(s) <= MaxSlug && slugPattern.MatchString(s) }

// MaxSlug is the longest slug, so that no lookup carries an unbounded key.
const MaxSlug = 100

// ResolveBusiness returns the business that ref names: its slug (in any
// case) or a link to any page of its url or booking_url, as ParseSiteLink
// reads it. When sites of several businesses hold the page, the one whose
// site path is the longest wins (a booking platform's page of a business
// over the platform's own site). Anything else is NOT_FOUND.
func (s *Bookings) ResolveBusiness(ctx context.Context, ref string) (*Business, error) {
	ref = strings.TrimSpace(ref)
	if IsSlug(strings.ToLower(ref)) {
		return s.Business(ctx, ref)
	}
	link, ok := ParseSiteLink(ref)
	if !ok {
		return nil, Errorf(NotFound,
			"%s is neither a business slug nor a link to a web page; pass the business's slug or a link to its site (its web address or its booking page)",
			excerpt(ref))
	}
	candidates, err := s.store.BusinessesAtHost(ctx, link.Host)
	if err != nil {
		return nil, err
	}
	b, ambiguous := pickBusiness(candidates, link)
	switch {
	case ambiguous:
		return nil, Errorf(NotFound,
			"more than one business has the site %s; pass the business's slug instead", shortLink(link))
	case b == nil:
		return nil, Errorf(NotFound,
			"no business on Doorstep has a site at %s; pass the business's slug or a link to its own site (its web address or its booking page)", shortLink(link))
	}
	return s.withPayments(b), nil
}

// pickBusiness returns the candidate that owns l with the longest site path.
// ambiguous is true, and b nil, when two businesses tie for it (one file
// cannot say so, but a store fed record by record might).
func pickBusiness(candidates []*Business, l SiteLink) (b *Business, ambiguous bool) {
	bestLen := -1
	for _, c := range candidates {
		site, ok := c.ownedBy(l)
		switch {
		case !ok || len(site.Path) < bestLen:
		case len(site.Path) == bestLen && c.Slug != b.Slug:
			ambiguous = true
		case len(site.Path) > bestLen:
			b, bestLen, ambiguous = c, len(site.Path), false
		}
	}
	if ambiguous {
		return nil, true
	}
	return b, false
}

// shortLink is l for an error message: as it is when short and printable
// (ParseSiteLink already refused spaces and control characters), else its
// excerpt.
func shortLink(l SiteLink) string {
	s := l.String()
	if utf8.RuneCountInString(s) > excerptRunes || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return excerpt(s)
	}
	return s
}
