package inboxweb_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/outbox"
)

// texter records the confirmation codes texted; a number in optedOut
// replied STOP.
type texter struct {
	mu       sync.Mutex
	sent     []sentCode
	signIns  []sentCode // the sign-in codes texted
	bounced  []sentCode // the texts that the inbox address bounced (code: the reason)
	optedOut map[string]bool
}

func (x *texter) SendSignInCode(_ context.Context, phone string, b *booking.Business, code string) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.optedOut[phone] {
		return inboxweb.ErrOptedOut
	}
	x.signIns = append(x.signIns, sentCode{phone, b.Slug, code})
	return nil
}

func (x *texter) SendInboxBounced(_ context.Context, phone string, b *booking.Business, u booking.Undeliverable) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.bounced = append(x.bounced, sentCode{phone, b.Slug, string(u.Reason)})
	return nil
}

func (x *texter) signInCodes() []sentCode {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]sentCode(nil), x.signIns...)
}

type sentCode struct{ phone, slug, code string }

func (x *texter) SendPhoneCode(_ context.Context, phone string, b *booking.Business, code string) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.optedOut[phone] {
		return inboxweb.ErrOptedOut
	}
	x.sent = append(x.sent, sentCode{phone, b.Slug, code})
	return nil
}

func (x *texter) last(t *testing.T) sentCode {
	t.Helper()
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.sent) == 0 {
		t.Fatal("no code was texted")
	}
	return x.sent[len(x.sent)-1]
}

// TestOwnerPhone walks the settings' "Ways to be told": a number that is
// none is refused next to its field; a good one gets a code; a wrong code
// confirms nothing; the right one stores the number; then the owner picks
// which requests are texted, or forgets the number. Texts need a confirmed
// number, a number that replied STOP gets no code, and past the day's
// codes the page says so (429).
func TestOwnerPhone(t *testing.T) {
	x := &texter{optedOut: map[string]bool{"5125550111": true}}
	f := newFixture(t, func(c *inboxweb.Config) { c.Texter = x })
	const slug = "mile-high-electric"
	a, csrf := f.signIn(t, slug)
	post := func(path string, form url.Values) response {
		t.Helper()
		form.Set("csrf", csrf)
		return f.do(t, a, "POST", path, form)
	}
	stored := func() *booking.Business { return f.business(t, slug) }

	wantIn(t, f.do(t, a, "GET", "/inbox/settings", nil).body, `href="/inbox/settings/texts"`)
	page := f.do(t, a, "GET", "/inbox/settings/texts", nil).body
	wantIn(t, page, `<h1 id="section-title">Ways to be told</h1>`, `id="owner_phone"`, `inbox@mile-high-electric.example.com`)
	wantNotIn(t, page, `id="code"`, `id="text-me"`)

	t.Run("a number that is none", func(t *testing.T) {
		res := post("/inbox/settings/owner-phone", url.Values{"owner_phone": {"12345"}})
		if res.status != http.StatusBadRequest {
			t.Fatalf("got %d, want 400", res.status)
		}
		wantIn(t, res.body, `<a href="#owner_phone">`, `id="owner_phone-error">Enter a US mobile number`, `value="12345"`)
	})
	t.Run("texts need a confirmed number", func(t *testing.T) {
		res := post("/inbox/settings/text-me", url.Values{"text_me": {"all"}})
		if res.status != http.StatusBadRequest || stored().TextMe != booking.TextsNone {
			t.Fatalf("got %d, text_me %q, want 400 and none", res.status, stored().TextMe)
		}
	})
	t.Run("a number that replied STOP", func(t *testing.T) {
		res := post("/inbox/settings/owner-phone", url.Values{"owner_phone": {"(512) 555-0111"}})
		if res.status != http.StatusConflict {
			t.Fatalf("got %d, want 409", res.status)
		}
		wantIn(t, res.body, "replied STOP")
	})
	t.Run("confirmed with the code", func(t *testing.T) {
		res := post("/inbox/settings/owner-phone", url.Values{"owner_phone": {"(512) 555-0142"}})
		if res.status != http.StatusSeeOther || res.location != "/inbox/settings/texts?done=code-sent" {
			t.Fatalf("got %d to %q, want 303 to the code's field", res.status, res.location)
		}
		sent := x.last(t)
		if sent.phone != "5125550142" || sent.slug != slug || len(sent.code) != 6 {
			t.Fatalf("got a code %+v, want 6 digits to 5125550142", sent)
		}
		if stored().OwnerPhone != "" {
			t.Fatal("the number is stored before it is confirmed")
		}
		wantIn(t, f.do(t, a, "GET", "/inbox/settings/texts?done=code-sent", nil).body, `id="code"`, "A code is on its way")
		wrong := "000000"
		if sent.code == wrong {
			wrong = "111111"
		}
		res = post("/inbox/settings/owner-phone-code", url.Values{"code": {wrong}})
		if res.status != http.StatusBadRequest || stored().OwnerPhone != "" {
			t.Fatalf("a wrong code: got %d, owner_phone %q, want 400 and none", res.status, stored().OwnerPhone)
		}
		wantIn(t, res.body, `id="code-error">This code is wrong`)
		res = post("/inbox/settings/owner-phone-code", url.Values{"code": {sent.code}})
		if res.status != http.StatusSeeOther || stored().OwnerPhone != "5125550142" {
			t.Fatalf("the right code: got %d, owner_phone %q, want 303 and 5125550142", res.status, stored().OwnerPhone)
		}
		page := f.do(t, a, "GET", "/inbox/settings/texts?done=owner-phone", nil).body
		wantIn(t, page, "Texts go to <strong>(512) 555-0142</strong>", `value="none" checked`)
	})
	t.Run("the choice of texts", func(t *testing.T) {
		for _, choice := range []string{"urgent", "all", "none"} {
			res := post("/inbox/settings/text-me", url.Values{"text_me": {choice}})
			want := map[string]string{"none": booking.TextsNone}[choice]
			if choice != "none" {
				want = choice
			}
			if res.status != http.StatusSeeOther || stored().TextMe != want {
				t.Errorf("%s: got %d, text_me %q", choice, res.status, stored().TextMe)
			}
		}
		if res := post("/inbox/settings/text-me", url.Values{"text_me": {"sometimes"}}); res.status != http.StatusBadRequest {
			t.Errorf("not a choice: got %d, want 400", res.status)
		}
		post("/inbox/settings/text-me", url.Values{"text_me": {"all"}})
		res := post("/inbox/settings/text-me", url.Values{"text_me": {"remove"}})
		if b := stored(); res.status != http.StatusSeeOther || b.OwnerPhone != "" || b.TextMe != booking.TextsNone {
			t.Errorf("forget the number: got %d, %q %q, want 303 and nothing", res.status, b.OwnerPhone, b.TextMe)
		}
	})
	t.Run("past the day's codes", func(t *testing.T) {
		// Two codes went today (one to the opted-out number was counted
		// before the text was refused); the third is the last.
		if res := post("/inbox/settings/owner-phone", url.Values{"owner_phone": {"5125550143"}}); res.status != http.StatusSeeOther {
			t.Fatalf("the third code: got %d, want 303", res.status)
		}
		res := post("/inbox/settings/owner-phone", url.Values{"owner_phone": {"5125550144"}})
		if res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") == "" {
			t.Fatalf("the fourth code: got %d, Retry-After %q, want 429 with one", res.status, res.header.Get("Retry-After"))
		}
		wantIn(t, res.body, "Three codes were texted today already")
	})
	t.Run("texts off on this server", func(t *testing.T) {
		g := newFixture(t, nil)
		b, _ := g.signIn(t, slug)
		wantIn(t, g.do(t, b, "GET", "/inbox/settings/texts", nil).body, `id="texts-off"`)
	})
}

