package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/httpapi"
)

// floorIterations > 0 runs TestFloorRun; go run ./infra/bench sets it.
var floorIterations = flag.Int("floor.iterations", 0, "timed iterations of TestFloorRun (0: skip it)")

// TestMain lets TestFloorRun use dynamotest's DynamoDB Local, and stops it
// afterwards. The other tests do not start it.
func TestMain(m *testing.M) { dynamotest.Main(m) }

// apiHandler is the JSON API's handler over store, with a logger that
// discards: the one place infra/bench names the httpapi and booking
// constructors.
func apiHandler(t testing.TB, store *dynamo.Store, siteURL string) http.Handler {
	return httpapi.New(bookingtest.New(t, booking.Config{Store: store, SiteURL: siteURL, Now: time.Now}), slog.New(slog.DiscardHandler))
}

const floorSiteURL = "https://doorstep.example.com"

// TestFloorRun times each API operation through apiHandler (in process,
// httptest) and its floor, the bare SDK calls the operation cannot avoid,
// on one DynamoDB Local, and prints a DOORSTEP_FLOOR line per operation.
// The store has no business cache, so that the handler makes the same
// calls as its floor (pkg/lambdaenv/calls_test.go counts them). Handler and
// floor alternate which goes first, iteration by iteration, so that the
// machine's noise falls on both alike.
func TestFloorRun(t *testing.T) {
	n := *floorIterations
	if n <= 0 {
		t.Skip("run by go run ./infra/bench, or with -args -floor.iterations=N")
	}
	if n > maxFloorIterations {
		t.Fatalf("-floor.iterations: at most %d", maxFloorIterations)
	}
	ctx := t.Context()
	f := newFloorRun(t)
	ops := []struct {
		name           string
		handler, floor func(context.Context) (time.Duration, error)
	}{
		{"getBusiness", f.getBusinessHandler, f.getBusinessFloor},
		{"listArrivalWindows", f.listHandler, f.listFloor},
		{"createServiceRequest", f.createHandler, f.createFloor},
		{"getServiceRequest", f.statusHandler, f.statusFloor},
	}
	samples := make([][2][]time.Duration, len(ops)) // [op][handler, floor]
	for i := -floorWarmup(n); i < n; i++ {
		for j, op := range ops {
			order := [2]int{0, 1}
			if i%2 != 0 {
				order = [2]int{1, 0}
			}
			for _, k := range order {
				call := [2]func(context.Context) (time.Duration, error){op.handler, op.floor}[k]
				d, err := call(ctx)
				if err != nil {
					t.Fatalf("%s (%s), iteration %d: %v", op.name, [2]string{"handler", "floor"}[k], i, err)
				}
				if i >= 0 {
					samples[j][k] = append(samples[j][k], d)
				}
			}
		}
	}
	us := func(d time.Duration) float64 { return float64(d) / 1e3 }
	for j, op := range ops {
		h, fl := samples[j][0], samples[j][1]
		r := floorResult{
			op: op.name, n: n,
			handlerUs: us(median(h)), floorUs: us(median(fl)),
			handlerP90: us(percentile(h, 90)), floorP90: us(percentile(fl, 90)),
		}
		fmt.Println(r.line())
	}
}

// floorRun is the table, the handler and the state the operations share.
type floorRun struct {
	t       *testing.T
	client  *dynamodb.Client
	table   *string
	handler http.Handler

	listLoc     *time.Location // listSlug's time zone
	limits      booking.Limits // createSlug's
	firstWindow time.Time      // createSlug's window 0; each create takes the next
	windows     int            // createSlug's windows taken
	phones      int            // phone numbers used

	// template is a request the handler stored, as read back: the floor's
	// creates store requests like it.
	template booking.Request
	// builder builds the floor's create transaction: pkg/dynamo's own
	// (Store.CreateTransaction), so the floor sends what a create sends.
	builder *dynamo.Store
	// code is the request the last create through the handler stored;
	// getServiceRequest reads it, through the handler and on the floor.
	code string
}

// newFloorRun makes a table on DynamoDB Local with the demo and bench
// businesses, four holds in listSlug's listing, and one request stored
// through the handler as the template of the floor's creates; and it checks
// that a create on the floor makes the calls the handler's create made
// (sameCreate).
func newFloorRun(t *testing.T) *floorRun {
	client, table := dynamotest.Local(t)
	return newFloorRunOn(t, client, table)
}

