package inboxweb_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/inboxweb"
)

// noDeposit stores slug without its deposit, from now on.
func (f *fixture) noDeposit(t *testing.T, slug string) {
	t.Helper()
	err := f.store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		c.BookingDeposit = nil
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// notPreview makes slug an ordinary business, whose person's messages go
// to the person (a preview business's go to the preview inbox).
func (f *fixture) notPreview(t *testing.T, slug string) {
	t.Helper()
	err := f.store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		c.Preview = false
		if c.BookingDeposit != nil {
			d := *c.BookingDeposit
			d.Simulated = false // a preview's alone; the service still simulates it without Payments
			c.BookingDeposit = &d
		}
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// order fails unless the pieces appear in body in this order.
func order(t *testing.T, body string, pieces ...string) {
	t.Helper()
	last := -1
	for _, p := range pieces {
		i := strings.Index(body, p)
		if i < 0 {
			t.Errorf("the page lacks %q", p)
			continue
		}
		if i < last {
			t.Errorf("%q comes too early", p)
		}
		last = i
	}
}

func TestInboxList(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "mile-high-electric"
	paidSoon := f.create(t, slug, "", "", 1) // new, deposit paid
	f.noDeposit(t, slug)
	plainLater := f.create(t, slug, "", "", 3)
	emergency := f.create(t, slug, "emergency", "Claude", 2)
	accepted2 := f.create(t, slug, "", "", 5)
	accepted1 := f.create(t, slug, "", "", 4)
	declined := f.createAt(t, slug, "", "", 1, 1)
	tomorrow := f.create(t, slug, "", "", 1)
	f.businessMove(t, slug, tomorrow, booking.ActionAccept, "")
	f.businessMove(t, slug, accepted1, booking.ActionAccept, "")
	f.businessMove(t, slug, accepted2, booking.ActionAccept, "")
	f.businessMove(t, slug, declined, booking.ActionDecline, "")
	other := f.create(t, "desert-cool-hvac", "", "", 1)
	f.clock.Add(2 * time.Hour)

	a, _ := f.signIn(t, slug)
	res := f.do(t, a, "GET", "/inbox", nil)
	if res.status != http.StatusOK {
		t.Fatalf("got %d, want 200", res.status)
	}
	checkHeaders(t, res)
	// What matters now first: tomorrow's job, then what needs an answer.
	order(t, res.body,
		`id="soon"`, "<h3>Tomorrow · Tuesday, November 24, 2026</h3>", `data-code="`+tomorrow+`"`,
		`id="answer"`, `data-code="`+emergency+`"`, `data-code="`+plainLater+`"`, `data-code="`+paidSoon+`"`,
		`id="upcoming"`, "Friday, November 27, 2026", `data-code="`+accepted1+`"`, "Saturday, November 28, 2026", `data-code="`+accepted2+`"`,
		`id="rest"`, `data-code="`+declined+`"`)
	// Each card says whose job it is, what and when.
	wantIn(t, res.body, `<strong class="name">`+personName+`</strong>
<span class="service">`)
	wantIn(t, res.body,
		`class="card emergency"`, "Emergency", "Sent by the assistant Claude", city+" 80202", "2 h ago",
		"Deposit $25.00 paid", "Wednesday, November 25, 2026, 8:00 AM – 9:00 AM MST", `href="/inbox/requests/`+paidSoon+`"`)
	wantNotIn(t, res.body, other, "<script", "src=")
	if got := strings.Count(res.body, `class="card emergency"`); got != 1 {
		t.Errorf("got %d emergencies, want 1", got)
	}
}

func TestRequestPage(t *testing.T) {
	f := newFixture(t, nil)
	code := f.create(t, "desert-cool-hvac", "emergency", "Claude", 1)
	f.clock.Add(5 * time.Minute)
	a, _ := f.signIn(t, "desert-cool-hvac")
	res := f.do(t, a, "GET", "/inbox/requests/"+code, nil)
	if res.status != http.StatusOK {
		t.Fatalf("got %d, want 200", res.status)
	}
	checkHeaders(t, res)
	wantIn(t, res.body, personName, `href="tel:&#43;1`+personPhone+`0"`, "(720) 555-0140", personEmail,
		street+", "+unit+"<br>", city+" 85004<br>",
		`<a id="map" href="https://www.google.com/maps/search/?api=1&amp;query=4417&#43;Wisteria&#43;Lane%2C&#43;Lakewood&#43;85004"`,
		`<blockquote id="description">The breaker trips &lt;b&gt;twice&lt;/b&gt; a day.</blockquote>`,
		"Agreed to get texts about this request", "Claude", "Emergency", "5 min ago", "Sent · by the person",
		`action="/inbox/requests/`+code+`/accept"`, `href="/inbox/requests/`+code+`/decline"`, `href="/inbox/requests/`+code+`/move"`,
		`href="/inbox/requests/`+code+`/spam"`, "Not a genuine request",
		`<span class="muted" id="hint-spam">The request is declined without telling anyone, and its phone and e-mail can no longer send you requests.</span>`,
		`aria-describedby="hint-decline"`, "For a request you have not accepted: the person is told that you cannot take it",
		`name="csrf" value="`, `data-state="new"`)
	wantNotIn(t, res.body, "<b>twice", `/complete"`, `/no_show"`, `/cancel"`)
	// Who, where, what and when first; then the moves; the rest after.
	order(t, res.body, `<h1 id="state" data-state="new">`+personName, `id="phone"`, `id="address"`, `id="map"`, `id="service"`,
		`id="description"`, `id="window"`, `id="accept"`, `id="move"`, `id="decline"`, "Received", "History", `id="spam"`)

	accepted := f.create(t, "desert-cool-hvac", "", "", 2)
	f.businessMove(t, "desert-cool-hvac", accepted, booking.ActionAccept, "")
	for _, tt := range []struct {
		name      string
		after     time.Duration // the clock moved on by this
		want      []string      // the moves' ids, in their order
		wantNotIn []string
	}{
		{"accepted, before its window", 0, []string{`id="move"`, `id="cancel"`}, []string{`id="complete"`, `id="no_show"`, `id="decline"`, `id="spam"`, `id="accept"`}},
		{"accepted, once its window started", 3 * 24 * time.Hour, []string{`id="complete"`, `id="no_show"`, `id="move"`, `id="cancel"`}, []string{`id="decline"`, `id="spam"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f.clock.Add(tt.after)
			res := f.do(t, a, "GET", "/inbox/requests/"+accepted, nil)
			order(t, res.body, append([]string{`id="window"`}, tt.want...)...)
			wantIn(t, res.body, "For a job you accepted: the person is told that it will not happen")
			wantNotIn(t, res.body, append(tt.wantNotIn, "For a request you have not accepted")...)
		})
	}

	t.Run("lenient code", func(t *testing.T) {
		res := f.do(t, a, "GET", "/inbox/requests/"+strings.ToLower(strings.ReplaceAll(code, "-", "")), nil)
		if res.status != http.StatusOK {
			t.Errorf("got %d, want 200", res.status)
		}
	})
}

// A session of one business opens nothing of another's, and changes
// nothing of it; an unknown code is the same 404.
func TestOtherBusiness(t *testing.T) {
	f := newFixture(t, nil)
	theirs := f.create(t, "mile-high-electric", "", "", 1)
	a, csrf := f.signIn(t, "desert-cool-hvac")
	tests := []struct {
		name, method, path string
		form               url.Values
	}{
		{"their request", "GET", "/inbox/requests/" + theirs, nil},
		{"its confirm page", "GET", "/inbox/requests/" + theirs + "/decline", nil},
		{"its move page", "GET", "/inbox/requests/" + theirs + "/move", nil},
		{"accepting it", "POST", "/inbox/requests/" + theirs + "/accept", url.Values{"csrf": {csrf}}},
		{"declining it", "POST", "/inbox/requests/" + theirs + "/decline", url.Values{"csrf": {csrf}, "deposit": {"refunded"}}},
		{"an unknown code", "GET", "/inbox/requests/ZZZZ-ZZZZ-ZZZZ", nil},
		{"an unknown code's move", "POST", "/inbox/requests/ZZZZ-ZZZZ-ZZZZ/accept", url.Values{"csrf": {csrf}}},
		{"not a code", "GET", "/inbox/requests/hello", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, a, tt.method, tt.path, tt.form)
			if res.status != http.StatusNotFound {
				t.Fatalf("got %d, want 404", res.status)
			}
			wantIn(t, res.body, "No page of your inbox has this address.")
			wantNotIn(t, res.body, personName, "Mile High", theirs)
		})
	}
	if r := f.request(t, theirs); r.Status != booking.StatusNew || len(r.History) != 2 {
		t.Errorf("got %s with %d events, want new, untouched", r.Status, len(r.History))
	}
}

func TestMoves(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "mile-high-electric" // a $25 deposit, paid
	f.notPreview(t, slug)             // the person is told (TestToldHowThePersonHears has the preview)
	a, csrf := f.signIn(t, slug)
	tests := []struct {
		name        string
		before      []booking.Action // made first, outside the web inbox
		action      booking.Action
		wantConfirm []string // on the confirm page; nil: no confirm page is needed
		wantOutcome string
		wantStatus  booking.Status
		wantDeposit string
		wantDone    string
		started     bool // the clock is past the window's start
	}{
		{"accept", nil, booking.ActionAccept, nil, "", booking.StatusAccepted, booking.DepositPaid, "Accepted. <span id=\"told\">The person is told by e-mail and text.</span>", false},
		{"decline", nil, booking.ActionDecline, []string{"Decline this request?", "$25.00 deposit is refunded in full.", "cannot take this job"},
			booking.DepositRefunded, booking.StatusDeclined, booking.DepositRefunded, "Declined. <span id=\"told\">The person is told by e-mail and text.</span>", false},
		// Marked not genuine is a decline: a paid deposit is refunded.
		{"not genuine", nil, booking.ActionSpam, []string{"Not a genuine request?", "without telling anyone", "$25.00 deposit is refunded in full."},
			booking.DepositRefunded, booking.StatusDeclined, booking.DepositRefunded, "Marked not genuine.", false},
		{"cancel", []booking.Action{booking.ActionAccept}, booking.ActionCancel, []string{"Cancel this job?", "refunded in full"},
			booking.DepositRefunded, booking.StatusCancelled, booking.DepositRefunded, "Cancelled. <span id=\"told\">The person is told by e-mail and text.</span>", false},
		{"complete", []booking.Action{booking.ActionAccept}, booking.ActionComplete, []string{"Mark this job done?", "The $25.00 deposit is deducted from the bill."},
			booking.DepositDeducted, booking.StatusCompleted, booking.DepositDeducted, "Marked done.", true},
		{"no-show", []booking.Action{booking.ActionAccept}, booking.ActionNoShow, []string{"Nobody was there?", "You keep the $25.00 deposit."},
			booking.DepositKept, booking.StatusNoShow, booking.DepositKept, "Marked as nobody there.", true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code := f.createAt(t, slug, "", "", 1+i%4, i/4)
			for _, m := range tt.before {
				f.businessMove(t, slug, code, m, "")
			}
			if tt.started {
				was := f.clock.Now()
				f.clock.Set(f.request(t, code).Window.Start.Add(time.Minute))
				defer f.clock.Set(was)
			}
			path := "/inbox/requests/" + code + "/" + string(tt.action)
			form := url.Values{"csrf": {csrf}}
			if tt.wantConfirm != nil {
				res := f.do(t, a, "GET", path, nil)
				if res.status != http.StatusOK {
					t.Fatalf("confirm page: got %d, want 200", res.status)
				}
				wantIn(t, res.body, tt.wantConfirm...)
				if tt.wantOutcome != "" {
					wantIn(t, res.body, `data-outcome="`+tt.wantOutcome+`"`)
				}
				wantIn(t, res.body, `name="deposit" value="`+tt.wantOutcome+`"`, `action="`+path+`"`)
				if got := f.request(t, code).Status; got == tt.wantStatus {
					t.Fatal("the confirm page made the move")
				}
				form.Set("deposit", tt.wantOutcome)
			}
			res := f.do(t, a, "POST", path, form)
			if res.status != http.StatusSeeOther || res.location != "/inbox/requests/"+code+"?done="+string(tt.action) {
				t.Fatalf("got %d to %q, want 303 to the request", res.status, res.location)
			}
			r := f.request(t, code)
			if r.Status != tt.wantStatus {
				t.Errorf("got %s, want %s", r.Status, tt.wantStatus)
			}
			if tt.wantDeposit != "" && r.Deposit.State != tt.wantDeposit {
				t.Errorf("got deposit %s, want %s", r.Deposit.State, tt.wantDeposit)
			}
			if last := r.History[len(r.History)-1]; last.By != booking.ActorBusiness || last.Action != tt.action {
				t.Errorf("got last event %+v, want %s by the business", last, tt.action)
			}
			wantIn(t, f.do(t, a, "GET", res.location, nil).body, tt.wantDone)
		})
	}
	t.Run("done or nobody there before the window", func(t *testing.T) {
		code := f.createAt(t, slug, "", "", 4, 2)
		f.businessMove(t, slug, code, booking.ActionAccept, "")
		for _, action := range []string{"complete", "no_show"} {
			path := "/inbox/requests/" + code + "/" + action
			get := f.do(t, a, "GET", path, nil)
			post := f.do(t, a, "POST", path, url.Values{"csrf": {csrf}})
			for _, res := range []response{get, post} {
				if res.status != http.StatusConflict {
					t.Errorf("%s: got %d, want 409", action, res.status)
				}
				wantIn(t, res.body, "Nothing changed: the window has not started yet.")
			}
		}
		if got := f.request(t, code).Status; got != booking.StatusAccepted {
			t.Errorf("got %s, want accepted", got)
		}
	})
	t.Run("a deposit's consequence changed meanwhile", func(t *testing.T) {
		code := f.createAt(t, slug, "", "", 3, 2)
		res := f.do(t, a, "POST", "/inbox/requests/"+code+"/decline", url.Values{"csrf": {csrf}, "deposit": {booking.DepositKept}})
		if res.status != http.StatusConflict {
			t.Fatalf("got %d, want 409", res.status)
		}
		wantIn(t, res.body, "changed since you opened this page", `value="refunded"`)
		if got := f.request(t, code).Status; got != booking.StatusNew {
			t.Errorf("got %s, want new", got)
		}
	})
}

var windowStart = regexp.MustCompile(`name="window_start" value="([^"]+)"`)

func TestMoveToAnotherWindow(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	code := f.create(t, slug, "", "", 1)
	taken := f.createAt(t, slug, "", "", 2, 0)
	a, csrf := f.signIn(t, slug)
	path := "/inbox/requests/" + code + "/move"
	res := f.do(t, a, "GET", path, nil)
	if res.status != http.StatusOK {
		t.Fatalf("got %d, want 200", res.status)
	}
	// First the days, as links; no window yet.
	wantIn(t, res.body, "Offer another window", "Pick a day", `href="`+path+`?day=2026-11-25"><strong>Wednesday, November 25, 2026</strong>`, "open windows")
	wantNotIn(t, res.body, `type="radio"`, "Offer this window")
	// Then a day's windows, the button right after them.
	res = f.do(t, a, "GET", path+"?day=2026-11-25", nil)
	if res.status != http.StatusOK {
		t.Fatalf("got %d, want 200", res.status)
	}
	wantIn(t, res.body, `<strong id="picked-day">Wednesday, November 25, 2026</strong>`, `type="radio"`, "Offer this window", "Or another day",
		`href="`+path+`?day=2026-11-25" aria-current="true"`)
	order(t, res.body, `type="radio"`, `id="confirm"`, "Or another day")
	starts := windowStart.FindAllStringSubmatch(res.body, -1)
	if len(starts) < 2 {
		t.Fatalf("got %d windows, want more", len(starts))
	}
	b := f.business(t, slug)
	for _, s := range starts {
		if st, _ := time.Parse(time.RFC3339, s[1]); st.In(b.Location()).Format(time.DateOnly) != "2026-11-25" {
			t.Errorf("window %s is not on the day picked", s[1])
		}
	}
	old := f.request(t, code).Window.Start.UTC().Format(time.RFC3339)
	own := f.do(t, a, "GET", path+"?day="+f.request(t, code).Window.Start.In(b.Location()).Format(time.DateOnly), nil)
	if strings.Contains(own.body, old) {
		t.Errorf("the request's own window %s is offered", old)
	}
	t.Run("a day with no window", func(t *testing.T) {
		res := f.do(t, a, "GET", path+"?day=2027-01-01", nil)
		if res.status != http.StatusOK {
			t.Fatalf("got %d, want 200", res.status)
		}
		wantIn(t, res.body, "Pick a day")
		wantNotIn(t, res.body, `type="radio"`)
	})
	t.Run("in Spanish", func(t *testing.T) {
		res := f.do(t, a, "GET", path+"?lang=es", nil)
		wantIn(t, res.body, "Ofrecer otro horario", "Elija un día", "miércoles 25 de noviembre de 2026", "horarios libres")
	})
	t.Run("no window picked", func(t *testing.T) {
		res := f.do(t, a, "POST", path, url.Values{"csrf": {csrf}})
		if res.status != http.StatusBadRequest {
			t.Errorf("got %d, want 400", res.status)
		}
		wantIn(t, res.body, "Pick one of the open windows below.")
	})
	t.Run("not a window", func(t *testing.T) {
		res := f.do(t, a, "POST", path, url.Values{"csrf": {csrf}, "window_start": {"2026-11-25T15:17:00Z"}})
		if res.status != http.StatusBadRequest {
			t.Errorf("got %d, want 400", res.status)
		}
	})
	t.Run("a window just taken", func(t *testing.T) {
		w := f.request(t, taken).Window.Start.UTC().Format(time.RFC3339)
		res := f.do(t, a, "POST", path, url.Values{"csrf": {csrf}, "window_start": {w}})
		if res.status != http.StatusConflict {
			t.Errorf("got %d, want 409", res.status)
		}
		// The windows of the same day, to pick another.
		wantIn(t, res.body, "That window was just taken.", `<strong id="picked-day">`, `type="radio"`)
	})
	t.Run("a window just taken, written in lower case", func(t *testing.T) {
		// RFC 3339 allows "t" and "z"; the day shown again is the same.
		w := strings.ToLower(f.request(t, taken).Window.Start.UTC().Format(time.RFC3339))
		res := f.do(t, a, "POST", path, url.Values{"csrf": {csrf}, "window_start": {w}})
		if res.status != http.StatusConflict {
			t.Errorf("got %d, want 409", res.status)
		}
		wantIn(t, res.body, "That window was just taken.", `<strong id="picked-day">`, `type="radio"`)
	})
	pick := starts[len(starts)-1][1]
	res = f.do(t, a, "POST", path, url.Values{"csrf": {csrf}, "window_start": {pick}})
	if res.status != http.StatusSeeOther {
		t.Fatalf("got %d, want 303", res.status)
	}
	r := f.request(t, code)
	// The offer answers the request: it is accepted at the new window.
	if got := r.Window.Start.UTC().Format(time.RFC3339); got != pick || !r.ChangedByBusiness || r.Status != booking.StatusAccepted {
		t.Errorf("got window %s (changed %v, %s), want %s, changed, accepted", got, r.ChangedByBusiness, r.Status, pick)
	}
	page := f.do(t, a, "GET", res.location, nil)
	wantIn(t, page.body, "Accepted at the new window; the person may cancel if it does not suit them. <span id=\"told\">The person is told by e-mail and text.</span>",
		"You moved this request to this window.", "Moved to another window · by you", `data-state="accepted"`)
	t.Run("paused: the business still offers its windows", func(t *testing.T) {
		if _, err := f.inbox(t, slug).SetAcceptingRequests(context.Background(), false); err != nil {
			t.Fatal(err)
		}
		res := f.do(t, a, "GET", path, nil)
		if !strings.Contains(res.body, `class="card day"`) {
			t.Errorf("got no day with windows while paused")
		}
	})
}

// Every form is refused without the session's CSRF token, with another
// session's, or from another site; nothing changes. Signed out, it leads
// to sign-in.
func TestFormRefusals(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	code := f.create(t, slug, "", "", 1)
	a, csrf := f.signIn(t, slug)
	_, otherCSRF := f.signIn(t, "mile-high-electric")
	b, csrfB := f.signIn(t, slug) // a second session of the same business
	foreign := agent{session: a.session, header: []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}}
	accept := "/inbox/requests/" + code + "/accept"
	tests := []struct {
		name       string
		who        agent
		path       string
		form       url.Values
		wantStatus int
		wantWhere  string // Location of a 303
	}{
		{"no CSRF token", a, accept, url.Values{}, http.StatusForbidden, ""},
		{"an empty CSRF token", a, accept, url.Values{"csrf": {""}}, http.StatusForbidden, ""},
		{"another business's CSRF token", a, accept, url.Values{"csrf": {otherCSRF}}, http.StatusForbidden, ""},
		{"another session's CSRF token", b, accept, url.Values{"csrf": {csrf}}, http.StatusForbidden, ""},
		{"from another site", foreign, accept, url.Values{"csrf": {csrf}}, http.StatusForbidden, ""},
		{"signed out", agent{}, accept, url.Values{"csrf": {csrf}}, http.StatusSeeOther, "/inbox?next=" + url.QueryEscape(accept)},
		{"an ended session", agent{session: "ended"}, accept, url.Values{"csrf": {csrf}}, http.StatusSeeOther, "/inbox?next=" + url.QueryEscape(accept)},
		{"settings without CSRF", a, "/inbox/settings", url.Values{"accepting_requests": {"off"}}, http.StatusForbidden, ""},
		{"settings from another site", foreign, "/inbox/settings", url.Values{"csrf": {csrf}, "accepting_requests": {"off"}}, http.StatusForbidden, ""},
		{"sign-out without CSRF", a, "/inbox/sign-out", url.Values{}, http.StatusForbidden, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, tt.who, "POST", tt.path, tt.form)
			if res.status != tt.wantStatus || res.location != tt.wantWhere {
				t.Fatalf("got %d to %q, want %d to %q", res.status, res.location, tt.wantStatus, tt.wantWhere)
			}
			if r := f.request(t, code); r.Status != booking.StatusNew {
				t.Errorf("got %s, want new: nothing changed", r.Status)
			}
			if !f.business(t, slug).AcceptingRequests {
				t.Error("online requests were paused")
			}
		})
	}
	if res := f.do(t, b, "POST", accept, url.Values{"csrf": {csrfB}}); res.status != http.StatusSeeOther {
		t.Errorf("the second session's own token: got %d, want 303", res.status)
	}
}

// A move that lost a race changes nothing, and the page says what became
// of the request.
func TestLostRace(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "mile-high-electric"
	a, csrf := f.signIn(t, slug)
	tests := []struct {
		name    string
		first   booking.Action // made meanwhile, elsewhere
		then    booking.Action
		form    url.Values
		lang    string
		want    string
		wantNow booking.Status
	}{
		{"accept after a decline", booking.ActionDecline, booking.ActionAccept, nil, "", "Nothing changed: this request was already declined.", booking.StatusDeclined},
		{"decline after an accept", booking.ActionAccept, booking.ActionDecline, url.Values{"deposit": {"refunded"}}, "", "Nothing changed: this request was already accepted.", booking.StatusAccepted},
		{"in Spanish", booking.ActionCancel, booking.ActionAccept, nil, "es", "No cambió nada: esta solicitud ya estaba cancelada.", booking.StatusCancelled},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code := f.create(t, slug, "", "", 1+i)
			page := f.do(t, a, "GET", "/inbox/requests/"+code, nil)
			wantIn(t, page.body, `id="accept"`)
			f.businessMove(t, slug, code, tt.first, "")
			form := url.Values{"csrf": {csrf}}
			for k, v := range tt.form {
				form[k] = v
			}
			path := "/inbox/requests/" + code + "/" + string(tt.then)
			if tt.lang != "" {
				path += "?lang=" + tt.lang
			}
			res := f.do(t, a, "POST", path, form)
			if res.status != http.StatusConflict {
				t.Fatalf("got %d, want 409", res.status)
			}
			wantIn(t, res.body, tt.want, `data-state="`+string(tt.wantNow)+`"`)
			if r := f.request(t, code); r.Status != tt.wantNow || len(r.History) != 3 {
				t.Errorf("got %s with %d events, want %s, 3 events", r.Status, len(r.History), tt.wantNow)
			}
		})
	}
	t.Run("a cursor the list did not give", func(t *testing.T) {
		res := f.do(t, a, "GET", "/inbox?before=bm90LWEtY3Vyc29y", nil)
		if res.status != http.StatusSeeOther || res.location != "/inbox" {
			t.Errorf("got %d to %q, want 303 to the first page", res.status, res.location)
		}
	})
	t.Run("the confirm page of a move no longer possible", func(t *testing.T) {
		code := f.create(t, slug, "", "", 5)
		f.businessMove(t, slug, code, booking.ActionDecline, "")
		res := f.do(t, a, "GET", "/inbox/requests/"+code+"/decline", nil)
		if res.status != http.StatusConflict {
			t.Fatalf("got %d, want 409", res.status)
		}
		wantIn(t, res.body, "This move is not possible for this request now.", "Declined")
	})
}

