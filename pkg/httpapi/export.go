package httpapi

import (
	"net/http"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// The business's records are its own: GET /api/v1/inbox/export gives them
// as JSON, and POST /api/v1/inbox/requests/{code}/erase erases one ended
// request's personal details (the web inbox does both too).

// export answers GET /api/v1/inbox/export: the business's records of the
// days from to to (booking.Inbox.Export), as JSON; the web inbox
// downloads the same as CSV.
func (a *inboxAPI) export(w http.ResponseWriter, r *http.Request, in *booking.Inbox) {
	v := r.URL.Query()
	var from, to time.Time
	var err error
	if s := v.Get("from"); s != "" {
		from, err = edge.ParseDate("from", s)
	}
	if s := v.Get("to"); err == nil && s != "" {
		to, err = edge.ParseDate("to", s)
	}
	if err == nil && !from.IsZero() && !to.IsZero() && to.Before(from) {
		err = booking.Errorf(booking.InvalidDate, "from must be on or before to")
	}
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	e, err := in.Export(r.Context(), from, to)
	a.respond(w, r, http.StatusOK, e, err)
}

// eraseAction is the {action} of POST /api/v1/inbox/requests/{code}/erase:
// no move, the erasure of the person's details from an ended request.
const eraseAction = "erase"

// erase erases the personal details of one of the business's ended
// requests (booking.Inbox.Erase) and answers the request as it now is. One
// that has not ended is 409 INVALID_TRANSITION; erasing twice is erasing
// once.
func (a *inboxAPI) erase(w http.ResponseWriter, r *http.Request, in *booking.Inbox) {
	req, err := in.Erase(r.Context(), r.PathValue("code"))
	a.respond(w, r, http.StatusOK, req, err)
}
