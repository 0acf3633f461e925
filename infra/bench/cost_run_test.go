package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/sweep"
)

// costRun runs TestCostRun; go run ./infra/bench sets it.
var costRun = flag.Bool("cost.run", false, "run TestCostRun: one standard journey on DynamoDB Local, its units by step")

// capacityMeter is a DynamoDB client's middleware, for the bench only,
// that asks every call for its consumed capacity (ReturnConsumedCapacity
// TOTAL: production code never sets it) and adds what DynamoDB answers to
// the step under way.
type capacityMeter struct {
	mu    sync.Mutex
	step  *costStep
	reads map[string]bool // operations whose units are reads
	// base reads items' sizes before and after a write, uncounted.
	base  *dynamodb.Client
	table string
}

func (m *capacityMeter) client(base *dynamodb.Client) *dynamodb.Client {
	ask := middleware.InitializeMiddlewareFunc("DoorstepBenchConsumedCapacity",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			op := awsmiddleware.GetOperationName(ctx)
			label, consistent := op, true
			switch p := in.Parameters.(type) {
			case *dynamodb.GetItemInput:
				p.ReturnConsumedCapacity, consistent = types.ReturnConsumedCapacityTotal, aws.ToBool(p.ConsistentRead)
			case *dynamodb.QueryInput:
				p.ReturnConsumedCapacity, consistent = types.ReturnConsumedCapacityTotal, aws.ToBool(p.ConsistentRead)
				if p.IndexName != nil {
					label += " " + *p.IndexName
				}
			case *dynamodb.ScanInput:
				p.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
			case *dynamodb.PutItemInput:
				p.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
			case *dynamodb.UpdateItemInput:
				p.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
			case *dynamodb.DeleteItemInput:
				p.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
			case *dynamodb.TransactWriteItemsInput:
				p.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
				label = fmt.Sprintf("%s (%d items)", op, len(p.TransactItems))
			case *dynamodb.BatchWriteItemInput:
				p.ReturnConsumedCapacity = types.ReturnConsumedCapacityTotal
			}
			if (op == "GetItem" || op == "Query") && !consistent {
				label += " (eventual)"
			}
			before := m.sizesBefore(ctx, in.Parameters)
			out, md, err := next.HandleInitialize(ctx, in)
			var ruleR, ruleW float64
			if err == nil {
				ruleR, ruleW = m.ruleUnits(ctx, in.Parameters, out.Result, before, consistent)
			}
			var used []types.ConsumedCapacity
			switch o := out.Result.(type) {
			case *dynamodb.GetItemOutput:
				used = oneCapacity(o.ConsumedCapacity)
			case *dynamodb.QueryOutput:
				used = oneCapacity(o.ConsumedCapacity)
			case *dynamodb.ScanOutput:
				used = oneCapacity(o.ConsumedCapacity)
			case *dynamodb.PutItemOutput:
				used = oneCapacity(o.ConsumedCapacity)
			case *dynamodb.UpdateItemOutput:
				used = oneCapacity(o.ConsumedCapacity)
			case *dynamodb.DeleteItemOutput:
				used = oneCapacity(o.ConsumedCapacity)
			case *dynamodb.TransactWriteItemsOutput:
				used = o.ConsumedCapacity
			case *dynamodb.BatchWriteItemOutput:
				used = o.ConsumedCapacity
			}
			m.mu.Lock()
			defer m.mu.Unlock()
			if s := m.step; s != nil {
				if err != nil {
					label += " (refused)"
				}
				s.Calls[label]++
				s.RuleRRU += ruleR
				s.RuleWRU += ruleW
				if debugUnits {
					for _, c := range used {
						fmt.Printf("UNITS %s %s: %v\n", s.Name, label, aws.ToFloat64(c.CapacityUnits))
					}
				}
				for _, c := range used {
					if m.reads[op] {
						s.RRU += aws.ToFloat64(c.CapacityUnits)
					} else {
						s.WRU += aws.ToFloat64(c.CapacityUnits)
					}
				}
			}
			return out, md, err
		})
	return dynamodb.New(base.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error { return s.Initialize.Add(ask, middleware.After) })
	})
}

const debugUnits = false

// keyOf is the table key of an item.
func keyOf(item map[string]types.AttributeValue) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": item["pk"], "sk": item["sk"]}
}

