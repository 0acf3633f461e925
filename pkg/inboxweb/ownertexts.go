package inboxweb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/notify"
)

// The settings' "Ways to be told" section (/inbox/settings/texts): the owner's mobile
// number, confirmed by a code texted to it, and which new requests it is
// texted about (booking.Inbox.StartOwnerPhone, ConfirmOwnerPhone,
// SetTextMe). Its forms post to /inbox/settings/owner-phone,
// /inbox/settings/owner-phone-code and /inbox/settings/text-me.

// Texter texts the owner's number: the code that confirms it, and the
// code that signs in by text (textsignin.go). SMSTexter sends them
// through a notify.SMSSender (pkg/smstext, the local outbox). A number
// that opted out of Doorstep's texts gets nothing: ErrOptedOut.
type Texter interface {
	SendPhoneCode(ctx context.Context, phone string, b *booking.Business, code string) error
	SendSignInCode(ctx context.Context, phone string, b *booking.Business, code string) error
	// SendInboxBounced tells the owner that mail to b's inbox address
	// cannot be delivered (u says why and since when).
	SendInboxBounced(ctx context.Context, phone string, b *booking.Business, u booking.Undeliverable) error
}

// KindPhoneCode is the kind of the confirmation text among notify's
// messages.
const KindPhoneCode notify.Kind = "phone_code"

// OptOuts is what SMSTexter reads and records of the numbers that replied
// STOP, as for the person's texts: notify.Ledger does.
type OptOuts interface {
	OptedOut(ctx context.Context, phone string) (bool, error)
	RecordOptOut(ctx context.Context, phone string, now time.Time) error
}

// SMSTexter is a Texter over notify's SMS sender, with the opt-outs of
// the person's texts: a number that replied STOP is not texted, and a
// STOP the sender reports is recorded.
type SMSTexter struct {
	Sender  notify.SMSSender
	OptOuts OptOuts
	Now     func() time.Time // nil: time.Now
}

var _ Texter = SMSTexter{}

// ErrOptedOut: the number replied STOP to Doorstep's texts.
var ErrOptedOut = notify.ErrOptedOut

// PhoneCodeText is the confirmation text to b's owner, in b's
// default_language: Doorstep's words, b's name and the code.
func PhoneCodeText(b *booking.Business, code string) (lang, body string) {
	minutes := int(booking.PhoneCodeTTL / time.Minute)
	if b.DefaultLanguage == "es" {
		return "es", fmt.Sprintf("Doorstep: su código es %s. Con él confirma este número para recibir avisos de solicitudes de %s. Sirve %d minutos. Responda STOP para no recibir más", code, b.Name, minutes)
	}
	return "en", fmt.Sprintf("Doorstep: your code is %s. It confirms this number for texts about %s's new requests. It works for %d minutes. Reply STOP to opt out", code, b.Name, minutes)
}

// SendPhoneCode texts code to phone (10 digits), unless it opted out.
func (t SMSTexter) SendPhoneCode(ctx context.Context, phone string, b *booking.Business, code string) error {
	lang, body := PhoneCodeText(b, code)
	return t.send(ctx, phone, b, "phone-code", KindPhoneCode, lang, body)
}

// textsView is the section on the settings page.
type textsView struct {
	On       bool   // texts can be sent from this server
	Email    string // the inbox address, where the e-mails go
	Phone    string // the confirmed number, for people
	TextMe   string // all, urgent or none
	CodeSent bool   // a code was just sent: the field to type it in
	Typed    string // the number as typed, in a refused form
	// TypedEmail is the new inbox address as typed, in a refused form
	// (inboxemail.go).
	TypedEmail string
}

// textsSection is the section as b stands.
func (h *handler) textsSection(b *booking.Business) textsView {
	v := textsView{On: h.Texter != nil, Email: b.InboxEmail, TextMe: b.TextMe}
	if v.TextMe == booking.TextsNone {
		v.TextMe = "none"
	}
	if b.OwnerPhone != "" {
		v.Phone, _ = phone(b.OwnerPhone)
	}
	return v
}