// newFloorRunOn is newFloorRun on the given engine's table.
func newFloorRunOn(t *testing.T, client *dynamodb.Client, table string) *floorRun {
	store := dynamo.New(client, table) // no business cache: the handler reads the business, as its floor does
	fixture, err := writeFixture(filepath.Join("..", ".."), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dynamotest.PutBusinesses(t, store, fixture, nil)
	f := &floorRun{
		t: t, client: client, table: aws.String(table), handler: apiHandler(t, store, floorSiteURL), builder: store,
		firstWindow: time.Now().Truncate(createStep).Add(2 * createStep),
	}
	ctx := t.Context()
	list, err := f.getItem(ctx, businessKey(listSlug))
	if err != nil {
		t.Fatal(err)
	}
	var b struct{ Timezone string }
	if err := json.Unmarshal([]byte(list["doc"].(*types.AttributeValueMemberS).Value), &b); err != nil {
		t.Fatal(err)
	}
	if f.listLoc, err = time.LoadLocation(b.Timezone); err != nil {
		t.Fatal(err)
	}
	create, err := f.getItem(ctx, businessKey(createSlug))
	if err != nil {
		t.Fatal(err)
	}
	cb, err := booking.DecodeBusiness([]byte(create["doc"].(*types.AttributeValueMemberS).Value))
	if err != nil {
		t.Fatal(err)
	}
	if f.limits = cb.Limits(); f.limits.Crews.Ever != 1 {
		// More crews add the Query of the window's holds and the checks of
		// its other slots, which createFloor does not make.
		t.Fatalf("%s has crews %+v: the create floor is that of a business of one crew", createSlug, f.limits.Crews)
	}

	// Holds for the listing's Query to find.
	rec, _, err := f.serve(http.MethodGet, "/api/v1/businesses/"+listSlug+"/availability?days=14", "", http.StatusOK)
	if err != nil {
		t.Fatal(err)
	}
	var av struct{ Windows []struct{ Start string } }
	if err := json.Unmarshal(rec.Body.Bytes(), &av); err != nil || len(av.Windows) < 61 {
		t.Fatalf("listing of %s: %v, %d windows, want 61 or more", listSlug, err, len(av.Windows))
	}
	for _, w := range []int{2, 9, 30, 60} {
		body := createBody(av.Windows[w].Start, "80202", f.nextPhone(), "power-loss")
		if _, _, err := f.serve(http.MethodPost, "/api/v1/businesses/"+listSlug+"/requests", body, http.StatusCreated); err != nil {
			t.Fatal(err)
		}
	}

	// The template's create, through a handler whose client records its calls.
	var handlerCalls, floorCalls recorder
	f.handler = apiHandler(t, dynamo.New(handlerCalls.client(client), table), floorSiteURL)
	if _, err := f.createHandler(ctx); err != nil {
		t.Fatal(err)
	}
	f.handler = apiHandler(t, store, floorSiteURL)
	templateItem, err := f.getItem(ctx, requestKey(f.code))
	if err != nil {
		t.Fatal(err)
	}
	if err := attributevalue.UnmarshalMapWithOptions(templateItem, &f.template, jsonNames); err != nil {
		t.Fatal(err)
	}
	if len(f.template.History) != 1 || f.template.Deposit != nil {
		t.Fatalf("template request: want one event and no deposit, got %+v", f.template)
	}

	f.client = floorCalls.client(client)
	if _, err := f.createFloor(ctx); err != nil {
		t.Fatal(err)
	}
	f.client = client
	if err := sameCreate(handlerCalls, floorCalls); err != nil {
		t.Fatal(err)
	}
	return f
}

// recorder keeps the DynamoDB calls made through its client: each
// operation's name and input.
type recorder struct {
	ops    []string
	inputs []any
}

// client is a client of the same engine as base that records its calls in r.
func (r *recorder) client(base *dynamodb.Client) *dynamodb.Client {
	record := middleware.InitializeMiddlewareFunc("DoorstepBenchRecord",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			r.ops = append(r.ops, awsmiddleware.GetOperationName(ctx))
			r.inputs = append(r.inputs, in.Parameters)
			return next.HandleInitialize(ctx, in)
		})
	return dynamodb.New(base.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
			return s.Initialize.Add(record, middleware.After)
		})
	})
}