// writeKeys are the keys a write names, in its order.
func writeKeys(params any) []map[string]types.AttributeValue {
	switch p := params.(type) {
	case *dynamodb.PutItemInput:
		return []map[string]types.AttributeValue{keyOf(p.Item)}
	case *dynamodb.UpdateItemInput:
		return []map[string]types.AttributeValue{p.Key}
	case *dynamodb.DeleteItemInput:
		return []map[string]types.AttributeValue{p.Key}
	case *dynamodb.TransactWriteItemsInput:
		var keys []map[string]types.AttributeValue
		for _, it := range p.TransactItems {
			switch {
			case it.Put != nil:
				keys = append(keys, keyOf(it.Put.Item))
			case it.Update != nil:
				keys = append(keys, it.Update.Key)
			case it.Delete != nil:
				keys = append(keys, it.Delete.Key)
			case it.ConditionCheck != nil:
				keys = append(keys, it.ConditionCheck.Key)
			}
		}
		return keys
	}
	return nil
}

// size reads the stored item's size, uncounted; 0 when there is none.
func (m *capacityMeter) size(ctx context.Context, key map[string]types.AttributeValue) int {
	out, err := m.base.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(m.table), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil || out.Item == nil {
		return 0
	}
	return itemSize(out.Item)
}

func (m *capacityMeter) sizesBefore(ctx context.Context, params any) []int {
	keys := writeKeys(params)
	sizes := make([]int, len(keys))
	for i, k := range keys {
		sizes[i] = m.size(ctx, k)
	}
	return sizes
}

// ruleUnits are a call's units by DynamoDB's documented rules
// (read-write-operations in the Developer Guide): a read, 1 unit (strongly
// consistent) or 0.5 (eventually) per 4 KB of the items read, rounded up,
// at least one 4 KB; a write, 1 unit per 1 KB of the larger of the item
// before and after, rounded up, at least 1; in a transaction, twice that
// for each item, a ConditionCheck counted as a write of its item. A Query
// with a projection is counted on the sizes it returned, which is below
// DynamoDB's (the whole items) for the hold and slot queries; those items
// are under 200 bytes, so each such Query's pages stay one 4 KB unit.
func (m *capacityMeter) ruleUnits(ctx context.Context, params, result any, before []int, consistent bool) (reads, writes float64) {
	perRead := 1.0
	if !consistent {
		perRead = 0.5
	}
	readUnits := func(bytes int) float64 { return perRead * math.Ceil(float64(max(bytes, 1))/4096) }
	writeUnits := func(bytes int) float64 { return math.Ceil(float64(max(bytes, 1)) / 1024) }
	switch o := result.(type) {
	case *dynamodb.GetItemOutput:
		return readUnits(itemSize(o.Item)), 0
	case *dynamodb.QueryOutput:
		total := 0
		for _, it := range o.Items {
			total += itemSize(it)
		}
		return readUnits(total), 0
	case *dynamodb.TransactWriteItemsOutput:
		keys := writeKeys(params)
		in := params.(*dynamodb.TransactWriteItemsInput)
		for i, k := range keys {
			after := 0
			switch it := in.TransactItems[i]; {
			case it.Put != nil:
				after = itemSize(it.Put.Item)
			case it.Update != nil:
				after = m.size(ctx, k)
			}
			writes += 2 * writeUnits(max(before[i], after))
		}
		return 0, writes
	case *dynamodb.PutItemOutput, *dynamodb.UpdateItemOutput, *dynamodb.DeleteItemOutput:
		keys := writeKeys(params)
		if len(keys) == 1 {
			return 0, writeUnits(max(before[0], m.size(ctx, keys[0])))
		}
	}
	return 0, 0
}

// itemSize is an item's size as DynamoDB counts it: each attribute's name
// and value (a string's or binary's bytes, a number's about one byte per
// two digits plus one, 1 for a boolean or null, a list's or map's 3 plus
// its elements, each with 1 more).
func itemSize(item map[string]types.AttributeValue) int {
	n := 0
	for k, v := range item {
		n += len(k) + valueSize(v)
	}
	return n
}

func valueSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return (len(strings.TrimLeft(v.Value, "-0"))+1)/2 + 1
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range v.Value {
			n += 1 + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range v.Value {
			n += 1 + len(k) + valueSize(e)
		}
		return n
	case *types.AttributeValueMemberSS:
		n := 0
		for _, e := range v.Value {
			n += len(e)
		}
		return n
	}
	return 1
}

func oneCapacity(c *types.ConsumedCapacity) []types.ConsumedCapacity {
	if c == nil {
		return nil
	}
	return []types.ConsumedCapacity{*c}
}

// messageCounter stands in for SES and SMS: it counts e-mails, texts and
// their segments into the step under way, and keeps the last sign-in link.
type messageCounter struct {
	meter *capacityMeter
	mu    sync.Mutex
	last  string
}

