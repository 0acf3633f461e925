package booking

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
)

// Inbox is a business acting for itself: its requests (the list, one
// request, its moves) and its settings. Only a proof opens one: OpenInbox
// (the inbox token), FinishSignIn and OpenSession (the web inbox's
// sign-in), and OperatorInbox (the operator). The public *Business that
// Bookings.Business returns acts for nobody.
type Inbox struct {
	s *Bookings
	b *Business
}

// Business is the business whose inbox this is, as read when it was
// opened: strongly consistent, never from the store's cache
// (Store.OwnBusiness), so the owner's pages show a change the moment it is
// stored, by whoever stored it.
func (in *Inbox) Business() *Business { return in.b }

// OpenInbox opens the inbox of the business whose inbox token this is. Any
// failure is the same UNAUTHORIZED, so that a caller learns nothing about
// which businesses exist.
func (s *Bookings) OpenInbox(ctx context.Context, token string) (*Inbox, error) {
	unauthorized := Errorf(Unauthorized, "send the business's inbox token as Authorization: Bearer <token>")
	slug, ok := InboxTokenSlug(token)
	if !ok {
		return nil, unauthorized
	}
	b, err := s.store.OwnBusiness(ctx, slug)
	if ErrorCode(err) == NotFound {
		return nil, unauthorized
	}
	if err != nil {
		return nil, err
	}
	if !b.OpensInbox(token) {
		return nil, unauthorized
	}
	return &Inbox{s: s, b: b}, nil
}

// OperatorInbox opens the inbox of the business with the given slug (any
// case, read fresh as every inbox's business is: Store.OwnBusiness), for
// the operator, who acts as the business: the operator's tools, and the
// tests. No edge a stranger reaches calls it.
func (s *Bookings) OperatorInbox(ctx context.Context, slug string) (*Inbox, error) {
	slug = strings.ToLower(strings.TrimSpace(slug))
	if !IsSlug(slug) {
		return nil, Errorf(NotFound, "no business has the slug %s", excerpt(slug))
	}
	b, err := s.store.OwnBusiness(ctx, slug)
	if err != nil {
		return nil, err
	}
	return &Inbox{s: s, b: b}, nil
}

// InboxQuery selects a business's requests for its inbox list.
type InboxQuery struct {
	Statuses []Status // one or more of the states a business sees; none: all
	// From and To are the days (date values, midnight UTC of the day, in
	// the business's time zone) on which the requests were sent, both
	// included; zero: from the first, up to now.
	From, To time.Time
	Limit    int    // 1 to MaxPageSize; 0: DefaultPageSize
	Cursor   string // a page's next
}

// DefaultPageSize is how many requests a page lists when no limit is given.
const DefaultPageSize = 25

// IsInboxStatus reports whether a business sees requests in state st: new,
// and every state a new request can be moved to.
func IsInboxStatus(st Status) bool { return slices.Contains(inboxStatuses, st) }

// StatusFilterError is the INVALID_REQUEST for a status filter naming s, a
// state no business sees requests in.
func StatusFilterError(s string) error {
	return Errorf(InvalidRequest, "status %s: want one or more of %s, joined by commas", excerpt(s), joinStatuses(inboxStatuses))
}

// LimitError is the INVALID_REQUEST for a page size that is not a whole
// number from 1 to MaxPageSize.
func LimitError() error {
	return Errorf(InvalidRequest, "limit must be a whole number from 1 to %d", MaxPageSize)
}

// InboxRequest is a request as its business sees it: everything the person
// sent, its state as it stands, and its history.
type InboxRequest struct {
	Code              string         `json:"code"`
	Status            Status         `json:"status"`
	ServiceID         *string        `json:"service_id"`
	Service           LocalText      `json:"service"`
	ArrivalWindow     Window         `json:"arrival_window"`
	ChangedByBusiness bool           `json:"changed_by_business"`
	Address           Address        `json:"address"`
	Contact           Contact        `json:"contact"`
	Urgency           string         `json:"urgency"`
	Description       string         `json:"description"`
	Language          string         `json:"language"`
	AssistantName     *string        `json:"assistant_name"`
	Deposit           *DepositStatus `json:"deposit"`
	Created           time.Time      `json:"created"`
	History           []Event        `json:"history"`
	// Erased is when the person's details were erased (erase.go), null
	// while they are kept: Address then holds only the ZIP code, and
	// Contact and Description are empty.
	Erased *time.Time `json:"erased"`
	// PersonChannels is how the person is actually written to about the
	// request (PersonReach): "email", "sms", both or none. With none,
	// nobody writes to them: the business calls them.
	PersonChannels []string `json:"person_channels"`
	// Reach is PersonChannels with why a way the person chose is held
	// back (an example or preview business, texts off, an undeliverable
	// address); not in the JSON.
	Reach Reach `json:"-"`
	// EmailUndeliverable: the person's address was read and is recorded
	// undeliverable (reached), so that an edge that reads more (a
	// number's STOP) keeps it; not in the JSON.
	EmailUndeliverable bool `json:"-"`
}

