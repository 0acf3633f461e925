package notify_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/notify"
)

// ledger is a notify.Ledger in memory, with the DynamoDB ledger's rules
// (pkg/dynamo tests those on real engines).
type ledger struct {
	mu       sync.Mutex
	items    map[string]ledgerItem
	optedOut map[string]bool
	tokens   int
	fail     error // every call fails with it when set
}

type ledgerItem struct {
	sent   bool
	token  string
	expiry time.Time
}

func newLedger() *ledger {
	return &ledger{items: map[string]ledgerItem{}, optedOut: map[string]bool{}}
}

func (l *ledger) Claim(_ context.Context, id string, now time.Time) (notify.Claim, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fail != nil {
		return notify.Claim{}, l.fail
	}
	if it, ok := l.items[id]; ok && it.expiry.After(now) {
		if it.sent {
			return notify.Claim{State: notify.AlreadySent}, nil
		}
		return notify.Claim{State: notify.InFlight, Until: it.expiry}, nil
	}
	l.tokens++
	it := ledgerItem{token: fmt.Sprint("token-", l.tokens), expiry: now.Add(notify.ClaimLease)}
	l.items[id] = it
	return notify.Claim{State: notify.Claimed, Token: it.token, Until: it.expiry}, nil
}

func (l *ledger) MarkSent(_ context.Context, id, token string, now time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if it := l.items[id]; it.token == token {
		l.items[id] = ledgerItem{sent: true, token: token, expiry: now.Add(notify.SentTTL)}
		return nil
	}
	return errors.New("the claim lapsed")
}

func (l *ledger) Release(_ context.Context, id, token string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if it := l.items[id]; it.token == token && !it.sent {
		delete(l.items, id)
	}
	return nil
}

func (l *ledger) OptedOut(_ context.Context, phone string) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.optedOut[phone], l.fail
}

func (l *ledger) RecordOptOut(_ context.Context, phone string, _ time.Time) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.optedOut[phone] = true
	return nil
}

// senders records every send. A message to an address in fail fails; a
// text to a number in optedOut is refused as opted out.
type senders struct {
	mu       sync.Mutex
	sent     []string // "id -> to"
	tries    int
	fail     map[string]bool
	optedOut map[string]bool
	bodies   map[string]string // by message ID, of the messages sent
}

func (s *senders) send(m notify.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tries++
	switch {
	case s.fail[m.To]:
		return errors.New("MessageRejected: Email address is not verified")
	case m.Channel == notify.ChannelSMS && s.optedOut[m.To]:
		return fmt.Errorf("sms: %w", notify.ErrOptedOut)
	}
	s.sent = append(s.sent, m.ID+" -> "+m.To)
	if s.bodies == nil {
		s.bodies = map[string]string{}
	}
	s.bodies[m.ID] = m.Body
	return nil
}

func (s *senders) SendEmail(_ context.Context, m notify.Message) error { return s.send(m) }
func (s *senders) SendText(_ context.Context, m notify.Message) error  { return s.send(m) }

func (s *senders) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.sent)
}

// businesses is a notify.Businesses holding the test business.
type businesses map[string]*booking.Business

func (bs businesses) Business(_ context.Context, slug string) (*booking.Business, error) {
	if b, ok := bs[slug]; ok {
		return b, nil
	}
	return nil, booking.Errorf(booking.NotFound, "no business has the slug %q", slug)
}

type fixture struct {
	n       *notify.Notifier
	ledger  *ledger
	senders *senders
	clock   *bookingtest.Clock // moved on by the Notifier's waits
	logs    *bytes.Buffer
	waited  []time.Duration
}

func newFixture(t *testing.T, edits ...func(*booking.Business)) *fixture {
	t.Helper()
	f := &fixture{ledger: newLedger(), senders: &senders{fail: map[string]bool{}, optedOut: map[string]bool{}},
		clock: bookingtest.NewClock(created), logs: &bytes.Buffer{}}
	b := business(t, edits...)
	f.n = &notify.Notifier{
		Composer: composer, Businesses: businesses{b.Slug: b},
		Email: f.senders, SMS: f.senders, Ledger: f.ledger,
		Log: slog.New(slog.NewJSONHandler(f.logs, nil)), Now: f.clock.Now,
	}
	notify.SetSleep(f.n, func(_ context.Context, d time.Duration) error {
		f.waited = append(f.waited, d)
		f.clock.Add(d)
		return nil
	})
	return f
}

