package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamolocal"
	"github.com/doorstep/doorstep/pkg/edge"
	"github.com/doorstep/doorstep/pkg/httpapi"
	"github.com/doorstep/doorstep/pkg/mcptools"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/pages"
	"github.com/doorstep/doorstep/pkg/streams"
	"github.com/doorstep/doorstep/pkg/sweep"
)

//go:embed businesses.json
var businessesJSON []byte

const (
	siteURL = "http://chaos.localhost"
	// tokenSuffix makes each business's inbox token: its slug, then this.
	tokenSuffix = ".chaos-inbox-token"
	// tick is how far the service's clock moves at each operation, so
	// that holds lapse and windows start within a run.
	tick = 3 * time.Second
)

// startTime is the service's clock at the first operation: a Tuesday
// morning in every business's time zone.
var startTime = time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)

// clock is the service's clock: startTime plus a tick per operation.
type clock struct{ ticks atomic.Int64 }

func (c *clock) now() time.Time  { return startTime.Add(time.Duration(c.ticks.Load()) * tick) }
func (c *clock) advance(n int64) { c.ticks.Add(n) }

// outbox records every message the notifier hands to e-mail or text.
type outbox struct {
	mu   sync.Mutex
	sent map[string]int // message ID: times sent
}

func (o *outbox) SendEmail(_ context.Context, m notify.Message) error { return o.add(m) }
func (o *outbox) SendText(_ context.Context, m notify.Message) error  { return o.add(m) }
func (o *outbox) add(m notify.Message) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent[m.ID]++
	return nil
}

// answer is what one HTTP call of the workload got.
type answer struct {
	op     string // create, replay, status, move, pay
	status int
	header http.Header
	body   []byte
	// mcpText is a tool server's refusal's text.
	mcpText string
}

// create is one create's body, sent once and perhaps replayed.
type create struct {
	n       int
	slug    string
	key     string // "" without an idempotency key
	mcp     bool   // sent to the tool server's request_service, not the JSON API
	body    []byte
	tag     string // the description: names the create in the table
	window  time.Time
	phone   string
	zip     string
	answers []answer // the first, then every replay
}

// harness is the wiring under test and what the workload saw.
type harness struct {
	o        options
	out      io.Writer
	table    string // on DynamoDB Local
	clock    *clock
	proxy    *proxy
	direct   *dynamodb.Client // DynamoDB Local without faults: setup and checks
	store    *dynamo.Store
	books    *booking.Bookings
	mux      http.Handler
	notifier *notify.Notifier
	log      *slog.Logger
	stream   *stream
	box      *outbox
	biz      map[string]*booking.Business
	slugs    []string
	// tokenHonoured: DynamoDB Local answered a TransactWriteItems sent
	// again with its ClientRequestToken without applying it again.
	tokenHonoured bool
	stop          func()
	logPath       string // the service's error lines

	mu      sync.Mutex
	creates []*create
	keyed   []*create
	codes   []string          // every code a 201 gave, once
	codeOf  map[string]string // code: business slug
	pool    map[string][]time.Time
	answers []answer // every answer of every operation but the creates
	ops     map[string]int
	took    map[string]time.Duration // wall time spent per kind of operation
	// streamRuns counts deliveries of batches to the notifier, and
	// streamTwice those delivered a second time.
	streamRuns, streamTwice, streamFailed int
	sweeps, sweepFailed                   int
}

