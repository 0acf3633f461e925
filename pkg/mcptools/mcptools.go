// Package mcptools serves the four operations as MCP tools for AI assistants:
// Streamable HTTP answering plain JSON, one JSON-RPC message per POST, no
// session. It calls the same booking.Bookings as the JSON API, and is the only
// place where domain error codes become tool results.
package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/display"
	"github.com/doorstep/doorstep/pkg/edge"
)

// Path is where the tool server is mounted.
const Path = "/mcp"

// What the tool server calls itself: in initialize's serverInfo, and in
// the MCP Registry's server.json (go run ./infra/ctl mcp server-json).
const (
	Title       = "Doorstep"
	Version     = "1.0.0"
	Description = "Home-service requests: read a business, list its open arrival windows, request one, check it."
)

// Instructions are the spec's rules for agents, handed to the assistant with
// the tools (initialize and server/discover results).
const Instructions = `Doorstep sends service requests to home-service businesses (plumbing, electrical, HVAC, cleaning) for a person. Call get_business first, then list_arrival_windows, then request_service; check on a request with get_request_status. Rules:
1. Say that a request is not a confirmed appointment until the business accepts it.
2. Never book a business with example: true for a real person.
3. For gas smells, sparking, flooding or other danger, tell the person to leave, call 911 or the utility, then call the business; do not send a request instead.
4. Send only details the person gave for this request, and only the person's own email.
5. sms_consent and deposit_accepted are the person's own choices: ask, never assume yes.
6. If a deposit is due, the person pays at payment_url; never ask for card details.
7. When booking_deposit is not null, tell the person the amount and its rules before sending a request.
Prices are agreed with the business directly; nothing returned is a quote.`

// New returns the tool server's HTTP handler.
func New(bookings *booking.Bookings, log *slog.Logger) http.Handler {
	server := NewServer(bookings, log)
	return transport(acceptJSON(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       log,
	})))
}

// acceptJSON lets clients that accept only application/json (or say
// nothing) be answered: the transport wants both JSON and event streams
// accepted, but this server answers every POST with plain JSON anyway.
func acceptJSON(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			r = r.Clone(r.Context())
			r.Header.Set("Accept", "application/json, text/event-stream")
		}
		next.ServeHTTP(w, r)
	})
}

// Routes is the tool server's route table: New at Path, any method (it
// answers GET, DELETE and the rest itself).
func Routes(bookings *booking.Bookings, log *slog.Logger) []edge.Route {
	return []edge.Route{{Path: Path, Handler: New(bookings, log)}}
}

// NewServer returns the MCP server with the four tools. Its capabilities
// announce tools without list changes and no logging: a client that saw
// either would hold a stream open, which a Lambda cannot serve.
func NewServer(bookings *booking.Bookings, log *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "doorstep", Title: Title, Version: Version}, &mcp.ServerOptions{
		Instructions: Instructions,
		Logger:       log,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: false}},
	})
	t := &tools{bookings: bookings, log: log}
	add(s, t, getBusinessTool, t.getBusiness)
	add(s, t, listArrivalWindowsTool, t.listArrivalWindows)
	add(s, t, requestServiceTool, t.requestService)
	add(s, t, getRequestStatusTool, t.getRequestStatus)
	return s
}

type tools struct {
	bookings *booking.Bookings
	log      *slog.Logger
}

// result is what a tool hands back: the structured value (the JSON API's
// body) and the reminders the assistant needs at that moment.
type result struct {
	value     any
	reminders []string
}

func (t *tools) getBusiness(ctx context.Context, args getBusinessArgs) (result, error) {
	b, err := t.bookings.ResolveBusiness(ctx, args.Business)
	if err != nil {
		return result{}, err
	}
	return result{value: b, reminders: businessReminders(b)}, nil
}

