package pages

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/htmlpage"
)

// How the person hears back (decisions.md, "How the person hears back"):
// the status page says by which ways the business's answer reaches the
// person, or that nobody will write to them, and, while the request is
// live, offers to add an e-mail address or to turn texts on
// (POST /r/{code}/contact). And {SITE_URL}/r is where a person types the
// code a business read to them over the phone.

// hearBackView is the status page's block on how the answer reaches the
// person. It shows the ways masked (j…@…, …0147): the page shows nothing
// of the person that its address would give away to another holder.
type hearBackView struct {
	Ways       string // "by e-mail to j…@…, and by text to …0147"; "" when nobody will write
	Bounced    string // "our e-mail to j…@… could not be delivered", and what to do; "" when it could
	Silent     bool   // nobody will write to the person
	SilentMore string // what then: the page, a call, and the ways offered below
	Action     string // where the forms post
	EmailForm  bool   // no e-mail yet, and one would be written to: a form to add one
	SMSForm    bool   // texts off, and a text would go out: a form to turn them on
	PhoneTail  string // "…0147"
	// The form as posted, when it was refused: what was typed, and the
	// message next to its field.
	Email      string
	EmailError string
	SMSError   string
}

// buildHearBack describes how r (as read) reaches its person at now, by
// booking.PersonReach for its business b and the deployment d: the ways
// that are written to, and the ways offered only when they would be (an
// example or preview business writes to nobody; texts may be off). nil
// once the request is closed (nothing more will be told) or too old to
// change.
func buildHearBack(r booking.Request, b *booking.Business, d booking.Delivery, lang string, now time.Time) *hearBackView {
	if !r.Effective(now).Status.Live() {
		return nil
	}
	c := r.Contact
	reach := booking.PersonReach(b, c, d)
	v := &hearBackView{Silent: reach.None(), Action: "/r/" + r.Code + "/contact", PhoneTail: phoneTail(c.Phone)}
	var ways []string
	if reach.Email {
		ways = append(ways, tr(lang, "hear_by_email", maskEmail(c.Email)))
	}
	if reach.SMS {
		ways = append(ways, tr(lang, "hear_by_text", v.PhoneTail))
	}
	v.Ways = strings.Join(ways, tr(lang, "hear_and"))
	if r.CanAddContact(now) {
		add := booking.AddableWays(b, c, d)
		v.EmailForm, v.SMSForm = add.Email, add.SMS
	}
	if reach.Held == booking.HeldUndeliverable {
		key := "hear_bounced"
		if v.EmailForm {
			key = "hear_bounced_other"
		}
		v.Bounced = tr(lang, key, maskEmail(c.Email))
	}
	switch {
	case v.EmailForm && v.SMSForm:
		v.SilentMore = tr(lang, "hear_silent_more")
	case v.EmailForm:
		v.SilentMore = tr(lang, "hear_silent_more_email")
	case v.SMSForm:
		v.SilentMore = tr(lang, "hear_silent_more_sms")
	default:
		v.SilentMore = tr(lang, "hear_silent_more_none")
	}
	return v
}

// maskEmail shows an address as its first character and nothing else:
// "j…@…" (booking.MaskEmail).
func maskEmail(email string) string { return booking.MaskEmail(email) }

// phoneTail shows a phone number as its last four digits: "…0147".
func phoneTail(phone string) string {
	if len(phone) < 4 {
		return ""
	}
	return "…" + phone[len(phone)-4:]
}