// optOuts is the ledger's opt-out list in memory.
type optOuts map[string]bool

func (o optOuts) OptedOut(_ context.Context, phone string) (bool, error) { return o[phone], nil }
func (o optOuts) RecordOptOut(_ context.Context, phone string, _ time.Time) error {
	o[phone] = true
	return nil
}

// stopSender refuses every text as opted out, as End User Messaging does
// for a number that replied STOP.
type stopSender struct{ tries int }

func (s *stopSender) SendText(context.Context, notify.Message) error {
	s.tries++
	return fmt.Errorf("sms: %w", notify.ErrOptedOut)
}

// TestSMSTexter: the code goes as Doorstep's own text, in the business's
// language, to +1 and the number; a number that replied STOP is not
// texted, and a STOP the sender reports is recorded, as for the person's
// texts.
func TestSMSTexter(t *testing.T) {
	box := outbox.New(10, slog.New(slog.DiscardHandler))
	outs := optOuts{"5125550111": true}
	x := inboxweb.SMSTexter{Sender: box, OptOuts: outs, Now: func() time.Time { return start }}
	b := &booking.Business{Slug: "limpieza-la-estrella", Name: "Limpieza La Estrella", DefaultLanguage: "es"}
	if err := x.SendPhoneCode(t.Context(), "5125550142", b, "480213"); err != nil {
		t.Fatal(err)
	}
	msgs := box.Messages()
	if len(msgs) != 1 || msgs[0].To != "+15125550142" || msgs[0].Channel != notify.ChannelSMS || msgs[0].Kind != inboxweb.KindPhoneCode ||
		!strings.HasPrefix(msgs[0].Body, "Doorstep: su código es 480213.") || !strings.Contains(msgs[0].Body, "Responda STOP") ||
		strings.Contains(msgs[0].ID, "480213") {
		t.Errorf("got %+v, want one text of the code in Spanish, its ID without the code", msgs)
	}
	if err := x.SendPhoneCode(t.Context(), "5125550111", b, "480213"); !errors.Is(err, inboxweb.ErrOptedOut) || len(box.Messages()) != 1 {
		t.Errorf("an opted-out number: got %v with %d texts, want ErrOptedOut and none sent", err, len(box.Messages()))
	}
	stop := &stopSender{}
	y := inboxweb.SMSTexter{Sender: stop, OptOuts: outs}
	if err := y.SendPhoneCode(t.Context(), "5125550177", b, "480213"); !errors.Is(err, inboxweb.ErrOptedOut) || !outs["5125550177"] {
		t.Errorf("a STOP from the sender: got %v, recorded %v, want ErrOptedOut, recorded", err, outs["5125550177"])
	}
	if err := y.SendPhoneCode(t.Context(), "5125550177", b, "480213"); !errors.Is(err, inboxweb.ErrOptedOut) || stop.tries != 1 {
		t.Errorf("again: got %v after %d tries, want ErrOptedOut without trying", err, stop.tries)
	}
}
