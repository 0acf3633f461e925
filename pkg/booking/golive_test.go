package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// previewBusiness is split-day-plumbing in preview, not accepting, with
// its checklist whole (a confirmed mobile, services, ZIP codes, hours) and
// the deposit of deposit-plumbing, simulated as a preview's is.
func previewBusiness(t *testing.T) *Business {
	t.Helper()
	b := signInBusiness(t)
	b.Preview, b.AcceptingRequests = true, false
	b.OwnerPhone = "6025550199"
	d := *testBusinesses(t)["deposit-plumbing"].BookingDeposit
	d.Simulated = true
	b.BookingDeposit = &d
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	return b
}

// noticeBox keeps what the operator was told.
type noticeBox struct {
	asked []string
	err   error
}

func (n *noticeBox) AskApproval(_ context.Context, b *Business) error {
	n.asked = append(n.asked, b.Slug)
	return n.err
}

func goLiveService(t *testing.T, approval string, b *Business) (*Bookings, *signInStore, *noticeBox) {
	t.Helper()
	store := newSignInStore(b)
	box := &noticeBox{}
	clock := &signInClock{t: utc("2026-11-20T15:20:00Z")}
	s := testBookings(t, Config{Store: store, SiteURL: "https://book.example.com", Now: clock.now, NewBusinessApproval: approval, Operator: box})
	return s, store, box
}

func TestChecklist(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Business)
		want   []string // the missing items
	}{
		{"all there", func(*Business) {}, nil},
		{"no inbox e-mail", func(b *Business) { b.InboxEmail = "" }, []string{"email"}},
		{"no confirmed mobile", func(b *Business) { b.OwnerPhone = "" }, []string{"mobile"}},
		{"no service", func(b *Business) { b.Services = nil }, []string{"service"}},
		{"no ZIP code", func(b *Business) { b.ServiceArea.ZIPCodes = nil }, []string{"zip"}},
		{"closed every day", func(b *Business) { b.Hours = Hours{} }, []string{"hours"}},
		{"nothing", func(b *Business) {
			b.InboxEmail, b.OwnerPhone, b.Services, b.ServiceArea.ZIPCodes, b.Hours = "", "", nil, nil, Hours{}
		}, []string{"email", "mobile", "service", "zip", "hours"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := *previewBusiness(t)
			tt.change(&b)
			ok, got := b.Ready()
			if !slices.Equal(got, tt.want) || ok != (len(tt.want) == 0) {
				t.Errorf("Ready() = %v, %v; want missing %v", ok, got, tt.want)
			}
		})
	}
}