func (t *tools) listArrivalWindows(ctx context.Context, args listArrivalWindowsArgs) (result, error) {
	b, err := t.bookings.ResolveBusiness(ctx, args.Business)
	if err != nil {
		return result{}, err
	}
	q := booking.WindowQuery{Days: booking.DefaultDays}
	if args.From != "" {
		if q.From, err = edge.ParseDate("from", args.From); err != nil {
			return result{}, err
		}
	}
	if args.Days != nil { // 0 is out of bounds, as ?days=0 is: only a missing days is the default
		q.Days = *args.Days
	}
	a, err := t.bookings.ArrivalWindows(ctx, b, q)
	if err != nil {
		return result{}, err
	}
	// The same instants as the JSON API, written in the business's own offset.
	for i, w := range a.Windows {
		a.Windows[i].Start, a.Windows[i].End = w.Start.In(b.Location()), w.End.In(b.Location())
	}
	reminders := []string{"Send one window's start as window_start to request_service, unchanged."}
	if !a.AcceptingRequests {
		reminders = []string{fmt.Sprintf("%s has paused online requests: the person should call %s.", b.Name, b.Phone)}
	}
	return result{value: a, reminders: append(reminders, businessReminders(b)...)}, nil
}

func (t *tools) requestService(ctx context.Context, args requestServiceArgs) (result, error) {
	b, err := t.bookings.ResolveBusiness(ctx, args.Business)
	if err != nil {
		return result{}, err
	}
	in, err := args.input()
	if err != nil {
		return result{}, err
	}
	c, _, err := t.bookings.CreateRequest(ctx, b, in)
	if err != nil {
		return result{}, err
	}
	reminders := []string{"Tell the person this is a request, not a confirmed appointment: " + b.Name + " has not accepted it yet. " +
		"They can follow it at " + c.StatusURL + " (code " + c.Code + ")."}
	if silent := nobodyWillWrite(b, in.Contact, t.bookings.Delivery(), c.StatusURL); silent != "" {
		reminders = append(reminders, silent)
	}
	if c.PaymentURL != nil && b.BookingDeposit != nil {
		reminders = append(reminders, fmt.Sprintf("A deposit is due: the person pays it themselves at %s within %d minutes, or the request expires and the window is released. Never ask for card details.",
			*c.PaymentURL, b.BookingDeposit.PayWithinMinutes))
	}
	if b.Example {
		reminders = append(reminders, exampleReminder(b))
	}
	return result{value: c, reminders: reminders}, nil
}

func (t *tools) getRequestStatus(ctx context.Context, args getRequestStatusArgs) (result, error) {
	st, sr, err := t.bookings.RequestStatusReach(ctx, args.Code)
	if err != nil {
		return result{}, err
	}
	var reminders []string
	moved := st.ArrivalWindow.ChangedByBusiness
	switch st.Status {
	case booking.StatusNew:
		reminders = append(reminders, "Not confirmed yet: the business has not accepted this request.")
		if moved {
			reminders = append(reminders, "The business moved the arrival window before confirming: tell the person the new time.")
		}
	case booking.StatusPendingPayment:
		reminders = append(reminders, "Waiting for the deposit: the person pays at the payment_url they were given; the business sees the request once it is paid.")
	case booking.StatusAccepted:
		if moved {
			reminders = append(reminders, "Confirmed at another arrival window than the one asked for: the business set it (offering another window answers a new request). Tell the person the new time, and that they may cancel if it does not suit them (with a deposit, the rule business_moves_the_window applies).")
		}
	}
	if st.Status.Live() {
		if s := undeliverableText(sr); s != "" {
			reminders = append(reminders, s)
		}
	}
	return result{value: st, reminders: reminders}, nil
}

// undeliverableText is what the assistant is told of a live request whose
// person's e-mail address is recorded undeliverable (booking.PersonReach's
// HeldUndeliverable): that Doorstep's e-mail could not be delivered, and
// whether anything still reaches them; and where they may give another
// address. "" when the address is not held.
func undeliverableText(sr booking.StatusReach) string {
	statusURL := sr.StatusURL
	if sr.Reach.Held != booking.HeldUndeliverable {
		return ""
	}
	s := "Our e-mail to " + sr.MaskedEmail + " could not be delivered: "
	if sr.Reach.None() {
		s += "nobody will write to the person about this request, and the business is told to call them. Tell them, and give them status_url (" + statusURL + ") to keep: the business's answer shows there."
	} else {
		s += "the person is still told by text. Tell them, and give them status_url (" + statusURL + ")."
	}
	if sr.Addable.Email {
		s += " On that page they can give another e-mail address, which replaces the one that failed."
	}
	return s
}

