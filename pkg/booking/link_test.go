package booking

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestParseSiteLink(t *testing.T) {
	tests := []struct {
		in   string
		want SiteLink
		ok   bool
	}{
		// Spellings of one site's root.
		{"https://acme.example.com", SiteLink{"acme.example.com", ""}, true},
		{"https://acme.example.com/", SiteLink{"acme.example.com", ""}, true},
		{"http://acme.example.com", SiteLink{"acme.example.com", ""}, true},
		{"acme.example.com", SiteLink{"acme.example.com", ""}, true},
		{"ACME.Example.COM", SiteLink{"acme.example.com", ""}, true},
		{"HTTPS://WWW.ACME.EXAMPLE.COM/", SiteLink{"acme.example.com", ""}, true},
		{"www.acme.example.com/", SiteLink{"acme.example.com", ""}, true},
		{"//acme.example.com", SiteLink{"acme.example.com", ""}, true},
		{"acme.example.com.", SiteLink{"acme.example.com", ""}, true},
		{"acme.example.com?utm_source=x", SiteLink{"acme.example.com", ""}, true},
		{"acme.example.com#top", SiteLink{"acme.example.com", ""}, true},
		{"https://acme.example.com/?a=1#b", SiteLink{"acme.example.com", ""}, true},
		// Ports: the default one goes, another stays.
		{"https://acme.example.com:443/book", SiteLink{"acme.example.com", "/book"}, true},
		{"http://acme.example.com:80/book", SiteLink{"acme.example.com", "/book"}, true},
		{"acme.example.com:443", SiteLink{"acme.example.com", ""}, true},
		{"https://acme.example.com:8443/book", SiteLink{"acme.example.com:8443", "/book"}, true},
		{"http://acme.example.com:443/", SiteLink{"acme.example.com:443", ""}, true},
		{"https://acme.example.com:0443/", SiteLink{"acme.example.com", ""}, true},
		// Paths.
		{"https://acme.example.com/Book/", SiteLink{"acme.example.com", "/book"}, true},
		{"http://acme.example.com/services/drains?utm=x#top", SiteLink{"acme.example.com", "/services/drains"}, true},
		{"acme.example.com/book//confirm/./", SiteLink{"acme.example.com", "/book/confirm"}, true},
		{"acme.example.com/book/../about", SiteLink{"acme.example.com", "/about"}, true},
		{"acme.example.com/../../etc", SiteLink{"acme.example.com", "/etc"}, true},
		{"acme.example.com/book/%2E%2E/other", SiteLink{"acme.example.com", "/other"}, true},
		{"acme.example.com/%42ook", SiteLink{"acme.example.com", "/book"}, true},
		{"acme.example.com/a%2Fb", SiteLink{"acme.example.com", "/a%2fb"}, true},
		{"acme.example.com/reservar/Señor", SiteLink{"acme.example.com", "/reservar/señor"}, true},
		{"acme.example.com/@evil.com", SiteLink{"acme.example.com", "/@evil.com"}, true},
		{"www.com", SiteLink{"www.com", ""}, true}, // no www. to strip: it is the name
		{"xn--fontanera-s6a.example", SiteLink{"xn--fontanera-s6a.example", ""}, true},

		// Refused.
		{"", SiteLink{}, false},
		{"ftp://acme.example.com/", SiteLink{}, false},
		{"javascript:alert(1)", SiteLink{}, false},
		{"javascript://acme.example.com/%0aalert(1)", SiteLink{}, false},
		{"mailto:office@acme.example.com", SiteLink{}, false},
		{"https:acme.example.com", SiteLink{}, false},
		{"https://acme.example.com@evil.com/", SiteLink{}, false},
		{"https://user:pass@acme.example.com/", SiteLink{}, false},
		{"user@acme.example.com", SiteLink{}, false},
		{`https://acme.example.com\@evil.com`, SiteLink{}, false},
		{"https://", SiteLink{}, false},
		{"https:///acme.example.com", SiteLink{}, false},
		{"https://:443/", SiteLink{}, false},
		{"localhost", SiteLink{}, false},
		{"https://localhost:8080/book", SiteLink{}, false},
		{"acme plumbing", SiteLink{}, false},
		{"acme.example.com/book now", SiteLink{}, false},
		{" acme.example.com", SiteLink{}, false},
		{"acme.example.com\n", SiteLink{}, false},
		{"acme.example.com:http", SiteLink{}, false},
		{"acme.example.com:", SiteLink{}, false},
		{"acme.example.com:0", SiteLink{}, false},
		{"acme.example.com:65536", SiteLink{}, false},
		{"acme.example.com:+443", SiteLink{}, false},
		{"acme_plumbing.example.com", SiteLink{}, false},
		{"-acme.example.com", SiteLink{}, false},
		{"acme..example.com", SiteLink{}, false},
		{"[::1]:443", SiteLink{}, false},
		{"fontanería.example.com", SiteLink{}, false},
		{"ac\u212Ame.example.com", SiteLink{}, false}, // a Kelvin sign, not a k
		{"acme.example.com/100%", SiteLink{}, false},
		{"acme.example.com/%zz", SiteLink{}, false},
		{"acme.example.com/" + strings.Repeat("a", maxLinkLength), SiteLink{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := ParseSiteLink(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ParseSiteLink(%q) = %+v, %v, want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestSites(t *testing.T) {
	tests := []struct {
		name, url, bookingURL string
		want                  []SiteLink
	}{
		{"root and booking page", "https://acme.example.com", "https://acme.example.com/book",
			[]SiteLink{{"acme.example.com", ""}, {"acme.example.com", "/book"}}},
		{"same site spelled twice", "https://www.acme.example.com/", "https://ACME.example.com",
			[]SiteLink{{"acme.example.com", ""}}},
		{"booking on another host", "https://acme.example.com/", "https://book.example.net/acme/",
			[]SiteLink{{"acme.example.com", ""}, {"book.example.net", "/acme"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Business{URL: tt.url, BookingURL: tt.bookingURL}
			got := b.Sites()
			if len(got) != len(tt.want) {
				t.Fatalf("Sites() = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("Sites()[%d] = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestOwnsLink(t *testing.T) {
	rooted := &Business{URL: "https://acme.example.com", BookingURL: "https://acme.example.com/book"}
	scoped := &Business{URL: "https://sites.example.org/acme", BookingURL: "https://book.example.net/acme/book/"}
	tests := []struct {
		name string
		b    *Business
		link string
		want bool
	}{
		{"root", rooted, "acme.example.com", true},
		{"page under the root", rooted, "acme.example.com/services/drains", true},
		{"booking page", rooted, "acme.example.com/book", true},
		{"under the booking page", rooted, "acme.example.com/book/confirm", true},
		{"another host", rooted, "bolt.example.com", false},
		{"parent domain", rooted, "example.com", false},
		{"subdomain", rooted, "shop.acme.example.com", false},
		{"non-default port", rooted, "acme.example.com:8443", false},

		{"scoped url itself", scoped, "sites.example.org/acme", true},
		{"under the scoped url", scoped, "sites.example.org/acme/about", true},
		{"scoped booking page", scoped, "book.example.net/acme/book", true},
		{"under the scoped booking page", scoped, "book.example.net/acme/book/step-2", true},
		{"host root of a scoped url", scoped, "sites.example.org", false},
		{"sibling path", scoped, "sites.example.org/bolt", false},
		{"path that only starts alike", scoped, "sites.example.org/acmeplumbing", false},
		{"booking path that only starts alike", scoped, "book.example.net/acme/bookkeeping", false},
		{"parent of the booking page", scoped, "book.example.net/acme", false},
		{"dot-dot out of the scoped url", scoped, "sites.example.org/acme/../bolt", false},
		{"escaped dot-dot out of the scoped url", scoped, "sites.example.org/acme/%2e%2e/bolt", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, ok := ParseSiteLink(tt.link)
			if !ok {
				t.Fatalf("ParseSiteLink(%q) failed", tt.link)
			}
			if got := tt.b.OwnsLink(l); got != tt.want {
				t.Errorf("OwnsLink(%v) = %v, want %v", l, got, tt.want)
			}
		})
	}
}

func TestIsSlug(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"acme-plumbing", true},
		{"a1", true},
		{"Acme-Plumbing", false}, // ResolveBusiness lowers it first
		{"acme--plumbing", false},
		{"-acme", false},
		{"acme.example.com", false},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := IsSlug(tt.in); got != tt.want {
				t.Errorf("IsSlug(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// siteStore is a Store of businesses only, answering as the DynamoDB store
// does: by slug, and by host.
type siteStore struct {
	Store // the other methods are not called
	bs    []*Business
	hosts []string // the hosts asked for
}

func (s *siteStore) Business(_ context.Context, slug string) (*Business, error) {
	for _, b := range s.bs {
		if b.Slug == slug {
			return b, nil
		}
	}
	return nil, Errorf(NotFound, "no business has the slug %q", slug)
}

func (s *siteStore) PublicBusiness(ctx context.Context, slug string) (*Business, error) {
	return s.Business(ctx, slug)
}

func (s *siteStore) OwnBusiness(ctx context.Context, slug string) (*Business, error) {
	return s.Business(ctx, slug)
}

func (s *siteStore) BusinessesAtHost(_ context.Context, host string) ([]*Business, error) {
	s.hosts = append(s.hosts, host)
	var at []*Business
	for _, b := range s.bs {
		for _, site := range b.Sites() {
			if site.Host == host {
				at = append(at, b)
				break
			}
		}
	}
	return at, nil
}

// siteBusinesses are businesses whose sites share hosts: acme has its own
// site; bolt a page on a site host and a page on a booking platform, whose
// own business has the platform's root.
func siteBusinesses(t *testing.T) []*Business {
	t.Helper()
	tmpl := testBusinesses(t)["split-day-plumbing"]
	business := func(slug, url, bookingURL string) *Business {
		b := *tmpl
		b.Slug, b.URL, b.BookingURL = slug, url, bookingURL
		if err := b.Validate(); err != nil {
			t.Fatal(err)
		}
		return &b
	}
	return []*Business{
		business("acme-plumbing", "https://www.acme.example.com/", "https://acme.example.com/book"),
		business("bolt-electric", "https://sites.example.org/bolt", "https://book.example.net/bolt-electric/"),
		business("book-platform-help", "https://book.example.net", "https://book.example.net/help"),
	}
}

func TestResolveBusiness(t *testing.T) {
	tests := []struct {
		name string
		ref  string
		want string // slug; "" for NOT_FOUND
	}{
		// Slugs.
		{"slug", "acme-plumbing", "acme-plumbing"},
		{"slug in capitals with spaces", "  ACME-Plumbing ", "acme-plumbing"},
		{"unknown slug", "acme-heating", ""},

		// Links that name acme.
		{"url", "https://www.acme.example.com/", "acme-plumbing"},
		{"host in capitals", "ACME.example.com", "acme-plumbing"},
		{"www and trailing slash", "www.acme.example.com/", "acme-plumbing"},
		{"page with query and fragment", "http://acme.example.com/services/drains?utm=x#top", "acme-plumbing"},
		{"booking_url with a trailing slash", "https://acme.example.com/book/", "acme-plumbing"},
		{"page under booking_url", "acme.example.com/book/confirm?step=2", "acme-plumbing"},
		{"explicit default port", "https://acme.example.com:443/about", "acme-plumbing"},
		{"spaces around", "\t acme.example.com/contact \n", "acme-plumbing"},

		// Path-scoped sites, and the longest site path.
		{"scoped url", "https://sites.example.org/bolt", "bolt-electric"},
		{"under the scoped url", "sites.example.org/bolt/about-us", "bolt-electric"},
		{"scoped booking_url", "HTTPS://BOOK.EXAMPLE.NET/Bolt-Electric", "bolt-electric"},
		{"page under the scoped booking_url", "book.example.net/bolt-electric/confirm", "bolt-electric"},
		{"platform's own page", "book.example.net/pricing", "book-platform-help"},
		{"platform root", "book.example.net", "book-platform-help"},

		// Links that must not resolve.
		{"another site", "https://bolt.example.com/", ""},
		{"lookalike: a suffix added", "acme.example.com.evil.com", ""},
		{"lookalike: a prefix added", "evil-acme.example.com", ""},
		{"lookalike: another top-level domain", "acme.example.co", ""},
		{"lookalike: subdomain", "book.acme.example.com", ""},
		{"lookalike: user name", "https://acme.example.com@evil.com/", ""},
		{"lookalike: backslash", `https://evil.com\@acme.example.com`, ""},
		{"other port", "https://acme.example.com:8443/", ""},
		{"outside a path-scoped url", "sites.example.org/bolting", ""},
		{"host root of a path-scoped url", "https://sites.example.org/", ""},
		{"dot-dot out of a path-scoped url", "sites.example.org/bolt/../volt", ""},
		{"ftp scheme", "ftp://acme.example.com/", ""},
		{"javascript scheme", "javascript:alert(1)", ""},
		{"mailto", "mailto:office@acme.example.com", ""},
		{"a name, not a slug", "Acme Plumbing", ""},
		{"empty", "   ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := testBookings(t, Config{Store: &siteStore{bs: siteBusinesses(t)}, SiteURL: "https://book.example.com", Now: noClock(t)})
			got, err := d.ResolveBusiness(context.Background(), tt.ref)
			if tt.want == "" {
				if ErrorCode(err) != NotFound || got != nil {
					t.Fatalf("ResolveBusiness(%q) = %v, %v, want NOT_FOUND", tt.ref, slugOf(got), err)
				}
				return
			}
			if err != nil || got.Slug != tt.want {
				t.Fatalf("ResolveBusiness(%q) = %v, %v, want %s", tt.ref, slugOf(got), err, tt.want)
			}
		})
	}
}

func TestResolveBusinessMessages(t *testing.T) {
	tests := []struct {
		name      string
		ref       string
		wantHosts int    // BusinessesAtHost calls
		want      string // in the message
	}{
		{"not a link", "javascript:alert(1)", 0, "pass the business's slug or a link to its site"},
		{"no business there", "https://bolt.example.com/x?y#z", 1, "no business on Doorstep has a site at bolt.example.com/x"},
		{"unknown slug", "acme-heating", 0, `"acme-heating"`},
		{"long input is cut", strings.Repeat("x ", 500), 0, `"` + strings.Repeat("x ", 20) + `"... is neither`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &siteStore{bs: siteBusinesses(t)}
			_, err := testBookings(t, Config{Store: s, SiteURL: "https://book.example.com", Now: noClock(t)}).ResolveBusiness(context.Background(), tt.ref)
			if got := ErrorMessage(err); ErrorCode(err) != NotFound || !strings.Contains(got, tt.want) {
				t.Errorf("message = %q (%s), want NOT_FOUND containing %q", got, ErrorCode(err), tt.want)
			}
			if got := len(s.hosts); got != tt.wantHosts {
				t.Errorf("BusinessesAtHost calls = %d, want %d", got, tt.wantHosts)
			}
		})
	}
}

func TestPickBusiness(t *testing.T) {
	bs := siteBusinesses(t)
	acme, bolt := bs[0], bs[1]
	twin := *acme
	twin.Slug = "acme-twin"
	tests := []struct {
		name          string
		candidates    []*Business
		link          SiteLink
		want          *Business
		wantAmbiguous bool
	}{
		{"none", nil, SiteLink{"acme.example.com", ""}, nil, false},
		{"one owner", []*Business{bolt, acme}, SiteLink{"acme.example.com", "/book"}, acme, false},
		{"candidate that does not own the link", []*Business{bolt}, SiteLink{"sites.example.org", "/volt"}, nil, false},
		{"same business twice", []*Business{acme, acme}, SiteLink{"acme.example.com", ""}, acme, false},
		{"two businesses tie", []*Business{acme, &twin}, SiteLink{"acme.example.com", "/book/x"}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ambiguous := pickBusiness(tt.candidates, tt.link)
			if got != tt.want || ambiguous != tt.wantAmbiguous {
				t.Errorf("pickBusiness() = %v, %v, want %v, %v", slugOf(got), ambiguous, slugOf(tt.want), tt.wantAmbiguous)
			}
		})
	}
}

func TestLoadBusinessesSites(t *testing.T) {
	records := testRecords(t)
	tests := []struct {
		name            string
		url, bookingURL string // of the second business
		want            string // in the error; "" for none
	}{
		{"same booking_url spelled otherwise", "https://second.example.com", "https://WWW.split-day-plumbing.example.com/book/",
			`businesses[1]: business "second-plumbing": booking_url: the site split-day-plumbing.example.com/book is a site of business "split-day-plumbing"`},
		{"url on the first one's root", "https://split-day-plumbing.example.com/", "https://second.example.com/book",
			`business "second-plumbing": url: the site split-day-plumbing.example.com is a site of business "split-day-plumbing"`},
		{"a page under the first one's site", "https://split-day-plumbing.example.com/second", "https://second.example.com/book", ""},
		{"same host, other port", "https://split-day-plumbing.example.com:8443", "https://second.example.com/book", ""},
		{"its own sites", "https://second.example.com", "https://second.example.com/book", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			second := map[string]any{}
			for k, v := range records[0] {
				second[k] = v
			}
			second["slug"], second["url"], second["booking_url"] = "second-plumbing", tt.url, tt.bookingURL
			raw, _ := json.Marshal([]any{records[0], second})
			_, err := LoadBusinesses(strings.NewReader(string(raw)))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %s", err, tt.want)
			}
		})
	}
}

func slugOf(b *Business) string {
	if b == nil {
		return "<nil>"
	}
	return b.Slug
}