func TestGoLive(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"

	t.Run("auto: live at once", func(t *testing.T) {
		s, store, box := goLiveService(t, ApprovalAuto, previewBusiness(t))
		got, err := inboxOf(s, store.bs[slug]).GoLive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b := store.bs[slug]
		if b.Preview || !b.AcceptingRequests || b.BookingDeposit.Simulated || b.LiveState() != StateLive || got.LiveState() != StateLive {
			t.Errorf("stored preview %v, accepting %v, deposit simulated %v, state %s; want live, accepting, not simulated",
				b.Preview, b.AcceptingRequests, b.BookingDeposit.Simulated, b.LiveState())
		}
		if len(box.asked) != 0 {
			t.Errorf("the operator was asked %v, want nothing", box.asked)
		}
		if n := len(b.Changes); n != 1 || b.Changes[0].By != inboxEmail || !slices.Equal(b.Changes[0].Fields, []string{"accepting_requests", "preview"}) {
			t.Errorf("changes %+v, want one by %s of accepting_requests and preview", b.Changes, inboxEmail)
		}
	})

	t.Run("operator: waits, the operator is told, approval publishes", func(t *testing.T) {
		s, store, box := goLiveService(t, ApprovalOperator, previewBusiness(t))
		got, err := inboxOf(s, store.bs[slug]).GoLive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b := store.bs[slug]
		if !b.Preview || b.AcceptingRequests || !b.Waiting() || got.LiveState() != StateWaiting || !b.ApprovalAsked.Equal(utc("2026-11-20T15:20:00Z")) {
			t.Errorf("stored preview %v, accepting %v, state %s, asked %v; want waiting in preview since now", b.Preview, b.AcceptingRequests, b.LiveState(), b.ApprovalAsked)
		}
		if !slices.Equal(box.asked, []string{slug}) {
			t.Errorf("the operator was asked %v, want %s once", box.asked, slug)
		}
		approved := *b
		if published, missing := Approve(&approved); !published || missing != nil {
			t.Fatalf("Approve() = %v, %v; want published", published, missing)
		}
		if approved.Preview || !approved.AcceptingRequests || approved.Waiting() || !approved.Approved || approved.BookingDeposit.Simulated {
			t.Errorf("approved: %s, accepting %v, approved %v; want live", approved.LiveState(), approved.AcceptingRequests, approved.Approved)
		}
		if err := approved.Validate(); err != nil {
			t.Errorf("the approved record does not load: %v", err)
		}
		// Back to preview, then live again: approved once is enough.
		store.bs[slug] = &approved
		if _, err := inboxOf(s, &approved).BackToPreview(ctx); err != nil {
			t.Fatal(err)
		}
		if b := store.bs[slug]; !b.Preview || !b.BookingDeposit.Simulated {
			t.Errorf("back to preview: preview %v, deposit simulated %v; want both", b.Preview, b.BookingDeposit.Simulated)
		}
		if _, err := inboxOf(s, store.bs[slug]).GoLive(ctx); err != nil {
			t.Fatal(err)
		}
		if b := store.bs[slug]; b.LiveState() != StateLive || len(box.asked) != 1 {
			t.Errorf("again: state %s, asked %v; want live without asking", b.LiveState(), box.asked)
		}
	})

	t.Run("operator not told: still waits, the error says so", func(t *testing.T) {
		s, store, box := goLiveService(t, ApprovalOperator, previewBusiness(t))
		box.err = errors.New("sns down")
		_, err := inboxOf(s, store.bs[slug]).GoLive(ctx)
		if err == nil || !strings.Contains(err.Error(), "sns down") {
			t.Errorf("GoLive() = %v, want the notice's error", err)
		}
		if !store.bs[slug].Waiting() {
			t.Error("the business does not wait")
		}
	})

	for _, missing := range []string{"mobile", "service", "hours"} {
		t.Run("not ready: "+missing, func(t *testing.T) {
			b := previewBusiness(t)
			switch missing {
			case "mobile":
				b.OwnerPhone = ""
			case "service":
				b.Services = nil
			case "hours":
				b.Hours = Hours{}
			}
			s, store, box := goLiveService(t, ApprovalAuto, b)
			_, err := inboxOf(s, b).GoLive(ctx)
			if ErrorCode(err) != InvalidRequest || !strings.Contains(err.Error(), missing) {
				t.Errorf("GoLive() = %v, want INVALID_REQUEST naming %s", err, missing)
			}
			if store.bs[slug] != b || len(box.asked) != 0 {
				t.Error("something was stored, or the operator told")
			}
		})
	}

	t.Run("the checklist is read inside the write, not before it", func(t *testing.T) {
		b := previewBusiness(t)
		s, store, _ := goLiveService(t, ApprovalAuto, b)
		// The inbox was opened on a ready record; the owner's phone went
		// since (another tab).
		gone := *b
		gone.OwnerPhone = ""
		store.bs[slug] = &gone
		if _, err := inboxOf(s, b).GoLive(ctx); ErrorCode(err) != InvalidRequest {
			t.Errorf("GoLive() = %v, want INVALID_REQUEST", err)
		}
		if store.bs[slug].LiveState() != StatePreview {
			t.Error("it went live on an old read")
		}
	})
}

