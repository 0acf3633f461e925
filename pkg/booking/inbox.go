package booking

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Inbox is the business side: a business, proven by its inbox token, lists
// and reads its requests (with the person's contact details) and moves them
// through the Lifecycle. Nothing here is public.
type Inbox struct {
	store Store
	mover *Mover
	now   func() time.Time
}

// NewInbox returns the inbox over store, with now as its clock.
func NewInbox(store Store, now func() time.Time) *Inbox {
	return &Inbox{store: store, mover: NewMover(store, now), now: now}
}

// Open returns the business whose inbox token this is. Any failure is the
// same UNAUTHORIZED, so that a caller learns nothing about which businesses
// exist.
func (in *Inbox) Open(ctx context.Context, token string) (*Business, error) {
	unauthorized := Errorf(Unauthorized, "send the business's inbox token as Authorization: Bearer <token>")
	slug, ok := InboxTokenSlug(token)
	if !ok {
		return nil, unauthorized
	}
	b, err := in.store.Business(ctx, slug)
	if ErrorCode(err) == NotFound {
		return nil, unauthorized
	}
	if err != nil {
		return nil, err
	}
	if !b.OpensInbox(token) {
		return nil, unauthorized
	}
	return b, nil
}

// RequestFilter is the inbox list's query, as given: status (one state, or
// several joined by commas), from and to (YYYY-MM-DD days, in the business's
// time zone, on which the requests were sent; both included), limit (1 to
// MaxPageSize, default DefaultPageSize) and cursor (a page's next).
type RequestFilter struct {
	Status, From, To, Limit, Cursor string
}

// DefaultPageSize is how many requests a page lists when no limit is given.
const DefaultPageSize = 25

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
}

// InboxPage is a page of the inbox list.
type InboxPage struct {
	Requests []InboxRequest `json:"requests"`
	Next     *string        `json:"next"`
}

// Requests lists b's requests, newest first.
func (in *Inbox) Requests(ctx context.Context, b *Business, f RequestFilter) (InboxPage, error) {
	q := RequestQuery{Slug: b.Slug, Limit: DefaultPageSize, Cursor: f.Cursor}
	if f.Status != "" {
		for _, s := range strings.Split(f.Status, ",") {
			st := Status(strings.TrimSpace(s))
			if !slices.Contains(inboxStatuses, st) {
				return InboxPage{}, Errorf(InvalidRequest, "status %q: want one or more of %s, joined by commas", s, joinStatuses(inboxStatuses))
			}
			q.Statuses = append(q.Statuses, st)
		}
	}
	now := in.now()
	if f.From != "" {
		from, err := ParseDate(f.From, now, b.loc)
		if err != nil {
			return InboxPage{}, err
		}
		q.From = localMidnight(from, b.loc)
	}
	q.To = now.Add(24 * time.Hour)
	if f.To != "" {
		to, err := ParseDate(f.To, now, b.loc)
		if err != nil {
			return InboxPage{}, Errorf(InvalidDate, "to must be a date as YYYY-MM-DD, got %q", f.To)
		}
		q.To = localMidnight(to.AddDate(0, 0, 1), b.loc)
	}
	if !q.From.Before(q.To) {
		return InboxPage{}, Errorf(InvalidDate, "from must be on or before to")
	}
	if f.Limit != "" {
		n, err := strconv.Atoi(f.Limit)
		if err != nil || n < 1 || n > MaxPageSize {
			return InboxPage{}, Errorf(InvalidRequest, "limit must be a whole number from 1 to %d", MaxPageSize)
		}
		q.Limit = n
	}
	page, err := in.store.BusinessRequests(ctx, q)
	if err != nil {
		return InboxPage{}, err
	}
	out := InboxPage{Requests: make([]InboxRequest, 0, len(page.Requests))}
	for _, r := range page.Requests {
		out.Requests = append(out.Requests, inboxView(r, now))
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

// Request returns one of b's requests.
func (in *Inbox) Request(ctx context.Context, b *Business, code string) (InboxRequest, error) {
	r, err := in.mover.Request(ctx, b.Slug, code, ActorBusiness)
	if err != nil {
		return InboxRequest{}, err
	}
	return inboxView(r, in.now()), nil
}

// Act moves one of b's requests by action; windowStart is the new window's
// start for ActionMove.
func (in *Inbox) Act(ctx context.Context, b *Business, code string, action Action, windowStart string) (InboxRequest, error) {
	r, err := in.mover.Move(ctx, MoveInput{Code: code, Action: action, Actor: ActorBusiness, Slug: b.Slug, WindowStart: windowStart})
	if err != nil {
		return InboxRequest{}, err
	}
	return inboxView(r, in.now()), nil
}

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
	return v
}
