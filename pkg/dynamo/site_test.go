package dynamo_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

// businessAt returns the test business under another slug and sites.
func businessAt(t *testing.T, slug, url, bookingURL string) *booking.Business {
	t.Helper()
	b := loadBusiness(t)
	b.Slug, b.URL, b.BookingURL = slug, url, bookingURL
	return b
}

func siteKey(host, path string) itemKey { return itemKey{"SITE#" + host, "PATH#" + path} }

func slugs(bs []*booking.Business) []string {
	s := []string{}
	for _, b := range bs {
		s = append(s, b.Slug)
	}
	slices.Sort(s)
	return s
}

func TestBusinessesAtHost(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		host string
		want []string
	}{
		{"url and booking_url host", "test-plumbing.example.com", []string{"test-plumbing"}},
		{"url host", "other-plumbing.example.org", []string{"other-plumbing"}},
		{"booking_url host of two businesses", "book.example.net", []string{"other-plumbing", "third-plumbing"}},
		{"host with a port", "third.example.org:8443", []string{"third-plumbing"}},
		{"same host without the port", "third.example.org", []string{}},
		{"unknown host", "unknown.example.com", []string{}},
		{"parent domain", "example.com", []string{}},
		{"host as written, with www", "www.test-plumbing.example.com", []string{}},
		{"empty host", "", []string{}},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		dynamo.SetPageSize(e.store, 1) // a page per item: pagination is covered
		for _, b := range []*booking.Business{
			businessAt(t, "test-plumbing", "https://www.test-plumbing.example.com/", "https://test-plumbing.example.com/book"),
			businessAt(t, "other-plumbing", "https://other-plumbing.example.org", "https://book.example.net/other-plumbing"),
			businessAt(t, "third-plumbing", "https://third.example.org:8443/", "https://book.example.net/third-plumbing/"),
		} {
			if err := e.store.PutBusiness(ctx, b); err != nil {
				t.Fatalf("PutBusiness(%s) = %v", b.Slug, err)
			}
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				bs, err := e.store.BusinessesAtHost(ctx, tt.host)
				if err != nil {
					t.Fatalf("BusinessesAtHost(%q) = %v", tt.host, err)
				}
				if got := slugs(bs); !slices.Equal(got, tt.want) {
					t.Errorf("BusinessesAtHost(%q) = %v, want %v", tt.host, got, tt.want)
				}
				for _, b := range bs {
					if b.Location() == nil {
						t.Errorf("BusinessesAtHost(%q): %s not validated (no location)", tt.host, b.Slug)
					}
				}
			})
		}

		t.Run("site items as documented", func(t *testing.T) {
			items := []struct {
				key  itemKey
				want string // slug
			}{
				{siteKey("test-plumbing.example.com", ""), "test-plumbing"},
				{siteKey("test-plumbing.example.com", "/book"), "test-plumbing"},
				{siteKey("book.example.net", "/other-plumbing"), "other-plumbing"},
				{siteKey("third.example.org:8443", ""), "third-plumbing"},
			}
			for _, it := range items {
				if got := attrS(e.item(t, it.key), "slug"); got != it.want {
					t.Errorf("item %v slug = %q, want %q", it.key, got, it.want)
				}
			}
			l, ok := e.item(t, itemKey{"BUSINESS#test-plumbing", "PROFILE"})["sites"].(*types.AttributeValueMemberL)
			var got []string
			for _, v := range l.Value {
				got = append(got, attrS(map[string]types.AttributeValue{"s": v}, "s"))
			}
			if want := []string{"test-plumbing.example.com", "test-plumbing.example.com/book"}; !ok || !slices.Equal(got, want) {
				t.Errorf("business item sites = %v, want the list %v", got, want)
			}
		})
	})
}

