package inboxweb_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/htmlpage/pagetest"
	"github.com/doorstep/doorstep/pkg/httpapi/openapitest"
	"github.com/doorstep/doorstep/pkg/inboxweb"
)

const siteURL = "https://book.example.com"

// demoFile is the local server's demo businesses.
var demoFile = filepath.Join("..", "..", "infra", "local", "businesses.json")

// start is the fixtures' clock at the beginning: Monday 2026-11-23, 8:00 AM
// in Denver and Phoenix.
var start = time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)

// The person's details, as the business sees them.
const (
	personName  = "Quentin Zebulon"
	personPhone = "720555014" // and a last digit per request
	personEmail = "quentin.zebulon@example.com"
	street      = "4417 Wisteria Lane"
	unit        = "Apt 9Q"
	city        = "Lakewood"
	description = "The breaker trips <b>twice</b> a day."
)

// sentMail is a sign-in e-mail the fixture's mailer got.
type sentMail struct {
	to, slug, link string
}

type mailer struct {
	mu      sync.Mutex
	sent    []sentMail
	changes []sentMail // the links that confirm a new inbox address
	signups []signupMail
}

// signupMail is a sign-up e-mail the fixture's mailer got.
type signupMail struct {
	to, name, lang, link string
}

func (m *mailer) SendSignup(_ context.Context, to, name, lang, link string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.signups = append(m.signups, signupMail{to, name, lang, link})
	return nil
}

// signupsSent returns the sign-up e-mails sent so far.
func (m *mailer) signupsSent() []signupMail {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]signupMail(nil), m.signups...)
}

func (m *mailer) SendSignIn(_ context.Context, to string, b *booking.Business, link string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, sentMail{to, b.Slug, link})
	return nil
}

func (m *mailer) SendInboxEmailChange(_ context.Context, to string, b *booking.Business, link string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.changes = append(m.changes, sentMail{to, b.Slug, link})
	return nil
}

func (m *mailer) last(t *testing.T) sentMail {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.sent) == 0 {
		t.Fatal("no sign-in e-mail was sent")
	}
	return m.sent[len(m.sent)-1]
}

func (m *mailer) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sent)
}

// syncBuffer is a log the handler writes while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// countingStore is the real store (on minidyn) that counts what the tests
// look into: the reads of a request, and the sign-in links asked for; and
// that fails the count of a sign-in link, or lets another move win a
// race, when told to.
type countingStore struct {
	*dynamo.Store

	mu           sync.Mutex
	requestReads int
	signIns      int
	signInErr    error  // CountSignIn fails with it
	beforeMove   func() // run once, between a move's read and its write
	moveErr      error  // the next move's write fails with it, and stores nothing
}

func (s *countingStore) MoveRequest(ctx context.Context, before, after booking.Request, t booking.Transition, crews booking.Crews, now time.Time) error {
	s.mu.Lock()
	meanwhile, failed := s.beforeMove, s.moveErr
	s.beforeMove, s.moveErr = nil, nil
	s.mu.Unlock()
	if meanwhile != nil {
		meanwhile()
	}
	if failed != nil {
		return failed
	}
	return s.Store.MoveRequest(ctx, before, after, t, crews, now)
}

// moveMeanwhile has meanwhile run between the next move's read and its
// write: another move that wins the race.
func (s *countingStore) moveMeanwhile(meanwhile func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.beforeMove = meanwhile
}

func (s *countingStore) Request(ctx context.Context, code string) (*booking.Request, error) {
	s.mu.Lock()
	s.requestReads++
	s.mu.Unlock()
	return s.Store.Request(ctx, code)
}

func (s *countingStore) CountSignIn(ctx context.Context, emailHash string, limit int, now time.Time) (bool, error) {
	s.mu.Lock()
	s.signIns++
	err := s.signInErr
	s.mu.Unlock()
	if err != nil {
		return false, err
	}
	return s.Store.CountSignIn(ctx, emailHash, limit, now)
}

// reads is how many times a request was read.
func (s *countingStore) reads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requestReads
}

// signInsAsked is how many sign-in links were asked for.
func (s *countingStore) signInsAsked() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.signIns
}

// failSignIns has every sign-in link asked for fail with err (nil: none).
func (s *countingStore) failSignIns(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signInErr = err
}

