package httpapi_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/httpapi"
)

// inboxFixture is the public API and the business inbox on one store, as
// the local server mounts them, with inbox tokens for two businesses.
type inboxFixture struct {
	h        http.Handler
	clock    *bookingtest.Clock
	tokenA   string // split-day-plumbing
	tokenB   string // all-day-plumbing
	tokenD   string // deposit-plumbing
	bookings *booking.Bookings
	store    *dynamo.Store
}

func newInboxFixture(t *testing.T) *inboxFixture {
	t.Helper()
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	fx := &inboxFixture{clock: bookingtest.NewClock(start), store: store}
	dynamotest.PutBusinesses(t, store, "../booking/testdata/businesses.json", func(b *booking.Business) {
		switch b.Slug {
		case "split-day-plumbing":
			fx.tokenA, b.InboxTokenSHA256 = booking.NewInboxToken(b.Slug)
		case "all-day-plumbing":
			fx.tokenB, b.InboxTokenSHA256 = booking.NewInboxToken(b.Slug)
		case "deposit-plumbing":
			fx.tokenD, b.InboxTokenSHA256 = booking.NewInboxToken(b.Slug)
		}
	})
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	mux := http.NewServeMux()
	fx.bookings = bookingtest.New(t, booking.Config{Store: store, SiteURL: siteURL, Now: fx.clock.Now})
	mux.Handle(httpapi.InboxPrefix+"/", httpapi.NewInbox(fx.bookings, log))
	mux.Handle("/", httpapi.New(fx.bookings, log))
	fx.h = mux
	return fx
}

// create sends a request to the business for the window and phone and
// returns its code.
func (fx *inboxFixture) create(t *testing.T, slug, window, phone string) string {
	t.Helper()
	res := call(t, fx.h, "POST", "/api/v1/businesses/"+slug+"/requests", requestBody(window, phone))
	if res.status != 201 {
		t.Fatalf("create at %s %s: got %d %s, want 201", slug, window, res.status, res.raw)
	}
	return res.str("code")
}

func (fx *inboxFixture) inbox(t *testing.T, token, method, path, body string) response {
	t.Helper()
	return call(t, fx.h, method, httpapi.InboxPrefix+path, body, "Authorization", "Bearer "+token)
}

// Monday 2026-11-23 in Los Angeles (UTC-8): split-day-plumbing's windows
// start at 08, 10, 13 and 15; all-day-plumbing's every hour.
const (
	mon08 = "2026-11-23T16:00:00Z"
	mon10 = "2026-11-23T18:00:00Z"
	mon13 = "2026-11-23T21:00:00Z"
	mon15 = "2026-11-23T23:00:00Z"
)