// TestPutBusinessSites stores one business again and again with other
// sites; each step starts from the one before it.
func TestPutBusinessSites(t *testing.T) {
	ctx := context.Background()
	everySite := []itemKey{
		siteKey("a.example.com", ""), siteKey("a.example.com", "/book"),
		siteKey("b.example.com", ""), siteKey("b.example.com", "/book"),
	}
	steps := []struct {
		name            string
		url, bookingURL string
		want            []itemKey       // the site items there afterwards
		hosts           map[string]bool // host: whether BusinessesAtHost finds the business
	}{
		{"first put", "https://a.example.com", "https://a.example.com/book",
			everySite[:2], map[string]bool{"a.example.com": true, "b.example.com": false}},
		{"same record again", "https://a.example.com", "https://a.example.com/book",
			everySite[:2], map[string]bool{"a.example.com": true}},
		{"url moves to another host", "https://b.example.com", "https://a.example.com/book",
			[]itemKey{everySite[1], everySite[2]}, map[string]bool{"a.example.com": true, "b.example.com": true}},
		{"booking_url follows it", "https://b.example.com", "https://www.B.example.com/book/",
			everySite[2:], map[string]bool{"a.example.com": false, "b.example.com": true}},
		{"both on one site", "https://b.example.com/book", "https://b.example.com/book",
			everySite[3:], map[string]bool{"b.example.com": true}},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				b := businessAt(t, slug, st.url, st.bookingURL)
				if err := e.store.PutBusiness(ctx, b); err != nil {
					t.Fatalf("PutBusiness() = %v", err)
				}
				for _, k := range everySite {
					got := attrS(e.item(t, k), "slug")
					want := ""
					if slices.Contains(st.want, k) {
						want = slug
					}
					if got != want {
						t.Errorf("item %v slug = %q, want %q", k, got, want)
					}
				}
				for host, want := range st.hosts {
					bs, err := e.store.BusinessesAtHost(ctx, host)
					if err != nil {
						t.Fatalf("BusinessesAtHost(%q) = %v", host, err)
					}
					if got := len(bs) == 1 && bs[0].URL == st.url; got != want || len(bs) > 1 {
						t.Errorf("BusinessesAtHost(%q) = %v, want the business: %v", host, slugs(bs), want)
					}
				}
			})
		}
	})
}

func TestPutBusinessSiteOfAnother(t *testing.T) {
	ctx := context.Background()
	forEachEngine(t, func(t *testing.T, e engine) {
		first := businessAt(t, "first-plumbing", "https://first.example.com", "https://book.example.net/first")
		if err := e.store.PutBusiness(ctx, first); err != nil {
			t.Fatalf("PutBusiness(first) = %v", err)
		}
		steps := []struct {
			name    string
			b       *booking.Business
			wantErr string // in the error; "" for none
		}{
			{"url of another", businessAt(t, "second-plumbing", "https://WWW.first.example.com/", "https://second.example.com/book"),
				`the site first.example.com is a site of business "first-plumbing"`},
			{"booking_url of another", businessAt(t, "second-plumbing", "https://second.example.com", "https://book.example.net/first/"),
				`the site book.example.net/first is a site of business "first-plumbing"`},
			{"a page under another's site", businessAt(t, "second-plumbing", "https://second.example.com", "https://book.example.net/first/second"), ""},
			{"the other moves away", businessAt(t, "first-plumbing", "https://first.example.com", "https://book.example.net/first-plumbing"), ""},
			{"the site it gave up", businessAt(t, "third-plumbing", "https://third.example.com", "https://book.example.net/first"), ""},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				before := e.item(t, itemKey{"BUSINESS#" + st.b.Slug, "PROFILE"})
				err := e.store.PutBusiness(ctx, st.b)
				if st.wantErr == "" {
					if err != nil {
						t.Fatalf("PutBusiness() = %v, want nil", err)
					}
					got, err := e.store.Business(ctx, st.b.Slug)
					if err != nil || got.BookingURL != st.b.BookingURL {
						t.Errorf("Business() = %v, %v, want the record just stored", got, err)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), st.wantErr) {
					t.Fatalf("PutBusiness() = %v, want an error containing %s", err, st.wantErr)
				}
				if after := e.item(t, itemKey{"BUSINESS#" + st.b.Slug, "PROFILE"}); jsonString(after) != jsonString(before) {
					t.Errorf("business item = %v after the refused put, want it unchanged: %v", after, before)
				}
				// second-plumbing is not stored yet: none of its sites is.
				for _, k := range []itemKey{siteKey("second.example.com", ""), siteKey("second.example.com", "/book")} {
					if got := e.item(t, k); got != nil {
						t.Errorf("item %v = %v after the refused put, want none", k, got)
					}
				}
				if got := attrS(e.item(t, siteKey("first.example.com", "")), "slug"); got != "first-plumbing" {
					t.Errorf("first.example.com site item slug = %q, want first-plumbing", got)
				}
			})
		}
	})
}
