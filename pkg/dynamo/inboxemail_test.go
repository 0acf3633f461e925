package dynamo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// inboxBusiness returns the test business under slug, with a site of its
// own and the given inbox_email.
func inboxBusiness(t *testing.T, slug, email string) *booking.Business {
	t.Helper()
	b := businessAt(t, slug, "https://"+slug+".example.com", "https://"+slug+".example.com/book")
	b.InboxEmail = email
	return b
}

func inboxEmailKey(email string) itemKey {
	return itemKey{"INBOXEMAIL#" + booking.EmailHash(email), "INBOXEMAIL"}
}

// TestBusinessByInboxEmail stores one business again and again with another
// inbox_email; each step starts from the one before it.
func TestBusinessByInboxEmail(t *testing.T) {
	ctx := context.Background()
	const first, second = "inbox@first.example.com", "owner@second.example.com"
	steps := []struct {
		name  string
		email string          // the business's inbox_email
		finds map[string]bool // address asked: whether it finds the business
	}{
		{"first put", first, map[string]bool{first: true, "INBOX@First.Example.COM": true, second: false}},
		{"same record again", first, map[string]bool{first: true}},
		{"the address changes", second, map[string]bool{first: false, second: true, "Owner@Second.example.com": true}},
		{"no address", "", map[string]bool{first: false, second: false}},
		{"an address again", first, map[string]bool{first: true, second: false}},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				if err := e.store.PutBusiness(ctx, inboxBusiness(t, slug, st.email)); err != nil {
					t.Fatalf("PutBusiness() = %v", err)
				}
				for email, want := range st.finds {
					b, err := e.store.BusinessByInboxEmail(ctx, email)
					switch {
					case want && (err != nil || b.Slug != slug || b.Location() == nil):
						t.Errorf("BusinessByInboxEmail(%q) = %v, %v, want the business, validated", email, b, err)
					case !want && code(err) != booking.NotFound:
						t.Errorf("BusinessByInboxEmail(%q) = %v, %v, want NOT_FOUND", email, b, err)
					}
				}
				for _, email := range []string{first, second} {
					got := attrS(e.item(t, inboxEmailKey(email)), "slug")
					want := ""
					if email == st.email {
						want = slug
					}
					if got != want {
						t.Errorf("lookup item of %s: slug = %q, want %q", email, got, want)
					}
				}
			})
		}
	})
}

// TestInboxEmailOfAnother: two businesses cannot share an inbox_email, in
// any case; once the first gives it up, another may take it.
func TestInboxEmailOfAnother(t *testing.T) {
	ctx := context.Background()
	const shared = "office@shared.example.com"
	forEachEngine(t, func(t *testing.T, e engine) {
		if err := e.store.PutBusiness(ctx, inboxBusiness(t, "first-plumbing", shared)); err != nil {
			t.Fatalf("PutBusiness(first) = %v", err)
		}
		steps := []struct {
			name    string
			b       *booking.Business
			wantErr string // in the error; "" for none
		}{
			{"the same address", inboxBusiness(t, "second-plumbing", shared),
				`its inbox_email is the inbox_email of business "first-plumbing"`},
			{"in capitals", inboxBusiness(t, "second-plumbing", strings.ToUpper(shared)),
				`its inbox_email is the inbox_email of business "first-plumbing"`},
			{"an address of its own", inboxBusiness(t, "second-plumbing", "second@example.com"), ""},
			{"changed to the other's", inboxBusiness(t, "second-plumbing", shared),
				`its inbox_email is the inbox_email of business "first-plumbing"`},
			{"the other gives it up", inboxBusiness(t, "first-plumbing", "first@example.com"), ""},
			{"the address it gave up", inboxBusiness(t, "second-plumbing", shared), ""},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				before := e.item(t, itemKey{"BUSINESS#" + st.b.Slug, "PROFILE"})
				err := e.store.PutBusiness(ctx, st.b)
				if st.wantErr == "" {
					if err != nil {
						t.Fatalf("PutBusiness() = %v, want nil", err)
					}
					if got, err := e.store.BusinessByInboxEmail(ctx, st.b.InboxEmail); err != nil || got.Slug != st.b.Slug {
						t.Errorf("BusinessByInboxEmail() = %v, %v, want %s", got, err, st.b.Slug)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), st.wantErr) {
					t.Fatalf("PutBusiness() = %v, want an error containing %s", err, st.wantErr)
				}
				if strings.Contains(strings.ToLower(err.Error()), shared) {
					t.Errorf("PutBusiness() = %v: the error names the address", err)
				}
				if after := e.item(t, itemKey{"BUSINESS#" + st.b.Slug, "PROFILE"}); jsonString(after) != jsonString(before) {
					t.Errorf("business item = %v after the refused put, want it unchanged: %v", after, before)
				}
				if got, err := e.store.BusinessByInboxEmail(ctx, shared); err != nil || got.Slug != "first-plumbing" {
					t.Errorf("BusinessByInboxEmail(shared) = %v, %v, want first-plumbing", got, err)
				}
			})
		}
	})
}