const (
	email = "ana@example.com"
	phone = "+13125550147"
	inbox = "inbox@lakeview-plumbing.example.com"
)

func TestNotifySendsEachMessageOnce(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	r := request(booking.StatusNew, "en", both)
	before, after := move(r, booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted)
	for range 3 { // the stream delivers a record again whenever its batch is retried
		if err := f.n.Notify(ctx, nil, r); err != nil {
			t.Fatal(err)
		}
		if err := f.n.Notify(ctx, &before, after); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		code + "#0/received/person/email -> " + email,
		code + "#0/received/person/sms -> " + phone,
		code + "#0/new_request/business/email -> " + inbox,
		code + "#1/confirmed/person/email -> " + email,
		code + "#1/confirmed/person/sms -> " + phone,
	}
	if got := f.senders.got(); !slices.Equal(got, want) {
		t.Fatalf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if strings.Contains(f.logs.String(), email) || strings.Contains(f.logs.String(), "3125550147") {
		t.Errorf("got a contact detail in the logs:\n%s", f.logs)
	}
	// Nor the code, which opens the person's pages: its LogRef instead.
	if strings.Contains(f.logs.String(), r.Code) || !strings.Contains(f.logs.String(), booking.LogRef(r.Code)) {
		t.Errorf("got the request code in the logs, or not its LogRef:\n%s", f.logs)
	}
}

// TestNotifyRetriesOnlyTheFailedMessage: a failed send fails the change and
// releases its claim; the retry sends it, and only it.
func TestNotifyRetriesOnlyTheFailedMessage(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	r := request(booking.StatusNew, "en", both)
	f.senders.fail[email] = true
	err := f.n.Notify(ctx, nil, r)
	// The error is logged: it names the message by its code's LogRef.
	if err == nil || !strings.Contains(err.Error(), booking.LogRef(code)+"#0/received/person/email") || !strings.Contains(err.Error(), "MessageRejected") || strings.Contains(err.Error(), code) {
		t.Fatalf("got %v, want the e-mail's failure, its message named by the code's LogRef", err)
	}
	sentFirst := []string{code + "#0/received/person/sms -> " + phone, code + "#0/new_request/business/email -> " + inbox}
	if got := f.senders.got(); !slices.Equal(got, sentFirst) {
		t.Fatalf("first try: got %v, want the others sent: %v", got, sentFirst)
	}

	delete(f.senders.fail, email)
	if err := f.n.Notify(ctx, nil, r); err != nil {
		t.Fatal(err)
	}
	want := append(sentFirst, code+"#0/received/person/email -> "+email)
	if got := f.senders.got(); !slices.Equal(got, want) {
		t.Fatalf("retry: got %v, want %v", got, want)
	}
	if f.senders.tries != 4 {
		t.Errorf("got %d sends tried, want 4 (3, then only the failed one)", f.senders.tries)
	}
}

func TestNotifyOptOut(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	r := request(booking.StatusNew, "es", contact{sms: true})
	f.senders.optedOut[phone] = true
	if err := f.n.Notify(ctx, nil, r); err != nil {
		t.Fatalf("got %v, want an opted-out number to be no failure", err)
	}
	if !f.ledger.optedOut["3125550147"] {
		t.Fatal("got no opt-out recorded, want the number's")
	}
	tries := f.senders.tries
	before, after := move(r, booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted)
	if err := f.n.Notify(ctx, &before, after); err != nil {
		t.Fatal(err)
	}
	if f.senders.tries != tries {
		t.Errorf("got %d more sends, want none: an opted-out number is never texted again", f.senders.tries-tries)
	}
	// A retry of the first change does not try the text again either.
	if err := f.n.Notify(ctx, nil, r); err != nil || f.senders.tries != tries {
		t.Errorf("retry: got %v and %d more sends, want nil and none", err, f.senders.tries-tries)
	}
	want := []string{code + "#0/new_request/business/email -> " + inbox}
	if got := f.senders.got(); !slices.Equal(got, want) {
		t.Errorf("got %v, want only the business's e-mail: %v", got, want)
	}
}

func TestNotifyTextsOff(t *testing.T) {
	f := newFixture(t)
	f.n.SMS = nil
	if err := f.n.Notify(context.Background(), nil, request(booking.StatusNew, "en", both)); err != nil {
		t.Fatal(err)
	}
	want := []string{code + "#0/received/person/email -> " + email, code + "#0/new_request/business/email -> " + inbox}
	if got := f.senders.got(); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, claimed := f.ledger.items[code+"#0/received/person/sms"]; claimed {
		t.Error("got the text claimed, want it left unclaimed (texts off)")
	}
	if !strings.Contains(f.logs.String(), "texts are off") {
		t.Errorf("got logs %s, want the text logged as not sent", f.logs)
	}
}

// TestNotifyInFlight: a claim held by a process that died is waited out and
// taken over, when the deadline leaves time; otherwise the change fails and
// its retry sends the message.
func TestNotifyInFlight(t *testing.T) {
	ctx := context.Background()
	r := request(booking.StatusNew, "en", contact{email: true})
	id := code + "#0/received/person/email"
	const held = 30 * time.Second

	t.Run("time to wait", func(t *testing.T) {
		f := newFixture(t, noInbox)
		f.ledger.items[id] = ledgerItem{token: "dead", expiry: created.Add(held)}
		if err := f.n.Notify(ctx, nil, r); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(f.waited, []time.Duration{held}) || !slices.Equal(f.senders.got(), []string{id + " -> " + email}) {
			t.Fatalf("got waits %v and sent %v, want one wait of %s, then the e-mail", f.waited, f.senders.got(), held)
		}
	})
	t.Run("no time to wait", func(t *testing.T) {
		f := newFixture(t, noInbox)
		f.ledger.items[id] = ledgerItem{token: "dead", expiry: created.Add(held)}
		dctx, cancel := context.WithDeadline(ctx, created.Add(held+3*time.Second))
		defer cancel()
		err := f.n.Notify(dctx, nil, r)
		if err == nil || !strings.Contains(err.Error(), "claimed by another process") || len(f.waited) > 0 || len(f.senders.got()) > 0 {
			t.Fatalf("got %v, waits %v, sent %v, want a failure without waiting or sending", err, f.waited, f.senders.got())
		}
	})
}

func TestNotifyNearTheDeadline(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithDeadline(context.Background(), created.Add(5*time.Second))
	defer cancel()
	err := f.n.Notify(ctx, nil, request(booking.StatusNew, "en", both))
	if err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("got %v, want every message put off to the retry", err)
	}
	if len(f.ledger.items) > 0 || f.senders.tries > 0 {
		t.Errorf("got %d claims and %d sends, want none", len(f.ledger.items), f.senders.tries)
	}
}

