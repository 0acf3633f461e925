package httpapi

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// InboxPrefix is the path prefix of the business side: authenticated, never
// public, and mounted only where the business inbox function runs.
const InboxPrefix = Prefix + "/inbox"

type inboxAPI struct {
	api
}

// NewInbox returns the business inbox's handler: a business, proven by
// Authorization: Bearer <inbox token>, lists and reads its requests and
// moves them. A missing or wrong token is 401 UNAUTHORIZED; another
// business's request is 404 NOT_FOUND, as an unknown code is, so that codes
// cannot be probed.
func NewInbox(bookings *booking.Bookings, log *slog.Logger) http.Handler {
	a := &inboxAPI{api: api{bookings: bookings, log: log}}
	mux := methodMux(a.routes())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		a.writeError(r.Context(), w, booking.Errorf(booking.NotFound, "no such route: %s %s", r.Method, r.URL.Path))
	})
	return edge.AccessLog(log, inboxCORS.Handler(mux))
}

// InboxRoutes is the business inbox's route table.
func InboxRoutes(bookings *booking.Bookings, log *slog.Logger) []edge.Route {
	return (&inboxAPI{api: api{bookings: bookings, log: log}}).routes()
}

func (a *inboxAPI) routes() []edge.Route {
	return []edge.Route{
		{Method: http.MethodGet, Path: InboxPrefix + "/requests", Handler: a.authed(a.listRequests)},
		{Method: http.MethodGet, Path: InboxPrefix + "/requests/{code}", Handler: a.authed(a.getRequest)},
		{Method: http.MethodPost, Path: InboxPrefix + "/requests/{code}/{action}", Handler: a.authed(a.act)},
		{Method: http.MethodPost, Path: InboxPrefix + "/spam", Handler: a.authed(a.spamSince)},
		{Method: http.MethodGet, Path: InboxPrefix + "/export", Handler: a.authed(a.export)}, // export.go
	}
}

// inboxHandler is a handler of the business side, given the inbox its
// token opened.
type inboxHandler func(w http.ResponseWriter, r *http.Request, in *booking.Inbox)

// authed opens the inbox with the request's bearer token before h runs.
func (a *inboxAPI) authed(h inboxHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		in, err := a.bookings.OpenInbox(r.Context(), bearerToken(r))
		if err != nil {
			if booking.ErrorCode(err) == booking.Unauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="doorstep-inbox"`)
			}
			a.writeError(r.Context(), w, err)
			return
		}
		h(w, r, in)
	}
}

// bearerToken returns the token of an Authorization: Bearer header; "" when
// there is none. The scheme is case-insensitive (RFC 9110).
func bearerToken(r *http.Request) string {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

func (a *inboxAPI) listRequests(w http.ResponseWriter, r *http.Request, in *booking.Inbox) {
	v := r.URL.Query()
	q, err := edge.ParseInboxQuery(v.Get("status"), v.Get("from"), v.Get("to"), v.Get("limit"), v.Get("cursor"))
	if err != nil {
		a.writeError(r.Context(), w, err)
		return
	}
	page, err := in.Requests(r.Context(), q)
	a.respond(w, r, http.StatusOK, page, err)
}

func (a *inboxAPI) getRequest(w http.ResponseWriter, r *http.Request, in *booking.Inbox) {
	req, err := in.Request(r.Context(), r.PathValue("code"))
	a.respond(w, r, http.StatusOK, req, err)
}

func joinActions(actions []booking.Action) string {
	names := make([]string, len(actions))
	for i, a := range actions {
		names[i] = string(a)
	}
	return strings.Join(names, ", ")
}

// moveBody is the body of POST .../move.
type moveBody struct {
	WindowStart *string `json:"window_start"`
}

func (a *inboxAPI) act(w http.ResponseWriter, r *http.Request, in *booking.Inbox) {
	// The path segment is the action's name; the business makes those the
	// Lifecycle lets it make, and no route is there for any other.
	action := booking.Action(r.PathValue("action"))
	if action == eraseAction {
		a.erase(w, r, in) // export.go
		return
	}
	if actions := booking.ActionsBy(booking.ActorBusiness); !slices.Contains(actions, action) {
		a.writeError(r.Context(), w, booking.Errorf(booking.NotFound, "no such action %s: use %s", booking.Excerpt(string(action)), joinActions(actions)))
		return
	}
	var (
		windowStart time.Time
		check       booking.MoveCheck
	)
	if action == booking.ActionMove {
		raw, err := io.ReadAll(io.LimitReader(r.Body, booking.MaxBodyBytes+1))
		var body moveBody
		switch {
		case err != nil || len(raw) > booking.MaxBodyBytes:
			err = booking.Errorf(booking.InvalidRequest, "the body must be a JSON object of at most %d bytes", booking.MaxBodyBytes)
		case json.Unmarshal(raw, &body) != nil:
			err = booking.Errorf(booking.InvalidRequest, `the body must be a JSON object: {"window_start": "..."}`)
		case body.WindowStart == nil:
			err = booking.Errorf(booking.InvalidRequest, "window_start is required: the start of an open window from listArrivalWindows")
		}
		if err != nil {
			a.writeError(r.Context(), w, err)
			return
		}
		start, refusal := edge.WindowStart(*body.WindowStart)
		if refusal != nil {
			// Refused once the request and its state are known to allow a
			// move, as a window that is not one is.
			check = func(booking.InboxRequest, booking.Transition) error { return refusal }
		}
		windowStart = start
	}
	req, err := in.MoveIf(r.Context(), r.PathValue("code"), action, windowStart, check)
	a.respond(w, r, http.StatusOK, req, err)
}

// spamSince marks every unanswered request since a time as not genuine.
func (a *inboxAPI) spamSince(w http.ResponseWriter, r *http.Request, inbox *booking.Inbox) {
	var in struct {
		Since *string `json:"since"`
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, booking.MaxBodyBytes+1))
	switch {
	case err != nil || len(body) > booking.MaxBodyBytes || json.Unmarshal(body, &in) != nil || in.Since == nil:
		a.writeError(r.Context(), w, booking.Errorf(booking.InvalidRequest, `the body must be a JSON object: {"since": "2026-11-24T00:00:00Z"}`))
		return
	}
	since, err := time.Parse(time.RFC3339, *in.Since)
	if err != nil {
		a.writeError(r.Context(), w, booking.Errorf(booking.InvalidDate, "since must be an ISO 8601 date-time, such as 2026-11-24T00:00:00Z"))
		return
	}
	marked, err := inbox.SpamSince(r.Context(), since)
	a.respond(w, r, http.StatusOK, struct {
		Marked []string `json:"marked"`
	}{marked}, err)
}

// inboxCORS lets a business's own web tools call the inbox from a browser:
// the token travels in a header, never a cookie, so any origin may ask.
var inboxCORS = edge.CORS{AllowHeaders: "Authorization, Content-Type"}
