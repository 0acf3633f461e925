package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/edge"
)

const (
	listSynopsis = "requests list SLUG [--status S1,S2] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit N] [--cursor C] [--json]"
	showSynopsis = "requests show CODE [--json]"
	moveSynopsis = "requests move CODE ACTION [--window-start RFC3339]"
)

// listRequests lists a business's requests as its inbox does
// (booking.Inbox.Requests, opened by booking.Bookings.OperatorInbox), so
// the operator and the business see the same list.
func (c *ctl) listRequests(ctx context.Context, args []string) error {
	var (
		status, from, to, limit, cursor string
		asJSON                          bool
	)
	fs := newFlagSet("requests list")
	fs.StringVar(&status, "status", "", "")
	fs.StringVar(&from, "from", "", "")
	fs.StringVar(&to, "to", "", "")
	fs.StringVar(&limit, "limit", "", "")
	fs.StringVar(&cursor, "cursor", "", "")
	fs.BoolVar(&asJSON, "json", false, "")
	pos, err := parseCommand(fs, listSynopsis, args, "SLUG")
	if err != nil {
		return err
	}
	store, bookings, err := c.service(ctx)
	if err != nil {
		return err
	}
	b, err := lookupBusiness(ctx, store, pos[0])
	if err != nil {
		return err
	}
	q, err := edge.ParseInboxQuery(status, from, to, limit, cursor)
	var page booking.InboxPage
	if err == nil {
		var in *booking.Inbox
		if in, err = bookings.OperatorInbox(ctx, b.Slug); err == nil {
			page, err = in.Requests(ctx, q)
		}
	}
	switch booking.ErrorCode(err) {
	case booking.InvalidRequest, booking.InvalidDate:
		// Every such refusal is about a flag: --status, --from, --to,
		// --limit or --cursor.
		return usagef(listSynopsis, "%s", booking.ErrorMessage(err))
	}
	if err != nil {
		return err
	}

	if asJSON {
		enc := newJSONEncoder(c.stdout)
		for _, r := range page.Requests {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		if page.Next != nil {
			return enc.Encode(struct {
				Next string `json:"next"`
			}{*page.Next})
		}
		return nil
	}
	if len(page.Requests) == 0 {
		fmt.Fprintf(c.stdout, "%s has no requests that match\n", b.Slug)
		return nil
	}
	loc := b.Location()
	tw := newTable(c.stdout)
	fmt.Fprintf(tw, "CODE\tSTATUS\tWINDOW (%s)\tCREATED\tNAME\tPHONE\n", b.Timezone)
	for _, r := range page.Requests {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Code, r.Status,
			r.ArrivalWindow.Start.In(loc).Format("Mon 2006-01-02 15:04"),
			r.Created.In(loc).Format("2006-01-02 15:04"),
			oneLine(r.Contact.Name), oneLine(display.Phone(r.Contact.Phone)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if page.Next != nil {
		fmt.Fprintf(c.stdout, "more: --cursor %s\n", *page.Next)
	}
	return nil
}

// showRequest shows any request, whatever its business and state: the
// operator sees what neither the business (not before it is paid) nor the
// public (no contact details) may.
func (c *ctl) showRequest(ctx context.Context, args []string) error {
	var asJSON bool
	fs := newFlagSet("requests show")
	fs.BoolVar(&asJSON, "json", false, "")
	pos, err := parseCommand(fs, showSynopsis, args, "CODE")
	if err != nil {
		return err
	}
	store, bookings, err := c.service(ctx)
	if err != nil {
		return err
	}
	r, err := bookings.OperatorRequest(ctx, pos[0])
	if err != nil {
		return err
	}
	if asJSON {
		return newJSONEncoder(c.stdout).Encode(r)
	}
	b, loc, err := requestBusiness(ctx, store, r)
	if err != nil {
		return err
	}
	now := c.now()

	// Fixed columns, not a tabwriter: the layout stays the same whichever
	// optional fields a request has.
	field := func(name, format string, args ...any) {
		fmt.Fprintf(c.stdout, "%-10s%s\n", name, fmt.Sprintf(format, args...))
	}
	field("code", "%s", r.Code)
	field("business", "%s (%s)", r.BusinessSlug, oneLine(b.Name))
	eff := r.Effective(now)
	switch {
	case eff.Status != r.Status && r.Status == booking.StatusNew:
		field("status", "%s (unanswered when its window started at %s; stored as %s until the sweeper runs)",
			eff.Status, r.LapsesAt().In(loc).Format("2006-01-02 15:04 MST"), r.Status)
	case eff.Status != r.Status:
		field("status", "%s (the payment hold lapsed at %s; stored as %s until the sweeper runs)",
			eff.Status, r.LapsesAt().In(loc).Format("2006-01-02 15:04 MST"), r.Status)
	default:
		field("status", "%s", r.Status)
	}
	service := oneLine(r.ServiceName.EN)
	if r.ServiceID != "" {
		service += " (" + r.ServiceID + ")"
	}
	field("service", "%s", service)
	window := formatWindow(r.Window, loc)
	if r.ChangedByBusiness {
		window += ", moved by the business"
	}
	field("window", "%s", window)
	field("urgency", "%s", r.Urgency)
	field("language", "%s", r.Language)
	field("created", "%s", r.Created.In(loc).Format("2006-01-02 15:04 MST"))
	if r.AssistantName != "" {
		field("assistant", "%s", oneLine(r.AssistantName))
	}
	field("deposit", "%s", formatDeposit(eff, loc))
	if !r.Erased.IsZero() { // erase.go
		field("erased", "%s by the %s: the person's details are gone", r.Erased.In(loc).Format("2006-01-02 15:04 MST"), r.ErasedBy)
	}
	field("name", "%s", oneLine(r.Contact.Name))
	field("phone", "%s", oneLine(display.Phone(r.Contact.Phone)))
	field("email", "%s", orNone(oneLine(r.Contact.Email)))
	texts := "no"
	if r.Contact.SMSConsent {
		texts = "yes, the person agreed to texts"
	}
	field("texts", "%s", texts)
	field("address", "%s", formatAddress(r.Address))
	if r.Description != "" {
		fmt.Fprintln(c.stdout, "description")
		for _, line := range strings.Split(cleanText(r.Description), "\n") {
			fmt.Fprintln(c.stdout, "  "+line)
		}
	}

	fmt.Fprintf(c.stdout, "\nhistory (%s)\n", b.Timezone)
	tw := newTable(c.stdout)
	fmt.Fprintln(tw, "  AT\tBY\tACTION\tFROM\tTO\tWINDOW")
	for _, e := range r.History {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", e.At.In(loc).Format("2006-01-02 15:04"),
			e.By, e.Action, orDash(string(e.From)), e.To, e.Window.Start.In(loc).Format("Mon 2006-01-02 15:04"))
	}
	return tw.Flush()
}

// moveRequest moves a request through the Lifecycle as ActorOperator, with
// the same checks and the same one conditional write as every other mover.
func (c *ctl) moveRequest(ctx context.Context, args []string) error {
	var windowStart string
	fs := newFlagSet("requests move")
	fs.StringVar(&windowStart, "window-start", "", "")
	pos, err := parseCommand(fs, moveSynopsis, args, "CODE", "ACTION")
	if err != nil {
		return err
	}
	action := booking.Action(strings.ReplaceAll(strings.ToLower(pos[1]), "-", "_"))
	switch {
	case action == booking.ActionPay:
		return errors.New("pay is the system's move: the payment provider makes it when the person pays; an operator cannot")
	case action == booking.ActionExpire:
		return errors.New("expire is the system's move: the sweeper makes it when a payment hold lapses or a new request's window starts unanswered; an operator cannot (cancel the request instead)")
	case !slices.Contains(booking.ActionsBy(booking.ActorOperator), action):
		return usagef(moveSynopsis, "unknown action %q; want accept, decline, move, complete, cancel or no_show", pos[1])
	case action == booking.ActionMove && windowStart == "":
		return usagef(moveSynopsis, "move needs --window-start, the new window's start (RFC 3339)")
	case action != booking.ActionMove && windowStart != "":
		return usagef(moveSynopsis, "--window-start is for move only")
	}
	var start time.Time
	if windowStart != "" {
		if start, err = edge.WindowStart(windowStart); err != nil {
			return err
		}
	}
	store, bookings, err := c.service(ctx)
	if err != nil {
		return err
	}
	after, err := bookings.OperatorMove(ctx, pos[0], action, start)
	if err != nil {
		return err
	}
	_, loc, err := requestBusiness(ctx, store, after)
	if err != nil {
		return err
	}
	last := after.History[len(after.History)-1] // Move appends this move's event
	fmt.Fprintf(c.stdout, "%s: %s -> %s\n", after.Code, last.From, last.To)
	fmt.Fprintf(c.stdout, "window: %s\n", formatWindow(after.Window, loc))
	e := booking.Transition{From: last.From, Action: action, To: last.To}.Effects()
	if e.MoveWindow {
		fmt.Fprintln(c.stdout, "the request holds the new window; the old one is open again")
	}
	if e.ReleaseHold {
		fmt.Fprintln(c.stdout, "the window is open again")
	}
	return nil
}

// lookupBusiness reads a slug as the public routes do: any case, spaces
// around it.
func lookupBusiness(ctx context.Context, store *dynamo.Store, slug string) (*booking.Business, error) {
	s := strings.ToLower(strings.TrimSpace(slug))
	if !booking.IsSlug(s) {
		return nil, booking.Errorf(booking.NotFound, "no business has the slug %q", slug)
	}
	return store.Business(ctx, s)
}

// requestBusiness returns the business of r and its time zone; a request
// whose business is gone is still shown, in UTC.
func requestBusiness(ctx context.Context, store *dynamo.Store, r booking.Request) (*booking.Business, *time.Location, error) {
	b, err := store.Business(ctx, r.BusinessSlug)
	if booking.ErrorCode(err) == booking.NotFound {
		return &booking.Business{Slug: r.BusinessSlug, Name: "no longer stored", Timezone: "UTC"}, time.UTC, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return b, b.Location(), nil
}

func newTable(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0) }

func newJSONEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// formatWindow is a window in loc: "Sat 2026-11-21 12:00-14:00 MST".
func formatWindow(w booking.Window, loc *time.Location) string {
	return w.Start.In(loc).Format("Mon 2006-01-02 15:04") + "-" + w.End.In(loc).Format("15:04 MST")
}

// formatDeposit describes the deposit of r, a request as it stands
// (Request.Effective): the deposit of a lapsed hold is expired, and a paid
// one of a request unanswered when its window started refunded, whatever
// the stored record still says.
func formatDeposit(r booking.Request, loc *time.Location) string {
	d := r.DepositView() // r is Effective: a lapsed hold reads expired
	if d == nil {
		return "none"
	}
	s := display.Money(d.AmountCents, d.Currency) + ", " + d.State
	if d.Simulated {
		s += " (simulated)"
	}
	if d.PayBy != nil {
		s += ", pay by " + d.PayBy.In(loc).Format("2006-01-02 15:04 MST")
	}
	return s
}

func formatAddress(a booking.Address) string {
	parts := []string{a.Street}
	if a.Unit != "" {
		parts = append(parts, a.Unit)
	}
	if a.City != "" {
		parts = append(parts, a.City)
	}
	return oneLine(strings.Join(parts, ", ") + " " + a.ZIP)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine makes text from a request (sent by anyone on the internet) safe
// to print on an operator's terminal in one line: white space becomes a
// space, and other control characters, which could move the cursor or
// rewrite the screen, become U+FFFD.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return safeRune(r)
	}, s)
}