// textsDone are the notices of the section's forms, by ?done=.
var textsDone = map[string]string{
	"code-sent": "code_sent", "owner-phone": "saved_owner_phone", "text-me": "saved_text_me", "phone-removed": "saved_phone_removed",
	"email-link-sent": "email_link_sent", "inbox-email": "saved_inbox_email",
}

// startOwnerPhone texts a code to the number typed, to confirm it; then
// the settings page with the field for the code.
func (h *handler) startOwnerPhone(w http.ResponseWriter, r *http.Request, s Session) {
	b := s.Inbox.Business()
	lang := language(w, r, b)
	typed := r.PostFormValue("owner_phone")
	refuse := func(status int, p problem) {
		h.renderSettings(w, r, status, s, b, lang, "owner-phone", []problem{p}, r)
	}
	if h.Texter == nil {
		refuse(http.StatusBadRequest, problem{"", "texts_off"})
		return
	}
	code, digits, err := s.Inbox.StartOwnerPhone(r.Context(), typed)
	switch code := booking.ErrorCode(err); {
	case err == nil:
	case code == booking.InvalidRequest:
		refuse(http.StatusBadRequest, problem{"owner_phone", "bad_owner_phone"})
		return
	case code == booking.RateLimited:
		edge.SetRetryAfter(w, booking.RetryAfter(err))
		refuse(http.StatusTooManyRequests, problem{"owner_phone", "codes_limited"})
		return
	default:
		h.failFor(w, r, s, err)
		return
	}
	if err := h.Texter.SendPhoneCode(r.Context(), digits, b, code); err != nil {
		if errors.Is(err, ErrOptedOut) {
			refuse(http.StatusConflict, problem{"owner_phone", "phone_opted_out"})
			return
		}
		h.Log.Error("inboxweb: send the confirmation text", "route", r.Pattern, "business", b.Slug, "error", err)
		refuse(http.StatusBadGateway, problem{"owner_phone", "code_not_sent"})
		return
	}
	http.Redirect(w, r, "/inbox/settings/texts?done=code-sent", http.StatusSeeOther)
}

// confirmOwnerPhone answers the code: the number becomes the owner's.
func (h *handler) confirmOwnerPhone(w http.ResponseWriter, r *http.Request, s Session) {
	b := s.Inbox.Business()
	lang := language(w, r, b)
	_, err := s.Inbox.ConfirmOwnerPhone(r.Context(), r.PostFormValue("code"))
	switch {
	case err == nil:
		http.Redirect(w, r, "/inbox/settings/texts?done=owner-phone", http.StatusSeeOther)
	case booking.ErrorCode(err) == booking.InvalidRequest:
		h.renderSettings(w, r, http.StatusBadRequest, s, b, lang, "owner-phone-code", []problem{{"code", "bad_code"}}, r)
	default:
		h.failFor(w, r, s, err)
	}
}

// setTextMe sets which new requests are texted: all, urgent or none; or,
// with remove, forgets the number.
func (h *handler) setTextMe(w http.ResponseWriter, r *http.Request, s Session) {
	b := s.Inbox.Business()
	lang := language(w, r, b)
	var err error
	done := "text-me"
	switch choice := r.PostFormValue("text_me"); choice {
	case "remove":
		_, err = s.Inbox.RemoveOwnerPhone(r.Context())
		done = "phone-removed"
	case "all", "urgent", "none":
		if choice == "none" {
			choice = booking.TextsNone
		}
		_, err = s.Inbox.SetTextMe(r.Context(), choice)
	default:
		err = booking.Errorf(booking.InvalidRequest, "text_me: not a choice")
	}
	switch {
	case err == nil:
		http.Redirect(w, r, "/inbox/settings/texts?done="+done, http.StatusSeeOther)
	case booking.ErrorCode(err) == booking.InvalidRequest:
		h.renderSettings(w, r, http.StatusBadRequest, s, b, lang, "text-me", []problem{{"text_me-all", "bad_text_me"}}, nil)
	default:
		h.failFor(w, r, s, err)
	}
}