// start starts DynamoDB Local, the proxy in front of it and the service
// on the proxy, and loads the businesses.
// Under make test (infra/withdynamodb) it shares the run's DynamoDB Local,
// on a table of its own; otherwise it starts one.
func start(ctx context.Context, o options, out io.Writer) (*harness, error) {
	engine, shared := dynamolocal.Shared()
	table := "doorstep"
	if shared {
		table = fmt.Sprintf("doorstep-chaos-%d", os.Getpid())
	} else {
		var err error
		if engine, err = dynamolocal.Start(dynamolocal.Options{}); err != nil {
			return nil, fmt.Errorf("DynamoDB Local: %w", err)
		}
	}
	h := &harness{o: o, out: out, table: table, clock: &clock{}, codeOf: map[string]string{}, pool: map[string][]time.Time{},
		ops: map[string]int{}, took: map[string]time.Duration{}, box: &outbox{sent: map[string]int{}}, biz: map[string]*booking.Business{}}
	stops := []func(){engine.Stop}
	h.stop = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	fail := func(err error) (*harness, error) { h.stop(); return nil, err }

	h.direct = engine.Client()
	if err := dynamo.CreateTable(ctx, h.direct, h.table); err != nil {
		return fail(err)
	}
	if shared { // the engine stays up: take the table away
		stops = append(stops, func() {
			_, _ = h.direct.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(h.table)})
		})
	}
	// The service's clock is not the wall clock DynamoDB Local's TTL
	// deletes by; expiry is checked by every condition anyway.
	_, _ = h.direct.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(h.table),
		TimeToLiveSpecification: &ddbtypes.TimeToLiveSpecification{AttributeName: aws.String("expires_at"), Enabled: aws.Bool(false)}})
	upd, err := h.direct.UpdateTable(ctx, &dynamodb.UpdateTableInput{TableName: aws.String(h.table),
		StreamSpecification: &ddbtypes.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: ddbtypes.StreamViewTypeNewAndOldImages}})
	if err != nil {
		return fail(fmt.Errorf("turn the stream on: %w", err))
	}
	streamsClient := dynamodbstreams.NewFromConfig(aws.Config{Credentials: dynamo.LocalCredentials(), Region: dynamo.DefaultRegion},
		func(o *dynamodbstreams.Options) { o.BaseEndpoint = aws.String(engine.Endpoint) })
	h.stream = &stream{client: streamsClient, arn: aws.ToString(upd.TableDescription.LatestStreamArn), iterators: map[string]*string{}}

	if h.tokenHonoured, err = probeClientRequestToken(ctx, h.direct, h.table); err != nil {
		return fail(err)
	}

	h.proxy = newProxy(engine.Endpoint, o.faultRate, o.seed)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	srv := &http.Server{Handler: h.proxy, ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil}
	go srv.Serve(ln)
	stops = append(stops, func() { srv.Close() })
	faulty := faultyClient("http://" + ln.Addr().String())

	// The service's error lines go to a file the report names: a
	// violation's cause is there.
	logFile, err := os.CreateTemp("", "doorstep-chaos-*.log")
	if err != nil {
		return fail(err)
	}
	stops = append(stops, func() { logFile.Close() })
	h.logPath = logFile.Name()
	log := slog.New(slog.NewJSONHandler(logFile, &slog.HandlerOptions{Level: slog.LevelError}))
	bs, err := booking.LoadBusinesses(bytes.NewReader(businessesJSON))
	if err != nil {
		return fail(err)
	}
	loader := dynamo.New(h.direct, h.table)
	for _, b := range bs {
		if err := loader.PutBusiness(ctx, b); err != nil {
			return fail(fmt.Errorf("load %s: %w", b.Slug, err))
		}
		h.biz[b.Slug] = b
		h.slugs = append(h.slugs, b.Slug)
	}

	// The wiring of infra/local, but the notifier hears of each change on
	// the table's stream, as on AWS, not from the store.
	h.store = dynamo.New(faulty, h.table, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, h.clock.now))
	n := &notify.Notifier{
		Composer:   notify.Composer{SiteURL: siteURL, PreviewInbox: "preview-inbox@doorstep.localhost"},
		Businesses: h.store, Links: h.store, Email: h.box, SMS: h.box,
		Ledger: dynamo.NewLedger(faulty, h.table), Log: log, Now: h.clock.now,
	}
	h.notifier, h.log = n, log
	h.books, err = booking.New(booking.Config{Store: h.store, SiteURL: siteURL, Now: h.clock.now, SimulateDeposits: true})
	if err != nil {
		return fail(err)
	}
	mux := http.NewServeMux()
	edge.Mount(mux, mcptools.New(h.books, log), mcptools.Routes(h.books, log))
	edge.Mount(mux, httpapi.NewInbox(h.books, log), httpapi.InboxRoutes(h.books, log))
	pagesConfig := pages.Config{Bookings: h.books, Log: log, Now: h.clock.now}
	edge.Mount(mux, pages.New(pagesConfig), pages.Routes(pagesConfig))
	api := httpapi.New(h.books, log)
	edge.Mount(mux, api, httpapi.Routes(h.books, log))
	mux.Handle("/", api)
	h.mux = mux

	for _, slug := range h.slugs {
		if err := h.refreshPool(ctx, slug); err != nil {
			return fail(err)
		}
	}
	fmt.Fprintf(out, "chaos: DynamoDB Local at %s, the proxy at %s; DynamoDB Local honours TransactWriteItems' ClientRequestToken: %s\n",
		engine.Endpoint, ln.Addr(), yesNo(h.tokenHonoured))
	h.proxy.on.Store(true)
	return h, nil
}