func TestInboxAuthentication(t *testing.T) {
	fx := newInboxFixture(t)
	tests := []struct {
		name   string
		header []string
	}{
		{"no header", nil},
		{"another scheme", []string{"Authorization", "Basic " + fx.tokenA}},
		{"bearer, nothing after it", []string{"Authorization", "Bearer "}},
		{"a token of A with one character changed", []string{"Authorization", "Bearer " + fx.tokenA[:len(fx.tokenA)-1] + "x"}},
		{"the hash instead of the token", []string{"Authorization", "Bearer " + booking.HashInboxToken(fx.tokenA)}},
		{"A's secret under B's slug", []string{"Authorization", "Bearer all-day-plumbing." + strings.SplitN(fx.tokenA, ".", 2)[1]}},
		{"a business without an inbox token", []string{"Authorization", "Bearer late-night-plumbing.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}},
		{"an unknown business", []string{"Authorization", "Bearer nobody-plumbing.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}},
	}
	for _, tt := range tests {
		for _, path := range []string{"/requests", "/requests/ABCD-EFGH-JKMN"} {
			t.Run(tt.name+" "+path, func(t *testing.T) {
				res := call(t, fx.h, "GET", httpapi.InboxPrefix+path, "", tt.header...)
				if res.status != 401 || res.errorCode(t) != "UNAUTHORIZED" {
					t.Fatalf("got %d %s, want 401 UNAUTHORIZED", res.status, res.raw)
				}
				if got := res.header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
					t.Errorf("got WWW-Authenticate %q, want a Bearer challenge", got)
				}
			})
		}
	}
	t.Run("lower-case scheme", func(t *testing.T) {
		res := call(t, fx.h, "GET", httpapi.InboxPrefix+"/requests", "", "Authorization", "bearer "+fx.tokenA)
		if res.status != 200 {
			t.Fatalf("got %d %s, want 200", res.status, res.raw)
		}
	})
}

// A token for business A never reads or moves business B's requests, and
// B's codes look exactly like unknown codes to A.
func TestInboxKeepsBusinessesApart(t *testing.T) {
	fx := newInboxFixture(t)
	codeB := fx.create(t, "all-day-plumbing", mon08, "3235550101")
	codeA := fx.create(t, "split-day-plumbing", mon08, "3235550102")

	for _, action := range []string{"accept", "decline", "cancel", "move"} {
		body := ""
		if action == "move" {
			body = `{"window_start": "` + mon10 + `"}`
		}
		res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+codeB+"/"+action, body)
		if res.status != 404 || res.errorCode(t) != "NOT_FOUND" {
			t.Errorf("A %s B's request: got %d %s, want 404 NOT_FOUND", action, res.status, res.raw)
		}
	}
	if res := fx.inbox(t, fx.tokenA, "GET", "/requests/"+codeB, ""); res.status != 404 {
		t.Errorf("A reads B's request: got %d %s, want 404", res.status, res.raw)
	}
	unknown := fx.inbox(t, fx.tokenA, "GET", "/requests/ZZZZ-ZZZZ-ZZZZ", "")
	theirs := fx.inbox(t, fx.tokenA, "GET", "/requests/"+codeB, "")
	if unknown.status != theirs.status || strings.Contains(theirs.raw, codeB) != strings.Contains(unknown.raw, "ZZZZ-ZZZZ-ZZZZ") {
		t.Errorf("B's code and an unknown code answer differently: %d %s / %d %s", theirs.status, theirs.raw, unknown.status, unknown.raw)
	}
	if got := listCodes(t, fx, fx.tokenA, ""); !slices.Equal(got, []string{codeA}) {
		t.Errorf("A's list: got %v, want only %s", got, codeA)
	}
	if got := call(t, fx.h, "GET", "/api/v1/requests/"+codeB, "").str("status"); got != "new" {
		t.Errorf("B's request after A's attempts: got status %q, want new", got)
	}
	if res := fx.inbox(t, fx.tokenB, "POST", "/requests/"+codeB+"/accept", ""); res.status != 200 {
		t.Errorf("B accepts its own request: got %d %s, want 200", res.status, res.raw)
	}
}

// The walk of the README: create, accept, move, complete; each move shows
// in the person's status and in the request's history.
func TestInboxWalk(t *testing.T) {
	fx := newInboxFixture(t)
	code := fx.create(t, "split-day-plumbing", mon08, "3235550103")
	steps := []struct {
		action, body string
		wantStatus   string
		wantWindow   string
		wantChanged  bool
	}{
		{"accept", "", "accepted", mon08, false},
		{"move", `{"window_start": "2026-11-23T13:00:00-08:00"}`, "accepted", mon13, true},
		{"complete", "", "completed", mon13, true},
	}
	for i, s := range steps {
		res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+code+"/"+s.action, s.body)
		if res.status != 200 || res.str("status") != s.wantStatus {
			t.Fatalf("%s: got %d %s, want 200 %s", s.action, res.status, res.raw, s.wantStatus)
		}
		if h, _ := res.body["history"].([]any); len(h) != i+2 {
			t.Errorf("%s: got %d history events, want %d", s.action, len(h), i+2)
		}
		contact, _ := res.body["contact"].(map[string]any)
		if contact["phone"] != "3235550103" || contact["name"] != "Ana Ruiz" {
			t.Errorf("%s: the inbox view lacks the contact: %v", s.action, contact)
		}
		public := call(t, fx.h, "GET", "/api/v1/requests/"+code, "")
		w, _ := public.body["arrival_window"].(map[string]any)
		if public.str("status") != s.wantStatus || w["start"] != s.wantWindow || w["changed_by_business"] != s.wantChanged {
			t.Errorf("%s: public status %s, want status %s, window %s, changed %v", s.action, public.raw, s.wantStatus, s.wantWindow, s.wantChanged)
		}
		if strings.Contains(public.raw, "3235550103") || strings.Contains(public.raw, "history") {
			t.Errorf("%s: the public status shows inbox-only details: %s", s.action, public.raw)
		}
	}
	// The old window is open again; the new one stays held by the completed job.
	avail := call(t, fx.h, "GET", "/api/v1/businesses/split-day-plumbing/availability?from=2026-11-23&days=1", "")
	if !strings.Contains(avail.raw, mon08) || strings.Contains(avail.raw, mon13) {
		t.Errorf("availability after the move: got %s, want %s open and %s held", avail.raw, mon08, mon13)
	}
}

func TestInboxRefusals(t *testing.T) {
	fx := newInboxFixture(t)
	code := fx.create(t, "split-day-plumbing", mon08, "3235550104")
	other := fx.create(t, "split-day-plumbing", mon10, "3235550105")
	accepted := fx.create(t, "split-day-plumbing", mon15, "3235550106")
	if res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+accepted+"/accept", ""); res.status != 200 {
		t.Fatal(res.raw)
	}
	tests := []struct {
		name, path, body string
		wantStatus       int
		wantCode         string
	}{
		{"complete a new request", "/requests/" + code + "/complete", "", 409, "INVALID_TRANSITION"},
		{"no-show a new request", "/requests/" + code + "/no_show", "", 409, "INVALID_TRANSITION"},
		{"decline an accepted request", "/requests/" + accepted + "/decline", "", 409, "INVALID_TRANSITION"},
		{"accept an accepted request", "/requests/" + accepted + "/accept", "", 409, "INVALID_TRANSITION"},
		{"an unknown action", "/requests/" + code + "/approve", "", 404, "NOT_FOUND"},
		{"move without a body", "/requests/" + code + "/move", "", 400, "INVALID_REQUEST"},
		{"move with a broken body", "/requests/" + code + "/move", `{"window_start":`, 400, "INVALID_REQUEST"},
		{"move to a window another request holds", "/requests/" + code + "/move", `{"window_start":"` + mon10 + `"}`, 409, "WINDOW_TAKEN"},
		{"move to its own window", "/requests/" + code + "/move", `{"window_start":"` + mon08 + `"}`, 400, "INVALID_WINDOW"},
		{"move to no window start", "/requests/" + code + "/move", `{"window_start":"2026-11-23T16:30:00Z"}`, 400, "INVALID_WINDOW"},
		{"move to a time that is not ISO", "/requests/" + code + "/move", `{"window_start":"Monday 1pm"}`, 400, "INVALID_WINDOW"},
		{"move to a window that started", "/requests/" + code + "/move", `{"window_start":"2026-11-19T16:00:00Z"}`, 400, "TOO_LATE"},
		{"move past the horizon", "/requests/" + code + "/move", `{"window_start":"2027-01-04T16:00:00Z"}`, 400, "INVALID_WINDOW"},
		{"an unknown code", "/requests/ZZZZ-ZZZZ-ZZZZ/accept", "", 404, "NOT_FOUND"},
		// A window_start that is none is refused after the request is found.
		{"an unknown code moved to a time that is not ISO", "/requests/ZZZZ-ZZZZ-ZZZZ/move", `{"window_start":"Monday 1pm"}`, 404, "NOT_FOUND"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := fx.inbox(t, fx.tokenA, "POST", tt.path, tt.body)
			if res.status != tt.wantStatus || res.errorCode(t) != tt.wantCode {
				t.Errorf("got %d %s, want %d %s", res.status, res.raw, tt.wantStatus, tt.wantCode)
			}
		})
	}
	// Nothing above moved anything.
	for c, want := range map[string]string{code: "new", other: "new", accepted: "accepted"} {
		if got := call(t, fx.h, "GET", "/api/v1/requests/"+c, "").str("status"); got != want {
			t.Errorf("%s: got status %s, want %s", c, got, want)
		}
	}
	if res := fx.inbox(t, fx.tokenA, "GET", "/requests/"+code, ""); res.status != 200 {
		t.Errorf("read: got %d %s", res.status, res.raw)
	}
	if res := fx.inbox(t, fx.tokenA, "DELETE", "/requests/"+code, ""); res.status != 405 {
		t.Errorf("DELETE: got %d %s, want 405", res.status, res.raw)
	}
}

