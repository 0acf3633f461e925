package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
)

// The cost run's Lambda side. After the journey in process, TestCostRun
// makes it again through the functions' own binaries, each run by
// aws-lambda-rie with the template's memory, as API Gateway, the table's
// stream and the schedule would call them, on the same DynamoDB Local.
// Each invocation's REPORT line gives its Billed Duration.
//
// The emulator limits no memory and no CPU, and a function at 256 MB on
// Lambda gets 256/1,769 of a vCPU. Where this machine lets the bench make a
// CPU cgroup (as root, with cgroup v1's cpu controller or v2's), the
// emulators run in one capped at that share; the report says whether they
// did. Each function's first invocation, its cold start (the lambda
// part's), is not counted, and the business caches are left to lapse
// before the journey, as the units assume.

var (
	costBin = flag.String("cost.bin", "", "with -cost.rie: the folder of the journey's functions built for linux on this machine")
	costRIE = flag.String("cost.rie", "", "with -cost.bin: the aws-lambda-rie to run the journey's functions under for their billed durations")
)

// costRIERuns is how many journeys are made under the emulator: each
// invocation's billed duration is the median of its runs.
const costRIERuns = 5

// lambdaFullCPUMB is the memory at which a Lambda function has one vCPU;
// below it, its share of one is memory/lambdaFullCPUMB.
const lambdaFullCPUMB = 1769

// reportLine is the emulator's REPORT line of an invocation.
var reportLine = regexp.MustCompile(`REPORT RequestId: (\S+)\t(?:Init Duration: [0-9.]+ ms\t)?Duration: ([0-9.]+) ms\tBilled Duration: ([0-9]+) ms`)

// billedDuration finds the Billed Duration of invocation id in out.
func billedDuration(out, id string) (float64, bool) {
	for _, m := range reportLine.FindAllStringSubmatch(out, -1) {
		if m[1] == id {
			ms, err := strconv.ParseFloat(m[3], 64)
			return ms, err == nil
		}
	}
	return 0, false
}

// emulators are the journey's functions, each under its own emulator.
type emulators struct {
	t      *testing.T
	byName map[string]*emulator
	calls  int
}

// invoke sends event to function name and returns its answer and the
// invocation's billed milliseconds.
func (es *emulators) invoke(name string, event []byte) ([]byte, float64) {
	es.t.Helper()
	e := es.byName[name]
	es.calls++
	id := fmt.Sprintf("doorstep-cost-%d", es.calls)
	status, body, err := e.invoke(es.t.Context(), id, event)
	if err != nil || status != http.StatusOK || bytes.Contains(body, []byte(`"errorMessage"`)) {
		es.t.Fatalf("%s under the emulator: %d %s %v\n%s", name, status, body, err, lastLines(e.out.String(), 10))
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if ms, ok := billedDuration(e.out.String(), id); ok {
			return body, ms
		}
		if time.Now().After(deadline) {
			es.t.Fatalf("%s: no REPORT line for %s:\n%s", name, id, lastLines(e.out.String(), 10))
		}
	}
}

// http sends an API Gateway HTTP API event to function name and checks the
// status it answers.
func (es *emulators) http(name string, event []byte, want int) (events.APIGatewayV2HTTPResponse, float64) {
	es.t.Helper()
	body, ms := es.invoke(name, event)
	var res events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(body, &res); err != nil || res.StatusCode != want {
		es.t.Fatalf("%s: got %d (%v), want %d: %.300s", name, res.StatusCode, err, want, res.Body)
	}
	return res, ms
}

// apiRequest is one HTTP request as API Gateway hands it to a function.
type apiRequest struct {
	sample           string // the events/ file it is made from
	method, routeKey string
	path             string
	params           map[string]string
	query            url.Values
	headers          map[string]string
	cookies          []*http.Cookie
	body             string
}

func (r apiRequest) event(t *testing.T) []byte {
	t.Helper()
	site, err := url.Parse(floorSiteURL)
	if err != nil {
		t.Fatal(err)
	}
	return lambdatest.Edit(t, lambdatest.Event(t, r.sample), func(e *events.APIGatewayV2HTTPRequest) {
		e.RouteKey, e.RequestContext.RouteKey = r.routeKey, r.routeKey
		e.RawPath, e.RequestContext.HTTP.Path, e.RequestContext.HTTP.Method = r.path, r.path, r.method
		e.PathParameters = r.params
		e.RawQueryString, e.QueryStringParameters = r.query.Encode(), nil
		if len(r.query) > 0 {
			e.QueryStringParameters = map[string]string{}
			for k := range r.query {
				e.QueryStringParameters[k] = r.query.Get(k)
			}
		}
		e.Headers["host"] = site.Host
		e.RequestContext.DomainName = site.Host
		for k, v := range r.headers {
			e.Headers[k] = v
		}
		for _, c := range r.cookies {
			e.Cookies = append(e.Cookies, c.Name+"="+c.Value)
		}
		e.Body, e.IsBase64Encoded = r.body, false
	})
}