// cleanText is oneLine for text that may have several lines.
func cleanText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		if r == '\n' {
			return r
		}
		if r == '\t' || r == '\r' {
			return ' '
		}
		return safeRune(r)
	}, s)
}

// safeRune replaces control characters (C0, DEL, C1) and the bidirectional
// overrides, which can make text read differently from what it is.
func safeRune(r rune) rune {
	if unicode.IsControl(r) || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
		return unicode.ReplacementChar
	}
	return r
}

// addSweepKeys gives the requests stored new before new requests had sweep
// keys those keys (dynamo.Store.AddSweepKeys), and says how many.
func (c *ctl) addSweepKeys(ctx context.Context, args []string) error {
	const synopsis = "requests add-sweep-keys"
	if len(args) > 0 {
		return usagef(synopsis, "add-sweep-keys takes no arguments")
	}
	store, err := c.open(ctx)
	if err != nil {
		return err
	}
	n, err := store.AddSweepKeys(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%d new requests without sweep keys have them now; the sweeper expires each once its window has started\n", n)
	return nil
}

// service opens the store and the booking service over it. The operator's
// commands build no link to the site.
func (c *ctl) service(ctx context.Context) (*dynamo.Store, *booking.Bookings, error) {
	store, err := c.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	bookings, err := booking.New(booking.Config{Store: store, SiteURL: booking.NoSiteURL, Now: c.now})
	return store, bookings, err
}
