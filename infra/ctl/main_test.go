package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// now is ctl's clock in these tests: Friday 2026-11-20 18:00 UTC, 11:00 in
// Phoenix (UTC-7 all year), where desert-cool-hvac is.
var now = time.Date(2026, 11, 20, 18, 0, 0, 0, time.UTC)

const (
	desert = "desert-cool-hvac"      // no deposit, open 24/7 in 2-hour windows
	austin = "austin-rapid-plumbing" // takes a deposit
)

func TestMain(m *testing.M) { dynamotest.Main(m) }

// fixture is a fresh table on one engine, minidyn or DynamoDB Local, both
// served over HTTP: ctl reaches it through its endpoint, as an operator's
// would, and the tests set up and check through a store of the same table.
type fixture struct {
	endpoint string
	table    string
	store    *dynamo.Store
}

// forEachEngine runs test as a subtest on each engine, each with a fresh
// table. The table is dynamotest's, with the TTL off: ctl's create-table
// would turn it on, and DynamoDB Local would then delete the test's holds,
// whose windows are in the past by the wall clock.
func forEachEngine(t *testing.T, test func(t *testing.T, f *fixture)) {
	t.Helper()
	for _, eng := range dynamotest.Engines() {
		t.Run(eng.Name, func(t *testing.T) {
			client, table := eng.Open(t)
			test(t, &fixture{endpoint: aws.ToString(client.Options().BaseEndpoint), table: table, store: dynamo.New(client, table)})
		})
	}
}

// run runs ctl at now with the environment an operator of DynamoDB Local
// would have: DYNAMODB_ENDPOINT and TABLE_NAME set, no AWS credentials.
func (f *fixture) run(args ...string) (code int, stdout, stderr string) {
	var out, errOut strings.Builder
	env := map[string]string{"DYNAMODB_ENDPOINT": f.endpoint, "TABLE_NAME": f.table}
	c := &ctl{stdout: &out, stderr: &errOut, now: func() time.Time { return now }, getenv: func(k string) string { return env[k] }}
	code = c.run(context.Background(), args)
	return code, out.String(), errOut.String()
}

func (f *fixture) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := f.run(args...)
	if code != 0 {
		t.Fatalf("ctl %s: got exit %d (%s), want 0", strings.Join(args, " "), code, stderr)
	}
	return stdout
}