// lambdaCPU makes a CPU cgroup capped at the share of a vCPU Lambda gives
// memoryMB, when this machine lets it, and returns the command that runs
// a program in it and what the cap is; otherwise no command, and why not.
func lambdaCPU(t *testing.T, memoryMB int) (wrap []string, what string) {
	share := float64(memoryMB) / lambdaFullCPUMB
	quota := int(share * 100_000) // of each 100 ms period
	name := fmt.Sprintf("doorstep-cost-%d", os.Getpid())
	var dir string
	var limits [][2]string // file, value
	switch {
	case fileExists("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"): // cgroup v1
		dir = filepath.Join("/sys/fs/cgroup/cpu", name)
		limits = [][2]string{{"cpu.cfs_period_us", "100000"}, {"cpu.cfs_quota_us", strconv.Itoa(quota)}}
	case fileContains("/sys/fs/cgroup/cgroup.subtree_control", "cpu"): // cgroup v2
		dir = filepath.Join("/sys/fs/cgroup", name)
		limits = [][2]string{{"cpu.max", fmt.Sprintf("%d 100000", quota)}}
	default:
		return nil, "CPU not capped: no cgroup cpu controller here"
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, "CPU not capped: " + err.Error()
	}
	t.Cleanup(func() { // after the emulators stop (cleanups run last first)
		for i := 0; i < 50 && os.Remove(dir) != nil; i++ {
			time.Sleep(20 * time.Millisecond)
		}
	})
	for _, l := range limits {
		if err := os.WriteFile(filepath.Join(dir, l[0]), []byte(l[1]), 0o644); err != nil {
			return nil, "CPU not capped: " + err.Error()
		}
	}
	// The shell joins the cgroup, then becomes the emulator, whose
	// function inherits it.
	wrap = []string{"sh", "-c", `echo $$ > "$0/cgroup.procs" && exec "$@"`, dir}
	return wrap, fmt.Sprintf("CPU capped at %.3f vCPU (%d/%d), as Lambda gives %d MB", share, memoryMB, lambdaFullCPUMB, memoryMB)
}

// fileContains reports whether the file at path has word among its words.
func fileContains(path, word string) bool {
	data, err := os.ReadFile(path)
	return err == nil && slices.Contains(strings.Fields(string(data)), word)
}

// requestItem reads a request's item whole, as the stream's images carry
// it (uncounted: the bench's own read).
func requestItem(t *testing.T, client *dynamodb.Client, table, code string) map[string]types.AttributeValue {
	t.Helper()
	out, err := client.GetItem(t.Context(), &dynamodb.GetItemInput{
		TableName: aws.String(table), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "REQUEST#" + code}, "sk": &types.AttributeValueMemberS{Value: "REQUEST"}},
	})
	if err != nil || out.Item == nil {
		t.Fatalf("read request %s: %v", code, err)
	}
	return out.Item
}

// streamEvent is the stream's record of a request's item going from old
// (nil: created) to new, as notify gets it in a batch of one.
func streamEvent(t *testing.T, old, new map[string]types.AttributeValue) []byte {
	t.Helper()
	name := "MODIFY"
	if old == nil {
		name = "INSERT"
	}
	data, err := json.Marshal(events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{dynamotest.StreamRecord(t, name, old, new, time.Now())}})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// costUnderRIE makes the journey again through the functions' binaries
