package httpapi

import (
	"net/http"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

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
