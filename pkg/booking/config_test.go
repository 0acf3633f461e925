package booking

import (
	"strings"
	"testing"
	"time"
)

// TestNew checks that New refuses a config it cannot serve with, saying
// what is wrong, and keeps the site URL without its trailing slash.
func TestNew(t *testing.T) {
	store := noStore{}
	tests := []struct {
		name    string
		c       Config
		wantErr string // "": no error
	}{
		{"all set", Config{Store: store, SiteURL: "https://book.example.com", Now: time.Now}, ""},
		{"no links to build", Config{Store: store, SiteURL: NoSiteURL, Now: time.Now}, ""},
		{"http, a port and a path", Config{Store: store, SiteURL: "http://127.0.0.1:8080/doorstep/", Now: time.Now}, ""},
		{"no store", Config{SiteURL: "https://book.example.com", Now: time.Now}, "no store"},
		{"no site URL", Config{Store: store, Now: time.Now}, `site URL must be an absolute http(s) URL without query or fragment, got ""`},
		{"a relative site URL", Config{Store: store, SiteURL: "book.example.com", Now: time.Now}, "site URL"},
		{"another scheme", Config{Store: store, SiteURL: "ftp://book.example.com", Now: time.Now}, "site URL"},
		{"a query", Config{Store: store, SiteURL: "https://book.example.com?x=1", Now: time.Now}, "site URL"},
		{"no clock", Config{Store: store, SiteURL: "https://book.example.com"}, "no clock"},
		{"nothing: every error", Config{}, "no store\nbooking: the site URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(tt.c)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("New() = %v, want no error", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("New() = %v, want an error with %q", err, tt.wantErr)
			case tt.wantErr != "" && s != nil:
				t.Errorf("New() = %v and an error, want nil", s)
			case tt.wantErr == "" && strings.HasSuffix(s.siteURL, "/"):
				t.Errorf("siteURL = %q, want no trailing slash", s.siteURL)
			}
		})
	}
}

// noStore is a Store whose every method panics: for tests of what the
// service answers without a lookup.
type noStore struct{ Store }

// testBookings returns the service c configures, stopping the test when c
// is bad.
func testBookings(t testing.TB, c Config) *Bookings {
	t.Helper()
	s, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// noClock is the clock of a service that a test never has read it:
// reading it fails the test.
func noClock(t testing.TB) func() time.Time {
	return func() time.Time {
		t.Error("the service read its clock; this test gives it none")
		return time.Time{}
	}
}
