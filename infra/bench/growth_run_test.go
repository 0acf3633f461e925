package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamolocal"
	"github.com/doorstep/doorstep/pkg/dynamo/embedded"
	"github.com/doorstep/doorstep/pkg/httpapi"
)

// The growth run's settings; go run ./infra/bench sets them.
var (
	growthLevels = flag.String("growth.levels", "", "stored requests to measure at, comma-separated (empty: skip TestGrowthRun)")
	growthEngine = flag.String("growth.engine", "", "disk (DynamoDB Local, -sharedDb -dbPath) or memory (minidyn in process)")
	growthBudget = flag.Duration("growth.budget", 5*time.Minute, "time the filling may take, all levels together; a level it cannot reach in it is not measured")
	growthCalls  = flag.Int("growth.calls", 60, "timed calls of each operation at each level")
)

// growthBusinesses is how many businesses the stored requests are spread
// over: growthFake made-up ones and the three the operations use.
const growthFake = 47

// TestGrowthRun fills a table on one engine (make run's: DynamoDB Local
// with its data on disk, or --memory's minidyn in process) with stored
// requests, level by level, by BatchWriteItem (not through the API, so
// that 100,000 take minutes), and at each level times a create, a listing
// of arrival windows, a request's status and a business inbox's first
// page through the handlers, printing a DOORSTEP_GROWTH line per operation
// and level.
//
// Each stored request is a request item and its hold, copied from one the
// API created, spread over 50 businesses (getSlug's inbox, which the run
// reads, gets its share) and over the days before today, one hold every
// 15 minutes going back: a store that has taken requests for years, whose
// future windows are as free as the floor run's.
func TestGrowthRun(t *testing.T) {
	if *growthLevels == "" {
		t.Skip("run by go run ./infra/bench, or with -args -growth.levels=0,1000 -growth.engine=disk")
	}
	var levels []int
	for _, s := range strings.Split(*growthLevels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 0 || (len(levels) > 0 && n <= levels[len(levels)-1]) {
			t.Fatalf("-growth.levels: want increasing counts, got %q", *growthLevels)
		}
		levels = append(levels, n)
	}
	ctx := t.Context()
	var client *dynamodb.Client
	const table = "doorstep-growth"
	switch *growthEngine {
	case "disk":
		e, err := dynamolocal.Start(dynamolocal.Options{DBPath: t.TempDir()})
		if err != nil {
			t.Skipf("DynamoDB Local: %v", err)
		}
		t.Cleanup(e.Stop)
		client = e.Client()
		if err := dynamo.CreateTable(ctx, client, table); err != nil {
			t.Fatal(err)
		}
		// No TTL: the copies would be deleted under the run.
		if _, err := client.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{TableName: aws.String(table),
			TimeToLiveSpecification: &types.TimeToLiveSpecification{AttributeName: aws.String("expires_at"), Enabled: aws.Bool(false)}}); err != nil {
			t.Fatal(err)
		}
	case "memory":
		var err error
		if client, err = embedded.NewTable(ctx, table); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("-growth.engine: want disk or memory, got %q", *growthEngine)
	}
	f := newFloorRunOn(t, client, table)
	g, err := newGrowth(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	inbox := httpapi.NewInbox(bookingtest.New(t, booking.Config{Store: dynamo.New(client, table), SiteURL: floorSiteURL, Now: time.Now}), slog.New(slog.DiscardHandler))
	inboxPage := func(context.Context) (time.Duration, error) {
		req := httptest.NewRequest(http.MethodGet, httpapi.InboxPrefix+"/requests", nil)
		req.Header.Set("Authorization", "Bearer "+getSlug+demoInboxTokenSuffix)
		rec := httptest.NewRecorder()
		start := time.Now()
		inbox.ServeHTTP(rec, req)
		d := time.Since(start)
		if rec.Code != http.StatusOK {
			return 0, fmt.Errorf("inbox of %s: got %d %s", getSlug, rec.Code, rec.Body)
		}
		return d, nil
	}
	ops := []struct {
		name string
		call func(context.Context) (time.Duration, error)
	}{
		{"createServiceRequest", f.createHandler},
		{"listArrivalWindows", f.listHandler},
		{"getServiceRequest", f.statusHandler},
		{"inboxFirstPage", inboxPage},
	}

	deadline := time.Now().Add(*growthBudget)
	for _, level := range levels {
		fillStart := time.Now()
		err := g.fillTo(ctx, level, deadline)
		fill := time.Since(fillStart)
		if errors.Is(err, errBudget) {
			fmt.Printf("DOORSTEP_GROWTH engine=%s level=%d reached=%d budget_s=%.0f\n", *growthEngine, level, g.stored, growthBudget.Seconds())
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		samples := make([][]time.Duration, len(ops))
		for i := -10; i < *growthCalls; i++ {
			for j, op := range ops {
				d, err := op.call(ctx)
				if err != nil {
					t.Fatalf("%s at %d stored requests: %v", op.name, level, err)
				}
				if i >= 0 {
					samples[j] = append(samples[j], d)
				}
			}
		}
		for j, op := range ops {
			fmt.Printf("DOORSTEP_GROWTH engine=%s level=%d op=%s n=%d median_us=%.1f p90_us=%.1f fill_s=%.1f\n",
				*growthEngine, level, op.name, len(samples[j]),
				float64(median(samples[j]))/1e3, float64(percentile(samples[j], 90))/1e3, fill.Seconds())
		}
	}
}

// demoInboxTokenSuffix makes a demo business's published local inbox
// token (infra/local's demoTokenSuffix).
const demoInboxTokenSuffix = ".local-demo-inbox-token"

var errBudget = errors.New("the growth run's fill budget is spent")

// growth fills the table with copies of one stored request and its hold.
type growth struct {
	client *dynamodb.Client
	table  *string
	// request and hold are the items the API stored for one create, and
	// code, slug and window what each copy replaces in their strings.
	request, hold map[string]types.AttributeValue
	code, window  string
	slugs         []string
	stored        int
	first         time.Time // the newest copy's hold; each next is 15 minutes earlier
}

func newGrowth(ctx context.Context, f *floorRun) (*growth, error) {
	request, err := f.getItem(ctx, requestKey(f.code))
	if err != nil {
		return nil, err
	}
	window := f.template.Window.Start.UTC().Format(time.RFC3339)
	hold, err := f.getItem(ctx, itemKey("BUSINESS#"+createSlug, holdSK(f.template.Window.Start)))
	if err != nil {
		return nil, fmt.Errorf("the template's hold: %w", err)
	}
	g := &growth{client: f.client, table: f.table, request: request, hold: hold, code: f.code, window: window,
		first: time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -2)}
	for i := range growthFake {
		g.slugs = append(g.slugs, fmt.Sprintf("growth-business-%02d", i))
	}
	g.slugs = append(g.slugs, getSlug, listSlug, createSlug)
	return g, nil
}