// sameCreate checks that the floor's create made the calls the handler's
// made, each with the same expressions and the same items, but for what
// differs from one create to the next (times, codes, numbers, hashes):
// when pkg/dynamo's create gains a read, the floor run fails here rather
// than time a floor that is no longer the create's. resetLimits'
// BatchWriteItem, untimed, is left out.
func sameCreate(handler, floor recorder) error {
	h, fl := createShape(handler), createShape(floor)
	if slices.Equal(h, fl) {
		return nil
	}
	return fmt.Errorf("the floor's create is not the handler's:\nhandler:\n\t%s\nfloor:\n\t%s",
		strings.Join(h, "\n\t"), strings.Join(fl, "\n\t"))
}

// createShape describes the recorded calls, one line per call and per item
// of a TransactWriteItems: the operation, the keys (up to their last "#",
// if any), the attribute names of a put, the expressions, and the expression
// values but :now.
func createShape(r recorder) []string {
	keyShape := func(item map[string]types.AttributeValue) string {
		var parts []string
		for _, name := range []string{"pk", "sk"} {
			v, _ := item[name].(*types.AttributeValueMemberS)
			if v == nil {
				parts = append(parts, name+"=?")
				continue
			}
			prefix := v.Value
			if i := strings.LastIndex(prefix, "#"); i >= 0 {
				prefix = prefix[:i+1]
			}
			parts = append(parts, name+"="+prefix)
		}
		return strings.Join(parts, " ")
	}
	values := func(vs map[string]types.AttributeValue) string {
		var parts []string
		for _, name := range slices.Sorted(maps.Keys(vs)) {
			if name == ":now" {
				continue
			}
			switch v := vs[name].(type) {
			case *types.AttributeValueMemberS:
				parts = append(parts, name+"="+v.Value)
			case *types.AttributeValueMemberN:
				parts = append(parts, name+"="+v.Value)
			default:
				parts = append(parts, fmt.Sprintf("%s=%T", name, v))
			}
		}
		return strings.Join(parts, " ")
	}
	var lines []string
	for i, op := range r.ops {
		switch in := r.inputs[i].(type) {
		case *dynamodb.BatchWriteItemInput:
		case *dynamodb.GetItemInput:
			lines = append(lines, fmt.Sprintf("GetItem %s consistent=%v projection=%s",
				keyShape(in.Key), aws.ToBool(in.ConsistentRead), aws.ToString(in.ProjectionExpression)))
		case *dynamodb.QueryInput:
			lines = append(lines, fmt.Sprintf("Query index=%s %q %s filter=%q projection=%q consistent=%v",
				aws.ToString(in.IndexName), aws.ToString(in.KeyConditionExpression), values(in.ExpressionAttributeValues),
				aws.ToString(in.FilterExpression), aws.ToString(in.ProjectionExpression), aws.ToBool(in.ConsistentRead)))
		case *dynamodb.TransactWriteItemsInput:
			lines = append(lines, "TransactWriteItems")
			for _, item := range in.TransactItems {
				switch {
				case item.ConditionCheck != nil:
					c := item.ConditionCheck
					lines = append(lines, fmt.Sprintf("  ConditionCheck %s %q %s",
						keyShape(c.Key), aws.ToString(c.ConditionExpression), values(c.ExpressionAttributeValues)))
				case item.Put != nil:
					p := item.Put
					lines = append(lines, fmt.Sprintf("  Put %s %v %q %s", keyShape(p.Item),
						slices.Sorted(maps.Keys(p.Item)), aws.ToString(p.ConditionExpression), values(p.ExpressionAttributeValues)))
				case item.Update != nil:
					u := item.Update
					lines = append(lines, fmt.Sprintf("  Update %s %q %q %s", keyShape(u.Key),
						aws.ToString(u.UpdateExpression), aws.ToString(u.ConditionExpression), values(u.ExpressionAttributeValues)))
				case item.Delete != nil:
					lines = append(lines, "  Delete "+keyShape(item.Delete.Key))
				}
			}
		default:
			lines = append(lines, op)
		}
	}
	return lines
}