// Declining frees the window for others and the phone for a new request.
func TestInboxDeclineFreesWindowAndPhone(t *testing.T) {
	fx := newInboxFixture(t)
	const phone = "3235550107"
	codes := []string{
		fx.create(t, "split-day-plumbing", mon08, phone),
		fx.create(t, "split-day-plumbing", mon10, phone),
		fx.create(t, "split-day-plumbing", mon13, phone),
	}
	if res := call(t, fx.h, "POST", "/api/v1/businesses/split-day-plumbing/requests", requestBody(mon15, phone)); res.status != 429 {
		t.Fatalf("a 4th open request: got %d, want 429", res.status)
	}
	if res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+codes[0]+"/decline", ""); res.status != 200 {
		t.Fatal(res.raw)
	}
	fx.create(t, "split-day-plumbing", mon15, phone)        // the phone has a free place again
	fx.create(t, "split-day-plumbing", mon08, "3235550108") // and the window is open again
}

// A request waiting for its deposit is not the business's yet: it shows in
// the inbox once paid.
func TestInboxHidesUnpaidRequests(t *testing.T) {
	fx := newInboxFixture(t)
	body := strings.Replace(requestBody("2026-11-23T13:00:00Z", "3235550109"), `"zip":"90012"`, `"zip":"10001"`, 1)
	body = strings.Replace(body, `"language":"es"`, `"language":"es","deposit_accepted":true`, 1)
	res := call(t, fx.h, "POST", "/api/v1/businesses/deposit-plumbing/requests", body)
	if res.status != 201 || res.str("status") != "pending_payment" {
		t.Fatalf("create: got %d %s", res.status, res.raw)
	}
	code := res.str("code")
	if got := listCodes(t, fx, fx.tokenD, ""); len(got) != 0 {
		t.Errorf("unpaid: the list shows %v, want nothing", got)
	}
	for _, path := range []string{"/requests/" + code, "/requests/" + code + "/accept"} {
		method := map[bool]string{true: "POST", false: "GET"}[strings.HasSuffix(path, "accept")]
		if res := fx.inbox(t, fx.tokenD, method, path, ""); res.status != 404 {
			t.Errorf("unpaid: %s %s: got %d %s, want 404", method, path, res.status, res.raw)
		}
	}
	if _, err := fx.bookings.PaySimulated(context.Background(), code); err != nil {
		t.Fatal(err)
	}
	if got := listCodes(t, fx, fx.tokenD, ""); !slices.Equal(got, []string{code}) {
		t.Errorf("paid: the list shows %v, want %s", got, code)
	}
	if res := fx.inbox(t, fx.tokenD, "POST", "/requests/"+code+"/accept", ""); res.status != 200 || res.str("status") != "accepted" {
		t.Errorf("paid: accept: got %d %s, want 200 accepted", res.status, res.raw)
	}
}