// InboxPage is a page of the inbox list.
type InboxPage struct {
	Requests []InboxRequest `json:"requests"`
	Next     *string        `json:"next"`
}

// Requests lists the business's requests, newest first, as it sees them.
func (in *Inbox) Requests(ctx context.Context, iq InboxQuery) (InboxPage, error) {
	s, b := in.s, in.b
	q := RequestQuery{Slug: b.Slug, Statuses: iq.Statuses, Limit: iq.Limit, Cursor: iq.Cursor}
	for _, st := range iq.Statuses {
		if !IsInboxStatus(st) {
			return InboxPage{}, StatusFilterError(string(st))
		}
	}
	switch {
	case q.Limit == 0:
		q.Limit = DefaultPageSize
	case q.Limit < 0 || q.Limit > MaxPageSize:
		return InboxPage{}, LimitError()
	}
	now := s.now()
	if !iq.From.IsZero() {
		q.From = localMidnight(iq.From, b.loc)
	}
	q.To = now.Add(24 * time.Hour)
	if !iq.To.IsZero() {
		q.To = localMidnight(iq.To.AddDate(0, 0, 1), b.loc)
	}
	if !q.From.Before(q.To) {
		return InboxPage{}, Errorf(InvalidDate, "from must be on or before to")
	}
	// The store filters by the stored state; the list, by the state as it
	// stands: a new request whose window started is expired before the
	// sweep stores it. A page may then list fewer than Limit requests.
	if slices.Contains(q.Statuses, StatusExpired) && !slices.Contains(q.Statuses, StatusNew) {
		q.Statuses = append(slices.Clone(q.Statuses), StatusNew)
	}
	page, err := s.store.BusinessRequests(ctx, q)
	if err != nil {
		return InboxPage{}, err
	}
	out := InboxPage{Requests: make([]InboxRequest, 0, len(page.Requests))}
	for _, r := range page.Requests {
		// The list reads whether an address is undeliverable only for the
		// live requests, whose mark depends on it: nobody writes to the
		// person of an ended one about it any more.
		v, err := in.reached(ctx, inboxView(r, now), inboxView(r, now).Status.Live())
		if err != nil {
			return InboxPage{}, err
		}
		if len(iq.Statuses) > 0 && !slices.Contains(iq.Statuses, v.Status) {
			continue
		}
		out.Requests = append(out.Requests, v)
	}
	if page.Next != "" {
		out.Next = &page.Next
	}
	return out, nil
}

// inboxStatuses are the states a business sees requests in: new, and every
// state a new request can be moved to.
var inboxStatuses = statesFrom(StatusNew)

func joinStatuses(states []Status) string {
	names := make([]string, len(states))
	for i, s := range states {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// localMidnight returns the instant a day (a date value, as ParseDate
// returns it) begins in loc.
func localMidnight(day time.Time, loc *time.Location) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc).UTC()
}

// Request returns one of the business's requests. Another business's
// request, and one it does not see (SeenByBusiness), are NOT_FOUND as an
// unknown code is.
func (in *Inbox) Request(ctx context.Context, code string) (InboxRequest, error) {
	r, err := in.request(ctx, code)
	if err != nil {
		return InboxRequest{}, err
	}
	return in.view(ctx, r, in.s.now())
}

// Move moves one of the business's requests by action; windowStart is the
// new window's start for ActionMove (zero for any other). A move the
// request's state refuses, as read or because another move changed it
// meanwhile, is a *MovedError carrying the request as it now stands.
func (in *Inbox) Move(ctx context.Context, code string, action Action, windowStart time.Time) (InboxRequest, error) {
	return in.MoveIf(ctx, code, action, windowStart, nil)
}

// MoveIf is Move, made only if check (when not nil) lets it: check is
// given the request as read and the transition, before anything is
// written.
func (in *Inbox) MoveIf(ctx context.Context, code string, action Action, windowStart time.Time, check MoveCheck) (InboxRequest, error) {
	if in.b.Suspended {
		return InboxRequest{}, errSuspended(in.b)
	}
	r, err := in.request(ctx, code)
	if err != nil {
		return InboxRequest{}, err
	}
	now := in.s.now()
	after, err := in.s.move(ctx, r, change{action: action, actor: ActorBusiness, windowStart: windowStart, business: in.b, check: check}, now)
	if err != nil {
		return InboxRequest{}, in.reachedMoved(ctx, err)
	}
	return in.view(ctx, after, now)
}