func (c *messageCounter) SendEmail(_ context.Context, m notify.Message) error {
	c.meter.mu.Lock()
	defer c.meter.mu.Unlock()
	if s := c.meter.step; s != nil {
		s.Emails++
	}
	c.mu.Lock()
	c.last = m.Body
	c.mu.Unlock()
	return nil
}

func (c *messageCounter) SendText(_ context.Context, m notify.Message) error {
	c.meter.mu.Lock()
	defer c.meter.mu.Unlock()
	if s := c.meter.step; s != nil {
		s.Texts++
		s.Segments += smsSegments(m.Body)
	}
	return nil
}

// deferredNotes is the store as the stream sees it: each committed write
// of a request is kept, for the notify step to hand to the notifier as the
// notify function gets it from the table's stream (one record each).
type deferredNotes struct {
	booking.Store
	mu      sync.Mutex
	pending [][2]*booking.Request // before (nil on a create), after
}

func (s *deferredNotes) keep(before *booking.Request, after booking.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = append(s.pending, [2]*booking.Request{before, &after})
}

func (s *deferredNotes) take() [][2]*booking.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pending
	s.pending = nil
	return p
}

func (s *deferredNotes) CreateRequest(ctx context.Context, r booking.Request, key *booking.IdempotencyRecord, limits booking.Limits, now time.Time) error {
	if err := s.Store.CreateRequest(ctx, r, key, limits, now); err != nil {
		return err
	}
	s.keep(nil, r)
	return nil
}

func (s *deferredNotes) MoveRequest(ctx context.Context, before, after booking.Request, t booking.Transition, crews booking.Crews, now time.Time) error {
	if err := s.Store.MoveRequest(ctx, before, after, t, crews, now); err != nil {
		return err
	}
	s.keep(&before, after)
	return nil
}

func (s *deferredNotes) RecordReminder(ctx context.Context, before, after booking.Request) error {
	if err := s.Store.RecordReminder(ctx, before, after); err != nil {
		return err
	}
	s.keep(&before, after)
	return nil
}

// costSlug is the journey's business: no deposit, open every hour, in
// English and Spanish.
const costSlug = "desert-cool-hvac"