// faultyClient is the service's DynamoDB client, on the proxy: the one
// dynamo.NewClientFromConfig makes for a local endpoint (the SDK's
// standard retryer, 3 attempts, no client-side quota), but its pauses
// between attempts at most 100 ms instead of 20 s, so that a run of
// thousands of faults ends in minutes. The retries themselves are the
// SDK's: which errors, how many times, the same idempotency token.
func faultyClient(endpoint string) *dynamodb.Client {
	return dynamodb.NewFromConfig(aws.Config{Credentials: dynamo.LocalCredentials(), Region: dynamo.DefaultRegion}, func(o *dynamodb.Options) {
		o.BaseEndpoint = aws.String(endpoint)
		o.Retryer = retry.NewStandard(func(o *retry.StandardOptions) {
			o.RateLimiter = ratelimit.None
			o.MaxBackoff = 100 * time.Millisecond
			o.Backoff = retry.NewExponentialJitterBackoff(o.MaxBackoff)
		})
		o.DisableValidateResponseChecksum = true
	})
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// serve runs one HTTP call through the edges.
func (h *harness) serve(method, path string, header http.Header, body []byte) answer {
	req := httptest.NewRequest(method, "http://chaos.localhost"+path, bytes.NewReader(body))
	for k, vs := range header {
		req.Header[k] = vs
	}
	rec := httptest.NewRecorder()
	h.mux.ServeHTTP(rec, req)
	return answer{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
}

// refreshPool sets the business's windows the creates aim at: the first
// few open ones, so that many creates meet on few windows.
func (h *harness) refreshPool(ctx context.Context, slug string) error {
	now := h.clock.now()
	from := now.In(h.biz[slug].Location()).Format("2006-01-02")
	a := h.serve(http.MethodGet, "/api/v1/businesses/"+slug+"/availability?days=3&from="+from, nil, nil)
	if a.status != http.StatusOK {
		h.record(answer{op: "availability", status: a.status, header: a.header, body: a.body})
		return nil // faulted: keep the pool as it is
	}
	var av struct {
		Windows []struct {
			Start time.Time `json:"start"`
		} `json:"windows"`
	}
	if err := json.Unmarshal(a.body, &av); err != nil {
		return fmt.Errorf("availability of %s: %w", slug, err)
	}
	var pool []time.Time
	for _, w := range av.Windows {
		if w.Start.After(now.Add(30*time.Minute)) && len(pool) < 4 {
			pool = append(pool, w.Start)
		}
	}
	h.mu.Lock()
	h.pool[slug] = pool
	h.mu.Unlock()
	return nil
}

func (h *harness) record(a answer) {
	h.mu.Lock()
	h.answers = append(h.answers, a)
	h.mu.Unlock()
}

// workload runs o.ops operations on o.workers workers.
func (h *harness) workload(ctx context.Context) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range h.o.workers {
		rng := rand.New(rand.NewPCG(h.o.seed, uint64(w)+1))
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1))
				if i > h.o.ops {
					return
				}
				h.clock.advance(1)
				h.step(ctx, rng, i)
			}
		})
	}
	wg.Wait()
}

