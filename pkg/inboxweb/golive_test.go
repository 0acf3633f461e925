package inboxweb_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
)

const previewSlug = "mile-high-electric" // preview, a simulated deposit, no confirmed mobile

// confirmMobile stores a confirmed owner's mobile for slug, as
// ConfirmOwnerPhone does.
func (f *fixture) confirmMobile(t *testing.T, slug string) {
	t.Helper()
	err := f.store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		c.OwnerPhone = "3035550199"
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// operatorChange changes slug as ctl does (booking.OperatorUpdate).
func (f *fixture) operatorChange(t *testing.T, slug string, change func(*booking.Business)) {
	t.Helper()
	err := booking.OperatorUpdate(context.Background(), f.store, slug, f.clock.Now(), func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		change(&c)
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGoLiveFromTheInbox(t *testing.T) {
	for _, approval := range []string{booking.ApprovalAuto, booking.ApprovalOperator} {
		t.Run(approval, func(t *testing.T) {
			f := newFixtureWith(t, func(c *booking.Config) { c.NewBusinessApproval = approval }, nil)
			a, csrf := f.signIn(t, previewSlug)
			post := func(path string, form url.Values) response {
				t.Helper()
				form.Set("csrf", csrf)
				return f.do(t, a, "POST", path, form)
			}

			// The checklist: the mobile is missing, and links to where it is confirmed.
			res := f.do(t, a, "GET", "/inbox", nil)
			wantIn(t, res.body, `data-state="preview"`, "Before you go live", `data-check="email" data-done="true"`,
				`data-check="mobile" data-done="false"`, `href="/inbox/settings/texts" id="fix-mobile"`, `data-check="hours" data-done="true"`)
			wantNotIn(t, res.body, `id="go-live"`)
			if res := post("/inbox/go-live", url.Values{}); res.status != http.StatusConflict {
				t.Errorf("go live, not ready: got %d, want 409", res.status)
			}
			if b := f.business(t, previewSlug); !b.Preview {
				t.Fatal("it went live without its checklist")
			}

			f.confirmMobile(t, previewSlug)
			res = f.do(t, a, "GET", "/inbox", nil)
			wantIn(t, res.body, `data-check="mobile" data-done="true"`, `id="go-live"`)
			res = post("/inbox/go-live", url.Values{})
			if approval == booking.ApprovalOperator {
				if res.status != http.StatusSeeOther || res.location != "/inbox?done=waiting" {
					t.Fatalf("go live: got %d to %q, want 303 to /inbox?done=waiting", res.status, res.location)
				}
				res = f.do(t, a, "GET", res.location, nil)
				wantIn(t, res.body, `data-state="waiting"`, "Waiting for Doorstep&#39;s approval", `id="back-to-preview"`)
				wantNotIn(t, res.body, `id="go-live"`)
				if b := f.business(t, previewSlug); !b.Preview || !b.Waiting() {
					t.Fatalf("asked: preview %v, waiting %v; want both", b.Preview, b.Waiting())
				}
				f.operatorChange(t, previewSlug, func(b *booking.Business) { booking.Approve(b) })
			} else if res.status != http.StatusSeeOther || res.location != "/inbox?done=live" {
				t.Fatalf("go live: got %d to %q, want 303 to /inbox?done=live", res.status, res.location)
			}
			b := f.business(t, previewSlug)
			if b.Preview || !b.AcceptingRequests || b.BookingDeposit.Simulated {
				t.Fatalf("live: preview %v, accepting %v, simulated deposit %v", b.Preview, b.AcceptingRequests, b.BookingDeposit.Simulated)
			}
			res = f.do(t, a, "GET", "/inbox?done=live", nil)
			wantIn(t, res.body, `data-state="live"`, "You are live", `id="back-to-preview"`, `id="pause-now"`)
			wantNotIn(t, res.body, `id="checklist"`)

			// Pausing is one tap, and so is resuming.
			if res := post("/inbox/accepting", url.Values{"accepting_requests": {"off"}}); res.status != http.StatusSeeOther || f.business(t, previewSlug).AcceptingRequests {
				t.Errorf("pause: got %d, accepting %v", res.status, f.business(t, previewSlug).AcceptingRequests)
			}
			wantIn(t, f.do(t, a, "GET", "/inbox?done=off", nil).body, `id="resume-now"`, "Online requests are paused.")
			if res := post("/inbox/accepting", url.Values{"accepting_requests": {"on"}}); res.status != http.StatusSeeOther || !f.business(t, previewSlug).AcceptingRequests {
				t.Errorf("resume: got %d", res.status)
			}
			if res := post("/inbox/accepting", url.Values{"accepting_requests": {"maybe"}}); res.status != http.StatusBadRequest {
				t.Errorf("accepting_requests=maybe: got %d, want 400", res.status)
			}

			// Back to preview is one tap.
			if res := post("/inbox/back-to-preview", url.Values{}); res.status != http.StatusSeeOther || res.location != "/inbox?done=preview" {
				t.Fatalf("back to preview: got %d to %q", res.status, res.location)
			}
			if b := f.business(t, previewSlug); !b.Preview || !b.BookingDeposit.Simulated {
				t.Errorf("back to preview: preview %v, simulated %v", b.Preview, b.BookingDeposit.Simulated)
			}
			wantIn(t, f.do(t, a, "GET", "/inbox?done=preview&lang=es", nil).body, "De vuelta en vista previa", "Antes de publicar", `id="go-live" type="submit">Publicar`)

			// Without the CSRF token nothing moves.
			if res := f.do(t, a, "POST", "/inbox/go-live", url.Values{}); res.status != http.StatusForbidden {
				t.Errorf("go live without CSRF: got %d, want 403", res.status)
			}

			// The history, in settings.
			res = f.do(t, a, "GET", "/inbox/settings/history", nil)
			wantIn(t, res.body, `id="history"`, "You (inbox@mile-high-electric.example.com)", "preview or live", "online requests on or paused")
			if approval == booking.ApprovalOperator {
				wantIn(t, res.body, "Doorstep&#39;s operator", "approval")
			}
			wantIn(t, f.do(t, a, "GET", "/inbox/settings/history?lang=es", nil).body, "Historial", "vista previa o publicado")
		})
	}
}

func TestSuspendedInboxIsReadOnly(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	code := f.create(t, slug, "", "", 1)
	declined := f.createAt(t, slug, "", "", 1, 1)
	f.businessMove(t, slug, declined, booking.ActionDecline, "")
	a, csrf := f.signIn(t, slug)
	f.operatorChange(t, slug, func(b *booking.Business) { b.Suspended = true })

	res := f.do(t, a, "GET", "/inbox", nil)
	wantIn(t, res.body, `data-state="suspended"`, "Your inbox is read-only", code)
	wantNotIn(t, res.body, `id="pause-now"`, `id="back-to-preview"`)
	if res := f.do(t, a, "GET", "/inbox/requests/"+code, nil); res.status != http.StatusOK {
		t.Errorf("a request's page: got %d, want 200", res.status)
	}
	for _, path := range []string{"/inbox/accepting", "/inbox/settings", "/inbox/requests/" + code + "/accept", "/inbox/back-to-preview", "/inbox/settings/notice"} {
		res := f.do(t, a, "POST", path, url.Values{"csrf": {csrf}, "accepting_requests": {"off"}})
		if res.status != http.StatusForbidden {
			t.Errorf("POST %s: got %d, want 403", path, res.status)
		}
		wantIn(t, res.body, "suspended this business")
	}
	if got := f.request(t, code).Status; got != booking.StatusNew {
		t.Errorf("the request: got %s, want it still new", got)
	}
	// Erasing a request's personal details is still the person's right.
	if res := f.do(t, a, "POST", "/inbox/requests/"+declined+"/erase", url.Values{"csrf": {csrf}}); res.status != http.StatusSeeOther || f.request(t, declined).Erased.IsZero() {
		t.Errorf("erase: got %d, want 303 and the details erased", res.status)
	}
	if res := f.do(t, a, "POST", "/inbox/sign-out", url.Values{"csrf": {csrf}}); res.status != http.StatusSeeOther {
		t.Errorf("sign out: got %d, want 303", res.status)
	}
}

// TestSignedUpBusinessShowsOneState: a business fresh from sign-up lacks
// what a request needs. Its inbox and settings say one state (a preview
// that takes no requests yet, and what to do), offer no button that
// resumes requests, and a resume sent anyway (an old page) is a sentence,
// 409, never a server error; nothing changes.
func TestSignedUpBusinessShowsOneState(t *testing.T) {
	tests := []struct {
		lang                  string
		inbox, settings, said string
	}{
		{"en", "Your booking page takes no requests yet.", "takes no requests yet: it needs a service", "Not ready to take requests"},
		{"es", "Su página de reservas aún no recibe solicitudes.", "aún no recibe solicitudes: primero necesita", "Aún no puede recibir solicitudes"},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			f := newFixture(t, nil)
			a, csrf, slug := f.signUp(t, "Fontanería José", "jose@fontaneria.example.com", tt.lang)
			res := f.do(t, a, "GET", "/inbox?lang="+tt.lang, nil)
			wantIn(t, res.body, `data-state="preview"`, tt.inbox, `id="checklist"`)
			wantNotIn(t, res.body, `id="resume-now"`, `id="pause-now"`, `class="note"`)
			res = f.do(t, a, "GET", "/inbox/settings?set=on&lang="+tt.lang, nil)
			wantIn(t, res.body, tt.settings, `id="to-checklist"`)
			wantNotIn(t, res.body, `id="resume"`, `id="confirm"`)

			for _, path := range []string{"/inbox/accepting", "/inbox/settings"} {
				res := f.do(t, a, "POST", path+"?lang="+tt.lang, url.Values{"csrf": {csrf}, "accepting_requests": {"on"}})
				if res.status != http.StatusConflict {
					t.Errorf("%s on: got %d, want 409", path, res.status)
				}
				wantIn(t, res.body, tt.said)
				if b := f.business(t, slug); b.AcceptingRequests {
					t.Errorf("%s on: it accepts requests", path)
				}
			}
			if strings.Contains(f.log.String(), `"level":"ERROR"`) {
				t.Errorf("an error was logged:\n%s", f.log)
			}
		})
	}
}

// TestPreviewPausedShowsOneState: a preview business that has what a
// request needs says, paused, that it takes none and how to try it, and
// resumes in one tap; taking them, that they reach the preview inbox.
func TestPreviewPausedShowsOneState(t *testing.T) {
	f := newFixture(t, nil)
	a, csrf := f.signIn(t, previewSlug)
	wantIn(t, f.do(t, a, "GET", "/inbox", nil).body, "People can try your booking page", `id="pause-now"`)
	wantIn(t, f.do(t, a, "GET", "/inbox/settings", nil).body, "their requests reach the preview inbox")
	if res := f.do(t, a, "POST", "/inbox/accepting", url.Values{"csrf": {csrf}, "accepting_requests": {"off"}}); res.status != http.StatusSeeOther {
		t.Fatalf("pause: got %d", res.status)
	}
	res := f.do(t, a, "GET", "/inbox", nil)
	wantIn(t, res.body, "Online requests are paused: your booking page takes none", `id="resume-now"`)
	wantNotIn(t, res.body, `class="note"`)
	if res := f.do(t, a, "POST", "/inbox/accepting", url.Values{"csrf": {csrf}, "accepting_requests": {"on"}}); res.status != http.StatusSeeOther || !f.business(t, previewSlug).AcceptingRequests {
		t.Fatalf("resume: got %d", res.status)
	}
}

// TestLiveKeepsItsLastService: a live business's last service cannot be
// removed: the page says why next to it (409), and it stays; nor can its
// last ZIP code, said next to the ZIP codes with what was typed kept.
func TestLiveKeepsItsLastService(t *testing.T) {
	const slug = "desert-cool-hvac"
	for _, lang := range []string{"en", "es"} {
		t.Run(lang, func(t *testing.T) {
			f := newFixture(t, nil)
			f.setSchedule(t, slug, func(b *booking.Business) { b.Services = b.Services[:1] })
			a, csrf := f.signIn(t, slug)
			id := f.business(t, slug).Services[0].ID
			form := url.Values{"csrf": {csrf}, "version": {f.sectionVersion(t, a, "services")}, "id": {id}}
			res := f.do(t, a, "POST", "/inbox/settings/remove-service?lang="+lang, form)
			if res.status != http.StatusConflict {
				t.Fatalf("remove the last service: got %d, want 409", res.status)
			}
			want := map[string]string{"en": "so it keeps at least one service", "es": "así que conserva al menos un servicio"}[lang]
			wantIn(t, res.body, `id="service-`+id+`"`, `id="service-error">`, want, `href="#service-`+id+`"`)
			if b := f.business(t, slug); len(b.Services) != 1 || b.Preview {
				t.Errorf("after: %d services, preview %v", len(b.Services), b.Preview)
			}

			form = url.Values{"csrf": {csrf}, "version": {f.sectionVersion(t, a, "area")}, "label": {"Phoenix"}, "zip_codes": {" "}}
			res = f.do(t, a, "POST", "/inbox/settings/area?lang="+lang, form)
			if res.status != http.StatusBadRequest {
				t.Fatalf("remove the last ZIP code: got %d, want 400", res.status)
			}
			wantIn(t, res.body, `id="zip_codes-error">`, `value="Phoenix"`)
			if b := f.business(t, slug); len(b.ServiceArea.ZIPCodes) == 0 {
				t.Error("the last ZIP code went")
			}
		})
	}
}

// TestRefusedChangeIsASentence: a change booking refuses with
// INVALID_REQUEST that no form of the page names a field for reaches the
// owner as a page that says nothing changed (409, in the page's
// language), never as a server error; its log line holds the code, not
// the message, which may quote a phone number.
func TestRefusedChangeIsASentence(t *testing.T) {
	const slug = "desert-cool-hvac"
	for _, lang := range []string{"en", "es"} {
		t.Run(lang, func(t *testing.T) {
			f := newFixture(t, nil)
			code := f.create(t, slug, "", "", 1)
			a, csrf := f.signIn(t, slug)
			f.counted.mu.Lock()
			f.counted.moveErr = booking.Errorf(booking.InvalidRequest, "owner_phone: got %q", "+13035550199")
			f.counted.mu.Unlock()
			res := f.do(t, a, "POST", "/inbox/requests/"+code+"/accept?lang="+lang, url.Values{"csrf": {csrf}})
			if res.status != http.StatusConflict {
				t.Fatalf("got %d, want 409", res.status)
			}
			wantIn(t, res.body, map[string]string{"en": "so nothing changed", "es": "así que no cambió nada"}[lang])
			if log := f.log.String(); strings.Contains(log, `"level":"ERROR"`) || strings.Contains(log, "5550199") || !strings.Contains(log, "INVALID_REQUEST") {
				t.Errorf("log:\n%s", log)
			}
			if got := f.request(t, code).Status; got != booking.StatusNew {
				t.Errorf("the request is %s, want new", got)
			}
		})
	}
}

// TestInboxReadsItsBusinessFresh: the owner's pages read their business
// past the business cache, so the inbox shows an approval the operator
// stored from another process (ctl businesses approve) on the very next
// page, while the public side may still serve the cached record for up to
// dynamo.BusinessCacheTTL.
func TestInboxReadsItsBusinessFresh(t *testing.T) {
	withCache := func(c *bookingtest.Clock) []dynamo.Option {
		return []dynamo.Option{dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, c.Now)}
	}
	f := newFixtureOn(t, withCache, func(c *booking.Config) { c.NewBusinessApproval = booking.ApprovalOperator }, nil)
	ctx := context.Background()
	a, csrf := f.signIn(t, previewSlug)
	f.confirmMobile(t, previewSlug)
	if res := f.do(t, a, "POST", "/inbox/go-live", url.Values{"csrf": {csrf}}); res.status != http.StatusSeeOther {
		t.Fatalf("go live: got %d, want 303", res.status)
	}
	wantIn(t, f.do(t, a, "GET", "/inbox", nil).body, `data-state="waiting"`)
	if b, err := f.bookings.Business(ctx, previewSlug); err != nil || !b.Waiting() {
		t.Fatalf("public read before the approval: %v, want waiting", err)
	}

	ctl := dynamo.New(f.client, f.table)
	err := booking.OperatorUpdate(ctx, ctl, previewSlug, f.clock.Now(), func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		booking.Approve(&c)
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}

	for _, path := range []string{"/inbox", "/inbox/settings"} {
		t.Run(path, func(t *testing.T) {
			res := f.do(t, a, "GET", path, nil)
			if path == "/inbox" {
				wantIn(t, res.body, `data-state="live"`)
			}
			wantNotIn(t, res.body, "Waiting for Doorstep&#39;s approval")
		})
	}
	// The public side's record is the cached one until the TTL: what the
	// owner's pages do not wait for.
	if b, err := f.bookings.Business(ctx, previewSlug); err != nil || !b.Waiting() {
		t.Errorf("public read at once: %v, want the cached record (waiting) still", err)
	}
	f.clock.Add(dynamo.BusinessCacheTTL)
	if b, err := f.bookings.Business(ctx, previewSlug); err != nil || b.Waiting() || b.Preview {
		t.Errorf("public read after the TTL: %v, want live", err)
	}
}
