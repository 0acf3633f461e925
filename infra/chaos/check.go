package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/notify"
)

// The invariants, in the report's order.
const (
	invCrews    = "no window holds more live requests than its crews"
	invCreated  = "every 201's code exists with the body that was sent"
	invReplay   = "every replay returns the first code"
	invState    = "no request is in two states; its history matches its state"
	invMessages = "every message sent exactly once per change and channel"
	invErrors   = "every error answer is the JSON error with its code; busy is 503 SERVER_BUSY with Retry-After"
	invRefusal  = "nothing is stored on a refusal"
)

var invariants = []string{invCrews, invCreated, invReplay, invState, invMessages, invErrors, invRefusal}

// report is what the checks found.
type report struct {
	h          *harness
	violations map[string][]string
	// unknown counts the creates without a key whose only answers were
	// SERVER_BUSY and whose request was stored: the answer said "retry",
	// and the outcome was not known to the caller (see docs/reliability.md).
	unknown, unknownStored int
	requests, messages     int
	byStatus               map[string]int // "201", "409 WINDOW_TAKEN", ...
	elapsed                time.Duration
}

func (r *report) fail(inv, format string, args ...any) {
	r.violations[inv] = append(r.violations[inv], fmt.Sprintf(format, args...))
}

func (r *report) total() int {
	n := 0
	for _, v := range r.violations {
		n += len(v)
	}
	return n
}

// tableState is what the table holds at the end, read without faults.
type tableState struct {
	requests map[string]*booking.Request // by code
	byTag    map[string][]string         // description: codes
	holds    []hold
	phones   map[string]int // "<slug> <phone>": open_count
}

type hold struct {
	slug, code string
	start      string // the window's start as the key has it
	expires    int64
}