func TestInboxList(t *testing.T) {
	fx := newInboxFixture(t)
	windows := []string{mon08, mon10, mon13, mon15, "2026-11-24T16:00:00Z"}
	var codes []string // oldest first
	// One a day, Thursday 16:00 to Tuesday 00:00 in Los Angeles; the
	// business answers two of them the day they come, and by the last
	// day the windows of the unanswered ones have started but Tuesday's.
	for i, w := range windows {
		fx.clock.Set(start.Add(time.Duration(i) * 26 * time.Hour))
		codes = append(codes, fx.create(t, "split-day-plumbing", w, fmt.Sprintf("32355502%02d", i)))
		answer := map[int]string{1: "accept", 2: "decline"}[i]
		if answer == "" {
			continue
		}
		if res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+codes[i]+"/"+answer, ""); res.status != 200 {
			t.Fatal(res.raw)
		}
	}
	newestFirst := slices.Clone(codes)
	slices.Reverse(newestFirst)

	tests := []struct {
		name, query string
		want        []string
	}{
		{"all", "", newestFirst},
		{"one page at a time", "limit=2", newestFirst},
		{"new only", "status=new", []string{codes[4]}},
		// Unanswered when their windows started: expired, before any sweep.
		{"expired only", "status=expired", []string{codes[3], codes[0]}},
		{"new or expired", "status=expired,new", []string{codes[4], codes[3], codes[0]}},
		{"two states", "status=accepted,declined&limit=1", []string{codes[2], codes[1]}},
		// start is Thursday 2026-11-19 16:00 in Los Angeles; a request a day.
		{"from a day", "from=2026-11-21", []string{codes[4], codes[3], codes[2]}},
		{"to a day", "to=2026-11-20", []string{codes[1], codes[0]}},
		{"one day", "from=2026-11-21&to=2026-11-21", []string{codes[2]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := listCodes(t, fx, fx.tokenA, tt.query); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}

	bad := []struct{ query, wantCode string }{
		{"status=pending_payment", "INVALID_REQUEST"},
		{"status=new,", "INVALID_REQUEST"},
		{"limit=0", "INVALID_REQUEST"},
		{"limit=101", "INVALID_REQUEST"},
		{"limit=ten", "INVALID_REQUEST"},
		{"cursor=not-a-cursor", "INVALID_REQUEST"},
		// The forged cursor: a time outside the query's range,
		// which DynamoDB refuses as a start key (was a 500).
		{"cursor=" + base64.RawURLEncoding.EncodeToString([]byte(`{"c":"ZZZZ-ZZZZ-ZZZZ","t":"9999-12-31T23:59:59Z","b":"split-day-plumbing"}`)), "INVALID_REQUEST"},
		{"from=21-11-2026", "INVALID_DATE"},
		{"from=2026-11-22&to=2026-11-21", "INVALID_DATE"},
	}
	for _, b := range bad {
		t.Run(b.query, func(t *testing.T) {
			res := fx.inbox(t, fx.tokenA, "GET", "/requests?"+b.query, "")
			if res.status != 400 || res.errorCode(t) != b.wantCode {
				t.Errorf("got %d %s, want 400 %s", res.status, res.raw, b.wantCode)
			}
		})
	}

	t.Run("another business's cursor", func(t *testing.T) {
		first := fx.inbox(t, fx.tokenA, "GET", "/requests?limit=1", "")
		next, _ := first.body["next"].(string)
		if next == "" {
			t.Fatalf("no next cursor: %s", first.raw)
		}
		res := fx.inbox(t, fx.tokenB, "GET", "/requests?cursor="+url.QueryEscape(next), "")
		if res.status != 400 || res.errorCode(t) != "INVALID_REQUEST" {
			t.Errorf("got %d %s, want 400 INVALID_REQUEST", res.status, res.raw)
		}
	})
}

// listCodes follows the list's cursors to the end and returns the codes.
func listCodes(t *testing.T, fx *inboxFixture, token, query string) []string {
	t.Helper()
	var codes []string
	cursor := ""
	for range 20 {
		q := query
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		res := fx.inbox(t, token, "GET", "/requests?"+strings.TrimPrefix(q, "&"), "")
		if res.status != 200 {
			t.Fatalf("list %q: got %d %s", q, res.status, res.raw)
		}
		reqs, _ := res.body["requests"].([]any)
		for _, r := range reqs {
			codes = append(codes, r.(map[string]any)["code"].(string))
		}
		next, _ := res.body["next"].(string)
		if next == "" {
			return codes
		}
		cursor = next
	}
	t.Fatal("the list did not end in 20 pages")
	return nil
}

// Not a genuine request: the business marks it spam; its window opens
// again, and later requests from its phone or its e-mail are refused
// without saying why, with nothing stored.
func TestInboxSpam(t *testing.T) {
	fx := newInboxFixture(t)
	const phone = "3235550150"
	code := fx.create(t, "split-day-plumbing", mon08, phone)
	res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+code+"/spam", "")
	if res.status != 200 || res.str("status") != "declined" {
		t.Fatalf("spam: got %d %s, want 200 declined", res.status, res.raw)
	}
	if got := call(t, fx.h, "GET", "/api/v1/requests/"+code, "").str("status"); got != "declined" {
		t.Errorf("the person's status: got %s, want declined", got)
	}
	tests := []struct {
		name string
		body string
		want int
	}{
		{"the same phone", requestBody(mon10, phone), 403},
		{"the same e-mail, another phone", strings.Replace(requestBody(mon13, "3235550151"), emailFor("3235550151"), emailFor(phone), 1), 403},
		{"someone else, on the freed window", requestBody(mon08, "3235550152"), 201},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, fx.h, "POST", "/api/v1/businesses/split-day-plumbing/requests", tt.body)
			if res.status != tt.want {
				t.Fatalf("got %d %s, want %d", res.status, res.raw, tt.want)
			}
			if tt.want == 403 {
				msg := res.body["error"].(map[string]any)["message"].(string)
				if res.errorCode(t) != "REQUEST_REFUSED" || strings.Contains(msg, "block") || strings.Contains(msg, "spam") || !strings.Contains(msg, "+13235550100") {
					t.Errorf("got %s, want REQUEST_REFUSED that says to call, not why", res.raw)
				}
			}
		})
	}
	if got := listCodes(t, fx, fx.tokenA, "status=new"); len(got) != 1 {
		t.Errorf("after the refusals the inbox lists %v new, want only the genuine one", got)
	}
}

