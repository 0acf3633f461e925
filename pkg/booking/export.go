package booking

import (
	"context"
	"slices"
	"time"
)

// MaxExportRows is the most requests one export holds: a longer range is
// refused, to be asked for in parts.
const MaxExportRows = 10000

// Export is a business's records of a range of days: every request it
// sees that was sent on those days, oldest first, as its inbox shows them
// (with the person's details where not erased, and the history). The
// web inbox writes it as CSV, the JSON inbox and the operator as JSON.
type Export struct {
	Business string `json:"business"`
	Timezone string `json:"timezone"`
	// From and To are the first and last days (YYYY-MM-DD, the business's
	// time zone) on which the requests were sent; "" when unbounded.
	From     string         `json:"from"`
	To       string         `json:"to"`
	Requests []InboxRequest `json:"requests"`
}

// Export returns the business's requests sent on the days from to to (date
// values, as InboxQuery's; zero: from the first, up to now), oldest first.
// More than MaxExportRows is INVALID_REQUEST: the range is to be split.
func (in *Inbox) Export(ctx context.Context, from, to time.Time) (Export, error) {
	e := Export{Business: in.b.Slug, Timezone: in.b.Timezone, Requests: []InboxRequest{}}
	if !from.IsZero() {
		e.From = from.Format(time.DateOnly)
	}
	if !to.IsZero() {
		e.To = to.Format(time.DateOnly)
	}
	q := InboxQuery{From: from, To: to, Limit: MaxPageSize}
	for {
		page, err := in.Requests(ctx, q)
		if err != nil {
			return Export{}, err
		}
		e.Requests = append(e.Requests, page.Requests...)
		if len(e.Requests) > MaxExportRows {
			return Export{}, Errorf(InvalidRequest, "more than %d requests were sent in this range; export a shorter one", MaxExportRows)
		}
		if page.Next == nil {
			break
		}
		q.Cursor = *page.Next
	}
	slices.Reverse(e.Requests) // the inbox lists newest first
	return e, nil
}