func jsonNames(o *attributevalue.DecoderOptions) { o.TagKey = "json" }

// serve runs one request through the handler, timing ServeHTTP alone.
func (f *floorRun) serve(method, target, body string, want int) (*httptest.ResponseRecorder, time.Duration, error) {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	start := time.Now()
	f.handler.ServeHTTP(rec, req)
	d := time.Since(start)
	if rec.Code != want {
		return nil, 0, fmt.Errorf("%s %s: got %d %s, want %d", method, target, rec.Code, rec.Body, want)
	}
	return rec, d, nil
}

// The keys of pkg/dynamo's items (keys.go).
func businessKey(slug string) map[string]types.AttributeValue {
	return itemKey("BUSINESS#"+slug, "PROFILE")
}

func requestKey(code string) map[string]types.AttributeValue {
	return itemKey("REQUEST#"+code, "REQUEST")
}

func itemKey(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"pk": str(pk), "sk": str(sk)}
}

func holdSK(start time.Time) string { return "HOLD#" + start.UTC().Format(time.RFC3339) }

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: fmt.Sprint(n)}
}

// getBusinessItem is the store's read of a business: eventually
// consistent. A missing item is an error here.
func (f *floorRun) getBusinessItem(ctx context.Context, key map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	out, err := f.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: f.table, Key: key})
	if err != nil {
		return nil, err
	}
	if len(out.Item) == 0 {
		return nil, fmt.Errorf("no item %v", key)
	}
	return out.Item, nil
}

// getItem is the store's read of one item: strongly consistent. A missing
// item is an error here.
func (f *floorRun) getItem(ctx context.Context, key map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	out, err := f.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: f.table, Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, err
	}
	if len(out.Item) == 0 {
		return nil, fmt.Errorf("no item %v", key)
	}
	return out.Item, nil
}

// getBusiness: GET /businesses/{slug}; floor: GetItem of the business.

func (f *floorRun) getBusinessHandler(context.Context) (time.Duration, error) {
	_, d, err := f.serve(http.MethodGet, "/api/v1/businesses/"+getSlug, "", http.StatusOK)
	return d, err
}

func (f *floorRun) getBusinessFloor(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	_, err := f.getBusinessItem(ctx, businessKey(getSlug))
	return time.Since(start), err
}

// listArrivalWindows, 14 days: GET /businesses/{slug}/availability; floor:
// GetItem of the business, then the Query of dynamo's HeldWindows over the
// same range (a day either side of the 14).

func (f *floorRun) listHandler(context.Context) (time.Duration, error) {
	_, d, err := f.serve(http.MethodGet, "/api/v1/businesses/"+listSlug+"/availability?days=14", "", http.StatusOK)
	return d, err
}

func (f *floorRun) listFloor(ctx context.Context) (time.Duration, error) {
	now := time.Now()
	y, m, day := now.In(f.listLoc).Date() // today in the business's time zone
	first := time.Date(y, m, day, 0, 0, 0, 0, time.UTC)
	from, to := first.AddDate(0, 0, -1), first.AddDate(0, 0, 14+1) // whole seconds already
	in := &dynamodb.QueryInput{
		TableName:              f.table,
		KeyConditionExpression: aws.String("pk = :pk AND sk BETWEEN :first AND :last"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":    str("BUSINESS#" + listSlug),
			":first": str(holdSK(from)),
			":last":  str(holdSK(to.Add(-time.Second)) + "#~"), // every crew's hold of the last window
		},
		// The store reads every hold, lapsed ones too, and skips a lapsed
		// one itself (a move deletes its own lapsed hold from the same read).
		ProjectionExpression: aws.String("sk, request_code, expires_at"),
		ConsistentRead:       aws.Bool(false), // a listing's, as the store's (it decides nothing)
	}
	start := time.Now()
	if _, err := f.getBusinessItem(ctx, businessKey(listSlug)); err != nil {
		return 0, err
	}
	var held int
	for p := dynamodb.NewQueryPaginator(f.client, in); p.HasMorePages(); {
		page, err := p.NextPage(ctx)
		if err != nil {
			return 0, err
		}
		for _, item := range page.Items {
			var expires int64
			if err := attributevalue.Unmarshal(item["expires_at"], &expires); err != nil {
				return 0, err
			}
			if expires > now.Unix() {
				held++
			}
		}
	}
	d := time.Since(start)
	if held != 4 {
		return 0, fmt.Errorf("the Query found %d holds, want the 4 made", held)
	}
	return d, nil
}