// step runs operation i, chosen by rng.
func (h *harness) step(ctx context.Context, rng *rand.Rand, i int) {
	p := rng.IntN(100)
	var op string
	began := time.Now()
	switch {
	case p < 38:
		op = "create"
		h.create(rng, i)
	case p < 50:
		op = "replay"
		h.replay(rng)
	case p < 64:
		op = "inbox move"
		h.move(rng)
	case p < 72:
		op = "payment"
		h.pay(rng)
	case p < 76:
		op = "sweep"
		h.sweep(ctx)
	case p < 90:
		op = "stream delivery"
		h.deliver(ctx, rng)
	case p < 96:
		op = "status read"
		h.status(rng)
	default:
		op = "availability"
		_ = h.refreshPool(ctx, h.slugs[rng.IntN(len(h.slugs))])
	}
	h.mu.Lock()
	h.ops[op]++
	h.took[op] += time.Since(began)
	h.mu.Unlock()
}

// create sends a new create, with an idempotency key two times in three.
func (h *harness) create(rng *rand.Rand, i int) {
	slug := h.slugs[rng.IntN(len(h.slugs))]
	b := h.biz[slug]
	h.mu.Lock()
	pool := h.pool[slug]
	h.mu.Unlock()
	if len(pool) == 0 || rng.IntN(20) == 0 {
		_ = h.refreshPool(context.Background(), slug)
		h.mu.Lock()
		pool = h.pool[slug]
		h.mu.Unlock()
		if len(pool) == 0 {
			return
		}
	}
	c := &create{n: i, slug: slug, window: pool[rng.IntN(len(pool))],
		phone: fmt.Sprintf("512555%04d", 100+rng.IntN(80)), zip: b.ServiceArea.ZIPCodes[rng.IntN(len(b.ServiceArea.ZIPCodes))],
		tag: fmt.Sprintf("chaos create %d of seed %d", i, h.o.seed)}
	contact := map[string]any{"name": fmt.Sprintf("Chaos Person %d", i), "phone": c.phone, "sms_consent": rng.IntN(3) == 0}
	if rng.IntN(2) == 0 {
		contact["email"] = fmt.Sprintf("person%d@example.net", rng.IntN(80))
	}
	body := map[string]any{
		"window_start":     c.window.Format(time.RFC3339),
		"address":          map[string]any{"street": "1 Chaos Street", "city": b.City, "zip": c.zip},
		"contact":          contact,
		"service_id":       b.Services[rng.IntN(len(b.Services))].ID,
		"description":      c.tag,
		"deposit_accepted": b.BookingDeposit != nil,
	}
	if rng.IntN(3) > 0 {
		c.key = fmt.Sprintf("chaos-%d-%d", h.o.seed, i)
	}
	// One create in five is an assistant's, through the tool server.
	if c.mcp = rng.IntN(5) == 0; c.mcp {
		body["business"] = slug
		if c.key != "" {
			body["idempotency_key"] = c.key
		}
		body = map[string]any{"jsonrpc": "2.0", "id": i, "method": "tools/call",
			"params": map[string]any{"name": "request_service", "arguments": body}}
	}
	c.body, _ = json.Marshal(body)
	h.mu.Lock()
	h.creates = append(h.creates, c)
	h.mu.Unlock()
	if c.key != "" && rng.IntN(6) == 0 {
		// A retry while the first is still in flight: both get the same
		// 201 once the first finishes, never WINDOW_TAKEN (decisions.md).
		var wg sync.WaitGroup
		wg.Go(func() { h.send(c, "create") })
		wg.Go(func() { h.send(c, "replay in flight") })
		wg.Wait()
		return
	}
	h.send(c, "create")
}

// send sends c's body once more and records the answer.
func (h *harness) send(c *create, op string) {
	header := http.Header{"Content-Type": {"application/json"}}
	var a answer
	if c.mcp {
		header.Set("Accept", "application/json, text/event-stream")
		a = mcpAnswer(h.serve(http.MethodPost, mcptools.Path, header, c.body))
		op = "mcp " + op
	} else {
		if c.key != "" {
			header.Set("Idempotency-Key", c.key)
		}
		a = h.serve(http.MethodPost, "/api/v1/businesses/"+c.slug+"/requests", header, c.body)
	}
	a.op = op
	h.mu.Lock()
	defer h.mu.Unlock()
	first := len(c.answers) == 0
	c.answers = append(c.answers, a)
	if first && c.key != "" {
		h.keyed = append(h.keyed, c)
	}
	if a.status == http.StatusCreated {
		var got struct{ Code string }
		if json.Unmarshal(a.body, &got) == nil && got.Code != "" {
			if _, seen := h.codeOf[got.Code]; !seen {
				h.codeOf[got.Code] = c.slug
				h.codes = append(h.codes, got.Code)
			}
		}
	}
}