func (h *harness) readTable(ctx context.Context) (*tableState, error) {
	st := &tableState{requests: map[string]*booking.Request{}, byTag: map[string][]string{}, phones: map[string]int{}}
	reader := dynamo.New(h.direct, h.table)
	var codes []string
	p := dynamodb.NewScanPaginator(h.direct, &dynamodb.ScanInput{TableName: aws.String(h.table), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, item := range page.Items {
			pk, sk := str(item["pk"]), str(item["sk"])
			switch {
			case strings.HasPrefix(pk, "REQUEST#") && sk == "REQUEST":
				codes = append(codes, strings.TrimPrefix(pk, "REQUEST#"))
			case strings.HasPrefix(pk, "BUSINESS#") && strings.HasPrefix(sk, "HOLD#"):
				start, _, _ := strings.Cut(strings.TrimPrefix(sk, "HOLD#"), "#")
				exp, _ := strconv.ParseInt(num(item["expires_at"]), 10, 64)
				st.holds = append(st.holds, hold{slug: strings.TrimPrefix(pk, "BUSINESS#"), code: str(item["request_code"]), start: start, expires: exp})
			case strings.HasPrefix(pk, "BUSINESS#") && strings.HasPrefix(sk, "PHONE#"):
				n, _ := strconv.Atoi(num(item["open_count"]))
				st.phones[strings.TrimPrefix(pk, "BUSINESS#")+" "+strings.TrimPrefix(sk, "PHONE#")] = n
			}
		}
	}
	for _, code := range codes {
		req, err := reader.Request(ctx, code)
		if err != nil {
			return nil, err
		}
		st.requests[code] = req
		st.byTag[req.Description] = append(st.byTag[req.Description], code)
	}
	return st, nil
}

func str(v types.AttributeValue) string {
	if s, ok := v.(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

func num(v types.AttributeValue) string {
	if n, ok := v.(*types.AttributeValueMemberN); ok {
		return n.Value
	}
	return ""
}

// live reports whether r holds its window at now: a hold lasts to its
// window's end at the latest, and a visit's window that has ended holds
// nothing, whatever its state says (an accepted job nobody marked done).
func live(r *booking.Request, now time.Time) bool {
	if !r.Window.End.After(now) {
		return false
	}
	switch r.Status {
	case booking.StatusNew, booking.StatusAccepted:
		return true
	case booking.StatusPendingPayment:
		return r.HoldExpires.After(now)
	}
	return false
}

// check runs every invariant's check.
func (h *harness) check(ctx context.Context) (*report, error) {
	r := &report{h: h, violations: map[string][]string{}}
	st, err := h.readTable(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the table: %w", err)
	}
	r.requests = len(st.requests)
	now := h.clock.now()
	h.checkCrews(r, st, now)
	h.checkCreates(r, st)
	h.checkStates(r, st, now)
	if err := h.checkMessages(ctx, r); err != nil {
		return nil, err
	}
	h.checkAnswers(r)
	return r, nil
}

func (h *harness) checkCrews(r *report, st *tableState, now time.Time) {
	count := map[string]int{}
	for _, req := range st.requests {
		if live(req, now) {
			count[req.BusinessSlug+" "+req.Window.Start.UTC().Format(time.RFC3339)]++
		}
	}
	for w, n := range count {
		slug, _, _ := strings.Cut(w, " ")
		if crews := max(1, h.biz[slug].CrewsPerWindow); n > crews {
			r.fail(invCrews, "%s holds %d live requests, for %d crews", w, n, crews)
		}
	}
}

func (h *harness) checkCreates(r *report, st *tableState) {
	for _, c := range h.creates {
		first := ""
		stored := st.byTag[c.tag]
		if len(stored) > 1 {
			r.fail(invState, "create %d made %d requests: %v", c.n, len(stored), stored)
		}
		refused, busyOnly := false, true
		for i, a := range c.answers {
			switch {
			case a.status == http.StatusCreated:
				busyOnly = false
				var got struct{ Code string }
				_ = json.Unmarshal(a.body, &got)
				if first == "" {
					first = got.Code
					h.checkCreated(r, st, c, got.Code)
				} else if got.Code != first {
					r.fail(invReplay, "create %d (key %s): answer %d gave %s, the first %s", c.n, c.key, i+1, got.Code, first)
				}
			case a.status == http.StatusServiceUnavailable && errorCode(a.body) == booking.ServerBusy:
			default:
				busyOnly = false
				if first != "" {
					r.fail(invReplay, "create %d (key %s): answer %d was %d %s after the 201 %s", c.n, c.key, i+1, a.status, errorCode(a.body), first)
				}
				refused = true
			}
		}
		switch {
		case first == "" && refused && len(stored) > 0:
			r.fail(invRefusal, "create %d (key %q) was refused (%d %s) yet stored as %v", c.n, c.key, c.answers[len(c.answers)-1].status,
				errorCode(c.answers[len(c.answers)-1].body), stored)
		case busyOnly && len(c.answers) > 0:
			r.unknown++
			if len(stored) > 0 {
				r.unknownStored++
			}
		}
	}
}

// checkCreated checks that the request a 201 named holds what was sent.
func (h *harness) checkCreated(r *report, st *tableState, c *create, code string) {
	req := st.requests[code]
	if req == nil {
		r.fail(invCreated, "create %d: 201 with %s, which is not in the table", c.n, code)
		return
	}
	var created booking.Window
	if len(req.History) > 0 {
		created = req.History[0].Window
	}
	if req.BusinessSlug != c.slug || req.Description != c.tag || req.Contact.Phone != c.phone || req.Address.ZIP != c.zip || !created.Start.Equal(c.window) {
		r.fail(invCreated, "create %d: %s holds %s %q %s %s %s, sent %s %q %s %s %s", c.n, code,
			req.BusinessSlug, req.Description, req.Contact.Phone, req.Address.ZIP, created.Start.Format(time.RFC3339),
			c.slug, c.tag, c.phone, c.zip, c.window.Format(time.RFC3339))
	}
}

func (h *harness) checkStates(r *report, st *tableState, now time.Time) {
	nowUnix := now.Unix()
	liveHolds := map[string][]hold{}
	for _, hd := range st.holds {
		if hd.expires > nowUnix {
			liveHolds[hd.code] = append(liveHolds[hd.code], hd)
		}
	}
	open := map[string]int{}
	for code, req := range st.requests {
		if len(req.History) == 0 || req.History[0].Action != booking.ActionCreate {
			r.fail(invState, "%s: its history does not start with its create", code)
			continue
		}
		for i := 1; i < len(req.History); i++ {
			if e := req.History[i]; e.From != req.History[i-1].To {
				r.fail(invState, "%s: event %d (%s) from %s follows one to %s", code, i, e.Action, e.From, req.History[i-1].To)
			}
		}
		if last := req.History[len(req.History)-1]; last.To != req.Status {
			r.fail(invState, "%s: stored %s, its history ends in %s", code, req.Status, last.To)
		}
		if req.Status == booking.StatusNew || req.Status == booking.StatusPendingPayment {
			open[req.BusinessSlug+" "+req.Contact.Phone]++
		}
		holds := liveHolds[code]
		start := req.Window.Start.UTC().Format(time.RFC3339)
		at := 0
		for _, hd := range holds {
			if hd.start == start {
				at++
			}
		}
		switch {
		case live(req, now) && at != 1:
			r.fail(invState, "%s: %s in %s with %d live holds there", code, req.Status, start, at)
		case req.Status == booking.StatusPendingPayment && !live(req, now):
			// Lapsed, not yet swept: its hold lapsed with it.
		case at > 0 && (req.Status == booking.StatusDeclined || req.Status == booking.StatusCancelled || req.Status == booking.StatusExpired):
			// booking.Effects.ReleaseHold: these open the window again; a
			// completed or no-show visit keeps it to its end.
			r.fail(invState, "%s: %s, yet %d live holds keep its window %s", code, req.Status, at, start)
		}
	}
	for k, n := range st.phones {
		if open[k] != n {
			r.fail(invState, "phone count %s is %d, with %d requests new or pending payment", k, n, open[k])
		}
	}
	for k, n := range open {
		if _, ok := st.phones[k]; !ok {
			r.fail(invState, "phone count %s is missing, with %d requests new or pending payment", k, n)
		}
	}
}

// checkMessages sends every change the stream carried, once, through a
// notifier whose ledger claims everything: the messages it would send are
// the ones that must have gone out, each once.
func (h *harness) checkMessages(ctx context.Context, r *report) error {
	want := &outbox{sent: map[string]int{}}
	n := &notify.Notifier{
		Composer:   notify.Composer{SiteURL: siteURL, PreviewInbox: "preview-inbox@doorstep.localhost"},
		Businesses: dynamo.New(h.direct, h.table), Email: want, SMS: want,
		Ledger: &memLedger{}, Log: slog.New(slog.DiscardHandler), Now: h.clock.now,
	}
	for _, rec := range h.stream.all {
		w, ok, err := dynamo.DecodeRequestWrite(rec)
		if err != nil {
			return err
		}
		if ok {
			if err := n.Notify(ctx, w.Before, w.After); err != nil {
				return fmt.Errorf("messages of %s: %w", w.Code, err)
			}
		}
		if slug, hour, ok, _ := dynamo.DecodeLimitHit(rec); ok {
			if err := n.LimitReached(ctx, slug, hour); err != nil {
				return err
			}
		}
	}
	r.messages = len(want.sent)
	for id := range want.sent {
		if got := h.box.sent[id]; got != 1 {
			r.fail(invMessages, "%s sent %d times", id, got)
		}
	}
	for id, got := range h.box.sent {
		if want.sent[id] == 0 {
			r.fail(invMessages, "%s sent %d times, for no change", id, got)
		}
	}
	return nil
}

// memLedger claims every message: the notifier that computes the messages
// due.
type memLedger struct{}

func (*memLedger) Claim(_ context.Context, _ string, now time.Time) (notify.Claim, error) {
	return notify.Claim{State: notify.Claimed, Token: "t", Until: now.Add(notify.ClaimLease)}, nil
}
func (*memLedger) MarkSent(context.Context, string, string, time.Time) error { return nil }
func (*memLedger) Release(context.Context, string, string) error             { return nil }
func (*memLedger) OptedOut(context.Context, string) (bool, error)            { return false, nil }
func (*memLedger) RecordOptOut(context.Context, string, time.Time) error     { return nil }

func errorCode(body []byte) booking.Code {
	var e edge.ErrorBody
	_ = json.Unmarshal(body, &e)
	return e.Error.Code
}

// checkAnswers checks every error answer of the JSON API and the pages.
func (h *harness) checkAnswers(r *report) {
	all := slices.Clone(h.answers)
	for _, c := range h.creates {
		all = append(all, c.answers...)
	}
	r.byStatus = map[string]int{}
	for _, a := range all {
		k := a.op + " " + strconv.Itoa(a.status)
		if code := errorCode(a.body); code != "" {
			k += " " + string(code)
		}
		r.byStatus[k]++
		if a.status < 400 {
			continue
		}
		if a.op == "pay" { // an HTML page: its status and Retry-After
			switch {
			case a.status == http.StatusInternalServerError:
				r.fail(invErrors, "pay: 500")
			case a.status == http.StatusServiceUnavailable && a.header.Get("Retry-After") == "":
				r.fail(invErrors, "pay: 503 without Retry-After")
			}
			continue
		}
		var e edge.ErrorBody
		err := json.Unmarshal(a.body, &e)
		switch {
		case err != nil || e.Error.Code == "" || e.Error.Message == "" || !strings.HasPrefix(a.header.Get("Content-Type"), "application/json"):
			r.fail(invErrors, "%s: %d is not the JSON error: %.80q", a.op, a.status, a.body)
		case a.status == http.StatusInternalServerError || e.Error.Code == booking.ServerError:
			r.fail(invErrors, "%s: %d %s (a bare server error)", a.op, a.status, e.Error.Code)
		case edge.Status(e.Error.Code) != a.status:
			r.fail(invErrors, "%s: %d with %s, whose status is %d", a.op, a.status, e.Error.Code, edge.Status(e.Error.Code))
		case e.Error.Code == booking.ServerBusy && a.header.Get("Retry-After") == "":
			r.fail(invErrors, "%s: SERVER_BUSY without Retry-After", a.op)
		}
	}
}

// localOnly says which findings only DynamoDB Local would show: those a
// lost answer of a TransactWriteItems leads to when the engine does not
// honour ClientRequestToken, as DynamoDB does.
func (r *report) print(out io.Writer) {
	h := r.h
	fmt.Fprintf(out, "\nDynamoDB Local honours ClientRequestToken: %s.", yesNo(h.tokenHonoured))
	if h.tokenHonoured {
		fmt.Fprintf(out, " A TransactWriteItems whose answer was lost is retried by the SDK with the same token and not applied again, as on DynamoDB: no finding below is DynamoDB Local's only.")
	} else {
		fmt.Fprintf(out, " A TransactWriteItems whose answer was lost is applied again when the SDK retries it, which DynamoDB never does: a create or move so retried meets its own writes (its idempotency record, its hold, its request). Doorstep answers those as DynamoDB would (docs/reliability.md); findings under \"lost answers\" of TransactWriteItems are DynamoDB Local's only.")
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "Answers lost after the write, by operation:")
	ops := make([]string, 0, len(h.proxy.lost))
	for op := range h.proxy.lost {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	for _, op := range ops {
		fmt.Fprintf(out, " %s %d;", op, h.proxy.lost[op])
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "Answers by status:")
	for _, k := range r.statusKeys() {
		fmt.Fprintf(out, " %s %d;", k, r.byStatus[k])
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "Creates answered only SERVER_BUSY, without a key: %d (%d of them stored: the answer said retry, the outcome unknown to the caller)\n", r.unknown, r.unknownStored)
	fmt.Fprintf(out, "Stream: %d batches delivered, %d of them twice, %d with failed records (redelivered); sweeps %d, failed %d\n",
		h.streamRuns, h.streamTwice, h.streamFailed, h.sweeps, h.sweepFailed)
	fmt.Fprintf(out, "Requests in the table: %d; messages due: %d; elapsed %s; the service's errors: %s\n\n", r.requests, r.messages, r.elapsed.Round(time.Second), h.logPath)

	fmt.Fprintf(out, "Operations run: %d\n", h.o.ops)
	names := make([]string, 0, len(h.ops))
	for op := range h.ops {
		names = append(names, op)
	}
	sort.Strings(names)
	for _, op := range names {
		fmt.Fprintf(out, "  %-28s %7d  (%s each on average)\n", op, h.ops[op], (h.took[op] / time.Duration(h.ops[op])).Round(time.Millisecond))
	}
	calls := h.proxy.calls.Load()
	faults := calls - h.proxy.counts[faultNone].Load()
	fmt.Fprintf(out, "DynamoDB calls: %d; faults injected: %d (%.1f%%)\n", calls, faults, 100*float64(faults)/float64(max(calls, 1)))
	for f := faultThrottling; f < faultKinds; f++ {
		fmt.Fprintf(out, "  %-52s %7d\n", faultNames[f], h.proxy.counts[f].Load())
	}
	fmt.Fprintln(out, "Violations by invariant:")
	for _, inv := range invariants {
		fmt.Fprintf(out, "  %-95s %5d\n", inv, len(r.violations[inv]))
		for i, v := range r.violations[inv] {
			if i == 5 {
				fmt.Fprintf(out, "      ... and %d more\n", len(r.violations[inv])-5)
				break
			}
			fmt.Fprintf(out, "      %s\n", v)
		}
	}
	fmt.Fprintf(out, "%d violations\n", r.total())
}

func (r *report) statusKeys() []string {
	keys := make([]string, 0, len(r.byStatus))
	for k := range r.byStatus {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