// business reads a business as the functions do.
func (f *fixture) business(t *testing.T, slug string) *booking.Business {
	t.Helper()
	b, err := f.store.Business(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// create sends a request to the business at the given time, as a visitor
// would, for the window starting at start, and returns its code.
func (f *fixture) create(t *testing.T, slug string, at, start time.Time, name, phone string) string {
	t.Helper()
	b := f.business(t, slug)
	in := booking.CreateInput{
		WindowStart:     start,
		Address:         booking.Address{Street: "1820 N 7th St", ZIP: zipOf(t, b)},
		Contact:         booking.Contact{Name: name, Phone: phone, Email: "person-" + phone + "@example.com"},
		Description:     "Line one.\nLine two.",
		DepositAccepted: true,
	}
	bookings := bookingtest.New(t, booking.Config{Store: f.store, SiteURL: "https://book.example.com", Now: func() time.Time { return at }})
	c, _, err := bookings.CreateRequest(context.Background(), b, in)
	if err != nil {
		t.Fatalf("create a request at %s: %v", slug, err)
	}
	return c.Code
}

// createStoredBefore stores a request as create stored it before it
// refused control characters in a name: straight into the store, for
// the text that may still be in the table.
func (f *fixture) createStoredBefore(t *testing.T, slug string, at, start time.Time, name, phone string) string {
	t.Helper()
	b := f.business(t, slug)
	w, ok := b.WindowAt(start, at)
	if !ok {
		t.Fatalf("%s has no open window at %s", slug, start)
	}
	created := at.UTC().Truncate(time.Second)
	r := booking.Request{
		Code: booking.NewCode(), BusinessSlug: slug, Status: booking.StatusNew,
		ServiceName: booking.LocalText{EN: "Other service (see the description)", ES: "Otro servicio (ver la descripción)"},
		Window:      w,
		Address:     booking.Address{Street: "1820 N 7th St", ZIP: zipOf(t, b)},
		Contact:     booking.Contact{Name: name, Phone: phone, Email: "person-" + phone + "@example.com"},
		Urgency:     "soon", Description: "Line one.\nLine two.", Language: "en", Created: created,
		History: []booking.Event{{At: created, By: booking.ActorCustomer, Action: booking.ActionCreate, To: booking.StatusNew, Window: w}},
	}
	if err := f.store.CreateRequest(context.Background(), r, nil, bookingtest.Unlimited, at); err != nil {
		t.Fatalf("store a request at %s: %v", slug, err)
	}
	return r.Code
}

func zipOf(t *testing.T, b *booking.Business) string {
	t.Helper()
	if len(b.ServiceArea.ZIPCodes) == 0 {
		t.Fatalf("%s has no ZIP codes", b.Slug)
	}
	return b.ServiceArea.ZIPCodes[0]
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string // in standard error
	}{
		{nil, "no command"},
		{[]string{"fly"}, `unknown command "fly"`},
		{[]string{"--nope", "load", "x.json"}, "flag provided but not defined: -nope"},
		{[]string{"load"}, "missing FILE"},
		{[]string{"load", "a.json", "b.json"}, `unexpected argument "b.json"`},
		{[]string{"mint-token"}, "missing SLUG"},
		{[]string{"create-table", "now"}, `unexpected argument "now"`},
		{[]string{"requests"}, "want list, show, move, add-sweep-keys or add-erase-keys"},
		{[]string{"requests", "delete", "X"}, `unknown command "delete"`},
		{[]string{"requests", "list"}, "missing SLUG"},
		{[]string{"requests", "list", desert, "--limit"}, "flag needs an argument: -limit"},
		{[]string{"requests", "list", desert, "--json=maybe"}, "invalid boolean value"},
		{[]string{"requests", "show"}, "missing CODE"},
		{[]string{"requests", "move", "7K3M-Q9TD-2HXA"}, "missing ACTION"},
		{[]string{"requests", "move", "7K3M-Q9TD-2HXA", "fly"}, `unknown action "fly"`},
		{[]string{"requests", "move", "7K3M-Q9TD-2HXA", "move"}, "move needs --window-start"},
		{[]string{"requests", "move", "7K3M-Q9TD-2HXA", "accept", "--window-start", "2026-11-21T19:00:00Z"}, "--window-start is for move only"},
	}
	for _, tt := range tests {
		name := strings.Join(tt.args, " ")
		if name == "" {
			name = "no arguments"
		}
		t.Run(name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := run(context.Background(), tt.args, &stdout, &stderr)
			if code != 2 {
				t.Errorf("got exit %d, want 2", code)
			}
			if !strings.Contains(stderr.String(), tt.want) || (!strings.Contains(stderr.String(), "usage") && !strings.Contains(stderr.String(), "Usage")) {
				t.Errorf("got stderr %q, want %q and the usage", stderr.String(), tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("got stdout %q, want nothing", stdout.String())
			}
		})
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"requests", "list", "--help"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr strings.Builder
			if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
				t.Errorf("got exit %d, want 0", code)
			}
			if !strings.Contains(stdout.String(), "requests move CODE ACTION") {
				t.Errorf("got stdout %q, want the usage", stdout.String())
			}
		})
	}
}

func TestLoad(t *testing.T) { forEachEngine(t, testLoad) }