// TestOwnerWritesKeepOperatorFields: no change the domain makes for the
// owner, through the one path every change goes through, may change an
// operator's field; a suspended business's owner changes nothing.
func TestOwnerWritesKeepOperatorFields(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"
	tests := []struct {
		field  string
		change func(*Business)
	}{
		{"example", func(b *Business) { b.Example = true }},
		{"booking_deposit", func(b *Business) { d := *b.BookingDeposit; d.AmountCents = 100; b.BookingDeposit = &d }},
		{"booking_deposit", func(b *Business) { b.BookingDeposit = nil }},
		{"requests_per_hour", func(b *Business) { b.RequestsPerHour = 500 }},
		{"max_unanswered", func(b *Business) { b.MaxUnanswered = 500 }},
		{"approved", func(b *Business) { b.Approved = true }},
		{"suspended", func(b *Business) { b.Suspended = true }},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			s, store, _ := goLiveService(t, ApprovalAuto, previewBusiness(t))
			before := store.bs[slug]
			err := s.store.UpdateBusiness(ctx, slug, func(stored *Business) (*Business, error) {
				c := *stored
				tt.change(&c)
				return &c, nil
			})
			if ErrorCode(err) != InvalidRequest || !strings.Contains(err.Error(), tt.field) {
				t.Errorf("got %v, want INVALID_REQUEST naming %s", err, tt.field)
			}
			if store.bs[slug] != before {
				t.Error("it was stored")
			}
		})
	}
	if !slices.Contains(OperatorFields, "booking_deposit") || len(OperatorFields) != 6 {
		t.Errorf("OperatorFields = %v", OperatorFields)
	}

	t.Run("suspended: read-only", func(t *testing.T) {
		b := previewBusiness(t)
		b.Suspended = true
		s, store, _ := goLiveService(t, ApprovalAuto, b)
		in := inboxOf(s, b)
		for name, change := range map[string]func() error{
			"pause":           func() error { _, err := in.SetAcceptingRequests(ctx, false); return err },
			"go live":         func() error { _, err := in.GoLive(ctx); return err },
			"back to preview": func() error { _, err := in.BackToPreview(ctx); return err },
			"schedule":        func() error { _, err := in.UpdateSchedule(ctx, b.Schedule().Version(), b.Schedule()); return err },
			"move":            func() error { _, err := in.Move(ctx, "ABC-234", ActionAccept, time.Time{}); return err },
		} {
			if err := change(); ErrorCode(err) != BookingPaused || !strings.Contains(err.Error(), "read-only") {
				t.Errorf("%s: got %v, want BOOKING_PAUSED saying the inbox is read-only", name, err)
			}
		}
		if store.bs[slug] != b {
			t.Error("something was stored")
		}
		pub, err := s.Business(ctx, slug)
		if err != nil || pub.AcceptingRequests {
			t.Errorf("getBusiness: %v, accepting %v; want not accepting", err, pub != nil && pub.AcceptingRequests)
		}
	})
}