// TestCostRun follows one standard journey on DynamoDB Local, step by
// step, through the handlers the functions run (in process): getBusiness,
// availability twice, a create, three status reads, an accept in the web
// inbox, the messages the stream's records send, and the sweep's share
// (the run that sends the day-before reminder; one run of the sweep with
// nothing due, which every minute costs whatever the traffic, is reported
// apart). It prints one DOORSTEP_COST line per step. The store keeps no
// business cache: every call reads the business, as a function whose
// cache has lapsed does (the bound, at low traffic the usual case).
func TestCostRun(t *testing.T) {
	if !*costRun {
		t.Skip("run by go run ./infra/bench, or with -args -cost.run")
	}
	ctx := t.Context()
	base, table := dynamotest.Local(t)
	fixture, err := writeFixture(filepath.Join("..", ".."), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dynamotest.PutBusinesses(t, dynamo.New(base, table), fixture, nil)

	meter := &capacityMeter{base: base, table: table, reads: map[string]bool{"GetItem": true, "Query": true, "Scan": true, "BatchGetItem": true, "TransactGetItems": true}}
	client := meter.client(base)
	var clockMu sync.Mutex
	clock := time.Now()
	now := func() time.Time { clockMu.Lock(); defer clockMu.Unlock(); return clock }
	setClock := func(t time.Time) { clockMu.Lock(); clock = t; clockMu.Unlock() }

	store := dynamo.New(client, table)
	notes := &deferredNotes{Store: store}
	box := &messageCounter{meter: meter}
	log := slog.New(slog.DiscardHandler)
	notifier := &notify.Notifier{
		Composer:   notify.Composer{SiteURL: floorSiteURL},
		Businesses: store, Links: store, Email: box, SMS: box,
		Ledger: dynamo.NewLedger(client, table), Log: log, Now: now,
	}
	bookings := bookingtest.New(t, booking.Config{Store: notes, SiteURL: floorSiteURL, Now: now})
	api := httpapi.New(bookings, log)
	ledger := dynamo.NewLedger(client, table)
	web := inboxweb.New(inboxweb.Config{Bookings: bookings, Mailer: inboxweb.EmailMailer{Sender: box, Now: now}, SiteURL: floorSiteURL,
		Log: log, Now: now, OptOuts: ledger.ForPages(), SignInDelay: time.Millisecond})

	var steps []*costStep
	begin := func(name string) *costStep {
		s := &costStep{Step: len(steps) + 1, Name: name, Calls: map[string]int{}}
		steps = append(steps, s)
		meter.mu.Lock()
		meter.step = s
		meter.mu.Unlock()
		return s
	}
	pause := func() {
		meter.mu.Lock()
		meter.step = nil
		meter.mu.Unlock()
	}
	var cookies []*http.Cookie
	// serve sends one request to h as API Gateway hands it to a function,
	// counts it as one API request and one invocation of the step, and
	// times the handler.
	serve := func(s *costStep, h http.Handler, method, target, contentType, body string, want int) *httptest.ResponseRecorder {
		t.Helper()
		req := httptest.NewRequestWithContext(ctx, method, floorSiteURL+target, strings.NewReader(body))
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if method == http.MethodPost {
			req.Header.Set("Origin", floorSiteURL)
		}
		for _, c := range cookies {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, req)
		took := time.Since(start)
		if s != nil {
			s.API++
			s.Invocations++
			s.HandlerMS = append(s.HandlerMS, float64(took.Microseconds())/1000)
		}
		if rec.Code != want {
			t.Fatalf("%s %s: got %d, want %d: %s", method, target, rec.Code, want, rec.Body)
		}
		for _, c := range rec.Result().Cookies() {
			cookies = append(slices.DeleteFunc(cookies, func(o *http.Cookie) bool { return o.Name == c.Name }), c)
		}
		return rec
	}

	// Before the journey, not counted: the business is signed in to its web
	// inbox (a session lasts booking.SessionTTL; signing in is not part of
	// every booking).
	serve(nil, web, http.MethodPost, "/inbox/sign-in", "application/x-www-form-urlencoded",
		url.Values{"email": {"inbox@" + costSlug + ".example.com"}}.Encode(), http.StatusOK)
	box.mu.Lock()
	link := regexp.MustCompile(`/inbox/sign-in/[A-Za-z0-9_-]+`).FindString(box.last)
	box.mu.Unlock()
	if link == "" {
		t.Fatal("no sign-in link in the sign-in e-mail")
	}
	serve(nil, web, http.MethodPost, link, "application/x-www-form-urlencoded", "", http.StatusSeeOther)
	settings := serve(nil, web, http.MethodGet, "/inbox/settings", "", "", http.StatusOK)
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(settings.Body.String())
	if csrf == nil {
		t.Fatal("no csrf field on the settings page")
	}
	// Its sign-in's own request writes are none, but drop any note.
	notes.take()

	// 1. getBusiness.
	s := begin("getBusiness")
	serve(s, api, http.MethodGet, "/api/v1/businesses/"+costSlug, "", "", http.StatusOK)

	// 2. Availability, twice: a week, then two.
	s = begin("availability, twice")
	rec := serve(s, api, http.MethodGet, "/api/v1/businesses/"+costSlug+"/availability?days=7", "", "", http.StatusOK)
	var av struct{ Windows []struct{ Start string } }
	if err := json.Unmarshal(rec.Body.Bytes(), &av); err != nil || len(av.Windows) < 3 {
		t.Fatalf("availability: %v, %s", err, rec.Body)
	}
	rec = serve(s, api, http.MethodGet, "/api/v1/businesses/"+costSlug+"/availability?days=14", "", "", http.StatusOK)
	// The person picks the last window of two weeks: far enough for the
	// day-before reminder.
	if err := json.Unmarshal(rec.Body.Bytes(), &av); err != nil || len(av.Windows) < 3 {
		t.Fatalf("availability: %v, %s", err, rec.Body)
	}

	// 3. A create, with a phone (texts agreed to) and an e-mail, under an
	// idempotency key.
	s = begin("create")
	body := `{"window_start":"` + av.Windows[len(av.Windows)-1].Start + `","address":{"street":"1820 N 7th St","zip":"85006"},` +
		`"contact":{"name":"Jordan Lee","phone":"602-555-0147","email":"jordan@example.com","sms_consent":true},` +
		`"service_id":"ac-not-cooling","description":"The AC blows warm air."}`
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, floorSiteURL+"/api/v1/businesses/"+costSlug+"/requests", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", "cost-journey-1")
	created := httptest.NewRecorder()
	start := time.Now()
	api.ServeHTTP(created, req)
	s.API, s.Invocations, s.HandlerMS = 1, 1, []float64{float64(time.Since(start).Microseconds()) / 1000}
	var answer struct{ Code string }
	if err := json.Unmarshal(created.Body.Bytes(), &answer); created.Code != http.StatusCreated || err != nil {
		t.Fatalf("create: got %d %s", created.Code, created.Body)
	}

	// 4. Three status reads.
	s = begin("status, three reads")
	for range 3 {
		serve(s, api, http.MethodGet, "/api/v1/requests/"+answer.Code, "", "", http.StatusOK)
	}

	// 5. The business accepts in its web inbox: the button's POST, and the
	// page it is sent to.
	s = begin("accept in the web inbox")
	accepted := serve(s, web, http.MethodPost, "/inbox/requests/"+answer.Code+"/accept", "application/x-www-form-urlencoded",
		url.Values{"csrf": {csrf[1]}}.Encode(), http.StatusSeeOther)
	if where := accepted.Header().Get("Location"); where != "" {
		serve(s, web, http.MethodGet, where, "", "", http.StatusOK)
	}
	pause()

	// 6. The stream's records of steps 3 and 5, each to the notifier as the
	// notify function gets it (a batch of one at this traffic).
	s = begin("messages (the stream's records)")
	notifyAll := func(s *costStep) {
		for _, p := range notes.take() {
			start := time.Now()
			if err := notifier.Notify(ctx, p[0], *p[1]); err != nil {
				t.Fatalf("notify %s: %v", p[1].Code, err)
			}
			s.Invocations++
			s.HandlerMS = append(s.HandlerMS, float64(time.Since(start).Microseconds())/1000)
		}
	}
	notifyAll(s)
	s.Note = "one notify invocation per stream record (batches of one)"

	// 7. The sweep's share: the run at the reminder's time, which reminds
	// this request, and its record's messages.
	pause() // the bench's own read, uncounted
	got, err := store.Request(ctx, answer.Code)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != booking.StatusAccepted || got.ReminderDue.IsZero() {
		t.Fatalf("after the accept: %s, reminder due %v", got.Status, got.ReminderDue)
	}
	pause()
	// An empty run first, at the reminder's time less a minute: what every
	// minute's run costs whatever the traffic.
	setClock(got.ReminderDue.Add(-time.Minute))
	idle := begin("the sweep, one run with nothing due (every minute)")
	startIdle := time.Now()
	if _, err := sweep.Sweep(ctx, bookings, now(), log); err != nil {
		t.Fatal(err)
	}
	idle.Invocations, idle.HandlerMS = 1, []float64{float64(time.Since(startIdle).Microseconds()) / 1000}
	idle.Note = "fixed: 43,200 runs a month"
	steps = steps[:len(steps)-1]

	setClock(got.ReminderDue.Add(time.Second))
	s = begin("the sweep's share: the run that reminds, less an idle run, and its record's messages")
	startSweep := time.Now()
	report, err := sweep.Sweep(ctx, bookings, now(), log)
	if err != nil {
		t.Fatal(err)
	}
	if report.Reminded != 1 {
		t.Fatalf("the sweep at the reminder's time: %+v, want one reminded", report)
	}
	sweepMS := float64(time.Since(startSweep).Microseconds()) / 1000
	notifyAll(s)
	pause()
	// The run would have happened anyway: its share is what this request
	// added to it.
	s.RRU -= idle.RRU
	s.WRU -= idle.WRU
	s.RuleRRU -= idle.RuleRRU
	s.RuleWRU -= idle.RuleWRU
	for k, n := range idle.Calls {
		if s.Calls[k] -= n; s.Calls[k] <= 0 {
			delete(s.Calls, k)
		}
	}
	s.HandlerMS = append(s.HandlerMS, max(0, sweepMS-idle.HandlerMS[0]))
	s.Note = "the reminder run less an idle run; its invocation is the schedule's"

	if *costBin != "" && *costRIE != "" {
		costUnderRIE(t, base, table, cookies, steps, idle)
	}
	for _, st := range append(steps, idle) {
		line, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("DOORSTEP_COST %s\n", line)
		t.Logf("%d %s: DynamoDB Local RRU %.1f WRU %.1f; by the rules RRU %.1f WRU %.1f; calls %v",
			st.Step, st.Name, st.RRU, st.WRU, st.RuleRRU, st.RuleWRU, sortedCalls(st.Calls))
	}
	if total := sumUnits(steps); total == 0 {
		t.Fatal("no consumed capacity came back: the engine does not answer ReturnConsumedCapacity")
	}
}

func sumUnits(steps []*costStep) float64 {
	var t float64
	for _, s := range steps {
		t += s.RRU + s.WRU
	}
	return t
}