// fillTo writes copies until level requests are stored, or the deadline
// passes (errBudget).
func (g *growth) fillTo(ctx context.Context, level int, deadline time.Time) error {
	const workers = 2
	next := make(chan []types.WriteRequest)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for batch := range next {
				if err := g.write(ctx, batch); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for g.stored < level {
		if time.Now().After(deadline) {
			err = errBudget
			break
		}
		var batch []types.WriteRequest
		for len(batch) < 24 && g.stored < level { // two items a request, 25 at most a batch
			req, hold := g.copy(g.stored)
			batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: req}},
				types.WriteRequest{PutRequest: &types.PutRequest{Item: hold}})
			g.stored++
		}
		select {
		case next <- batch:
		case err = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}

func (g *growth) write(ctx context.Context, batch []types.WriteRequest) error {
	for len(batch) > 0 {
		out, err := g.client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{*g.table: batch}})
		if err != nil {
			return fmt.Errorf("fill: %w", err)
		}
		batch = out.UnprocessedItems[*g.table]
	}
	return nil
}

// copy is the i-th stored request and its hold: another code, business
// and window (15 minutes before the (i-1)-th), created a day before its
// window; no TTL and no sweep keys (it is not waiting for anything).
func (g *growth) copy(i int) (request, hold map[string]types.AttributeValue) {
	code := fmt.Sprintf("%012x", 0xf00000000000+i)
	slug := g.slugs[i%len(g.slugs)]
	start := g.first.Add(-time.Duration(i) * 15 * time.Minute)
	window := start.Format(time.RFC3339)
	replace := strings.NewReplacer(g.code, code, createSlug, slug, g.window, window)
	edit := func(item map[string]types.AttributeValue) map[string]types.AttributeValue {
		out := make(map[string]types.AttributeValue, len(item))
		for k, v := range item {
			switch k {
			case "expires_at", "sweep_shard", "sweep_at":
				continue
			}
			if s, ok := v.(*types.AttributeValueMemberS); ok {
				v = &types.AttributeValueMemberS{Value: replace.Replace(s.Value)}
			}
			out[k] = v
		}
		return out
	}
	request = edit(g.request)
	if _, ok := request["created"]; ok {
		request["created"] = &types.AttributeValueMemberS{Value: start.AddDate(0, 0, -1).Format(time.RFC3339)}
	}
	hold = edit(g.hold)
	hold["pk"] = &types.AttributeValueMemberS{Value: "BUSINESS#" + slug}
	hold["sk"] = &types.AttributeValueMemberS{Value: holdSK(start)}
	return request, hold
}