func TestSettings(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	a, csrf := f.signIn(t, slug)
	res := f.do(t, a, "GET", "/inbox/settings", nil)
	wantIn(t, res.body, "Online requests are on", `id="pause" href="/inbox/settings?set=off"`)
	res = f.do(t, a, "GET", "/inbox/settings?set=off", nil)
	wantIn(t, res.body, "Pause online requests? Nobody can send you a new one", `name="accepting_requests" value="off"`, "Yes, pause them")
	if !f.business(t, slug).AcceptingRequests {
		t.Fatal("the confirm step paused them")
	}
	t.Run("neither on nor off", func(t *testing.T) {
		res := f.do(t, a, "POST", "/inbox/settings", url.Values{"csrf": {csrf}, "accepting_requests": {"maybe"}})
		if res.status != http.StatusBadRequest {
			t.Errorf("got %d, want 400", res.status)
		}
	})
	res = f.do(t, a, "POST", "/inbox/settings", url.Values{"csrf": {csrf}, "accepting_requests": {"off"}})
	if res.status != http.StatusSeeOther || res.location != "/inbox/settings?done=off" {
		t.Fatalf("got %d to %q", res.status, res.location)
	}
	if f.business(t, slug).AcceptingRequests {
		t.Fatal("still accepting requests")
	}
	wantIn(t, f.do(t, a, "GET", res.location, nil).body, "Online requests are paused.", `id="resume"`)
	wantIn(t, f.do(t, a, "GET", "/inbox", nil).body, "Online requests are paused: nobody can send you a new one.")
	res = f.do(t, a, "POST", "/inbox/settings", url.Values{"csrf": {csrf}, "accepting_requests": {"on"}})
	if res.status != http.StatusSeeOther || !f.business(t, slug).AcceptingRequests {
		t.Fatalf("resume: got %d, accepting %v", res.status, f.business(t, slug).AcceptingRequests)
	}
	wantIn(t, f.do(t, a, "GET", "/inbox/settings?done=on", nil).body, "Online requests are on again.")
	if res := f.do(t, agent{}, "GET", "/inbox/settings", nil); res.status != http.StatusSeeOther || res.location != "/inbox?next=%2Finbox%2Fsettings" {
		t.Errorf("signed out: got %d to %q", res.status, res.location)
	}
}