// under the emulator and sets each step's (and the idle sweep's) BilledMS.
// cookies are the web inbox's session.
func costUnderRIE(t *testing.T, client *dynamodb.Client, table string, cookies []*http.Cookie, steps []*costStep, idle *costStep) {
	if len(steps) != 7 {
		t.Fatalf("the journey has %d steps; costUnderRIE knows 7", len(steps))
	}
	stub, stopStub, err := startAWSStub()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopStub)
	wrap, cpu := lambdaCPU(t, lambdaMemoryMB)
	env := functionEnv(table, aws.ToString(client.Options().BaseEndpoint), stub, floorSiteURL, lambdaMemoryMB)
	es := &emulators{t: t, byName: map[string]*emulator{}}
	for _, name := range costFunctions {
		e, err := startEmulator(*costRIE, filepath.Join(*costBin, name), append(slices.Clone(env), "AWS_LAMBDA_FUNCTION_NAME="+name), wrap)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.stop)
		es.byName[name] = e
	}

	slug := map[string]string{"slug": costSlug}
	business := apiRequest{sample: "get-business.json", method: "GET", routeKey: "GET /api/v1/businesses/{slug}",
		path: "/api/v1/businesses/" + costSlug, params: slug}
	availability := func(days string) apiRequest {
		return apiRequest{sample: "list-arrival-windows.json", method: "GET", routeKey: "GET /api/v1/businesses/{slug}/availability",
			path: "/api/v1/businesses/" + costSlug + "/availability", params: slug, query: url.Values{"days": {days}}}
	}
	create := func(key, body string) apiRequest {
		return apiRequest{sample: "create-service-request.json", method: "POST", routeKey: "POST /api/v1/businesses/{slug}/requests",
			path: "/api/v1/businesses/" + costSlug + "/requests", params: slug,
			headers: map[string]string{"content-type": "application/json", "idempotency-key": key}, body: body}
	}
	status := func(code string) apiRequest {
		return apiRequest{sample: "get-service-request.json", method: "GET", routeKey: "GET /api/v1/requests/{code}",
			path: "/api/v1/requests/" + code, params: map[string]string{"code": code}}
	}
	web := func(method, target, form string) apiRequest {
		u, err := url.Parse(target)
		if err != nil {
			t.Fatal(err)
		}
		r := apiRequest{sample: "business-web-inbox.json", method: method, routeKey: "ANY /inbox/{proxy+}", path: u.Path, query: u.Query(),
			params: map[string]string{"proxy": u.Path[len("/inbox/"):]}, cookies: cookies,
			headers: map[string]string{"sec-fetch-site": "same-origin"}}
		if method == "POST" {
			r.headers["origin"] = floorSiteURL
			r.headers["content-type"] = "application/x-www-form-urlencoded"
			r.body = form
		}
		return r
	}
	webEvent := func(method, target, form string) []byte { return web(method, target, form).event(t) }
	schedule := lambdatest.Event(t, "expire-holds.json")

	// Each function's first invocation, its cold start, uncounted; nothing
	// is stored (the create is refused, the status is unknown).
	es.http("get-business", business.event(t), http.StatusOK)
	es.http("list-arrival-windows", availability("7").event(t), http.StatusOK)
	es.http("create-service-request", create("cost-warm-up", `{}`).event(t), http.StatusBadRequest)
	es.http("get-service-request", status("AAAA-AAAA-AAAA").event(t), http.StatusNotFound)
	settings, _ := es.http("business-web", webEvent("GET", "/inbox/settings", ""), http.StatusOK)
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(settings.Body)
	if csrf == nil {
		t.Fatal("no csrf field on the settings page under the emulator")
	}
	es.invoke("notify", []byte(`{"Records":[]}`))
	es.invoke("expire-holds", scheduledAt(t, schedule, time.Now()))

	// billed[step][i]: the i-th invocation of the step, one figure a
	// journey; idleBilled: the idle sweep's.
	billed := make([][][]float64, len(steps))
	var idleBilled []float64
	for run := range costRIERuns {
		time.Sleep(dynamo.BusinessCacheTTL + time.Second) // every business cache lapses
		var bills [7][]float64
		bill := func(step int, ms ...float64) { bills[step] = append(bills[step], ms...) }
		// 1. getBusiness.
		_, ms := es.http("get-business", business.event(t), http.StatusOK)
		bill(0, ms)
		// 2. Availability, twice; the person picks the last window of two weeks.
		_, ms = es.http("list-arrival-windows", availability("7").event(t), http.StatusOK)
		bill(1, ms)
		res, ms := es.http("list-arrival-windows", availability("14").event(t), http.StatusOK)
		bill(1, ms)
		var av struct{ Windows []struct{ Start string } }
		if err := json.Unmarshal([]byte(res.Body), &av); err != nil || len(av.Windows) == 0 {
			t.Fatalf("availability under the emulator: %v, %.300s", err, res.Body)
		}
		// 3. A create, another person's each journey, under its own key.
		body := fmt.Sprintf(`{"window_start":%q,"address":{"street":"1820 N 7th St","zip":"85006"},`+
			`"contact":{"name":"Casey Kim","phone":"602-555-01%02d","email":"casey%d@example.com","sms_consent":true},`+
			`"service_id":"ac-not-cooling","description":"The AC blows warm air."}`, av.Windows[len(av.Windows)-1].Start, 50+run, run)
		res, ms = es.http("create-service-request", create(fmt.Sprintf("cost-rie-%d", run), body).event(t), http.StatusCreated)
		bill(2, ms)
		var answer struct{ Code string }
		if err := json.Unmarshal([]byte(res.Body), &answer); err != nil || answer.Code == "" {
			t.Fatalf("create under the emulator: %v, %.300s", err, res.Body)
		}
		created := requestItem(t, client, table, answer.Code)
		// 4. Three status reads.
		for range 3 {
			_, ms = es.http("get-service-request", status(answer.Code).event(t), http.StatusOK)
			bill(3, ms)
		}
		// 5. The accept in the web inbox, and the page it sends the browser to.
		res, ms = es.http("business-web", webEvent("POST", "/inbox/requests/"+answer.Code+"/accept", url.Values{"csrf": {csrf[1]}}.Encode()), http.StatusSeeOther)
		bill(4, ms)
		where := res.Headers["Location"]
		if where == "" {
			t.Fatal("the accept under the emulator sent the browser nowhere")
		}
		_, ms = es.http("business-web", webEvent("GET", where, ""), http.StatusOK)
		bill(4, ms)
		accepted := requestItem(t, client, table, answer.Code)
		// 6. The stream's records of the create and the accept, each a batch.
		for _, ev := range [][]byte{streamEvent(t, nil, created), streamEvent(t, created, accepted)} {
			out, ms := es.invoke("notify", ev)
			checkNoFailures(t, out)
			bill(5, ms)
		}
		// 7. The sweep, as the schedule sends it now: a run with nothing
		// due; then the request's reminder is moved to a minute ago (the
		// bench's own write: the sweep refuses an event's time ahead of its
		// clock), and the run that reminds, less the idle one, and its
		// record's messages.
		_, idleMS := es.invoke("expire-holds", scheduledAt(t, schedule, time.Now()))
		idleBilled = append(idleBilled, idleMS)
		due := time.Now().Add(-time.Minute).Truncate(time.Second).UTC()
		if _, err := client.UpdateItem(t.Context(), &dynamodb.UpdateItemInput{
			TableName: aws.String(table), Key: map[string]types.AttributeValue{"pk": accepted["pk"], "sk": accepted["sk"]},
			UpdateExpression:    aws.String("SET remind_at = :at, reminder_due = :due"),
			ConditionExpression: aws.String("attribute_exists(remind_at)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":at":  &types.AttributeValueMemberN{Value: strconv.FormatInt(due.Unix(), 10)},
				":due": &types.AttributeValueMemberS{Value: due.Format(time.RFC3339)},
			},
		}); err != nil {
			t.Fatalf("move the reminder to now: %v", err)
		}
		moved := requestItem(t, client, table, answer.Code)
		swept, sweepMS := es.invoke("expire-holds", scheduledAt(t, schedule, time.Now()))
		reminded := requestItem(t, client, table, answer.Code)
		if _, still := reminded["remind_at"]; still {
			t.Fatalf("the sweep under the emulator did not remind the request: %s", swept)
		}
		out, ms := es.invoke("notify", streamEvent(t, moved, reminded))
		checkNoFailures(t, out)
		bill(6, ms, max(0, sweepMS-idleMS))

		for step, ms := range bills {
			if run == 0 {
				billed[step] = make([][]float64, len(ms))
			}
			for i := range ms {
				billed[step][i] = append(billed[step][i], ms[i])
			}
		}
	}
	for step, s := range steps {
		s.BilledBy = fmt.Sprintf("aws-lambda-rie, %d MB, %s; each invocation the median of %d journeys", lambdaMemoryMB, cpu, costRIERuns)
		for _, runs := range billed[step] {
			s.BilledMS = append(s.BilledMS, medianMS(runs))
		}
	}
	idle.BilledBy, idle.BilledMS = steps[0].BilledBy, []float64{medianMS(idleBilled)}
}

// medianMS is the nearest-rank median of ms.
func medianMS(ms []float64) float64 {
	s := slices.Clone(ms)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// scheduledAt is the schedule's event sent at t.
func scheduledAt(t *testing.T, event []byte, at time.Time) []byte {
	t.Helper()
	var e events.EventBridgeEvent
	if err := json.Unmarshal(event, &e); err != nil {
		t.Fatal(err)
	}
	e.Time = at.UTC()
	data, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkNoFailures fails t when notify's answer reports a record it failed.
func checkNoFailures(t *testing.T, answer []byte) {
	t.Helper()
	var res events.DynamoDBEventResponse
	if err := json.Unmarshal(answer, &res); err != nil {
		t.Fatalf("notify's answer %s: %v", answer, err)
	}
	if len(res.BatchItemFailures) > 0 {
		t.Fatalf("notify failed records: %s", answer)
	}
}
