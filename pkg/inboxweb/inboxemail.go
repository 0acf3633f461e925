package inboxweb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/notify"
)

// The settings' inbox address (booking.Inbox.StartInboxEmailChange,
// booking.Bookings.ConfirmInboxEmail): the owner types a new address in
// "Ways to be told"; a link goes to it; its page's button (a GET changes
// nothing: mail scanners open links) confirms it, once, within
// booking.InboxEmailChangeTTL, and signs in with it. Until then the old
// address stays.

// KindInboxEmailChange is the kind of the e-mail with the confirmation
// link among notify's messages.
const KindInboxEmailChange notify.Kind = "inbox_email_change"

// InboxEmailChangeEmail writes the e-mail to a new inbox address of b, in
// b's default_language: Doorstep's words, b's name and the link.
func InboxEmailChangeEmail(b *booking.Business, link string) (lang, subject, body string) {
	minutes := int(booking.InboxEmailChangeTTL / time.Minute)
	if b.DefaultLanguage == "es" {
		return "es", "Confirme la nueva dirección de la bandeja de " + b.Name,
			fmt.Sprintf("Hola:\n\nSe pidió que las solicitudes de %s en Doorstep lleguen a este correo. "+
				"Para confirmarlo, abra este enlace en los próximos %d minutos y pulse \"Confirmar\":\n\n%s\n\n"+
				"Hasta entonces, la dirección anterior sigue. Si usted no lo pidió, ignore este correo.\n\nDoorstep\n", b.Name, minutes, link)
	}
	return "en", "Confirm the new inbox address of " + b.Name,
		fmt.Sprintf("Hello,\n\nSomeone asked that %s's requests on Doorstep come to this address. "+
			"To confirm it, open this link within %d minutes and press \"Confirm\":\n\n%s\n\n"+
			"Until then the old address stays. If you did not ask for it, ignore this e-mail.\n\nDoorstep\n", b.Name, minutes, link)
}

// SendInboxEmailChange sends b's confirmation link to the new address to.
func (m EmailMailer) SendInboxEmailChange(ctx context.Context, to string, b *booking.Business, link string) error {
	lang, subject, body := InboxEmailChangeEmail(b, link)
	return m.send(ctx, "inbox-email/"+b.Slug, KindInboxEmailChange, to, lang, subject, body)
}

// startInboxEmail e-mails the link that confirms a new inbox address;
// then the section says it is on its way. A refusal (a bad address, a
// limit: the address's links of the hour, the business's of the day)
// says so next to the field, with what was typed, and sends nothing.
func (h *handler) startInboxEmail(w http.ResponseWriter, r *http.Request, s Session) {
	b := s.Inbox.Business()
	lang := language(w, r, b)
	refuse := func(status int, key string) {
		h.renderSettings(w, r, status, s, b, lang, "inbox-email", []problem{{"inbox_email", key}}, r)
	}
	token, to, err := s.Inbox.StartInboxEmailChange(r.Context(), r.PostFormValue("inbox_email"))
	switch code := booking.ErrorCode(err); {
	case err == nil:
	case code == booking.InvalidEmail:
		refuse(http.StatusBadRequest, "bad_inbox_email")
		return
	case code == booking.InvalidRequest:
		refuse(http.StatusBadRequest, "same_inbox_email")
		return
	case code == booking.RateLimited:
		edge.SetRetryAfter(w, booking.RetryAfter(err))
		if errors.Is(err, booking.ErrInboxEmailChangesSpent) {
			refuse(http.StatusTooManyRequests, "inbox_email_daily")
			return
		}
		refuse(http.StatusTooManyRequests, "inbox_email_limited")
		return
	default:
		h.failFor(w, r, s, err)
		return
	}
	link := h.SiteURL + "/inbox/email/" + url.PathEscape(token)
	if err := h.Mailer.SendInboxEmailChange(r.Context(), to, b, link); err != nil {
		h.Log.Error("inboxweb: send the new inbox address's link", "route", r.Pattern, "business", b.Slug, "error", err)
		refuse(http.StatusBadGateway, "inbox_email_not_sent")
		return
	}
	http.Redirect(w, r, "/inbox/settings/texts?done=email-link-sent", http.StatusSeeOther)
}

// emailView is the page of the link: the button that confirms.
type emailView struct{ Action string }

// inboxEmailPage shows the button that confirms the new address. It does
// not spend the token.
func (h *handler) inboxEmailPage(w http.ResponseWriter, r *http.Request) {
	lang := language(w, r, nil)
	render(w, r, http.StatusOK, "email", lang, nil, tr(lang, "email_title"), emailView{Action: "/inbox/email/" + url.PathEscape(r.PathValue("token"))})
}

// confirmInboxEmail spends the token: the new address is the inbox's, and
// the browser is signed in with it, on the settings' section. A spent or
// expired link (or one asked before another change) is 410; an address
// another business has, 409; nothing changes then.
func (h *handler) confirmInboxEmail(w http.ResponseWriter, r *http.Request) {
	if duplicated(r) {
		h.badForm(w, r)
		return
	}
	s, err := h.Bookings.ConfirmInboxEmail(r.Context(), r.PathValue("token"))
	lang := language(w, r, nil)
	switch {
	case err == nil:
		h.openSession(w, r, s, "/inbox/settings/texts?done=inbox-email")
	case booking.ErrorCode(err) == booking.Unauthorized:
		h.message(w, r, http.StatusGone, lang, nil, tr(lang, "email_title"), tr(lang, "email_spent"))
	case booking.ErrorCode(err) == booking.InvalidEmail:
		h.message(w, r, http.StatusConflict, lang, nil, tr(lang, "email_title"), tr(lang, "email_taken"))
	default:
		h.fail(w, r, err)
	}
}