// The business marks every unanswered request since a time as spam in one
// call; an answered one, and one from before, are left as they are.
func TestInboxSpamSince(t *testing.T) {
	fx := newInboxFixture(t)
	before := fx.create(t, "split-day-plumbing", mon08, "3235550160")
	fx.clock.Add(time.Hour)
	since := fx.clock.Now().Format(time.RFC3339)
	answered := fx.create(t, "split-day-plumbing", mon10, "3235550161")
	if res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+answered+"/accept", ""); res.status != 200 {
		t.Fatal(res.raw)
	}
	flood := []string{
		fx.create(t, "split-day-plumbing", mon13, "3235550162"),
		fx.create(t, "split-day-plumbing", mon15, "3235550163"),
	}
	for _, tt := range []struct {
		name, body string
		status     int
	}{
		{"no body", "", 400},
		{"since not a time", `{"since": "yesterday"}`, 400},
	} {
		if res := fx.inbox(t, fx.tokenA, "POST", "/spam", tt.body); res.status != tt.status {
			t.Errorf("%s: got %d %s, want %d", tt.name, res.status, res.raw, tt.status)
		}
	}
	if res := fx.inbox(t, fx.tokenB, "POST", "/spam", `{"since": "`+since+`"}`); res.status != 200 || len(res.body["marked"].([]any)) != 0 {
		t.Errorf("another business: got %d %s, want nothing of A's marked", res.status, res.raw)
	}
	res := fx.inbox(t, fx.tokenA, "POST", "/spam", `{"since": "`+since+`"}`)
	if res.status != 200 {
		t.Fatalf("got %d %s", res.status, res.raw)
	}
	var marked []string
	for _, c := range res.body["marked"].([]any) {
		marked = append(marked, c.(string))
	}
	slices.Sort(marked)
	slices.Sort(flood)
	if !slices.Equal(marked, flood) {
		t.Errorf("got marked %v, want %v", marked, flood)
	}
	for c, want := range map[string]string{before: "new", answered: "accepted", flood[0]: "declined", flood[1]: "declined"} {
		if got := call(t, fx.h, "GET", "/api/v1/requests/"+c, "").str("status"); got != want {
			t.Errorf("%s: got %s, want %s", c, got, want)
		}
	}
}