func TestHistoryKeepsTheLastChanges(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"
	s, store, _ := goLiveService(t, ApprovalAuto, previewBusiness(t))
	in := inboxOf(s, store.bs[slug])
	for i := range MaxChanges + 5 {
		if _, err := in.SetAcceptingRequests(ctx, i%2 == 0); err != nil {
			t.Fatal(err)
		}
	}
	// A change that changes nothing is not one.
	if _, err := in.SetAcceptingRequests(ctx, true); err != nil {
		t.Fatal(err)
	}
	b := store.bs[slug]
	if len(b.Changes) != MaxChanges {
		t.Fatalf("got %d changes, want the last %d", len(b.Changes), MaxChanges)
	}
	for i, c := range b.Changes {
		if c.By != inboxEmail || !slices.Equal(c.Fields, []string{"accepting_requests"}) || !c.At.Equal(utc("2026-11-20T15:20:00Z")) {
			t.Errorf("change %d: %+v", i, c)
		}
	}
	// The operator's change is recorded as the operator's.
	at := utc("2026-11-21T09:00:00Z")
	err := OperatorUpdate(ctx, store, slug, at, func(stored *Business) (*Business, error) {
		c := *stored
		c.RequestsPerHour = 40
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	last := store.bs[slug].Changes[MaxChanges-1]
	if got := fmt.Sprintf("%s %s %v", last.By, last.At.Format(time.RFC3339), last.Fields); got != "operator 2026-11-21T09:00:00Z [requests_per_hour]" {
		t.Errorf("the operator's change: got %s", got)
	}
	if len(b.Changes) != MaxChanges || &b.Changes[0] == &store.bs[slug].Changes[0] {
		t.Error("a change shares or grows the history of the record it was made from")
	}
}

// TestFieldOwnership: every field of a business record is the operator's
// (OperatorFields), the owner's (OwnerFieldNames), or one a load handles
// apart; and the owner's include what an owner sets in settings.
func TestFieldOwnership(t *testing.T) {
	all, owners := RecordFieldNames(), OwnerFieldNames()
	for _, f := range OperatorFields {
		if !slices.Contains(all, f) || slices.Contains(owners, f) {
			t.Errorf("operator's field %s: in the record %v, the owner's %v", f, slices.Contains(all, f), slices.Contains(owners, f))
		}
	}
	for _, f := range all {
		if n := btoi(slices.Contains(OperatorFields, f)) + btoi(slices.Contains(owners, f)) + btoi(slices.Contains(loadKeeps, f)); n != 1 {
			t.Errorf("field %s has %d owners, want 1", f, n)
		}
	}
	for _, f := range []string{"days_off", "hours", "min_notice_minutes", "crews_per_window", "reminder_hour", "owner_phone", "services", "service_area", "preview", "accepting_requests"} {
		if !slices.Contains(owners, f) {
			t.Errorf("%s is not the owner's", f)
		}
	}
}

// TestOfferEditsAreTheOwnersChanges: the offer's sections write through
// UpdateBusinessAt, which goes through ownerWrites as UpdateBusiness does:
// each edit is kept in the history as the owner's, and a suspended
// business's edit is refused with nothing stored.
func TestOfferEditsAreTheOwnersChanges(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"
	tests := []struct {
		name      string
		suspended bool
	}{
		{"kept in the history", false},
		{"suspended: refused", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := previewBusiness(t)
			b.Suspended = tt.suspended
			s, store, _ := goLiveService(t, ApprovalAuto, b)
			before := store.bs[slug]
			in := inboxOf(s, before)
			next := before.Area()
			next.ZIPCodes = append(next.ZIPCodes, "85099")
			_, err := in.UpdateArea(ctx, before.Area().Version(), next)
			after := store.bs[slug]
			if tt.suspended {
				if err == nil || after != before {
					t.Fatalf("got %v, stored %t; want a refusal and nothing stored", err, after != before)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(after.Changes) == 0 {
				t.Fatal("got no change in the history")
			}
			last := after.Changes[len(after.Changes)-1]
			if got := fmt.Sprintf("%s %v", last.By, last.Fields); got != inboxEmail+" [service_area]" {
				t.Errorf("got %s, want %s [service_area]", got, inboxEmail)
			}
		})
	}
}

// settingUpBusiness is previewBusiness as a sign-up leaves it: in preview,
// not accepting requests, without a public phone, city, state, service
// area or service.
func settingUpBusiness(t *testing.T) *Business {
	t.Helper()
	b := previewBusiness(t)
	b.Phone, b.City, b.State, b.ServiceArea, b.Services = "", "", "", ServiceArea{ZIPCodes: []string{}}, []Service{}
	b.BookingDeposit = nil
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestResumeNeedsWhatRequestsNeed: a business takes requests, in preview
// too, only once it has what a request needs; resuming one that lacks it
// is refused with the code the edge maps to a sentence, naming what is
// missing, and stores nothing. Pausing is always allowed.
func TestResumeNeedsWhatRequestsNeed(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"
	tests := []struct {
		name     string
		business func(*testing.T) *Business
		on       bool
		missing  string // "" when it is stored
	}{
		{"set up: resume", settingUpBusiness, true, "service, zip, details"},
		{"set up: pause", settingUpBusiness, false, ""},
		{"set up but a ZIP code: resume", func(t *testing.T) *Business {
			b := settingUpBusiness(t)
			b.ServiceArea = previewBusiness(t).ServiceArea
			return b
		}, true, "service, details"},
		{"preview, ready: resume", previewBusiness, true, ""},
		{"live: pause", func(t *testing.T) *Business { return signInBusiness(t) }, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.business(t)
			s, store, _ := goLiveService(t, ApprovalAuto, b)
			got, err := inboxOf(s, b).SetAcceptingRequests(ctx, tt.on)
			if tt.missing != "" {
				if ErrorCode(err) != InvalidRequest || !strings.HasPrefix(ErrorMessage(err), ErrorMessage(ErrRequestsNotReady)) || !strings.HasSuffix(err.Error(), "missing "+tt.missing) {
					t.Fatalf("SetAcceptingRequests(%v) = %v, want INVALID_REQUEST %q missing %s", tt.on, err, ErrorMessage(ErrRequestsNotReady), tt.missing)
				}
				if store.bs[slug] != b {
					t.Error("something was stored")
				}
				return
			}
			if err != nil {
				t.Fatalf("SetAcceptingRequests(%v) = %v", tt.on, err)
			}
			if got.AcceptingRequests != tt.on || store.bs[slug].AcceptingRequests != tt.on {
				t.Errorf("accepting: got %v, stored %v; want %v", got.AcceptingRequests, store.bs[slug].AcceptingRequests, tt.on)
			}
		})
	}
}

// TestOwnerChangeValidated: an owner's change through the one path
// (changeBusiness) whose record Validate refuses is INVALID_REQUEST naming
// the field, never a server error, and stores nothing.
func TestOwnerChangeValidated(t *testing.T) {
	b := settingUpBusiness(t)
	s, store, _ := goLiveService(t, ApprovalAuto, b)
	_, err := s.changeBusiness(context.Background(), b.Slug, func(changed *Business) error {
		changed.AcceptingRequests = true // a record that takes requests needs a phone
		return nil
	})
	if ErrorCode(err) != InvalidRequest || !strings.Contains(err.Error(), "phone") {
		t.Errorf("changeBusiness() = %v, want INVALID_REQUEST naming the phone", err)
	}
	if store.bs[b.Slug] != b {
		t.Error("something was stored")
	}
}