func testLoad(t *testing.T, f *fixture) {
	ctx := context.Background()

	code, _, stderr := f.run("load", "testdata/invalid.json")
	if code != 1 || !strings.Contains(stderr, "timezone") || !strings.Contains(stderr, "nothing was stored") {
		t.Errorf("load invalid.json: got exit %d, stderr %q; want 1 naming the field", code, stderr)
	}
	// Its first record is valid: the whole file is checked before any put.
	if _, err := f.store.Business(ctx, desert); booking.ErrorCode(err) != booking.NotFound {
		t.Errorf("after a failed load: got %v, want NOT_FOUND", err)
	}
	if code, _, _ := f.run("load", "testdata/missing.json"); code != 1 {
		t.Errorf("load a missing file: got exit %d, want 1", code)
	}

	stdout := f.mustRun(t, "load", "testdata/businesses.json")
	want := "stored desert-cool-hvac: new business; no inbox token yet (ctl mint-token desert-cool-hvac)\n" +
		"stored austin-rapid-plumbing: new business; no inbox token yet (ctl mint-token austin-rapid-plumbing)\n"
	if stdout != want {
		t.Errorf("got\n%s\nwant\n%s", stdout, want)
	}
	data, err := os.ReadFile("testdata/businesses.json")
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := booking.LoadBusinesses(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range fromFile {
		stored := *f.business(t, b.Slug)
		if !stored.Approved || len(stored.Changes) != 1 || stored.Changes[0].By != booking.ByOperator || !stored.Changes[0].At.Equal(now) {
			t.Errorf("stored %s: got approved %v, changes %+v; want approved (loaded live) and one change by the operator at now", b.Slug, stored.Approved, stored.Changes)
		}
		stored.Approved, stored.Changes = false, nil
		got, _ := booking.EncodeBusinessRecord(&stored)
		want, _ := booking.EncodeBusinessRecord(b)
		if string(got) != string(want) {
			t.Errorf("stored %s: got\n%s\nwant\n%s", b.Slug, got, want)
		}
	}
	if got := f.business(t, desert).InboxEmail; got != "inbox@desert-cool-hvac.example.com" {
		t.Errorf("inbox_email: got %q, want the file's", got)
	}

	// A minted hash survives a reload of a file that has none.
	token := strings.TrimSpace(f.mustRun(t, "mint-token", desert))
	stdout = f.mustRun(t, "load", "testdata/businesses.json")
	if !strings.Contains(stdout, "stored desert-cool-hvac: kept the owner's fields; kept its inbox token\n") ||
		!strings.Contains(stdout, "stored austin-rapid-plumbing: kept the owner's fields; no inbox token yet") {
		t.Errorf("reload: got\n%s\nwant desert to keep its token", stdout)
	}
	if !f.business(t, desert).OpensInbox(token) {
		t.Error("after a reload: the minted token does not open the inbox any more")
	}
}

func TestMintToken(t *testing.T) { forEachEngine(t, testMintToken) }

func testMintToken(t *testing.T, f *fixture) {
	ctx := context.Background()
	f.mustRun(t, "load", "testdata/businesses.json")
	inbox := bookingtest.New(t, booking.Config{Store: f.store, Now: func() time.Time { return now }, SiteURL: "https://book.example.com"})

	mint := func(slug string) (token, stderr string) {
		t.Helper()
		code, stdout, stderr := f.run("mint-token", slug)
		if code != 0 {
			t.Fatalf("mint-token %s: got exit %d (%s), want 0", slug, code, stderr)
		}
		if strings.Count(stdout, "\n") != 1 {
			t.Fatalf("mint-token %s: got stdout %q, want the token alone on one line", slug, stdout)
		}
		if !strings.Contains(stderr, "not stored") || !strings.Contains(stderr, "cannot be shown again") {
			t.Errorf("mint-token %s: got stderr %q, want it to say the token is shown once", slug, stderr)
		}
		return strings.TrimSpace(stdout), stderr
	}

	first, stderr := mint(desert)
	if strings.Contains(stderr, "previous") {
		t.Errorf("first token: got stderr %q, want no word of a previous token", stderr)
	}
	if got, want := f.business(t, desert).InboxTokenSHA256, booking.HashInboxToken(first); got != want {
		t.Errorf("stored hash: got %s, want %s (the token's SHA-256)", got, want)
	}
	if strings.Contains(fmt.Sprint(f.business(t, desert).Private), first) {
		t.Error("the token itself is stored")
	}
	other, _ := mint(strings.ToUpper(austin)) // a slug in another case is the same business
	second, stderr := mint(desert)
	if !strings.Contains(stderr, "previous inbox token has stopped working") {
		t.Errorf("second token: got stderr %q, want it to say the previous one stopped working", stderr)
	}

	tests := []struct {
		token string
		opens string // the business whose inbox the token opens, "" for none
	}{
		{first, ""}, // replaced
		{second, desert},
		{other, austin},
	}
	for _, tt := range tests {
		for _, slug := range []string{desert, austin} {
			if got, want := f.business(t, slug).OpensInbox(tt.token), slug == tt.opens; got != want {
				t.Errorf("%s.OpensInbox(%.20s...): got %v, want %v", slug, tt.token, got, want)
			}
		}
		in, err := inbox.OpenInbox(ctx, tt.token)
		switch {
		case tt.opens == "" && booking.ErrorCode(err) != booking.Unauthorized:
			t.Errorf("Inbox.Open(%.20s...): got %v, want UNAUTHORIZED", tt.token, err)
		case tt.opens != "" && (err != nil || in.Business().Slug != tt.opens):
			t.Errorf("Inbox.Open(%.20s...): got %v, %v; want %s", tt.token, in, err, tt.opens)
		}
	}

	if code, _, stderr := f.run("mint-token", "no-such-business"); code != 1 || !strings.Contains(stderr, "NOT_FOUND") {
		t.Errorf("unknown slug: got exit %d, stderr %q; want 1, NOT_FOUND", code, stderr)
	}
}

// listed returns the codes of a text list, in order, and its next cursor.
func listed(t *testing.T, stdout string) (codes []string, cursor string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if strings.HasSuffix(stdout, "has no requests that match\n") {
		return nil, ""
	}
	if !strings.HasPrefix(lines[0], "CODE ") {
		t.Fatalf("got %q, want the table's header first", lines[0])
	}
	for _, line := range lines[1:] {
		if c, ok := strings.CutPrefix(line, "more: --cursor "); ok {
			cursor = c
			continue
		}
		codes = append(codes, strings.Fields(line)[0])
	}
	return codes, cursor
}

func TestRequestsList(t *testing.T) { forEachEngine(t, testRequestsList) }

func testRequestsList(t *testing.T, f *fixture) {
	f.mustRun(t, "load", "testdata/businesses.json")
	// One request sent each day from Tuesday to Friday, each for its own
	// Saturday window (windows start at even hours in Phoenix, odd in UTC).
	day := func(d, hour int) time.Time { return time.Date(2026, 11, d, hour, 0, 0, 0, time.UTC) }
	tue := f.create(t, desert, day(17, 18), day(21, 19), "Ana Tuesday", "6025550101")
	wed := f.create(t, desert, day(18, 18), day(21, 21), "Ben Wednesday", "6025550102")
	// Create refuses a name with an escape sequence now; one stored
	// before it did must still stay off the operator's terminal.
	thu := f.createStoredBefore(t, desert, day(19, 18), day(21, 23), "Cam \x1b[2JThursday", "6025550103")
	fri := f.create(t, desert, day(20, 17), day(22, 1), "Dee Friday", "6025550104")
	f.create(t, austin, day(20, 17), day(23, 14), "Eve Deposit", "5125550105") // pending_payment: not in the inbox
	f.mustRun(t, "requests", "move", wed, "accept")
	all := []string{fri, thu, wed, tue}

	tests := []struct {
		name string
		args []string // after "requests list"
		want []string
	}{
		{"all, newest first", []string{desert}, all},
		{"one state", []string{desert, "--status", "accepted"}, []string{wed}},
		{"two states", []string{desert, "--status", "new,accepted"}, all},
		{"a state none has", []string{desert, "--status", "completed"}, nil},
		{"from and to, both included", []string{desert, "--from", "2026-11-18", "--to", "2026-11-19"}, []string{thu, wed}},
		{"flags before the slug", []string{"--from", "2026-11-19", desert}, []string{fri, thu}},
		{"slug in another case", []string{strings.ToUpper(desert), "--to", "2026-11-17"}, []string{tue}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cursor := listed(t, f.mustRun(t, append([]string{"requests", "list"}, tt.args...)...))
			if !slices.Equal(got, tt.want) || cursor != "" {
				t.Errorf("got %v, cursor %q; want %v, no cursor", got, cursor, tt.want)
			}
		})
	}

	t.Run("table", func(t *testing.T) {
		stdout := f.mustRun(t, "requests", "list", desert, "--status", "new")
		if !strings.Contains(stdout, "WINDOW (America/Phoenix)") {
			t.Errorf("got %q, want the business's time zone in the header", stdout)
		}
		// tue's window is 19:00 UTC, noon in Phoenix; sent 18:00 UTC, 11:00 there.
		found := false
		for _, line := range strings.Split(stdout, "\n") {
			if strings.HasPrefix(line, tue) {
				found = true
				for _, want := range []string{"new", "Sat 2026-11-21 12:00", "2026-11-17 11:00", "Ana Tuesday", "(602) 555-0101"} {
					if !strings.Contains(line, want) {
						t.Errorf("got row %q, want %q in it", line, want)
					}
				}
			}
		}
		if !found {
			t.Errorf("got %q, want a row for %s", stdout, tue)
		}
		if strings.ContainsRune(stdout, '\x1b') {
			t.Errorf("got %q, want the escape sequence of a name kept off the terminal", stdout)
		}
	})

	t.Run("pages", func(t *testing.T) {
		var got []string
		args := []string{"requests", "list", desert, "--limit", "2"}
		for pages := 1; ; pages++ {
			codes, cursor := listed(t, f.mustRun(t, args...))
			if len(codes) > 2 {
				t.Fatalf("page %d: got %d requests, want at most 2", pages, len(codes))
			}
			got = append(got, codes...)
			if cursor == "" {
				break
			}
			if pages == 4 {
				t.Fatalf("got a fourth page after %v, want 2 or 3 pages", got)
			}
			args = []string{"requests", "list", desert, "--limit", "2", "--cursor", cursor}
		}
		if !slices.Equal(got, all) {
			t.Errorf("got %v across the pages, want %v", got, all)
		}
	})

	t.Run("json", func(t *testing.T) {
		stdout := f.mustRun(t, "requests", "list", desert, "--limit", "3", "--json")
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if len(lines) != 4 {
			t.Fatalf("got %d lines, want 3 requests and the next cursor:\n%s", len(lines), stdout)
		}
		var got []string
		for _, line := range lines[:3] {
			var r booking.InboxRequest
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			got = append(got, r.Code)
			if r.Contact.Email != "person-"+r.Contact.Phone+"@example.com" {
				t.Errorf("%s: got email %q, want the person's", r.Code, r.Contact.Email)
			}
		}
		if !slices.Equal(got, all[:3]) {
			t.Errorf("got %v, want %v", got, all[:3])
		}
		var next struct{ Next string }
		if err := json.Unmarshal([]byte(lines[3]), &next); err != nil || next.Next == "" {
			t.Errorf("got last line %q, want {\"next\": cursor}", lines[3])
		}
		rest, _ := listed(t, f.mustRun(t, "requests", "list", desert, "--cursor", next.Next))
		if !slices.Equal(rest, all[3:]) {
			t.Errorf("after the JSON page's cursor: got %v, want %v", rest, all[3:])
		}
	})

	refused := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a state the inbox never has", []string{desert, "--status", "pending_payment"}, 2, `status "pending_payment"`},
		{"not a date", []string{desert, "--from", "2026-13-01"}, 2, "YYYY-MM-DD"},
		{"from after to", []string{desert, "--from", "2026-11-20", "--to", "2026-11-19"}, 2, "from must be on or before to"},
		{"limit out of range", []string{desert, "--limit", "101"}, 2, "limit must be a whole number from 1 to 100"},
		{"a cursor of another business", []string{austin, "--cursor", "eyJjIjoiMSJ9"}, 2, "cursor is not one this list gave"},
		{"unknown business", []string{"no-such-business"}, 1, "NOT_FOUND"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := f.run(append([]string{"requests", "list"}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("got exit %d, stderr %q; want %d, %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}

func TestRequestsShow(t *testing.T) { forEachEngine(t, testRequestsShow) }

func testRequestsShow(t *testing.T, f *fixture) {
	f.mustRun(t, "load", "testdata/businesses.json")
	code := f.create(t, desert, now.Add(-time.Hour), time.Date(2026, 11, 21, 19, 0, 0, 0, time.UTC), "Ana Ruiz", "6025550147")
	monday := time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC) // 08:00 in Austin
	pending := f.create(t, austin, now.Add(-10*time.Minute), monday, "Eve Deposit", "5125550105")
	lapsed := f.create(t, austin, now.Add(-time.Hour), monday.Add(2*time.Hour), "Fay Lapsed", "5125550106")
	// Sent at 08:00 MST for the 10:00 window; nobody answered by now, 11:00.
	unanswered := f.create(t, desert, now.Add(-3*time.Hour), now.Add(-time.Hour), "Gus Ignored", "6025550148")
	f.mustRun(t, "requests", "move", code, "accept")

	tests := []struct {
		name string
		arg  string
		want []string
	}{
		{"accepted", code, []string{
			"code      " + code, "business  desert-cool-hvac (Desert Cool Heating & Air)", "status    accepted",
			"window    Sat 2026-11-21 12:00-14:00 MST", "name      Ana Ruiz", "phone     (602) 555-0147",
			"email     person-6025550147@example.com", "address   1820 N 7th St 85004", "deposit   none",
			"description\n  Line one.\n  Line two.\n", "history (America/Phoenix)",
			"2026-11-20 10:00  customer  create  -     new",
			"2026-11-20 11:00  operator  accept  new   accepted",
		}},
		{"code read leniently", strings.ToLower(strings.ReplaceAll(code, "-", "")), []string{"code      " + code}},
		// The business does not see it before it is paid; the operator does.
		{"pending payment", pending, []string{"status    pending_payment", "deposit   $49.00, due, pay by 2026-11-20 12:20 CST"}},
		{"payment hold lapsed", lapsed, []string{
			"status    expired (the payment hold lapsed at 2026-11-20 11:30 CST; stored as pending_payment until the sweeper runs)",
			"deposit   $49.00, expired\n",
		}},
		{"unanswered when its window started", unanswered, []string{
			"status    expired (unanswered when its window started at 2026-11-20 10:00 MST; stored as new until the sweeper runs)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout := f.mustRun(t, "requests", "show", tt.arg)
			for _, want := range tt.want {
				if !strings.Contains(stdout, want) {
					t.Errorf("got\n%s\nwant %q in it", stdout, want)
				}
			}
		})
	}

	t.Run("json", func(t *testing.T) {
		var r booking.Request
		if err := json.Unmarshal([]byte(f.mustRun(t, "requests", "show", code, "--json")), &r); err != nil {
			t.Fatal(err)
		}
		if r.Code != code || r.Status != booking.StatusAccepted || r.Contact.Phone != "6025550147" || len(r.History) != 2 {
			t.Errorf("got %+v, want the stored request, accepted, with its history", r)
		}
	})
	t.Run("unknown code", func(t *testing.T) {
		if code, _, stderr := f.run("requests", "show", "7K3M-Q9TD-2HXA"); code != 1 || !strings.Contains(stderr, "NOT_FOUND") {
			t.Errorf("got exit %d, stderr %q; want 1, NOT_FOUND", code, stderr)
		}
	})
}

// refusal is the domain's message for a move the Lifecycle does not allow.
func refusal(from booking.Status, a booking.Action) string {
	_, err := booking.Allowed(from, a, booking.ActorOperator)
	return booking.ErrorMessage(err)
}

// add-sweep-keys finds nothing to do on a table whose requests were all
// stored with their sweep keys (pkg/dynamo tests the store's side), and
// takes no arguments.
func TestRequestsAddSweepKeys(t *testing.T) { forEachEngine(t, testRequestsAddSweepKeys) }

func testRequestsAddSweepKeys(t *testing.T, f *fixture) {
	f.mustRun(t, "load", "testdata/businesses.json")
	f.create(t, desert, now.Add(-time.Hour), time.Date(2026, 11, 21, 19, 0, 0, 0, time.UTC), "Ana Ruiz", "6025550147")
	if got, want := f.mustRun(t, "requests", "add-sweep-keys"), "0 new requests without sweep keys have them now"; !strings.Contains(got, want) {
		t.Errorf("got %q, want %q in it", got, want)
	}
	if code, _, stderr := f.run("requests", "add-sweep-keys", "extra"); code != 2 || !strings.Contains(stderr, "takes no arguments") {
		t.Errorf("got exit %d, stderr %q; want 2, takes no arguments", code, stderr)
	}
}

func TestRequestsMove(t *testing.T) { forEachEngine(t, testRequestsMove) }

func testRequestsMove(t *testing.T, f *fixture) {
	f.mustRun(t, "load", "testdata/businesses.json")
	sent := now.Add(-time.Hour)
	sat := time.Date(2026, 11, 21, 19, 0, 0, 0, time.UTC) // noon in Phoenix
	code := f.create(t, desert, sent, sat, "Ana Ruiz", "6025550147")
	other := f.create(t, desert, sent, sat.Add(4*time.Hour), "Ben Ruiz", "6025550148")
	// Sent ten minutes ago: its payment hold (30 minutes) has not lapsed.
	pending := f.create(t, austin, now.Add(-10*time.Minute), time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC), "Eve Deposit", "5125550105")

	// Steps on one request, in order: each sees the state the one before left.
	steps := []struct {
		name   string
		args   []string
		code   int
		want   string // in stdout when code is 0, else in stderr
		status booking.Status
	}{
		{"accept", []string{code, "accept"}, 0, code + ": new -> accepted\nwindow: Sat 2026-11-21 12:00-14:00 MST\n", booking.StatusAccepted},
		{"accept twice", []string{code, "accept"}, 1, "INVALID_TRANSITION: " + refusal(booking.StatusAccepted, booking.ActionAccept), booking.StatusAccepted},
		{"decline after accept", []string{code, "decline"}, 1, refusal(booking.StatusAccepted, booking.ActionDecline), booking.StatusAccepted},
		{"pay is the system's", []string{code, "pay"}, 1, "pay is the system's move", booking.StatusAccepted},
		{"expire is the system's", []string{code, "expire"}, 1, "expire is the system's move", booking.StatusAccepted},
		{"move to what is not a window", []string{code, "move", "--window-start", "2026-11-21T20:00:00Z"}, 1, "INVALID_WINDOW", booking.StatusAccepted},
		{"move to a window another holds", []string{code, "move", "--window-start", sat.Add(4 * time.Hour).Format(time.RFC3339)}, 1, "WINDOW_TAKEN", booking.StatusAccepted},
		{"move", []string{code, "move", "--window-start", "2026-11-21T14:00:00-07:00"}, 0,
			"accepted -> accepted\nwindow: Sat 2026-11-21 14:00-16:00 MST\nthe request holds the new window; the old one is open again\n", booking.StatusAccepted},
		{"complete", []string{code, "complete"}, 0, "accepted -> completed\n", booking.StatusCompleted},
		{"cancel after complete", []string{code, "cancel"}, 1, refusal(booking.StatusCompleted, booking.ActionCancel), booking.StatusCompleted},
	}
	for _, tt := range steps {
		t.Run(tt.name, func(t *testing.T) {
			got, stdout, stderr := f.run(append([]string{"requests", "move"}, tt.args...)...)
			out := stdout
			if tt.code != 0 {
				out = stderr
			}
			if got != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("got exit %d, stdout %q, stderr %q; want %d, %q", got, stdout, stderr, tt.code, tt.want)
			}
			r, err := f.store.Request(context.Background(), tt.args[0])
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tt.status {
				t.Errorf("stored status: got %s, want %s", r.Status, tt.status)
			}
		})
	}

	r, err := f.store.Request(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, e := range r.History[1:] {
		moves = append(moves, fmt.Sprintf("%s %s %s->%s", e.By, e.Action, e.From, e.To))
	}
	want := []string{"operator accept new->accepted", "operator move accepted->accepted", "operator complete accepted->completed"}
	if !slices.Equal(moves, want) {
		t.Errorf("history: got %v, want %v", moves, want)
	}

	// The operator may also make the person's moves, and the window opens again.
	for _, tt := range []struct{ code, action, want string }{
		{other, "decline", "new -> declined\n"},
		{pending, "cancel", "pending_payment -> cancelled\n"},
	} {
		t.Run(tt.action+" "+tt.want[:3], func(t *testing.T) {
			r, err := f.store.Request(context.Background(), tt.code)
			if err != nil {
				t.Fatal(err)
			}
			stdout := f.mustRun(t, "requests", "move", tt.code, tt.action)
			if !strings.Contains(stdout, tt.want) || !strings.Contains(stdout, "the window is open again") {
				t.Errorf("got %q, want %q and the window open again", stdout, tt.want)
			}
			// And it is: the store no longer holds it (the line is printed
			// from the move's effects, so check the table itself).
			held, err := f.store.HeldWindows(context.Background(), r.BusinessSlug, r.Window.Start, r.Window.End, now)
			if err != nil || len(held) != 0 {
				t.Errorf("after the move, held windows = %v, %v; want the window free", held, err)
			}
		})
	}
}

func TestCreateTable(t *testing.T) {
	forEachEngine(t, func(t *testing.T, f *fixture) {
		table := f.table + "-made-by-ctl"
		for range 2 { // a table that exists already is fine
			if got, want := f.mustRun(t, "--table", table, "create-table"), "table "+table+" is ready\n"; got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		}
		store := dynamo.New(dynamotest.NewClient(f.endpoint), table)
		if _, err := store.Business(context.Background(), desert); booking.ErrorCode(err) != booking.NotFound {
			t.Errorf("on the new table: got %v, want NOT_FOUND", err)
		}
		if _, err := store.BusinessRequests(context.Background(), booking.RequestQuery{Slug: desert, To: now, Limit: 1}); err != nil {
			t.Errorf("the inbox index of the new table: got %v, want it there", err)
		}
	})
}

func TestMintFeedToken(t *testing.T) { forEachEngine(t, testMintFeedToken) }

// mint-feed-token prints a new feed token once, stores only its hash, and
// revokes the previous one; a reload of the file keeps it; it is not the
// inbox token.
func testMintFeedToken(t *testing.T, f *fixture) {
	ctx := context.Background()
	f.mustRun(t, "load", "testdata/businesses.json")
	bookings := bookingtest.New(t, booking.Config{Store: f.store, Now: func() time.Time { return now }, SiteURL: "https://book.example.com"})
	mint := func() string {
		t.Helper()
		code, stdout, stderr := f.run("mint-feed-token", desert)
		if code != 0 || strings.Count(stdout, "\n") != 1 || !strings.Contains(stderr, "cannot be shown again") {
			t.Fatalf("mint-feed-token: got exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
		return strings.TrimSpace(stdout)
	}
	first := mint()
	if got, want := f.business(t, desert).FeedTokenSHA256, booking.HashInboxToken(first); got != want {
		t.Errorf("stored hash: got %s, want %s", got, want)
	}
	second := mint()
	f.mustRun(t, "load", "testdata/businesses.json")
	for token, opens := range map[string]bool{first: false, second: true} {
		_, err := bookings.OpenFeed(ctx, token)
		if (err == nil) != opens {
			t.Errorf("OpenFeed(%.20s...): got %v, want it to open: %v", token, err, opens)
		}
		if f.business(t, desert).OpensInbox(token) {
			t.Error("a feed token opens the inbox")
		}
	}
	if code, _, stderr := f.run("mint-feed-token", "no-such-business"); code != 1 || !strings.Contains(stderr, "NOT_FOUND") {
		t.Errorf("unknown slug: got exit %d, stderr %q; want 1, NOT_FOUND", code, stderr)
	}
}
