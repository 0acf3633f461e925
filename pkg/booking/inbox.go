package booking

import (
	"context"
	"slices"
	"strings"
	"time"
)

// OpenInbox returns the business whose inbox token this is: the proof the
// business's own methods take. Any failure is the same UNAUTHORIZED, so
// that a caller learns nothing about which businesses exist.
func (s *Bookings) OpenInbox(ctx context.Context, token string) (*Business, error) {
	unauthorized := Errorf(Unauthorized, "send the business's inbox token as Authorization: Bearer <token>")
	slug, ok := InboxTokenSlug(token)
	if !ok {
		return nil, unauthorized
	}
	b, err := s.store.Business(ctx, slug)
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

// InboxQuery selects a business's requests for its inbox list.
type InboxQuery struct {
	Statuses []Status // one or more of the states a business sees; none: all
	// From and To are the days (date values, as ParseDate returns them, in
	// the business's time zone) on which the requests were sent, both
	// included; zero: from the first, up to now.
	From, To time.Time
	Limit    int    // 1 to MaxPageSize; 0: DefaultPageSize
	Cursor   string // a page's next
}

// DefaultPageSize is how many requests a page lists when no limit is given.
const DefaultPageSize = 25

func statusError(s string) error {
	return Errorf(InvalidRequest, "status %s: want one or more of %s, joined by commas", excerpt(s), joinStatuses(inboxStatuses))
}

func limitError() error {
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
}

// InboxPage is a page of the inbox list.
type InboxPage struct {
	Requests []InboxRequest `json:"requests"`
	Next     *string        `json:"next"`
}

// BusinessRequests lists b's requests, newest first, as b sees them.
func (s *Bookings) BusinessRequests(ctx context.Context, b *Business, iq InboxQuery) (InboxPage, error) {
	q := RequestQuery{Slug: b.Slug, Statuses: iq.Statuses, Limit: iq.Limit, Cursor: iq.Cursor}
	for _, st := range iq.Statuses {
		if !slices.Contains(inboxStatuses, st) {
			return InboxPage{}, statusError(string(st))
		}
	}
	switch {
	case q.Limit == 0:
		q.Limit = DefaultPageSize
	case q.Limit < 0 || q.Limit > MaxPageSize:
		return InboxPage{}, limitError()
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
		v := inboxView(r, now)
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

// BusinessRequest returns one of b's requests. Another business's request,
// and one b does not see (SeenByBusiness), are NOT_FOUND as an unknown
// code is.
func (s *Bookings) BusinessRequest(ctx context.Context, b *Business, code string) (InboxRequest, error) {
	r, err := s.businessRequest(ctx, b, code)
	if err != nil {
		return InboxRequest{}, err
	}
	return inboxView(r, s.now()), nil
}

// BusinessMove moves one of b's requests by action, as the business;
// windowStart is the new window's start (RFC 3339) for ActionMove.
func (s *Bookings) BusinessMove(ctx context.Context, b *Business, code string, action Action, windowStart string) (InboxRequest, error) {
	r, err := s.businessRequest(ctx, b, code)
	if err != nil {
		return InboxRequest{}, err
	}
	now := s.now()
	after, err := s.move(ctx, r, change{action: action, actor: ActorBusiness, windowStart: windowStart, business: b}, now)
	if err != nil {
		return InboxRequest{}, err
	}
	return inboxView(after, now), nil
}

// BusinessSpamSince marks every request b has not answered yet (new) that
// was sent at or after since as not genuine (ActionSpam): each one's window
// opens again and its phone and e-mail are blocked at b. It returns the
// codes it marked; a request moved meanwhile is left as it is.
func (s *Bookings) BusinessSpamSince(ctx context.Context, b *Business, since time.Time) ([]string, error) {
	now := s.now()
	q := RequestQuery{Slug: b.Slug, Statuses: []Status{StatusNew}, From: since, To: now.Add(24 * time.Hour), Limit: MaxPageSize}
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

func (s *Bookings) businessRequest(ctx context.Context, b *Business, code string) (Request, error) {
	r, err := s.request(ctx, code)
	if err == nil && (r.BusinessSlug != b.Slug || !r.SeenByBusiness()) {
		err = requestNotFound(code)
	}
	return r, err
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
