package dynamo_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// oneCrew is the crews of a business that sets none.
var oneCrew = booking.Crews{PerWindow: 1, Ever: 1}

// createAll creates rs[i] for i in order at at under limits and returns each
// one's error code ("" when stored).
func createAll(t *testing.T, s *dynamo.Store, rs []booking.Request, limits booking.Limits, at time.Time) []booking.Code {
	t.Helper()
	codes := make([]booking.Code, len(rs))
	for i, r := range rs {
		codes[i] = code(s.CreateRequest(context.Background(), r, nil, limits, at))
	}
	return codes
}

// requests returns n requests on distinct windows (an hour apart from
// monday), from distinct phones and e-mails (from the first'th on).
func requests(n, first int) []booking.Request {
	rs := make([]booking.Request, n)
	for i := range rs {
		rs[i] = newRequest(slug, phone(first+i), monday.Add(time.Duration(first+i)*time.Hour))
	}
	return rs
}

// TestCreateRequestLimits: a business takes at most PerHour requests in any
// rolling hour and holds at most Unanswered open ones; a phone or an e-mail
// has at most three open; a refused create stores nothing and takes
// nothing.
func TestCreateRequestLimits(t *testing.T) {
	ctx := context.Background()
	t.Run("per rolling hour", func(t *testing.T) {
		forEachEngine(t, func(t *testing.T, e engine) {
			limits := booking.Limits{PerHour: 3, Unanswered: 100, Crews: oneCrew}
			rs := requests(7, 0)
			got := createAll(t, e.store, rs[:4], limits, now.Add(10*time.Minute))
			if want := []booking.Code{"", "", "", booking.RateLimited}; !equalCodes(got, want) {
				t.Fatalf("four creates at once: got %v, want %v", got, want)
			}
			err := e.store.CreateRequest(ctx, rs[3], nil, limits, now.Add(69*time.Minute))
			if wait := booking.RetryAfter(err); code(err) != booking.RateLimited || wait != time.Minute {
				t.Errorf("59 minutes later: got %v (Retry-After %s), want RATE_LIMITED after 1m", err, wait)
			}
			if got := stored(t, e.store, rs[3:4]); len(got) != 0 {
				t.Errorf("a refused create stored %v", got)
			}
			got = createAll(t, e.store, rs[3:], limits, now.Add(70*time.Minute))
			if want := []booking.Code{"", "", "", booking.RateLimited}; !equalCodes(got, want) {
				t.Errorf("an hour after the first three: got %v, want %v", got, want)
			}
		})
	})
	t.Run("unanswered at once", func(t *testing.T) {
		forEachEngine(t, func(t *testing.T, e engine) {
			if err := e.store.PutBusiness(ctx, loadBusiness(t)); err != nil {
				t.Fatal(err)
			}
			limits := booking.Limits{PerHour: 100, Unanswered: 2, Crews: oneCrew}
			rs := requests(3, 10)
			got := createAll(t, e.store, rs, limits, now)
			if want := []booking.Code{"", "", booking.RateLimited}; !equalCodes(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			if wait := booking.RetryAfter(e.store.CreateRequest(ctx, rs[2], nil, limits, now)); wait <= 0 {
				t.Errorf("got Retry-After %s, want one", wait)
			}
			bookings := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://book.example.com", Now: func() time.Time { return now }})
			if err := move(ctx, bookings, rs[0].Code, booking.ActionAccept, "", now); err != nil {
				t.Fatal(err)
			}
			if err := e.store.CreateRequest(ctx, rs[2], nil, limits, now); err != nil {
				t.Errorf("after the business answered one: got %v, want a place free", err)
			}
		})
	})
	t.Run("three open per e-mail", func(t *testing.T) {
		forEachEngine(t, func(t *testing.T, e engine) {
			rs := requests(5, 20)
			for i := range rs {
				rs[i].Contact.Email = "Same.Person@Example.com"
			}
			rs[4].Contact.Email = "someone.else@example.com"
			got := createAll(t, e.store, rs, booking.Limits{PerHour: 100, Unanswered: 100, Crews: oneCrew}, now)
			if want := []booking.Code{"", "", "", booking.TooManyOpen, ""}; !equalCodes(got, want) {
				t.Fatalf("got %v, want %v (the fourth from the same e-mail refused, in any letter case)", got, want)
			}
			if h := e.item(t, holdKey(slug, rs[3].Window.Start)); h != nil {
				t.Errorf("the refused create holds its window: %v", h)
			}
		})
	})
	t.Run("three open per mailbox, whatever its tags", func(t *testing.T) {
		forEachEngine(t, func(t *testing.T, e engine) {
			if err := e.store.PutBusiness(ctx, loadBusiness(t)); err != nil {
				t.Fatal(err)
			}
			rs := requests(4, 40)
			for i := range rs {
				rs[i].Contact.Email = fmt.Sprintf("victim+%d@example.com", i+1)
			}
			rs[3].Contact.Email = "Victim@Example.com"
			got := createAll(t, e.store, rs, booking.Limits{PerHour: 100, Unanswered: 100, Crews: oneCrew}, now)
			if want := []booking.Code{"", "", "", booking.TooManyOpen}; !equalCodes(got, want) {
				t.Fatalf("got %v, want %v (victim+1, +2, +3 and victim@ are one mailbox)", got, want)
			}
			// Counted off by the mailbox too: one answered, one more fits.
			bookings := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://book.example.com", Now: func() time.Time { return now }})
			if err := move(ctx, bookings, rs[0].Code, booking.ActionDecline, "", now); err != nil {
				t.Fatal(err)
			}
			if err := e.store.CreateRequest(ctx, rs[3], nil, booking.Limits{PerHour: 100, Unanswered: 100, Crews: oneCrew}, now); err != nil {
				t.Errorf("after one was declined: got %v, want it through", err)
			}
			// Stored as given: messages go to the address typed.
			if r, err := e.store.Request(ctx, rs[1].Code); err != nil || r.Contact.Email != "victim+2@example.com" {
				t.Errorf("got %q, %v, want the tagged address kept", r.Contact.Email, err)
			}
		})
	})
	t.Run("a request counted by its whole address before mailboxes is counted off so", func(t *testing.T) {
		forEachEngine(t, func(t *testing.T, e engine) {
			if err := e.store.PutBusiness(ctx, loadBusiness(t)); err != nil {
				t.Fatal(err)
			}
			r := requests(1, 50)[0]
			r.Contact.Email = "old+tag@example.com"
			mustCreate(t, e, r, nil, now)
			// As a create stored it before: counted on the whole address.
			item := e.item(t, requestKey(r.Code))
			delete(item, "mailbox_counted")
			legacy := itemKey{"BUSINESS#" + slug, "EMAIL#" + booking.ContactHash(slug, "email", "old+tag@example.com")}
			mailbox := itemKey{"BUSINESS#" + slug, "EMAIL#" + booking.ContactHash(slug, "email", "old@example.com")}
			counter := e.item(t, mailbox)
			e.deleteItem(t, mailbox)
			counter["sk"] = &types.AttributeValueMemberS{Value: legacy.sk}
			e.putItem(t, counter)
			e.putItem(t, item)
			bookings := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://book.example.com", Now: func() time.Time { return now }})
			if err := move(ctx, bookings, r.Code, booking.ActionDecline, "", now); err != nil {
				t.Fatalf("declining it: %v", err)
			}
			if got := attrN(t, e.item(t, legacy), "open_count"); got != 0 {
				t.Errorf("its whole address's count: got %d, want 0", got)
			}
		})
	})
	t.Run("the record of a limit hit is written once an hour", func(t *testing.T) {
		forEachEngine(t, func(t *testing.T, e engine) {
			for i, tt := range []struct {
				at   time.Time
				want bool
			}{{now.Add(5 * time.Minute), true}, {now.Add(59 * time.Minute), false}, {now.Add(61 * time.Minute), true}} {
				if first, err := e.store.RecordLimitHit(ctx, slug, tt.at); err != nil || first != tt.want {
					t.Errorf("hit %d at %s: got first %v, %v; want %v", i, tt.at.Format(time.Kitchen), first, err, tt.want)
				}
			}
		})
	})
}

// TestBlockedContacts: once a business marks a request not genuine, later
// creates from its phone or its e-mail are refused, and store nothing; other
// businesses are not concerned.
func TestBlockedContacts(t *testing.T) {
	ctx := context.Background()
	forEachEngine(t, func(t *testing.T, e engine) {
		if err := e.store.PutBusiness(ctx, loadBusiness(t)); err != nil {
			t.Fatal(err)
		}
		limits := booking.Limits{PerHour: 100, Unanswered: 100, Crews: oneCrew}
		spam := newRequest(slug, phone(30), monday)
		if err := e.store.CreateRequest(ctx, spam, nil, limits, now); err != nil {
			t.Fatal(err)
		}
		bookings := bookingtest.New(t, booking.Config{Store: e.store, SiteURL: "https://book.example.com", Now: func() time.Time { return now }})
		if err := move(ctx, bookings, spam.Code, booking.ActionSpam, "", now); err != nil {
			t.Fatal(err)
		}
		if h := e.item(t, holdKey(slug, monday)); h != nil {
			t.Errorf("the spam's window is still held: %v", h)
		}
		sameMailbox := newRequest(slug, phone(33), monday.Add(8*time.Hour))
		local, domain, _ := strings.Cut(spam.Contact.Email, "@")
		sameMailbox.Contact.Email = local + "+again@" + domain
		samePhone := newRequest(slug, phone(30), monday.Add(2*time.Hour))
		samePhone.Contact.Email = "new-name@example.com"
		sameEmail := newRequest(slug, phone(31), monday.Add(4*time.Hour))
		sameEmail.Contact.Email = spam.Contact.Email
		otherBusiness := newRequest("other-plumbing", phone(30), monday)
		tests := []struct {
			name string
			r    booking.Request
			want booking.Code
		}{
			{"the same phone, another e-mail", samePhone, booking.RequestRefused},
			{"the same e-mail, another phone", sameEmail, booking.RequestRefused},
			{"the same mailbox with a tag, another phone", sameMailbox, booking.RequestRefused},
			{"the same phone at another business", otherBusiness, ""},
			{"someone else", newRequest(slug, phone(32), monday.Add(6*time.Hour)), ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				err := e.store.CreateRequest(ctx, tt.r, nil, limits, now)
				if got := code(err); got != tt.want {
					t.Fatalf("got %v, want %q", err, tt.want)
				}
				if msg := booking.ErrorMessage(err); tt.want != "" && (strings.Contains(msg, "block") || strings.Contains(msg, "spam")) {
					t.Errorf("got message %q: a refusal does not say the contact was blocked", msg)
				}
				if tt.want != "" && len(stored(t, e.store, []booking.Request{tt.r})) != 0 {
					t.Errorf("a refused create stored the request")
				}
			})
		}
	})
}