// mcpAnswer reads a tool call's answer as the JSON API's would be, for
// the checks: a result with the request's code as a 201, a refusal
// (isError) as its code's status with the JSON error, its text in
// mcpText. A JSON-RPC error, or an answer that is neither, stays as it is
// (and fails the checks).
func mcpAnswer(a answer) answer {
	var rpc struct {
		Result *struct {
			IsError           bool `json:"isError"`
			Content           []struct{ Text string }
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
	}
	if a.status != http.StatusOK || json.Unmarshal(a.body, &rpc) != nil || rpc.Result == nil {
		return a
	}
	if !rpc.Result.IsError {
		return answer{status: http.StatusCreated, header: a.header, body: rpc.Result.StructuredContent}
	}
	text := ""
	if len(rpc.Result.Content) > 0 {
		text = rpc.Result.Content[0].Text
	}
	code, message, _ := strings.Cut(text, ": ")
	body, _ := json.Marshal(edge.ErrorBody{Error: edge.ErrorDetail{Code: booking.Code(code), Message: message}})
	header := http.Header{"Content-Type": {"application/json"}}
	if code == string(booking.ServerBusy) && strings.Contains(text, "Try again in") {
		header.Set("Retry-After", "said in the text")
	}
	return answer{status: edge.Status(booking.Code(code)), header: header, body: body, mcpText: text}
}

// replay sends a keyed create's body again under its key.
func (h *harness) replay(rng *rand.Rand) {
	h.mu.Lock()
	if len(h.keyed) == 0 {
		h.mu.Unlock()
		return
	}
	// Mostly the latest ones: retries come soon after.
	n := len(h.keyed)
	c := h.keyed[max(0, n-1-rng.IntN(min(n, 20)))]
	h.mu.Unlock()
	h.send(c, "replay")
}

func (h *harness) pickCode(rng *rand.Rand, want func(slug string) bool) (string, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for range 8 {
		if len(h.codes) == 0 {
			return "", ""
		}
		n := len(h.codes)
		code := h.codes[max(0, n-1-rng.IntN(min(n, 40)))]
		if slug := h.codeOf[code]; want == nil || want(slug) {
			return code, slug
		}
	}
	return "", ""
}

// move answers a request from its business's inbox: accept, decline,
// move to another window, complete or cancel.
func (h *harness) move(rng *rand.Rand) {
	code, slug := h.pickCode(rng, nil)
	if code == "" {
		return
	}
	actions := []string{"accept", "accept", "accept", "decline", "move", "move", "complete", "cancel"}
	action := actions[rng.IntN(len(actions))]
	var body []byte
	if action == "move" {
		h.mu.Lock()
		pool := h.pool[slug]
		h.mu.Unlock()
		if len(pool) == 0 {
			return
		}
		body, _ = json.Marshal(map[string]string{"window_start": pool[rng.IntN(len(pool))].Format(time.RFC3339)})
	}
	header := http.Header{"Authorization": {"Bearer " + slug + tokenSuffix}, "Content-Type": {"application/json"}}
	a := h.serve(http.MethodPost, httpapi.InboxPrefix+"/requests/"+code+"/"+action, header, body)
	a.op = "move"
	h.record(a)
}

// pay pays a simulated deposit as the payment page's POST does, and half
// the time delivers the same payment again at once.
func (h *harness) pay(rng *rand.Rand) {
	code, _ := h.pickCode(rng, func(slug string) bool { return h.biz[slug].BookingDeposit != nil })
	if code == "" {
		return
	}
	for range 1 + rng.IntN(2) {
		a := h.serve(http.MethodPost, "/pay/"+code, http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, nil)
		a.op = "pay"
		h.record(a)
	}
}

func (h *harness) status(rng *rand.Rand) {
	code, _ := h.pickCode(rng, nil)
	if code == "" {
		return
	}
	a := h.serve(http.MethodGet, "/api/v1/requests/"+code, nil, nil)
	a.op = "status"
	h.record(a)
}

// sweep runs the hold sweeper once, as its schedule does.
func (h *harness) sweep(ctx context.Context) {
	_, err := sweep.Sweep(ctx, h.books, h.clock.now(), slog.New(slog.DiscardHandler))
	h.mu.Lock()
	h.sweeps++
	if err != nil {
		h.sweepFailed++
	}
	h.mu.Unlock()
}

// deliver reads the stream and hands its pending records to the notifier
// as Lambda does: in batches, again from the first failed record, and
// each batch, at random, a second time.
//
// As Lambda runs one batch of a shard at a time, a delivery while another
// is running does nothing.
func (h *harness) deliver(ctx context.Context, rng *rand.Rand) {
	if !h.stream.mu.TryLock() {
		return
	}
	defer h.stream.mu.Unlock()
	if err := h.stream.poll(ctx); err != nil {
		fmt.Fprintln(h.out, "chaos: stream:", err)
		return
	}
	twice := rng.IntN(2) == 0
	h.deliverPending(ctx, twice)
}

// deliverPending delivers the pending records once (twice: and the same
// batch again); the records from the first failed one stay pending. The
// stream's lock is held.
func (h *harness) deliverPending(ctx context.Context, twice bool) (failed bool) {
	s := h.stream
	for len(s.pending) > 0 {
		batch := s.pending[:min(len(s.pending), batchSize)]
		res, err := h.invoke(ctx, batch)
		if twice {
			_, _ = h.invoke(ctx, batch)
		}
		h.mu.Lock()
		h.streamRuns++
		if twice {
			h.streamTwice++
		}
		h.mu.Unlock()
		if err != nil || len(res.BatchItemFailures) > 0 {
			from := 0
			if err == nil {
				first := res.BatchItemFailures[0].ItemIdentifier
				for i, r := range batch {
					if r.Change.SequenceNumber == first {
						from = i
						break
					}
				}
			}
			s.pending = s.pending[from:]
			h.mu.Lock()
			h.streamFailed++
			h.mu.Unlock()
			return true
		}
		s.pending = s.pending[len(batch):]
	}
	return false
}

// invoke hands a batch to the notify function's handler as one Lambda
// invocation: its clock starts at the service's clock and then runs as
// the wall clock does (the other workers move the service's clock 3 s an
// operation, which would eat a real invocation's 30 s at once), and its
// deadline is lambdaTimeout on that clock.
func (h *harness) invoke(ctx context.Context, batch []events.DynamoDBEventRecord) (events.DynamoDBEventResponse, error) {
	begin, wall := h.clock.now(), time.Now()
	n := *h.notifier
	n.Now = func() time.Time { return begin.Add(time.Since(wall)) }
	lctx := invocation{Context: ctx, deadline: begin.Add(lambdaTimeout)}
	return streams.Notify(&n, h.log)(lctx, events.DynamoDBEvent{Records: batch})
}

// batchSize is the records of one invocation: fewer than Lambda's
// default 100, so that a run has many invocations, each a chance of a
// delivery twice.
const batchSize = 10

// lambdaTimeout is the notify function's timeout (template.yaml).
const lambdaTimeout = 30 * time.Second

// invocation is the context of a Lambda invocation whose deadline is on
// the service's clock, which the notifier measures it by.
type invocation struct {
	context.Context
	deadline time.Time
}

func (c invocation) Deadline() (time.Time, bool) { return c.deadline, true }

// drain turns the faults off, lets every claim's lease lapse and delivers
// the stream until nothing is left, as Lambda keeps retrying a record.
func (h *harness) drain(ctx context.Context) error {
	h.proxy.on.Store(false)
	h.stream.mu.Lock()
	defer h.stream.mu.Unlock()
	for attempt := 0; ; attempt++ {
		h.clock.advance(int64(notify.ClaimLease/tick) + 1)
		if err := h.stream.poll(ctx); err != nil {
			return err
		}
		if !h.deliverPending(ctx, false) && len(h.stream.pending) == 0 {
			if err := h.stream.poll(ctx); err != nil {
				return err
			}
			if len(h.stream.pending) == 0 {
				return nil
			}
		}
		if attempt == 20 {
			return errors.New("the stream's records still fail with the faults off")
		}
	}
}