type fixture struct {
	phones   int
	clock    *bookingtest.Clock
	store    *dynamo.Store
	client   *dynamodb.Client // the table's, for a store of another process (ctl)
	table    string
	counted  *countingStore
	bookings *booking.Bookings
	mail     *mailer
	log      *syncBuffer
	h        http.Handler
	config   inboxweb.Config // what h was made of
}

// newFixture serves the inbox over the real service, on minidyn, with the
// local server's demo businesses.
func newFixture(t *testing.T, config func(*inboxweb.Config)) *fixture {
	t.Helper()
	return newFixtureWith(t, nil, config)
}

// newFixtureWith is newFixture with the service's configuration changed
// by service (when not nil) too.
func newFixtureWith(t *testing.T, service func(*booking.Config), config func(*inboxweb.Config)) *fixture {
	t.Helper()
	return newFixtureOn(t, nil, service, config)
}

// newFixtureOn is newFixtureWith on the store options given (a business
// cache on the fixture's clock: withCache); the fixture's client and table
// are another process's way to the same table (ctl's).
func newFixtureOn(t *testing.T, options func(*bookingtest.Clock) []dynamo.Option, service func(*booking.Config), config func(*inboxweb.Config)) *fixture {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	clock := bookingtest.NewClock(start)
	var opts []dynamo.Option
	if options != nil {
		opts = options(clock)
	}
	f := &fixture{clock: clock, store: dynamo.New(client, table, opts...), client: client, table: table, mail: &mailer{}, log: &syncBuffer{}}
	dynamotest.PutBusinesses(t, f.store, demoFile, nil)
	f.counted = &countingStore{Store: f.store}
	bc := booking.Config{Store: f.counted, SiteURL: siteURL, Now: f.clock.Now}
	if service != nil {
		service(&bc)
	}
	f.bookings = bookingtest.New(t, bc)
	c := inboxweb.Config{
		Bookings: f.bookings, Mailer: f.mail, SiteURL: siteURL, SignInDelay: 20 * time.Millisecond,
		Now: f.clock.Now, Log: slog.New(slog.NewJSONHandler(f.log, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if config != nil {
		config(&c)
	}
	f.h, f.config = inboxweb.New(c), c
	return f
}

// create sends a request to slug for the first open window daysAhead days
// from today in the business's time zone; urgency "" is the default. A
// deposit is paid (simulated), so that the business sees the request.
func (f *fixture) create(t *testing.T, slug, urgency, assistant string, daysAhead int) string {
	t.Helper()
	return f.createAt(t, slug, urgency, assistant, daysAhead, 0)
}

// createAt is create for the nth open window of the day.
func (f *fixture) createAt(t *testing.T, slug, urgency, assistant string, daysAhead, nth int) string {
	t.Helper()
	return f.createFor(t, slug, urgency, assistant, daysAhead, nth, nil)
}

// createFor is createAt with the contact changed by contact (when not
// nil) before the request is sent.
func (f *fixture) createFor(t *testing.T, slug, urgency, assistant string, daysAhead, nth int, contact func(*booking.Contact)) string {
	t.Helper()
	ctx := context.Background()
	b := f.business(t, slug)
	from := f.clock.Now().In(b.Location()).AddDate(0, 0, daysAhead)
	w := f.windows(t, b, from.Format("2006-01-02"), 1)
	if len(w) <= nth {
		t.Fatalf("no open window %d of %s on %s", nth, slug, from.Format("2006-01-02"))
	}
	zip := b.ServiceArea.ZIPCodes[0]
	lang := "en"
	in := booking.CreateInput{
		WindowStart: w[nth].Start,
		Address:     booking.Address{Street: street, Unit: unit, City: city, ZIP: zip},
		Contact:     booking.Contact{Name: personName, Phone: fmt.Sprint(personPhone, f.phones%10), Email: fmt.Sprint(f.phones%10, personEmail), SMSConsent: true},
		Description: description, Language: &lang, DepositAccepted: true, AssistantName: assistant,
	}
	if urgency != "" {
		in.Urgency = &urgency
	}
	if contact != nil {
		contact(&in.Contact)
	}
	f.phones++
	c, _, err := f.bookings.CreateRequest(ctx, b, in)
	if err != nil {
		t.Fatal(err)
	}
	if c.PaymentURL != nil {
		if _, err := f.bookings.PaySimulated(ctx, c.Code); err != nil {
			t.Fatalf("pay: %v", err)
		}
	}
	return c.Code
}

func (f *fixture) business(t *testing.T, slug string) *booking.Business {
	return pagetest.Business(t, f.bookings, slug)
}

func (f *fixture) windows(t *testing.T, b *booking.Business, from string, days int) []booking.Window {
	return pagetest.Windows(t, f.bookings, b, from, days)
}

// request reads a stored request, whoever's it is.
func (f *fixture) request(t *testing.T, code string) booking.Request {
	return pagetest.Request(t, f.bookings, code)
}

// inbox opens the inbox of slug, as the operator does.
func (f *fixture) inbox(t *testing.T, slug string) *booking.Inbox {
	return bookingtest.Inbox(t, f.bookings, slug)
}

// sessionOpen reports whether the session of token is open, server-side.
func (f *fixture) sessionOpen(t *testing.T, token string) bool {
	t.Helper()
	_, err := f.bookings.OpenSession(context.Background(), token)
	if err != nil && booking.ErrorCode(err) != booking.Unauthorized {
		t.Fatal(err)
	}
	return err == nil
}

// lastToken is the sign-in token of the last link e-mailed.
func (f *fixture) lastToken(t *testing.T) string {
	t.Helper()
	path, _, _ := strings.Cut(strings.TrimPrefix(f.mail.last(t).link, siteURL+"/inbox/sign-in/"), "?")
	return path
}

// businessMove makes a move as the business slug, outside the web inbox.
func (f *fixture) businessMove(t *testing.T, slug, code string, action booking.Action, windowStart string) {
	pagetest.BusinessMove(t, f.bookings, slug, code, action, windowStart)
}

// response is an answer of the inbox.
type response struct {
	status   int
	header   http.Header
	body     string
	location string
}

// cookie returns the Set-Cookie of name, nil when none.
func (r response) cookie(name string) *http.Cookie {
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// agent is a browser: its session cookie (if any) and its origin.
type agent struct {
	session string
	header  []string // more headers, in pairs; a POST has Sec-Fetch-Site: same-origin unless they say "" (not sent)
}

// do sends a request as a, form posted when not nil, and checks the
// exchange against the OpenAPI document (openapitest).
func (f *fixture) do(t *testing.T, a agent, method, path string, form url.Values) response {
	t.Helper()
	req := pagetest.NewRequest(method, path, form, a.header...)
	if a.session != "" {
		req.AddCookie(&http.Cookie{Name: inboxweb.CookieName, Value: a.session})
	}
	if method == http.MethodPost { // as a browser sends a form of this site
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	for i := 0; i+1 < len(a.header); i += 2 {
		if a.header[i+1] == "" { // not sent
			req.Header.Del(a.header[i])
			continue
		}
		req.Header.Set(a.header[i], a.header[i+1])
	}
	res := pagetest.Recorded(openapitest.Serve(t, f.h, req))
	return response{status: res.Status, header: res.Header, body: res.Body, location: res.Location}
}

// signIn signs in as slug through the pages (the form, the e-mailed link,
// its button) and returns the browser with its session, and the CSRF token
// of its forms.
func (f *fixture) signIn(t *testing.T, slug string) (agent, string) {
	t.Helper()
	b := f.business(t, slug)
	res := f.do(t, agent{}, "POST", "/inbox/sign-in", url.Values{"email": {strings.ToUpper(b.InboxEmail)}})
	if res.status != http.StatusOK {
		t.Fatalf("sign-in form: got %d", res.status)
	}
	m := f.mail.last(t)
	if m.slug != slug || m.to != b.InboxEmail {
		t.Fatalf("got a link for %s to %s, want %s to %s", m.slug, m.to, slug, b.InboxEmail)
	}
	path := strings.TrimPrefix(m.link, siteURL)
	res = f.do(t, agent{}, "POST", path, url.Values{})
	c := res.cookie(inboxweb.CookieName)
	if res.status != http.StatusSeeOther || c == nil {
		t.Fatalf("sign in: got %d, cookie %v", res.status, c)
	}
	a := agent{session: c.Value}
	return a, f.csrf(t, a)
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf reads the CSRF token of a's forms off the inbox page.
func (f *fixture) csrf(t *testing.T, a agent) string {
	t.Helper()
	res := f.do(t, a, "GET", "/inbox", nil)
	m := csrfField.FindStringSubmatch(res.body)
	if m == nil {
		t.Fatalf("no CSRF token on the inbox page (%d):\n%s", res.status, res.body)
	}
	return m[1]
}

// wantIn and wantNotIn are pagetest's.
var (
	wantIn    = pagetest.WantIn
	wantNotIn = pagetest.WantNotIn
)