// TestNotifyShortDeadline: an invocation with little time left still
// sends, each send given less time.
func TestNotifyShortDeadline(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithDeadline(context.Background(), created.Add(8*time.Second))
	defer cancel()
	if err := f.n.Notify(ctx, nil, request(booking.StatusNew, "en", both)); err != nil {
		t.Fatal(err)
	}
	if n := len(f.senders.got()); n != 3 {
		t.Fatalf("got %d messages, want 3", n)
	}
}

func TestNotifyLedgerDown(t *testing.T) {
	f := newFixture(t)
	f.ledger.fail = errors.New("ProvisionedThroughputExceededException")
	err := f.n.Notify(context.Background(), nil, request(booking.StatusNew, "en", both))
	if err == nil || f.senders.tries > 0 {
		t.Fatalf("got %v and %d sends, want a failure and nothing sent unclaimed", err, f.senders.tries)
	}
}

func TestNotifyBusinessGone(t *testing.T) {
	f := newFixture(t)
	r := request(booking.StatusNew, "en", both)
	r.BusinessSlug = "gone-plumbing"
	if err := f.n.Notify(context.Background(), nil, r); err != nil || f.senders.tries > 0 {
		t.Fatalf("got %v and %d sends, want nil and none (nothing a retry can fix)", err, f.senders.tries)
	}
}