func TestLanguage(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "limpieza-la-estrella" // Spanish first
	code := f.create(t, slug, "emergency", "", 1)
	a, _ := f.signIn(t, slug)
	tests := []struct {
		name, path string
		want       []string
		wantCookie string
	}{
		{"the business's language", "/inbox", []string{`<html lang="es">`, "Esperan su respuesta", "Emergencia", `href="/inbox?lang=en"`, "Salir"}, ""},
		{"a request", "/inbox/requests/" + code, []string{"Aceptó recibir mensajes", "Enviada · por la persona", "Rechazar"}, ""},
		{"switched", "/inbox?lang=en", []string{`<html lang="en">`, "Needs an answer", `href="/inbox?lang=es"`}, "en"},
		{"the decline step", "/inbox/requests/" + code + "/decline", []string{"¿Rechazar esta solicitud?", "Sí, rechazar"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, a, "GET", tt.path, nil)
			if res.status != http.StatusOK {
				t.Fatalf("got %d, want 200", res.status)
			}
			wantIn(t, res.body, tt.want...)
			if c := res.cookie("doorstep_inbox_lang"); tt.wantCookie != "" && (c == nil || c.Value != tt.wantCookie || c.Path != "/inbox") {
				t.Errorf("got the language cookie %v, want %s", c, tt.wantCookie)
			}
		})
	}
	t.Run("remembered", func(t *testing.T) {
		res := f.do(t, agent{session: a.session, header: []string{"Cookie", "doorstep_inbox=" + a.session + "; doorstep_inbox_lang=en"}}, "GET", "/inbox", nil)
		wantIn(t, res.body, `<html lang="en">`)
	})
}