// MoveWindows lists the windows the business may move a request to: its
// open windows, from today for MaxDays days, while its online requests
// are paused too, and within its notice (which binds customers, not its
// own moves); its days off still have none.
func (in *Inbox) MoveWindows(ctx context.Context) (Availability, error) {
	open := *in.b
	open.AcceptingRequests = true
	open.MinNoticeMinutes = 0
	return in.s.ArrivalWindows(ctx, &open, WindowQuery{Days: MaxDays})
}

// SpamSince marks every request the business has not answered yet (new)
// that was sent at or after since as not genuine (ActionSpam): each one's
// window opens again and its phone and e-mail are blocked at the business.
// It returns the codes it marked; a request moved meanwhile is left as it
// is.
func (in *Inbox) SpamSince(ctx context.Context, since time.Time) ([]string, error) {
	s := in.s
	now := s.now()
	q := RequestQuery{Slug: in.b.Slug, Statuses: []Status{StatusNew}, From: since, To: now.Add(24 * time.Hour), Limit: MaxPageSize}
	marked := []string{}
	for {
		page, err := s.store.BusinessRequests(ctx, q)
		if err != nil {
			return marked, err
		}
		for _, r := range page.Requests {
			_, err := s.move(ctx, r, change{action: ActionSpam, actor: ActorBusiness}, now)
			switch {
			case err == nil:
				marked = append(marked, r.Code)
			case ErrorCode(err) != InvalidTransition:
				return marked, err
			}
		}
		if page.Next == "" {
			return marked, nil
		}
		q.Cursor = page.Next
	}
}

func (in *Inbox) request(ctx context.Context, code string) (Request, error) {
	r, err := in.s.request(ctx, code)
	if err == nil && (r.BusinessSlug != in.b.Slug || !r.SeenByBusiness()) {
		err = requestNotFound(code)
	}
	return r, err
}

// view is r as business in.b sees it at now, with how its person is
// actually reached (PersonReach).
func (in *Inbox) view(ctx context.Context, r Request, now time.Time) (InboxRequest, error) {
	return in.reached(ctx, inboxView(r, now), true)
}

// reached sets v's Reach and PersonChannels by PersonReach: what the
// business is told of who is written to is what pkg/notify sends. With
// read, whether the person's address is undeliverable is read
// (DeliveryTo) when they would be written to by e-mail.
func (in *Inbox) reached(ctx context.Context, v InboxRequest, read bool) (InboxRequest, error) {
	d := in.s.Delivery()
	v.Reach = PersonReach(in.b, v.Contact, d)
	if v.Reach.Email && read {
		var err error
		if d, err = in.s.DeliveryTo(ctx, v.Contact); err != nil {
			return InboxRequest{}, err
		}
		v.Reach = PersonReach(in.b, v.Contact, d)
	}
	v.EmailUndeliverable = d.EmailUndeliverable
	v.PersonChannels = v.Reach.Channels()
	return v, nil
}

// reachedMoved is err, whose *MovedError (if any) carries the request
// with how its person is actually reached (as the contact and the
// deployment say it, when the record cannot be read).
func (in *Inbox) reachedMoved(ctx context.Context, err error) error {
	if moved, ok := errors.AsType[*MovedError](err); ok {
		if v, rerr := in.reached(ctx, moved.Request, true); rerr == nil {
			moved.Request = v
		} else {
			moved.Request.Reach = PersonReach(in.b, moved.Request.Contact, in.s.Delivery())
			moved.Request.PersonChannels = moved.Request.Reach.Channels()
		}
	}
	return err
}

// inboxView is r as its business sees it at now; its Reach and
// PersonChannels are the ways the person chose, until Inbox.reached says
// which of them reach the person.
func inboxView(r Request, now time.Time) InboxRequest {
	status := statusView(r, &Business{}, now)
	v := InboxRequest{
		Code:              r.Code,
		Status:            status.Status,
		Service:           r.ServiceName,
		ArrivalWindow:     r.Window,
		ChangedByBusiness: r.ChangedByBusiness,
		Address:           r.Address,
		Contact:           r.Contact,
		PersonChannels:    r.Contact.Reach().Channels(),
		Reach:             r.Contact.Reach(),
		Urgency:           r.Urgency,
		Description:       r.Description,
		Language:          r.Language,
		Deposit:           status.Deposit,
		Created:           r.Created,
		History:           r.History,
	}
	if r.ServiceID != "" {
		v.ServiceID = &r.ServiceID
	}
	if r.AssistantName != "" {
		v.AssistantName = &r.AssistantName
	}
	if v.History == nil {
		v.History = []Event{}
	}
	if !r.Erased.IsZero() {
		v.Erased = &r.Erased
	}
	return v
}
