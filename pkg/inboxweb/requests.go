package inboxweb

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
	"github.com/doorstep/doorstep/pkg/edge"
)

// maxPages bounds the pages of requests read for one section of the inbox.
const maxPages = 5

// inbox lists the business's requests, what matters now first: the
// accepted jobs of today and tomorrow (in the business's time zone) in
// order, then those new or accepted whose window falls on one of its days
// off (added after they were made: the business moves or declines them),
// then the ones that need an answer (new, then those whose deposit is
// paid, each by the soonest window, when an unanswered request expires),
// then the accepted jobs after tomorrow, by day, then the rest, newest
// first, a page at a time (?before= is the next page's cursor).
func (h *handler) inbox(w http.ResponseWriter, r *http.Request, s Session) {
	b := s.Inbox.Business()
	lang := language(w, r, b)
	now := h.Now()
	v := inboxView{Paused: !b.AcceptingRequests, Live: h.liveView(b, s, lang)}
	if key := liveDone[r.URL.Query().Get("done")]; key != "" {
		v.Notice = tr(lang, key)
	}
	cursor := r.URL.Query().Get("before")
	if cursor == "" { // the first page: what needs doing
		open, err := h.all(r, s.Inbox, booking.StatusNew)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		slices.SortStableFunc(open, func(x, y booking.InboxRequest) int {
			if px, py := paid(x), paid(y); px != py {
				if px {
					return 1
				}
				return -1
			}
			return x.ArrivalWindow.Start.Compare(y.ArrivalWindow.Start)
		})
		for _, req := range open {
			if b.OnDayOff(req.ArrivalWindow.Start) {
				v.DayOff = append(v.DayOff, buildItem(req, b, lang, now))
				continue
			}
			v.Answer = append(v.Answer, buildItem(req, b, lang, now))
		}
		accepted, err := h.all(r, s.Inbox, booking.StatusAccepted)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		slices.SortStableFunc(accepted, func(x, y booking.InboxRequest) int {
			return x.ArrivalWindow.Start.Compare(y.ArrivalWindow.Start)
		})
		today := now.In(b.Location())
		soon := map[string]string{ // the days of the first section, by date
			today.Format(time.DateOnly):                  tr(lang, "today"),
			today.AddDate(0, 0, 1).Format(time.DateOnly): tr(lang, "tomorrow"),
		}
		for _, req := range accepted {
			item := buildItem(req, b, lang, now)
			if req.ArrivalWindow.End.Before(now) { // past: to mark done or no-show
				v.Rest = append(v.Rest, item)
				continue
			}
			if b.OnDayOff(req.ArrivalWindow.Start) { // to move or decline
				v.DayOff = append(v.DayOff, item)
				continue
			}
			d := display.Day(lang, req.ArrivalWindow.Start, b.Location())
			days := &v.Days
			if name, ok := soon[req.ArrivalWindow.Start.In(b.Location()).Format(time.DateOnly)]; ok {
				d, days = name+" · "+d, &v.Soon
			}
			if n := len(*days); n == 0 || (*days)[n-1].Day != d {
				*days = append(*days, dayView{Day: d})
			}
			(*days)[len(*days)-1].Items = append((*days)[len(*days)-1].Items, item)
		}
	}
	rest, err := s.Inbox.Requests(r.Context(), booking.InboxQuery{Statuses: settled, Cursor: cursor})
	if cursor != "" && booking.ErrorCode(err) == booking.InvalidRequest {
		// A cursor this list did not give (or another business's): the
		// first page.
		http.Redirect(w, r, "/inbox", http.StatusSeeOther)
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	for _, req := range rest.Requests {
		v.Rest = append(v.Rest, buildItem(req, b, lang, now))
	}
	if rest.Next != nil {
		v.More = "/inbox?before=" + urlQuery(*rest.Next)
	}
	v.Empty = len(v.Soon) == 0 && len(v.DayOff) == 0 && len(v.Answer) == 0 && len(v.Days) == 0 && len(v.Rest) == 0
	v.Bounced = h.inboxBounced(r, b, lang)
	render(w, r, http.StatusOK, "inbox", lang, &s, tr(lang, "inbox_title"), v)
}

// bouncedView is the inbox's banner when mail to the business's own
// inbox address cannot be delivered (booking.Undeliverable).
type bouncedView struct {
	Text string // what failed, since when, and what it means
	Next string // what to do: sign in by text, or confirm a number first
}

// inboxBounced is the banner of b's inbox when its inbox address is
// recorded undeliverable; nil otherwise, and when the record cannot be
// read (logged).
func (h *handler) inboxBounced(r *http.Request, b *booking.Business, lang string) *bouncedView {
	u, err := h.Bookings.UndeliverableEmail(r.Context(), b.InboxEmail)
	if err != nil {
		h.Log.Warn("inboxweb: the inbox address's delivery record could not be read", "route", r.Pattern, "business", b.Slug, "error", err)
		return nil
	}
	if u == nil {
		return nil
	}
	v := &bouncedView{Text: tr(lang, "bounced_"+string(u.Reason), b.InboxEmail, display.Day(lang, u.At, b.Location())), Next: tr(lang, "bounced_no_phone")}
	if b.OwnerPhone != "" {
		p, _ := phone(b.OwnerPhone)
		v.Next = tr(lang, "bounced_phone", p)
	}
	return v
}

// settled are the states of the inbox's last section besides past jobs:
// the requests nothing more is expected of.
var settled = []booking.Status{booking.StatusDeclined, booking.StatusCompleted, booking.StatusCancelled, booking.StatusNoShow, booking.StatusExpired}

// all reads the inbox's requests in state st, up to maxPages pages. A
// request whose person is reached by text alone has its number's opt-out
// read (withOptOut): whether the list marks it unreachable depends on it.
func (h *handler) all(r *http.Request, in *booking.Inbox, st booking.Status) ([]booking.InboxRequest, error) {
	var out []booking.InboxRequest
	q := booking.InboxQuery{Statuses: []booking.Status{st}, Limit: booking.MaxPageSize}
	for range maxPages {
		page, err := in.Requests(r.Context(), q)
		if err != nil {
			return nil, err
		}
		for i, req := range page.Requests {
			if req.Reach.SMS && !req.Reach.Email {
				page.Requests[i] = h.withOptOut(r.Context(), in.Business(), req)
			}
		}
		out = append(out, page.Requests...)
		if page.Next == nil {
			break
		}
		q.Cursor = *page.Next
	}
	return out, nil
}

// paid reports whether req's deposit is paid.
func paid(req booking.InboxRequest) bool {
	return req.Deposit != nil && req.Deposit.State == booking.DepositPaid
}

// load reads the request of the path as the session's business's:
// NOT_FOUND for another business's, as for an unknown code.
func (h *handler) load(r *http.Request, s Session) (booking.InboxRequest, error) {
	req, err := s.Inbox.Request(r.Context(), r.PathValue("code"))
	if err != nil {
		return req, err
	}
	return h.withOptOut(r.Context(), s.Inbox.Business(), req), nil
}

// OptOutReader reads whether a number replied STOP to Doorstep's texts;
// notify.Ledger does.
type OptOutReader interface {
	OptedOut(ctx context.Context, phone string) (bool, error)
}

// withOptOut is req with how its person is reached counting the number's
// opt-out (booking.PersonReach): one read, only when a text would go.
// When the read fails the page says what the contact and the deployment
// say, and the failure is logged.
func (h *handler) withOptOut(ctx context.Context, b *booking.Business, req booking.InboxRequest) booking.InboxRequest {
	if h.OptOuts == nil || !req.Reach.SMS {
		return req
	}
	out, err := h.OptOuts.OptedOut(ctx, req.Contact.Phone)
	if err != nil {
		h.Log.Warn("inbox: the number's opt-out could not be read", "request", booking.LogRef(req.Code), "error", err)
		return req
	}
	if out {
		d := h.Bookings.Delivery()
		d.OptedOut = true
		d.EmailUndeliverable = req.EmailUndeliverable
		req.Reach = booking.PersonReach(b, req.Contact, d)
		req.PersonChannels = req.Reach.Channels()
	}
	return req
}

// request shows one request: everything the person sent, its history and
// the moves it allows now. ?done= says what just happened, shown only when
// the request's last event agrees.
func (h *handler) request(w http.ResponseWriter, r *http.Request, s Session) {
	req, err := h.load(r, s)
	if err != nil {
		h.failFor(w, r, s, err)
		return
	}
	lang := language(w, r, s.Inbox.Business())
	v := buildRequest(req, s.Inbox.Business(), lang, h.Now())
	v.CSRF = s.CSRF
	if done := booking.Action(r.URL.Query().Get("done")); done != "" && len(req.History) > 0 {
		if last := req.History[len(req.History)-1]; last.Action == done && last.By == booking.ActorBusiness {
			v.Notice = tr(lang, "done_"+string(done))
			if tellsPerson[done] {
				v.Told = told(req, lang)
			}
		}
	}
	if r.URL.Query().Get("done") == eraseAction && req.Erased != nil {
		v.Notice = tr(lang, "done_erase") // erase.go
	}
	render(w, r, http.StatusOK, "request", lang, &s, tr(lang, "request_title"), v)
}

// tellsPerson are the business's moves the person hears of (pkg/notify):
// their confirmation says how, or that nobody writes to them.
var tellsPerson = map[booking.Action]bool{
	booking.ActionAccept: true, booking.ActionMove: true, booking.ActionDecline: true, booking.ActionCancel: true,
}

// told says how the person of request req hears of a move, by
// booking.PersonReach (what pkg/notify sends): by e-mail and text, by
// e-mail, by text, or, when nobody writes to them, that the business
// should call them (with the tel: link), why when they chose a way that
// does not reach them, and that their page shows the answer.
func told(req booking.InboxRequest, lang string) *toldView {
	reach := req.Reach
	switch {
	case reach.Email && reach.SMS:
		return &toldView{Text: tr(lang, "told_email_sms")}
	case reach.Email:
		return &toldView{Text: tr(lang, "told_email")}
	case reach.SMS:
		return &toldView{Text: tr(lang, "told_sms")}
	}
	v := &toldView{Text: tr(lang, "told_none_call"), After: tr(lang, "told_none_page"), Call: true}
	switch reach.Held {
	case "":
	case booking.HeldUndeliverable:
		v.Text = tr(lang, "told_held_undeliverable_call", booking.MaskEmail(req.Contact.Email))
	default:
		v.Text = tr(lang, "told_held_"+string(reach.Held)+"_call")
	}
	v.Phone, v.PhoneLink = phone(req.Contact.Phone)
	return v
}

func (h *handler) renderRequest(w http.ResponseWriter, r *http.Request, status int, s Session, req booking.InboxRequest, lang, notice string, warn bool) {
	v := buildRequest(req, s.Inbox.Business(), lang, h.Now())
	v.Notice, v.Warn, v.CSRF = notice, warn, s.CSRF
	render(w, r, status, "request", lang, &s, tr(lang, "request_title"), v)
}

// failFor answers an error of a signed-in page, mapping the domain's code
// once: NOT_FOUND is the 404 page, INVALID_REQUEST (a change booking
// refused) a 409 page that says nothing changed, both keeping the
// session's header; anything else is fail's 500.
func (h *handler) failFor(w http.ResponseWriter, r *http.Request, s Session, err error) {
	switch booking.ErrorCode(err) {
	case booking.NotFound:
		h.notFound(w, r, &s)
	case booking.InvalidRequest:
		// An owner's change that booking refused (the record it would
		// leave is not valid): a sentence, never a server error. A form
		// with a field of its own says it next to that field first. Its
		// message may quote a value (a phone number): only the code is
		// logged.
		h.Log.Info("inboxweb: a change refused by booking", "route", r.Pattern, "code", booking.ErrorCode(err))
		lang := language(w, r, s.Inbox.Business())
		h.message(w, r, http.StatusConflict, lang, &s, tr(lang, "refused_title"), tr(lang, "refused"))
	default:
		h.fail(w, r, err)
	}
}

// businessAction reads the {action} of the path: one a business makes
// (booking.ActionsBy), else ok is false.
func businessAction(r *http.Request) (booking.Action, bool) {
	a := booking.Action(r.PathValue("action"))
	return a, slices.Contains(booking.ActionsBy(booking.ActorBusiness), a)
}

// confirm shows the step before a move: what it does, and to the deposit,
// with the button that makes it; for a move to another window, the open
// windows to pick from.
func (h *handler) confirm(w http.ResponseWriter, r *http.Request, s Session) {
	if isErase(r) {
		h.confirmErase(w, r, s) // erase.go
		return
	}
	action, ok := businessAction(r)
	if !ok {
		h.notFound(w, r, &s)
		return
	}
	req, err := h.load(r, s)
	if err != nil {
		h.failFor(w, r, s, err)
		return
	}
	lang := language(w, r, s.Inbox.Business())
	if _, err := booking.Allowed(req.Status, action, booking.ActorBusiness); err != nil {
		h.renderRequest(w, r, http.StatusConflict, s, req, lang, tr(lang, "not_now"), true)
		return
	}
	if tooEarly(req, action, h.Now()) {
		h.renderRequest(w, r, http.StatusConflict, s, req, lang, tr(lang, "not_yet"), true)
		return
	}
	if action == booking.ActionMove {
		h.renderMove(w, r, http.StatusOK, s, req, lang, r.URL.Query().Get("day"), "")
		return
	}
	h.renderConfirm(w, r, http.StatusOK, s, req, action, lang, false)
}

func (h *handler) renderConfirm(w http.ResponseWriter, r *http.Request, status int, s Session, req booking.InboxRequest, action booking.Action, lang string, changed bool) {
	v := confirmView{
		Heading: tr(lang, "confirm_"+string(action)), Action: string(action), Code: req.Code, Path: requestPath(req.Code), CSRF: s.CSRF, Changed: changed,
		Summary: summary(req, s.Inbox.Business(), lang),
		Explain: tr(lang, "explain_"+string(action)+unreachedSuffix(req, action)), Button: tr(lang, "button_"+string(action)),
		Danger: action != booking.ActionAccept && action != booking.ActionComplete,
	}
	v.Outcome, v.Consequence = consequence(req, action, lang, h.Now())
	if tellsPerson[action] && req.Reach.None() {
		v.Told = told(req, lang)
	}
	render(w, r, status, "confirm", lang, &s, tr(lang, "confirm_"+string(action)), v)
}

// renderMove shows the open windows to offer instead, a day at a time:
// the days that have any, as links (?day=, no script needed), and the
// windows of the day picked, with the button right after them.
func (h *handler) renderMove(w http.ResponseWriter, r *http.Request, status int, s Session, req booking.InboxRequest, lang, day, problem string) {
	b := s.Inbox.Business()
	// The windows the business may offer: open while its online requests
	// are paused too, and within its notice (days off still have none).
	a, err := s.Inbox.MoveWindows(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	path := requestPath(req.Code)
	v := moveView{Code: req.Code, Path: path, CSRF: s.CSRF, Problem: problem, Summary: summary(req, b, lang),
		Explain: tr(lang, "explain_move"+unreachedSuffix(req, booking.ActionMove))}
	loc := b.Location()
	for _, win := range a.Windows {
		if win.Start.Equal(req.ArrivalWindow.Start) {
			continue
		}
		date := win.Start.In(loc).Format(time.DateOnly)
		if n := len(v.Days); n == 0 || v.Days[n-1].Date != date {
			v.Days = append(v.Days, windowDay{Date: date, Day: display.Day(lang, win.Start, loc), Path: path + "/move?day=" + date, Current: date == day})
		}
		d := &v.Days[len(v.Days)-1]
		d.Windows = append(d.Windows, windowChoice{
			Start: win.Start.UTC().Format(time.RFC3339),
			Label: display.Clock(lang, win.Start, loc) + " – " + display.Clock(lang, win.End, loc),
		})
		d.Count = tr(lang, "window_count", len(d.Windows))
		if len(d.Windows) == 1 {
			d.Count = tr(lang, "window_count_1")
		}
	}
	for i := range v.Days {
		if v.Days[i].Current {
			v.Picked = &v.Days[i]
		}
	}
	render(w, r, status, "move", lang, &s, tr(lang, "confirm_move"), v)
}

// move makes the move the form confirms, with one read of the request
// (the move's own): a move the lifecycle does not allow (it lost a race)
// shows the request as it now stands and says what happened; nothing
// changes. The page's own conditions are checked on that read, before
// anything is written: done or no-show before the window started is
// refused, a confirmed move whose consequence for the deposit changed
// meanwhile is shown again to confirm, and a move to another window needs
// one picked.
func (h *handler) move(w http.ResponseWriter, r *http.Request, s Session) {
	if isErase(r) {
		h.erase(w, r, s) // erase.go
		return
	}
	action, ok := businessAction(r)
	if !ok {
		h.notFound(w, r, &s)
		return
	}
	b := s.Inbox.Business()
	lang := language(w, r, b)
	raw := r.PostFormValue("window_start")
	start, parsed := edge.ParseWindowStart(raw)
	// The day the picker shows again: the picked window's, in the
	// business's time zone, as its ?day= writes it.
	day := ""
	switch {
	case parsed:
		day = start.In(b.Location()).Format(time.DateOnly)
	case raw == "":
		day = r.PostFormValue("day")
	}
	var seen booking.InboxRequest // the request as the move read it
	check := func(req booking.InboxRequest, t booking.Transition) error {
		seen = req
		now := h.Now()
		switch {
		case tooEarly(req, action, now):
			return errTooEarly
		case r.PostForm.Has("deposit") && r.PostFormValue("deposit") != depositOutcome(req, t, now):
			return errDepositChanged
		case action == booking.ActionMove && !parsed:
			return errNoWindow
		}
		return nil
	}
	_, err := s.Inbox.MoveIf(r.Context(), r.PathValue("code"), action, start, check)
	var moved *booking.MovedError
	switch code := booking.ErrorCode(err); {
	case err == nil:
		http.Redirect(w, r, requestPath(seen.Code)+"?done="+string(action), http.StatusSeeOther)
	case errors.As(err, &moved):
		h.lostRace(w, r, s, moved.Request, lang)
	case errors.Is(err, errTooEarly):
		h.renderRequest(w, r, http.StatusConflict, s, seen, lang, tr(lang, "not_yet"), true)
	case errors.Is(err, errDepositChanged):
		h.renderConfirm(w, r, http.StatusConflict, s, seen, action, lang, true)
	case errors.Is(err, errNoWindow):
		h.renderMove(w, r, http.StatusBadRequest, s, seen, lang, day, tr(lang, "pick_window"))
	case action == booking.ActionMove && code == booking.WindowTaken:
		h.renderMove(w, r, http.StatusConflict, s, seen, lang, day, tr(lang, "window_taken"))
	case action == booking.ActionMove && (code == booking.InvalidWindow || code == booking.TooLate):
		h.renderMove(w, r, http.StatusBadRequest, s, seen, lang, day, tr(lang, "pick_window"))
	default:
		h.failFor(w, r, s, err)
	}
}

// The move's refusals of the page's own conditions (move).
var (
	errTooEarly       = errors.New("inboxweb: done or no-show before the window started")
	errDepositChanged = errors.New("inboxweb: the move's consequence for the deposit changed")
	errNoWindow       = errors.New("inboxweb: no window picked, or not one")
)

// lostRace shows req as it stands, saying that the move was not made
// because of what happened to it meanwhile (409).
func (h *handler) lostRace(w http.ResponseWriter, r *http.Request, s Session, req booking.InboxRequest, lang string) {
	h.renderRequest(w, r, http.StatusConflict, s, req, lang, tr(lang, "race_"+string(req.Status)), true)
}

// tooEarly reports whether action marks how a visit went (done, nobody
// there) before its window started: the web inbox offers neither before
// then, and refuses both from an older page.
func tooEarly(req booking.InboxRequest, action booking.Action, now time.Time) bool {
	return (action == booking.ActionComplete || action == booking.ActionNoShow) && now.Before(req.ArrivalWindow.Start)
}

// requestPath is the page of the request with the given code.
func requestPath(code string) string { return "/inbox/requests/" + code }
