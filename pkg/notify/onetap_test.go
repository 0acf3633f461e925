package notify_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
)

// tokens is a notify.SignInTokens in memory: the records it was given.
var _ notify.SignInTokens = (*tokens)(nil)

type tokens struct {
	mu   sync.Mutex
	recs []booking.SignInRecord
	fail error
}

func (s *tokens) PutSignInToken(_ context.Context, rec booking.SignInRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	s.recs = append(s.recs, rec)
	return nil
}

// TestNotifyOneTapLink: the e-mail that tells the business of a new
// request carries a one-tap link whose token is stored for that business
// and that request, living booking.RequestLinkTTL; only the business's
// own address gets one, never the person, a preview inbox or a business
// without an inbox address; a link that cannot be stored leaves the
// inbox's page of the request instead.
func TestNotifyOneTapLink(t *testing.T) {
	const businessID = code + "#0/new_request/business/email"
	tests := []struct {
		name     string
		edits    []func(*booking.Business)
		fail     error
		wantLink bool
		wantID   string // the business's message, if any
	}{
		{"the business's inbox", nil, nil, true, businessID},
		{"no inbox address", []func(*booking.Business){noInbox}, nil, false, ""},
		{"a preview business", []func(*booking.Business){preview}, nil, false, code + "#0/new_request/preview/email"},
		{"the store fails", nil, errors.New("ProvisionedThroughputExceeded"), false, businessID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.edits...)
			links := &tokens{fail: tt.fail}
			f.n.Links = links
			r := request(booking.StatusNew, "en", both)
			if err := f.n.Notify(context.Background(), nil, r); err != nil {
				t.Fatal(err)
			}
			if got := len(links.recs); got != map[bool]int{true: 1}[tt.wantLink] {
				t.Fatalf("got %d tokens stored, want %v", got, tt.wantLink)
			}
			for id, body := range f.senders.bodies {
				if id != tt.wantID && strings.Contains(body, "/inbox/sign-in/") {
					t.Errorf("message %s carries a sign-in link:\n%s", id, body)
				}
			}
			if tt.wantID == "" {
				return
			}
			body := f.senders.bodies[tt.wantID]
			if !tt.wantLink {
				if strings.Contains(body, "/inbox/sign-in/") || !strings.Contains(body, siteURL+"/inbox/requests/"+code) {
					t.Errorf("got body\n%s\nwant the inbox's page of the request, no sign-in link", body)
				}
				return
			}
			rec := links.recs[0]
			if rec.Slug != "lakeview-plumbing" || rec.Code != code || rec.EmailHash != booking.EmailHash(inbox) ||
				!rec.Expires.Equal(created.Add(booking.RequestLinkTTL)) {
				t.Errorf("got token record %+v, want the business, the request, its inbox address, %s", rec, booking.RequestLinkTTL)
			}
			i := strings.Index(body, siteURL+"/inbox/sign-in/")
			if i < 0 {
				t.Fatalf("got body\n%s\nwant a one-tap link", body)
			}
			link := strings.Fields(body[i:])[0]
			u, err := url.Parse(link)
			if err != nil {
				t.Fatal(err)
			}
			token := strings.TrimPrefix(u.Path, "/inbox/sign-in/")
			if booking.WebTokenHash(token) != rec.TokenHash || u.Query().Get("next") != "/inbox/requests/"+code {
				t.Errorf("got link %s, want the stored token's, back to the request", link)
			}
			if strings.Contains(f.logs.String(), token) {
				t.Error("the log holds the token")
			}
		})
	}
}
