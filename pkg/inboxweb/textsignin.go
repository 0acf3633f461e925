package inboxweb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
)

// Signing in by a code texted to the business's confirmed mobile number
// (booking.Bookings.StartTextSignIn, FinishTextSignIn): the sign-in form's
// "Text me a code instead" posts to /inbox/sign-in-text, whose answer is
// the field for the code, the same page whatever the address; the code
// posts to /inbox/sign-in-code.

// KindSignInCode is the kind of the sign-in code's text among notify's
// messages.
const KindSignInCode notify.Kind = "sign_in_code"

// SignInCodeText is the sign-in code's text to b's owner, in b's
// default_language: Doorstep's words, b's name and the code.
func SignInCodeText(b *booking.Business, code string) (lang, body string) {
	minutes := int(booking.SignInCodeTTL / time.Minute)
	if b.DefaultLanguage == "es" {
		return "es", fmt.Sprintf("Doorstep: su código para entrar en la bandeja de %s es %s. Sirve %d minutos. Si no lo pidió, ignórelo. Responda STOP para no recibir más", b.Name, code, minutes)
	}
	return "en", fmt.Sprintf("Doorstep: your code to sign in to %s's inbox is %s. It works for %d minutes. If you did not ask for it, ignore it. Reply STOP to opt out", b.Name, code, minutes)
}

// SendSignInCode texts a sign-in code to phone (10 digits), unless it
// opted out.
func (t SMSTexter) SendSignInCode(ctx context.Context, phone string, b *booking.Business, code string) error {
	lang, body := SignInCodeText(b, code)
	return t.send(ctx, phone, b, "sign-in-code", KindSignInCode, lang, body)
}

// send texts body to phone (10 digits) about b, unless the number opted
// out; a STOP the sender reports is recorded. what names the message in
// its ID, with b and the time (never the number or the body).
func (t SMSTexter) send(ctx context.Context, phone string, b *booking.Business, what string, kind notify.Kind, lang, body string) error {
	now := time.Now
	if t.Now != nil {
		now = t.Now
	}
	out, err := t.OptOuts.OptedOut(ctx, phone)
	if err != nil {
		return err
	}
	if out {
		return ErrOptedOut
	}
	err = t.Sender.SendText(ctx, notify.Message{
		ID:       what + "/" + b.Slug + "/" + strconv.FormatInt(now().UnixMilli(), 10) + "/" + string(notify.AudienceBusiness) + "/" + string(notify.ChannelSMS),
		Change:   what + "/" + b.Slug,
		Kind:     kind,
		Audience: notify.AudienceBusiness,
		Channel:  notify.ChannelSMS,
		To:       "+1" + phone,
		Language: lang,
		Body:     body,
	})
	if errors.Is(err, notify.ErrOptedOut) {
		if rerr := t.OptOuts.RecordOptOut(ctx, phone, now()); rerr != nil {
			return errors.Join(err, rerr)
		}
	}
	return err
}

// KindInboxBounced is the kind of the text that tells the owner that mail
// to the business's inbox address cannot be delivered.
const KindInboxBounced notify.Kind = "inbox_bounced"

// InboxBouncedText is the text to b's owner that mail to its inbox
// address cannot be delivered, in b's default_language: Doorstep's words
// and b's name; the address is not in it (a text may be read by others),
// the inbox shows it.
func InboxBouncedText(b *booking.Business) (lang, body string) {
	if b.DefaultLanguage == "es" {
		return "es", fmt.Sprintf("Doorstep: nuestro correo a la dirección de la bandeja de %s no se pudo entregar: no recibe correos de solicitudes nuevas. Entre en su bandeja con un código por mensaje de texto y cambie la dirección. Responda STOP para no recibir más", b.Name)
	}
	return "en", fmt.Sprintf("Doorstep: our e-mail to %s's inbox address could not be delivered: you get no e-mails of new requests. Sign in to your inbox with a texted code and change the address. Reply STOP to opt out", b.Name)
}

// SendInboxBounced texts the owner that mail to b's inbox address cannot
// be delivered, unless the number opted out.
func (t SMSTexter) SendInboxBounced(ctx context.Context, phone string, b *booking.Business, u booking.Undeliverable) error {
	lang, body := InboxBouncedText(b)
	return t.send(ctx, phone, b, "inbox-bounced", KindInboxBounced, lang, body)
}