func businessReminders(b *booking.Business) []string {
	var r []string
	if b.Example {
		r = append(r, exampleReminder(b))
	}
	if d := b.BookingDeposit; d != nil {
		r = append(r, fmt.Sprintf("%s takes a booking deposit of %s. Before sending a request, tell the person the amount and its rules (booking_deposit.rules, terms at %s) and ask whether they agree; only then send deposit_accepted: true.",
			b.Name, display.Money(d.AmountCents, d.Currency), d.TermsURL))
	}
	if b.Preview {
		r = append(r, "This site is a preview: requests reach a preview inbox and any deposit is simulated.")
	}
	return r
}

// nobodyWillWrite is what the assistant is told when nobody will write to
// the person of a request just sent with contact c (booking.PersonReach,
// the rule pkg/notify sends by; decisions.md, "How the person hears
// back"): why, to give them statusURL to keep, and which ways they may
// still add on that page. "" when someone writes to them.
func nobodyWillWrite(b *booking.Business, c booking.Contact, d booking.Delivery, statusURL string) string {
	c.Email = strings.TrimSpace(c.Email)
	if phone, ok := booking.NormalizePhone(c.Phone); ok {
		c.Phone = phone
	}
	reach := booking.PersonReach(b, c, d)
	if !reach.None() {
		return ""
	}
	why := "The person gave no e-mail and did not allow texts"
	switch reach.Held {
	case booking.HeldExample:
		why = b.Name + " is an example business, which writes to nobody"
	case booking.HeldPreview:
		why = b.Name + " is a preview: its messages go to a preview inbox, not to the person"
	case booking.HeldTextsOff:
		why = "This service sends no texts, and the person gave no e-mail"
	}
	var add string
	switch ways := booking.AddableWays(b, c, d); {
	case ways.Email && ways.SMS:
		add = " On that page they can still add an e-mail or allow texts."
	case ways.Email:
		add = " On that page they can still add an e-mail."
	case ways.SMS:
		add = " On that page they can still allow texts."
	}
	return why + ": nobody will write to them about this request. " +
		"Give them status_url (" + statusURL + ") to keep: the business's answer shows there, and the business may call them." + add
}

func exampleReminder(b *booking.Business) string {
	return b.Name + " is an example business (example: true), made up to show the product: no request may be sent to it for a real person."
}

// toolResult turns a tool's outcome into an MCP result. A domain error is
// a refusal; an error without a code is logged and refused as SERVER_ERROR,
// its text kept inside.
func (t *tools) toolResult(ctx context.Context, r result, err error) *mcp.CallToolResult {
	if err != nil {
		code := booking.ErrorCode(err)
		if code == booking.ServerError {
			t.log.ErrorContext(ctx, "tool call failed", "error", err.Error())
		}
		return refusal(code, booking.ErrorMessage(err), booking.RetryAfter(err))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(r.value) // domain values always marshal
	data := bytes.TrimSpace(buf.Bytes())
	var content []mcp.Content
	for _, text := range r.reminders {
		content = append(content, &mcp.TextContent{Text: text})
	}
	content = append(content, &mcp.TextContent{Text: string(data)})
	return &mcp.CallToolResult{Content: content, StructuredContent: json.RawMessage(data)}
}

// logCall logs one line per tool call: tool, duration and error code; never
// the arguments, which hold the person's details.
func (t *tools) logCall(ctx context.Context, tool string, start time.Time, err error) {
	attrs := []slog.Attr{
		slog.String("tool", tool),
		slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
	}
	if err != nil {
		attrs = append(attrs, slog.String("error_code", string(booking.ErrorCode(err))))
	}
	t.log.LogAttrs(ctx, slog.LevelInfo, "tool call", attrs...)
}

// toolSpec is a tool's published definition.
type toolSpec struct {
	name, title, description string
	readOnly                 bool
	output                   *jsonschema.Schema
}

// add registers a tool whose arguments decode into In. Arguments that do not
// match the published input schema (a wrong type, a missing required
// argument) are refused as INVALID_REQUEST, as MCP 2025-11-25 counts input
// validation errors as tool execution errors: the model reads the refusal
// and corrects itself. Only an unknown tool stays a JSON-RPC error. handle
// gets the decoded arguments.
func add[In any](s *mcp.Server, t *tools, spec toolSpec, handle func(context.Context, In) (result, error)) {
	// The published schema states the spec's limits for the assistant; the
	// protocol enforces only its shape (types, required arguments), so that a
	// value out of bounds gets the same error code as from the JSON API.
	input := withLimits(argumentsShape[In]())
	resolved, err := argumentsShape[In]().Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", spec.name, err))
	}
	tool := &mcp.Tool{
		Name:         spec.name,
		Title:        spec.title,
		Description:  spec.description,
		InputSchema:  input,
		OutputSchema: spec.output,
		Annotations:  annotations(spec),
	}
	s.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw := req.Params.Arguments
		if len(raw) == 0 || string(raw) == "null" {
			raw = json.RawMessage("{}")
		}
		start := time.Now()
		in, err := decodeArguments[In](resolved, raw)
		if err != nil {
			t.logCall(ctx, spec.name, start, err)
			return t.toolResult(ctx, result{}, err), nil
		}
		r, err := handle(ctx, in)
		t.logCall(ctx, spec.name, start, err)
		return t.toolResult(ctx, r, err), nil
	})
}