func TestNotFound(t *testing.T) {
	f := newFixture(t, nil)
	a, _ := f.signIn(t, "desert-cool-hvac")
	code := f.create(t, "desert-cool-hvac", "", "", 1)
	tests := []struct {
		name, method, path string
		who                agent
	}{
		{"another path", "GET", "/inbox/nothing", agent{}},
		{"another path, signed in", "GET", "/inbox/requests", a},
		{"an unknown move", "GET", "/inbox/requests/" + code + "/pay", a},
		{"a move the business never makes", "POST", "/inbox/requests/" + code + "/expire", a},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var form url.Values
			if tt.method == "POST" {
				form = url.Values{"csrf": {f.csrf(t, a)}}
			}
			res := f.do(t, tt.who, tt.method, tt.path, form)
			if res.status != http.StatusNotFound {
				t.Fatalf("got %d, want 404", res.status)
			}
			wantIn(t, res.body, "No page of your inbox has this address.")
		})
	}
	if got := f.request(t, code).Status; got != booking.StatusNew {
		t.Errorf("got %s, want new", got)
	}
}

// TestMethodNotAllowed: another method on a path of the inbox is 405 with
// the path's methods in Allow, a page in the reader's language, and moves
// nothing; a path the inbox does not have stays 404 whatever the method.
func TestMethodNotAllowed(t *testing.T) {
	f := newFixture(t, nil)
	a, _ := f.signIn(t, "desert-cool-hvac")
	code := f.create(t, "desert-cool-hvac", "", "", 1)
	tests := []struct {
		name, method, path string
		who                agent
		allow, want        string
	}{
		{"the inbox", "PUT", "/inbox", a, "GET, HEAD", "This page cannot do that"},
		{"a request", "DELETE", "/inbox/requests/" + code, a, "GET, HEAD", "This page cannot do that"},
		{"a move", "PUT", "/inbox/requests/" + code + "/accept", a, "GET, HEAD, POST", "This page cannot do that"},
		{"sign-in, in Spanish", "PUT", "/inbox/sign-in", agent{header: []string{"Accept-Language", "es"}}, "POST", "Esta página no puede hacer eso"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.do(t, tt.who, tt.method, tt.path, nil)
			if res.status != http.StatusMethodNotAllowed || res.header.Get("Allow") != tt.allow {
				t.Fatalf("got %d with Allow %q, want 405 with %q", res.status, res.header.Get("Allow"), tt.allow)
			}
			wantIn(t, res.body, tt.want)
		})
	}
	t.Run("another path", func(t *testing.T) {
		if res := f.do(t, a, "PUT", "/inbox/nothing", nil); res.status != http.StatusNotFound {
			t.Errorf("got %d, want 404", res.status)
		}
	})
	if got := f.request(t, code).Status; got != booking.StatusNew {
		t.Errorf("got %s, want new", got)
	}
}