// addContact adds the way the form names (way=email with email, or way=sms
// with the consent box ticked) to the request, as the person who holds its
// code, and sends them back to the status page. A refusal shows the status
// page again with the message next to its field and what was typed kept.
func (h *handler) addContact(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	req, b, err := h.load(ctx, r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	lang := language(req)
	way := r.PostFormValue("way")
	email := strings.TrimSpace(r.PostFormValue("email"))
	refuse := func(status int, key string, args ...any) {
		v := buildStatus(req, b, h.Now())
		v.HearBack = buildHearBack(req, b, h.delivery(ctx, req, b), lang, h.Now())
		hb, text := v.HearBack, tr(lang, key, args...)
		switch {
		case hb != nil && way == booking.WaySMS && hb.SMSForm:
			hb.SMSError = text
		case hb != nil && way == booking.WayEmail && hb.EmailForm:
			hb.Email, hb.EmailError = email, text
		default: // the form is not on the page any more: say so on top
			v.Notice = text
		}
		render(w, status, "status", lang, v.Title+" · "+b.Name, v)
	}
	switch way {
	case booking.WayEmail:
		_, err = h.Bookings.AddEmail(ctx, req.Code, email)
	case booking.WaySMS:
		if r.PostFormValue("sms_consent") != "yes" {
			refuse(http.StatusBadRequest, "hear_sms_unticked")
			return
		}
		_, err = h.Bookings.AllowTexts(ctx, req.Code)
	default:
		renderMessage(w, http.StatusBadRequest, lang, tr(lang, "hear_title"), tr(lang, "hear_bad_form"), "/r/"+req.Code)
		return
	}
	if err == nil {
		http.Redirect(w, r, "/r/"+req.Code+"?done="+way, http.StatusSeeOther)
		return
	}
	switch booking.ErrorCode(err) {
	case booking.InvalidEmail:
		refuse(http.StatusBadRequest, "hear_email_bad")
	case booking.TooManyOpen:
		refuse(http.StatusTooManyRequests, "hear_email_busy", booking.MaxOpenPerPhone)
	case booking.RequestRefused:
		if errors.Is(err, booking.ErrNoWaysHere) {
			refuse(http.StatusForbidden, "hear_no_ways") // an example or preview business
			return
		}
		refuse(http.StatusForbidden, "hear_email_refused")
	case booking.RateLimited:
		refuse(http.StatusTooManyRequests, "hear_too_many", booking.MaxContactChanges)
	case booking.InvalidTransition:
		// Closed, lapsed, or changed between the read and the write: read
		// it again to show how it stands.
		if fresh, _, ferr := h.load(ctx, r); ferr == nil {
			req = fresh
		}
		refuse(http.StatusConflict, "hear_changed")
	default:
		h.fail(w, r, err)
	}
}

// hearNotice is the sentence ?done=email or ?done=sms shows: only when
// the stored request has that way and it is written to
// (booking.PersonReach).
func hearNotice(req booking.Request, reach booking.Reach, done string) string {
	lang := language(req)
	switch {
	case done == booking.WayEmail && reach.Email:
		return tr(lang, "notice_email", maskEmail(req.Contact.Email))
	case done == booking.WaySMS && reach.SMS:
		return tr(lang, "notice_sms", phoneTail(req.Contact.Phone))
	}
	return ""
}

// lookupView is the page where a person types a request's code.
type lookupView struct {
	Code      string // as typed, kept on a refusal, cut to MaxLookupTyped
	Error     string
	MaxLength int // MaxLookupTyped
}

// lookup serves {SITE_URL}/r: a form for the code a business read out
// over the phone, which leads to that request's status page. The code is
// read leniently (booking.CanonicalCode: any case, with or without dashes
// or spaces). A code that cannot be one is refused next to the field; an
// unknown one is the same page, answered 404. Each lookup is one read,
// bounded as every public read is (the API's throttle; docs/design.md, "Security
// and abuse").
func (h *handler) lookup(w http.ResponseWriter, r *http.Request) {
	lang := htmlpage.AcceptLanguage(r)
	q := r.URL.Query()
	if !q.Has("code") {
		renderLookup(w, http.StatusOK, lang, lookupView{})
		return
	}
	typed := strings.TrimSpace(q.Get("code"))
	code, ok := booking.CanonicalCode(typed)
	switch {
	case typed == "":
		renderLookup(w, http.StatusBadRequest, lang, lookupView{Error: tr(lang, "lookup_empty")})
		return
	case !ok:
		renderLookup(w, http.StatusBadRequest, lang, lookupView{Code: typed, Error: tr(lang, "lookup_bad")})
		return
	}
	req, _, err := h.Bookings.CustomerRequest(r.Context(), code)
	if booking.ErrorCode(err) == booking.NotFound {
		renderLookup(w, http.StatusNotFound, lang, lookupView{Code: typed, Error: tr(lang, "lookup_unknown")})
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/r/"+req.Code, http.StatusSeeOther)
}

// MaxLookupTyped is the most characters the lookup's field takes (its
// maxlength): a refusal shows back at most that much of what came.
const MaxLookupTyped = 40

func renderLookup(w http.ResponseWriter, status int, lang string, v lookupView) {
	v.Code = htmlpage.Typed(v.Code, MaxLookupTyped)
	v.MaxLength = MaxLookupTyped
	render(w, status, "lookup", lang, tr(lang, "lookup_title"), v)
}