// createServiceRequest, without an idempotency key, on the next window of
// createSlug with a new phone number: POST /businesses/{slug}/requests;
// floor: what dynamo's CreateRequest makes for a business of one crew:
// GetItem of the business, the Query of its hourly slots (RATE#), then its
// TransactWriteItems, built before the clock starts by the store's own
// step list (dynamo.Store.CreateTransaction), so that the floor sends the
// very transaction of a create.
//
// The business's limits (Limits: requests_per_hour, max_unanswered, the
// default 10 and 20 for createSlug) would refuse every create after the
// tenth with RATE_LIMITED, and a run makes thousands. Raising them would
// not do: the slot Query reads every slot, so a limit of 1000 would time a
// read of 1000 items where a business at the defaults reads 10. So before
// each create, handler's and floor's alike, resetLimits puts createSlug
// back in one state, untimed: each of its requests_per_hour slots there
// and lapsed (a slot item outlives its hour until the table's TTL removes
// it, so a business that takes requests has them all), and its OPEN count
// at 0 (the requests the run made stay new: as if the business had
// answered them). Each timed create then does all its work, the full slot
// read included, at a business under its limits. The phone's count needs
// no reset: each create has a new number.

func createBody(windowStart, zip, phone, service string) string {
	return fmt.Sprintf(`{"window_start":%q,"address":{"street":"1 Bench St","zip":%q},`+
		`"contact":{"name":"Bench Person","phone":%q},"service_id":%q,"description":"floor run of infra/bench"}`,
		windowStart, zip, phone, service)
}

// nextWindow is the start of createSlug's next untaken window.
func (f *floorRun) nextWindow() (time.Time, error) {
	if f.windows >= createSlots {
		return time.Time{}, fmt.Errorf("all %d windows of %s taken", createSlots, createSlug)
	}
	f.windows++
	return f.firstWindow.Add(time.Duration(f.windows-1) * createStep), nil
}

// nextPhone is a new US number, 212-2xx-xxxx.
func (f *floorRun) nextPhone() string {
	f.phones++
	return fmt.Sprintf("212%07d", 2000000+f.phones)
}

// The keys of createSlug's items that the limits count (pkg/dynamo's
// keys.go: rateSK, skOpen).
func rateSK(slot int) string { return "RATE#" + strconv.Itoa(slot) }

const openSK = "OPEN"

// resetLimits puts createSlug's hourly slots, all lapsed a minute ago, and
// its OPEN count at 0, in BatchWriteItem calls (see above why).
func (f *floorRun) resetLimits(ctx context.Context) error {
	pk := str("BUSINESS#" + createSlug)
	lapsed := num(time.Now().Add(-time.Minute).Unix())
	var writes []types.WriteRequest
	put := func(item map[string]types.AttributeValue) {
		writes = append(writes, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
	}
	for i := range f.limits.PerHour {
		put(map[string]types.AttributeValue{"pk": pk, "sk": str(rateSK(i)), "used_until": lapsed, "expires_at": lapsed})
	}
	put(map[string]types.AttributeValue{"pk": pk, "sk": str(openSK), "open_count": num(0)})
	for len(writes) > 0 {
		batch := writes[:min(len(writes), 25)] // BatchWriteItem's most
		writes = writes[len(batch):]
		for len(batch) > 0 {
			out, err := f.client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
				RequestItems: map[string][]types.WriteRequest{*f.table: batch},
			})
			if err != nil {
				return fmt.Errorf("reset the limits of %s: %w", createSlug, err)
			}
			batch = out.UnprocessedItems[*f.table]
		}
	}
	return nil
}

func (f *floorRun) createHandler(ctx context.Context) (time.Duration, error) {
	start, err := f.nextWindow()
	if err != nil {
		return 0, err
	}
	if err := f.resetLimits(ctx); err != nil {
		return 0, err
	}
	body := createBody(start.UTC().Format(time.RFC3339), createZIP, f.nextPhone(), createSvc)
	rec, d, err := f.serve(http.MethodPost, "/api/v1/businesses/"+createSlug+"/requests", body, http.StatusCreated)
	if err != nil {
		return 0, err
	}
	var created struct{ Code string }
	if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil || created.Code == "" {
		return 0, fmt.Errorf("no code in the 201: %v %s", err, rec.Body)
	}
	f.code = created.Code
	return d, nil
}