// Neither a sign-in token, nor a session's token, nor its CSRF token, nor
// the business's address or the person's details reach the log; the log
// names each request by its route pattern.
func TestLogs(t *testing.T) {
	f := newFixture(t, nil)
	code := f.create(t, "mile-high-electric", "", "", 1)
	a, csrf := f.signIn(t, "mile-high-electric")
	token := f.lastToken(t)
	f.do(t, agent{}, "GET", "/inbox/sign-in/"+token, nil)
	f.do(t, agent{}, "POST", "/inbox/sign-in/"+token, url.Values{}) // spent
	f.do(t, a, "GET", "/inbox/requests/"+code, nil)
	f.do(t, a, "POST", "/inbox/requests/"+code+"/accept", url.Values{"csrf": {csrf}})
	f.do(t, a, "POST", "/inbox/requests/"+code+"/decline", url.Values{"csrf": {"wrong-" + csrf}})
	f.counted.failSignIns(context.DeadlineExceeded)
	f.do(t, agent{}, "POST", "/inbox/sign-in", url.Values{"email": {"inbox@mile-high-electric.example.com"}})
	f.counted.failSignIns(nil)
	f.do(t, a, "POST", "/inbox/sign-out", url.Values{"csrf": {csrf}})
	log := f.log.String()
	for _, secret := range []string{token, a.session, csrf, "inbox@mile-high-electric.example.com", personName, personPhone, code} {
		if strings.Contains(log, secret) {
			t.Errorf("the log holds %q:\n%s", secret, log)
		}
	}
	for _, route := range []string{`"route":"POST /inbox/sign-in/{token}"`, `"route":"GET /inbox/sign-in/{token}"`,
		`"route":"POST /inbox/requests/{code}/{action}"`, `"route":"POST /inbox/sign-out"`, `"status":410`, `"status":403`} {
		if !strings.Contains(log, route) {
			t.Errorf("the log lacks %s:\n%s", route, log)
		}
	}
}