// TestInboxPersonChannels: each request of the JSON inbox says how its
// person is actually written to (person_channels, booking.PersonReach):
// e-mail when the contact holds one, sms when sms_consent is true and the
// deployment sends texts; nothing for an example or a preview business
// (notify writes to nobody, or to the preview inbox); none at all, an
// empty list. The one request's read and the list agree.
func TestInboxPersonChannels(t *testing.T) {
	fx := newInboxFixture(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	textsOff := httpapi.NewInbox(bookingtest.New(t, booking.Config{Store: fx.store, SiteURL: siteURL, Now: fx.clock.Now, TextsOff: true}), log)
	const (
		plain = iota
		example
		preview
		noTexts // the deployment sends no texts
	)
	tests := []struct {
		name, window, phone, contact string
		setting                      int
		want                         string
	}{
		{"e-mail and texts", mon08, "3235550111", `"email":"a1@example.com","sms_consent":true`, plain, `["email","sms"]`},
		{"e-mail only", mon10, "3235550112", `"email":"a2@example.com","sms_consent":false`, plain, `["email"]`},
		{"texts only", mon13, "3235550113", `"sms_consent":true`, plain, `["sms"]`},
		{"neither", mon15, "3235550114", `"sms_consent":false`, plain, `[]`},
		{"example business, e-mail and texts", mon08, "3235550121", `"email":"b1@example.com","sms_consent":true`, example, `[]`},
		{"preview business, e-mail and texts", mon10, "3235550122", `"email":"b2@example.com","sms_consent":true`, preview, `[]`},
		{"texts off, e-mail and texts", mon13, "3235550123", `"email":"b3@example.com","sms_consent":true`, noTexts, `["email"]`},
		{"texts off, texts only", mon15, "3235550124", `"sms_consent":true`, noTexts, `[]`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slug := "split-day-plumbing"
			if i >= 4 { // another business's windows: the first four hold split-day's
				slug = "all-day-plumbing"
			}
			err := fx.store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
				c := *stored
				c.Example, c.Preview = tt.setting == example, tt.setting == preview
				return &c, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			body := fmt.Sprintf(`{"window_start":%q,"address":{"street":"12 Main St","zip":"90012"},
				"contact":{"name":"Ana Ruiz","phone":%q,%s},"service_id":"drain-cleaning","language":"es"}`, tt.window, tt.phone, tt.contact)
			res := call(t, fx.h, "POST", "/api/v1/businesses/"+slug+"/requests", body)
			if res.status != 201 {
				t.Fatalf("create: got %d %s, want 201", res.status, res.raw)
			}
			h, token := fx.h, fx.tokenA
			if slug != "split-day-plumbing" {
				token = fx.tokenB
			}
			if tt.setting == noTexts {
				h = textsOff
			}
			got := call(t, h, "GET", httpapi.InboxPrefix+"/requests/"+res.str("code"), "", "Authorization", "Bearer "+token)
			channels, err := json.Marshal(got.body["person_channels"])
			if got.status != 200 || err != nil || string(channels) != tt.want {
				t.Errorf("got %d person_channels %s, want 200 %s", got.status, channels, tt.want)
			}
			list := call(t, h, "GET", httpapi.InboxPrefix+"/requests", "", "Authorization", "Bearer "+token)
			var page struct {
				Requests []struct {
					Code           string          `json:"code"`
					PersonChannels json.RawMessage `json:"person_channels"`
				} `json:"requests"`
			}
			if err := json.Unmarshal([]byte(list.raw), &page); err != nil || list.status != 200 {
				t.Fatalf("list: got %d %v", list.status, err)
			}
			found := false
			for _, r := range page.Requests {
				if r.Code == res.str("code") {
					found = true
					if string(r.PersonChannels) != tt.want {
						t.Errorf("list: got person_channels %s, want %s", r.PersonChannels, tt.want)
					}
				}
			}
			if !found {
				t.Error("list: the request is not on its first page")
			}
		})
	}
}