func (f *floorRun) createFloor(ctx context.Context) (time.Duration, error) {
	start, err := f.nextWindow()
	if err != nil {
		return 0, err
	}
	if err := f.resetLimits(ctx); err != nil {
		return 0, err
	}
	now := time.Now()
	slot := rand.N(f.limits.PerHour) // all free after resetLimits; freeSlot checks
	in, err := f.builder.CreateTransaction(f.request(start, f.nextPhone(), now), f.limits, slot, now)
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	if _, err := f.getBusinessItem(ctx, businessKey(createSlug)); err != nil {
		return 0, err
	}
	if err := f.freeSlot(ctx, slot, now); err != nil {
		return 0, err
	}
	_, err = f.client.TransactWriteItems(ctx, in)
	return time.Since(t0), err
}

// freeSlot is dynamo's freeSlot: the Query of createSlug's hourly slots,
// read for the free ones. After resetLimits every slot is there and free,
// so the floor picks its slot before the clock starts; anything else is an
// error.
func (f *floorRun) freeSlot(ctx context.Context, slot int, now time.Time) error {
	p := dynamodb.NewQueryPaginator(f.client, &dynamodb.QueryInput{
		TableName:              f.table,
		KeyConditionExpression: aws.String("pk = :pk AND begins_with(sk, :prefix)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str("BUSINESS#" + createSlug), ":prefix": str("RATE#"),
		},
		ConsistentRead: aws.Bool(true),
	})
	var free []int
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, item := range page.Items {
			sk, _ := item["sk"].(*types.AttributeValueMemberS)
			until, _ := item["used_until"].(*types.AttributeValueMemberN)
			if sk == nil || until == nil {
				return fmt.Errorf("hourly slot without sk or used_until: %v", item)
			}
			i, err := strconv.Atoi(strings.TrimPrefix(sk.Value, "RATE#"))
			if err != nil {
				return fmt.Errorf("hourly slot %q: %w", sk.Value, err)
			}
			u, err := strconv.ParseInt(until.Value, 10, 64)
			if err != nil {
				return fmt.Errorf("hourly slot %q: %w", sk.Value, err)
			}
			if i >= 0 && i < f.limits.PerHour && u <= now.Unix() {
				free = append(free, i)
			}
		}
	}
	if len(free) != f.limits.PerHour || !slices.Contains(free, slot) {
		return fmt.Errorf("the slot Query found %d free slots of %s, want all %d", len(free), createSlug, f.limits.PerHour)
	}
	return nil
}

// request is a request like the template on the window starting at start,
// from phone, created at now: what the floor's create stores.
func (f *floorRun) request(start time.Time, phone string, now time.Time) booking.Request {
	r := f.template
	r.Code = booking.NewCode()
	zone := f.template.Window.Start.Location()
	r.Window = booking.Window{
		Date:  start.In(zone).Format(time.DateOnly),
		Start: start.In(zone),
		End:   start.Add(createStep).In(zone),
	}
	r.Contact.Phone = phone
	r.Created = now.UTC().Truncate(time.Second)
	created := r.History[0]
	created.At, created.Window = r.Created, r.Window
	r.History = []booking.Event{created}
	return r
}

// getServiceRequest of the last request created through the handler: GET
// /requests/{code}; floor: GetItem of the request, then of its business.

func (f *floorRun) statusHandler(context.Context) (time.Duration, error) {
	_, d, err := f.serve(http.MethodGet, "/api/v1/requests/"+f.code, "", http.StatusOK)
	return d, err
}

func (f *floorRun) statusFloor(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	item, err := f.getItem(ctx, requestKey(f.code))
	if err != nil {
		return 0, err
	}
	slug, ok := item["business_slug"].(*types.AttributeValueMemberS)
	if !ok {
		return 0, fmt.Errorf("request %s without business_slug", f.code)
	}
	if _, err := f.getBusinessItem(ctx, businessKey(slug.Value)); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}
