package booking

import (
	"context"
	"testing"
	"time"
)

// contactStore keeps one request and stores a contact change as the real
// store does: only if the stored request is still as read.
type contactStore struct {
	oneRequestStore
	writes int
}

func (s *contactStore) ChangeContact(_ context.Context, before, after Request, _ time.Time) error {
	if s.r.Status != before.Status || len(s.r.History) != len(before.History) {
		return Errorf(InvalidTransition, "changed meanwhile")
	}
	s.r = after
	s.writes++
	return nil
}

// TestAddContact: a way to hear back is added while the request is live
// (new, pending_payment, accepted), at most MaxContactChanges times, with
// an ActionContact event naming the way; the same way again writes nothing;
// a bad address, a closed or lapsed request and a fourth change are
// refused with nothing stored.
func TestAddContact(t *testing.T) {
	at := time.Date(2026, 10, 26, 12, 0, 0, 0, time.UTC)
	start := at.Add(48 * time.Hour)
	base := func() Request {
		return Request{
			Code: "7K3M-Q9TD-2HXA", BusinessSlug: "acme", Status: StatusNew,
			Window:  Window{Start: start, End: start.Add(2 * time.Hour)},
			Contact: Contact{Name: "Ana", Phone: "3035550147"},
			History: []Event{{At: at.Add(-time.Hour), By: ActorCustomer, Action: ActionCreate, To: StatusNew}},
		}
	}
	email := func(addr string) func(context.Context, *Bookings) (Request, error) {
		return func(ctx context.Context, s *Bookings) (Request, error) {
			return s.AddEmail(ctx, "7k3m q9td 2hxa", addr)
		}
	}
	texts := func(ctx context.Context, s *Bookings) (Request, error) { return s.AllowTexts(ctx, "7K3M-Q9TD-2HXA") }
	changes := func(n int) func(*Request) {
		return func(r *Request) {
			for range n {
				r.History = append(r.History, Event{Action: ActionContact, From: r.Status, To: r.Status, Added: WayEmail})
			}
		}
	}
	tests := []struct {
		name      string
		edit      func(*Request)
		add       func(context.Context, *Bookings) (Request, error)
		wantCode  Code
		wantWrite bool
		wantEmail string
		wantSMS   bool
		wantAdded string
	}{
		{"an e-mail to a new request", nil, email(" ana@example.com "), "", true, "ana@example.com", false, WayEmail},
		{"texts to a new request", nil, texts, "", true, "", true, WaySMS},
		{"an e-mail to a request waiting for its deposit", func(r *Request) { r.Status = StatusPendingPayment; r.HoldExpires = at.Add(time.Minute) },
			email("ana@example.com"), "", true, "ana@example.com", false, WayEmail},
		{"an e-mail to an accepted request", func(r *Request) { r.Status = StatusAccepted }, email("ana@example.com"), "", true, "ana@example.com", false, WayEmail},
		{"another e-mail, correcting one", func(r *Request) { r.Contact.Email = "ana@exmaple.com" }, email("ana@example.com"), "", true, "ana@example.com", false, WayEmail},
		{"the same e-mail again: nothing written", func(r *Request) { r.Contact.Email = "Ana@Example.com" }, email("ana@example.com"), "", false, "Ana@Example.com", false, ""},
		{"texts already on: nothing written", func(r *Request) { r.Contact.SMSConsent = true }, texts, "", false, "", true, ""},
		{"the third change", changes(MaxContactChanges - 1), texts, "", true, "", true, WaySMS},
		{"a fourth change", changes(MaxContactChanges), texts, RateLimited, false, "", false, ""},
		{"an empty address", nil, email("  "), InvalidEmail, false, "", false, ""},
		{"not an address", nil, email("ana@"), InvalidEmail, false, "", false, ""},
		{"a declined request", func(r *Request) { r.Status = StatusDeclined }, texts, InvalidTransition, false, "", false, ""},
		{"a completed request", func(r *Request) { r.Status = StatusCompleted }, email("ana@example.com"), InvalidTransition, false, "", false, ""},
		{"a lapsed payment hold", func(r *Request) { r.Status = StatusPendingPayment; r.HoldExpires = at }, texts, InvalidTransition, false, "", false, ""},
		{"a new request whose window started", func(r *Request) { r.Window.Start = at }, texts, InvalidTransition, false, "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base()
			if tt.edit != nil {
				tt.edit(&r)
			}
			store := &contactStore{oneRequestStore: oneRequestStore{r: r}}
			s, err := New(Config{Store: store, SiteURL: "https://doorstep.example.com", Now: func() time.Time { return at }})
			if err != nil {
				t.Fatal(err)
			}
			got, err := tt.add(context.Background(), s)
			if code := errCode(err); code != tt.wantCode {
				t.Fatalf("add = %v, want code %q", err, tt.wantCode)
			}
			if gotWrite := store.writes == 1; gotWrite != tt.wantWrite {
				t.Errorf("written = %v, want %v", gotWrite, tt.wantWrite)
			}
			if tt.wantCode != "" {
				if store.r.Contact != r.Contact || len(store.r.History) != len(r.History) {
					t.Errorf("stored %+v with %d events after a refusal, want it as it was", store.r.Contact, len(store.r.History))
				}
				return
			}
			if got.Contact.Email != tt.wantEmail || got.Contact.SMSConsent != tt.wantSMS {
				t.Errorf("contact = %+v, want e-mail %q, texts %v", got.Contact, tt.wantEmail, tt.wantSMS)
			}
			last := got.History[len(got.History)-1]
			if tt.wantAdded == "" {
				if len(got.History) != len(r.History) {
					t.Errorf("%d events, want %d: nothing changed", len(got.History), len(r.History))
				}
				return
			}
			if last.Action != ActionContact || last.Added != tt.wantAdded || last.From != r.Status || last.To != r.Status || last.By != ActorCustomer {
				t.Errorf("last event = %+v, want contact by the customer adding %s, state kept %s", last, tt.wantAdded, r.Status)
			}
		})
	}
}

func errCode(err error) Code {
	if err == nil {
		return ""
	}
	return ErrorCode(err)
}

// TestContactWays: what a contact hears back by, and when nobody will
// write to it.
func TestContactWays(t *testing.T) {
	tests := []struct {
		contact    Contact
		want       string
		wantSilent bool
	}{
		{Contact{}, "", true},
		{Contact{Email: "a@example.com"}, "email", false},
		{Contact{SMSConsent: true}, "sms", false},
		{Contact{Email: "a@example.com", SMSConsent: true}, "email sms", false},
	}
	for _, tt := range tests {
		got := ""
		for i, w := range tt.contact.Ways() {
			if i > 0 {
				got += " "
			}
			got += w
		}
		if got != tt.want || tt.contact.Silent() != tt.wantSilent {
			t.Errorf("%+v: Ways() = %q, Silent() = %v; want %q, %v", tt.contact, got, tt.contact.Silent(), tt.want, tt.wantSilent)
		}
	}
}