// The texts: every key in both languages, none empty, and words for every
// state, deposit state, move, actor and urgency the pages can show.
func TestTexts(t *testing.T) {
	var keys []string
	for _, st := range booking.Statuses {
		keys = append(keys, "state_"+string(st), "race_"+string(st))
	}
	for _, st := range booking.DepositStates {
		keys = append(keys, "deposit_"+st, "then_"+st)
	}
	for _, a := range booking.ActionsBy(booking.ActorBusiness) {
		for _, p := range []string{"action_", "confirm_", "explain_", "button_", "done_"} {
			keys = append(keys, p+string(a))
		}
	}
	for _, a := range append(booking.Actions, booking.ActionCreate) {
		keys = append(keys, "ev_"+string(a))
	}
	for _, by := range []booking.Actor{booking.ActorCustomer, booking.ActorBusiness, booking.ActorOperator, booking.ActorSystem} {
		keys = append(keys, "by_"+string(by))
	}
	for _, u := range []string{"emergency", "soon", "flexible"} {
		keys = append(keys, "urgency_"+u)
	}
	for _, lang := range []string{"en", "es"} {
		for _, key := range keys {
			if _, ok := inboxweb.Texts(lang)[key]; !ok {
				t.Errorf("%s: no %s", lang, key)
			}
		}
		other := map[string]string{"en": "es", "es": "en"}[lang]
		for key, s := range inboxweb.Texts(lang) {
			if s == "" {
				t.Errorf("%s: %s is empty", lang, key)
			}
			if _, ok := inboxweb.Texts(other)[key]; !ok {
				t.Errorf("%s has %s, %s does not", lang, key, other)
			}
		}
	}
}
