package booking

import (
	"context"
	"crypto/subtle"
	"net/url"
	"slices"
	"time"
)

// The business's calendar feed and the person's calendar event: which
// requests, as typed values. Writing them as iCalendar is pkg/ical's.

// A feed token is "<slug>.<secret>" as an inbox token is, and only its
// SHA-256 is stored (Private.FeedTokenSHA256). It opens nothing but the
// feed, which is read-only: a calendar app keeps it in the subscription's
// address, where an inbox token must never be.

// NewFeedToken returns a new calendar feed token for the business and the
// hash to store in its record.
func NewFeedToken(slug string) (token, hash string) { return NewInboxToken(slug) }

// FeedPathPrefix is where the businesses' calendar feeds are: a feed's
// address is the site's, then FeedPathPrefix, the token and ".ics".
const FeedPathPrefix = "/calendar/"

// NewFeedAddress mints a new calendar feed token for the business and
// stores its hash, with the store's conditional UpdateBusiness, and returns
// the feed's address: the only time the token is shown, as only its hash
// is kept.
// The old token, if any, stops opening the feed at once (within the
// business cache of each function).
func (in *Inbox) NewFeedAddress(ctx context.Context) (string, error) {
	token, hash := NewFeedToken(in.b.Slug)
	if _, err := in.s.changeBusiness(ctx, in.b.Slug, func(changed *Business) error { changed.FeedTokenSHA256 = hash; return nil }); err != nil {
		return "", err
	}
	return in.s.siteURL + FeedPathPrefix + token + ".ics", nil
}

// StopFeed forgets the business's calendar feed token, so that its
// address opens nothing, and returns the business as stored after.
func (in *Inbox) StopFeed(ctx context.Context) (*Business, error) {
	return in.s.changeBusiness(ctx, in.b.Slug, func(changed *Business) error { changed.FeedTokenSHA256 = ""; return nil })
}

// OpensFeed reports whether token is the calendar feed token of b,
// comparing the hashes in constant time. A business without a stored hash
// has no feed.
func (b *Business) OpensFeed(token string) bool {
	want := b.FeedTokenSHA256
	if want == "" {
		return false
	}
	got := HashInboxToken(token)
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// FeedDaysBack is how far back the feed lists requests: their windows
// ending in the last 30 days are still shown.
const FeedDaysBack = 30

// CalendarEvent is one request as a calendar shows it.
type CalendarEvent struct {
	// UID is the request's code at the site's host, the same in the
	// business's feed and the person's event, so that a calendar holding
	// both, or importing the event again, keeps one.
	UID    string
	Code   string
	Status Status // accepted, new or cancelled
	// Sequence is how many times the business moved the window: a
	// calendar takes the event with the higher one as the newer.
	Sequence int
	// Stamp is when the request last changed (its last history event,
	// or its creation).
	Stamp    time.Time
	Window   Window
	Service  LocalText
	City     string
	Language string // the request's
	// Link is where the event leads: the business's inbox page of the
	// request in the feed, the person's status page in their event.
	Link string
}

// Title is the event's title in lang (en or es): the service, then where
// ("" for nothing): the city for the business, the business for the
// person.
func (e CalendarEvent) Title(lang, where string) string {
	s := e.Service.In(lang)
	if where != "" {
		s += " · " + where
	}
	return s
}

// CalendarFeed is what a business's feed lists.
type CalendarFeed struct {
	Business *Business
	Events   []CalendarEvent // by window start, then code
}

// feedStatuses are the states the feed lists.
var feedStatuses = []Status{StatusNew, StatusAccepted, StatusCancelled}

// OpenFeed returns the business whose feed token this is. Any failure is
// the same NOT_FOUND, as for an address nobody has: the feed's address is
// its only key.
func (s *Bookings) OpenFeed(ctx context.Context, token string) (*Business, error) {
	notFound := Errorf(NotFound, "no calendar has this address")
	slug, ok := InboxTokenSlug(token)
	if !ok {
		return nil, notFound
	}
	b, err := s.store.Business(ctx, slug)
	if ErrorCode(err) == NotFound {
		return nil, notFound
	}
	if err != nil {
		return nil, err
	}
	if !b.OpensFeed(token) {
		return nil, notFound
	}
	return b, nil
}

// BusinessFeed lists b's requests for its calendar feed: the accepted and
// new ones (as they stand now: a new one whose window started is expired,
// and left out) and the cancelled ones the business had, whose windows end
// at most FeedDaysBack days ago and start before the end of the booking
// horizon.
//
// The store finds a business's requests by when they were sent. A window is
// within the horizon of its create or of its last move, so the requests
// sent from FeedDaysBack plus the horizon (and a day either side) ago on
// cover every window in range, except that of a request moved again and
// again far beyond the horizon of when it was sent.
func (s *Bookings) BusinessFeed(ctx context.Context, b *Business) (CalendarFeed, error) {
	now := s.now()
	from := now.AddDate(0, 0, -FeedDaysBack)
	until := localMidnight(b.lastBookableDate(now).AddDate(0, 0, 1), b.loc)
	q := RequestQuery{
		Slug: b.Slug, Statuses: feedStatuses,
		From:  from.AddDate(0, 0, -b.BooksUpToDaysAhead-2),
		To:    now.Add(24 * time.Hour),
		Limit: MaxPageSize,
	}
	feed := CalendarFeed{Business: b, Events: []CalendarEvent{}}
	for {
		page, err := s.store.BusinessRequests(ctx, q)
		if err != nil {
			return CalendarFeed{}, err
		}
		for _, r := range page.Requests {
			r = r.Effective(now)
			if !slices.Contains(feedStatuses, r.Status) || !r.Window.End.After(from) || !r.Window.Start.Before(until) {
				continue
			}
			feed.Events = append(feed.Events, s.calendarEvent(r, s.siteURL+"/inbox/requests/"+r.Code))
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	slices.SortFunc(feed.Events, func(a, b CalendarEvent) int {
		if c := a.Window.Start.Compare(b.Window.Start); c != 0 {
			return c
		}
		if a.Code < b.Code {
			return -1
		}
		return 1
	})
	return feed, nil
}

// CustomerEvent returns the calendar event of the request with the given
// code and its business, for the person: only once the business has
// accepted it (until then it is no visit yet). Any other state is
// NOT_FOUND, as an unknown code is.
func (s *Bookings) CustomerEvent(ctx context.Context, code string) (CalendarEvent, *Business, error) {
	r, b, err := s.CustomerRequest(ctx, code)
	if err != nil {
		return CalendarEvent{}, nil, err
	}
	if r.Effective(s.now()).Status != StatusAccepted {
		return CalendarEvent{}, nil, Errorf(NotFound, "request %s has no visit to add to a calendar", r.Code)
	}
	return s.calendarEvent(r, s.siteURL+"/r/"+r.Code), b, nil
}

func (s *Bookings) calendarEvent(r Request, link string) CalendarEvent {
	e := CalendarEvent{
		UID: r.Code + "@" + s.siteHost(), Code: r.Code, Status: r.Status,
		Stamp: r.Created, Window: r.Window, Service: r.ServiceName,
		City: r.Address.City, Language: r.Language, Link: link,
	}
	for _, ev := range r.History {
		if ev.Action == ActionMove {
			e.Sequence++
		}
		if ev.At.After(e.Stamp) {
			e.Stamp = ev.At
		}
	}
	return e
}

// siteHost is the host of the site's address: the UIDs' domain.
func (s *Bookings) siteHost() string {
	if u, err := url.Parse(s.siteURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "doorstep.invalid"
}