// TellOwnerOfBounce texts the owner of the business whose inbox address is
// email, when it is recorded undeliverable and the business has a
// confirmed number, once for that record (booking.Bookings.
// ClaimOwnerBounceText's conditional write). The mail-events function
// calls it for each event about an address; sent is false when there was
// nothing to send, or it was sent before. A number that opted out is not
// texted (ErrOptedOut, with the claim spent: the banner still tells).
func TellOwnerOfBounce(ctx context.Context, bookings *booking.Bookings, t Texter, email string) (sent bool, err error) {
	if t == nil {
		return false, nil
	}
	b, u, ok, err := bookings.ClaimOwnerBounceText(ctx, email)
	if err != nil || !ok {
		return false, err
	}
	if err := t.SendInboxBounced(ctx, b.OwnerPhone, b, *u); err != nil {
		return false, err
	}
	return true, nil
}

// TellingOwner is the recorder of the mail-events function
// (pkg/mailevents.Recorder): it records each event (booking.Bookings.
// RecordMailEvent) and then tells the owner whose inbox address it was
// about, once per record (TellOwnerOfBounce). A text that fails is logged
// and not tried again (its claim is spent): the inbox's banner still
// tells.
type TellingOwner struct {
	Bookings *booking.Bookings
	Texter   Texter // nil: texts are off, and nothing is texted
	Log      *slog.Logger
}

// RecordMailEvent records ev, then texts the owner if ev's address is a
// business's inbox address now recorded undeliverable.
func (t TellingOwner) RecordMailEvent(ctx context.Context, ev booking.MailEvent) (booking.MailOutcome, error) {
	out, err := t.Bookings.RecordMailEvent(ctx, ev)
	if err != nil {
		return out, err
	}
	if _, err := TellOwnerOfBounce(ctx, t.Bookings, t.Texter, ev.Email); err != nil && t.Log != nil {
		t.Log.ErrorContext(ctx, "inboxweb: text the owner that the inbox address bounced", "error", err)
	}
	return out, nil
}

// codeView is the page that takes a sign-in code.
type codeView struct {
	Email string // the address the code was asked for, sent again with the code
	Next  string
	Code  string // as typed, in a refused form
	Wrong bool   // the code typed was wrong, spent or expired
}

// startTextSignIn texts a sign-in code to the business's confirmed number
// when the address is the business's inbox_email. The answer is the page
// for the code whatever the address, known or not, with a number or not,
// failed or not (askToSignIn, as startSignIn's).
func (h *handler) startTextSignIn(w http.ResponseWriter, r *http.Request) {
	valid := func(email string) bool {
		_, ok := booking.NormalizeEmail(email)
		return ok && email != "" && h.Texter != nil
	}
	h.askToSignIn(w, r, valid, func(ctx context.Context, route, email, _ string) time.Duration {
		return h.sendSignInCode(ctx, route, email)
	}, func(lang, email, next string) {
		h.renderCode(w, r, http.StatusOK, lang, codeView{Email: email, Next: next})
	})
}

func (h *handler) renderCode(w http.ResponseWriter, r *http.Request, status int, lang string, v codeView) {
	if v.Next == "/inbox" {
		v.Next = ""
	}
	render(w, r, status, "code", lang, nil, tr(lang, "code_title"), v)
}

// sendSignInCode asks for a sign-in code for email and, when there is
// one, texts it to the business's number. Past the hourly limit it
// returns how long until the next may be asked for. Failures are logged
// (never the address, the number or the code) and otherwise unseen.
func (h *handler) sendSignInCode(ctx context.Context, route, email string) (retry time.Duration) {
	code, phone, b, ok, err := h.Bookings.StartTextSignIn(ctx, email)
	if err != nil || !ok {
		return h.notSent(route, "inboxweb: start a sign-in by text", err)
	}
	if err := h.Texter.SendSignInCode(ctx, phone, b, code); err != nil {
		h.Log.Error("inboxweb: text the sign-in code", "route", route, "business", b.Slug, "error", err)
	}
	return 0
}

// finishTextSignIn spends the code and opens a session, as a link's
// button does (signInWith). A wrong, spent or expired code (or an address
// with no code) is the page for the code again, saying so next to the
// field, with what was typed.
func (h *handler) finishTextSignIn(w http.ResponseWriter, r *http.Request) {
	email, typed := strings.TrimSpace(r.PostFormValue("email")), r.PostFormValue("code")
	h.signInWith(w, r, func(ctx context.Context) (Session, error) {
		return h.Bookings.FinishTextSignIn(ctx, email, typed)
	}, func(lang, next string) {
		h.renderCode(w, r, http.StatusBadRequest, lang, codeView{Email: email, Next: next, Code: typed, Wrong: true})
	})
}