// store is a booking.Store whose writes succeed unless fail is set.
type store struct {
	booking.Store
	fail error
}

func (s store) CreateRequest(context.Context, booking.Request, *booking.IdempotencyRecord, booking.Limits, time.Time) error {
	return s.fail
}

func (s store) MoveRequest(context.Context, booking.Request, booking.Request, booking.Transition, booking.Crews, time.Time) error {
	return s.fail
}

func TestNotifying(t *testing.T) {
	ctx := context.Background()
	r := request(booking.StatusNew, "en", contact{email: true})
	before, after := move(r, booking.ActionDecline, booking.ActorBusiness, booking.StatusDeclined)
	tr, _ := booking.Allowed(booking.StatusNew, booking.ActionDecline, booking.ActorBusiness)

	f := newFixture(t)
	failing := notify.Notifying(store{fail: booking.Errorf(booking.WindowTaken, "taken")}, f.n, f.n.Log)
	if err := failing.CreateRequest(ctx, r, nil, bookingtest.Unlimited, created); booking.ErrorCode(err) != booking.WindowTaken {
		t.Fatalf("got %v, want the store's error", err)
	}
	if err := failing.MoveRequest(ctx, before, after, tr, booking.Crews{}, created); booking.ErrorCode(err) != booking.WindowTaken {
		t.Fatalf("got %v, want the store's error", err)
	}
	if n := len(f.senders.got()); n > 0 {
		t.Fatalf("got %d messages after failed writes, want none", n)
	}

	ok := notify.Notifying(store{}, f.n, f.n.Log)
	if err := ok.CreateRequest(ctx, r, nil, bookingtest.Unlimited, created); err != nil {
		t.Fatal(err)
	}
	if err := ok.MoveRequest(ctx, before, after, tr, booking.Crews{}, created); err != nil {
		t.Fatal(err)
	}
	want := []string{
		code + "#0/received/person/email -> " + email,
		code + "#0/new_request/business/email -> " + inbox,
		code + "#1/cancelled/person/email -> " + email,
	}
	if got := f.senders.got(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}

	// A failed notification is logged; the write it follows stands.
	f.senders.fail[email] = true
	r2 := r
	r2.Code = "8K3M-Q9TD-2HXA"
	if err := ok.CreateRequest(ctx, r2, nil, bookingtest.Unlimited, created); err != nil {
		t.Fatalf("got %v, want the write's success", err)
	}
	if !strings.Contains(f.logs.String(), "not every message went out") {
		t.Errorf("got logs %s, want the failure logged", f.logs)
	}
}

func (s store) RecordReminder(context.Context, booking.Request, booking.Request) error {
	return s.fail
}

// TestNotifyingReminder: the local server has no stream, so the store
// wrapper sends the reminder after the write that records it commits, and
// nothing after a write that failed (another sweep recorded it first).
func TestNotifyingReminder(t *testing.T) {
	ctx := context.Background()
	_, accepted := move(request(booking.StatusNew, "en", both), booking.ActionAccept, booking.ActorBusiness, booking.StatusAccepted)
	before, after := move(accepted, booking.ActionRemind, booking.ActorSystem, booking.StatusAccepted)
	f := newFixture(t)
	lost := notify.Notifying(store{fail: booking.Errorf(booking.InvalidTransition, "reminded just now")}, f.n, f.n.Log)
	if err := lost.RecordReminder(ctx, before, after); booking.ErrorCode(err) != booking.InvalidTransition {
		t.Fatalf("got %v, want the store's error", err)
	}
	if got := f.senders.got(); len(got) > 0 {
		t.Fatalf("got %v after a failed write, want nothing", got)
	}
	ok := notify.Notifying(store{}, f.n, f.n.Log)
	for range 2 { // the second: as a retry, the Ledger sends nothing twice
		if err := ok.RecordReminder(ctx, before, after); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		code + "#2/reminder/person/email -> " + email,
		code + "#2/reminder/person/sms -> +13125550147",
	}
	if got := f.senders.got(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