func equalCodes(got, want []booking.Code) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// TestRaceLimits: 200 creates at once at one business, each on its own
// window from its own phone and e-mail, never let more through than the
// business's limits: the slots and the count are conditional writes in the
// create's transaction.
func TestRaceLimits(t *testing.T) {
	const n = 200
	for _, tt := range []struct {
		name   string
		limits booking.Limits
		want   int
	}{
		{"default hourly limit", booking.Limits{PerHour: booking.DefaultRequestsPerHour, Unanswered: booking.DefaultMaxUnanswered, Crews: oneCrew}, booking.DefaultRequestsPerHour},
		{"unanswered limit", booking.Limits{PerHour: 1000, Unanswered: 20, Crews: oneCrew}, 20},
	} {
		t.Run(tt.name, func(t *testing.T) {
			client, table := dynamotest.Local(t)
			s := dynamo.New(client, table)
			rs := requests(n, 0)
			begin := time.Now()
			errs := race(n, func(i int) error { return s.CreateRequest(context.Background(), rs[i], nil, tt.limits, now) })
			elapsed := time.Since(begin)
			created, limited, other := 0, 0, 0
			for _, err := range errs {
				switch code(err) {
				case "":
					created++
				case booking.RateLimited:
					limited++
				default:
					other++
					t.Errorf("got %v, want RATE_LIMITED or nothing", err)
				}
			}
			if created != tt.want || len(stored(t, s, rs)) != tt.want {
				t.Errorf("got %d created (%d stored), want exactly %d", created, len(stored(t, s, rs)), tt.want)
			}
			t.Logf("%d concurrent creates at one business (%+v): %d created, %d RATE_LIMITED, %d other, in %s",
				n, tt.limits, created, limited, other, elapsed.Round(time.Millisecond))
		})
	}
}