// maxArgumentsError bounds, in characters, what a refusal of arguments
// quotes of the schema validator's words, which may quote what was sent.
const maxArgumentsError = 100

// decodeArguments checks raw, a call's arguments, against the tool's input
// shape and decodes them into In; arguments that fail are INVALID_REQUEST,
// with the validator's words on what failed.
func decodeArguments[In any](shape *jsonschema.Resolved, raw json.RawMessage) (In, error) {
	var in In
	var instance any
	if err := json.Unmarshal(raw, &instance); err != nil {
		return in, booking.Errorf(booking.InvalidRequest, "The arguments are not a JSON object.")
	}
	if err := shape.Validate(instance); err != nil {
		why := strings.TrimPrefix(err.Error(), "validating root: ")
		if r := []rune(why); len(r) > maxArgumentsError {
			why = string(r[:maxArgumentsError]) + "..."
		}
		return in, booking.Errorf(booking.InvalidRequest, "The arguments do not match the tool's input schema (%s).", why)
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		// The shape holds, so a value does not fit its Go type: a number
		// too large for an integer.
		return in, booking.Errorf(booking.InvalidRequest, "An argument's value is out of range.")
	}
	return in, nil
}

// annotations are a tool's hints, every one set: a client reads a missing
// hint as its default, and the defaults assume the worst (not read-only,
// destructive, open world). The assistants' connector directories want them
// all: Anthropic's remote MCP server submission guide asks readOnlyHint
// true for a tool that only reads and destructiveHint true for one with
// side effects, sending e-mail or notifications included; OpenAI's app
// submission review asks readOnlyHint, destructiveHint and openWorldHint of
// every tool, destructive for a tool that sends messages that cannot be
// taken back, open world for one that e-mails people or submits a form to
// a third party.
//
//   - The reads (get_business, list_arrival_windows, get_request_status)
//     read Doorstep's own records and change nothing: read-only, not
//     destructive, idempotent, closed world.
//   - request_service sends a request to a real business, which is
//     e-mailed at once (and so is the person, when they gave an e-mail); no
//     tool takes it back: not read-only, destructive, open world. The MCP
//     spec would call a new request additive (destructiveHint false), but
//     the directories ask true for a tool that sends, and true has clients
//     ask the person first, as the rules for agents want. Not idempotent:
//     only a retry with the same idempotency_key creates nothing new.
//
// ReadOnlyHint and IdempotentHint are plain bools that the SDK writes
// false included (unless MCPGODEBUG=hintomitempty=1); TestProtoToolsList
// checks that every hint reaches the client.
func annotations(spec toolSpec) *mcp.ToolAnnotations {
	no, yes := false, true
	if spec.readOnly {
		return &mcp.ToolAnnotations{Title: spec.title, ReadOnlyHint: true, DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}
	}
	return &mcp.ToolAnnotations{Title: spec.title, ReadOnlyHint: false, DestructiveHint: &yes, IdempotentHint: false, OpenWorldHint: &yes}
}
