package streams_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-lambda-go/lambdacontext"

	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/streams"
)

// recorder is the notify function's senders in these tests: it keeps what
// went out, and refuses e-mail to the addresses in unverified, as SES does
// in its sandbox.
type recorder struct {
	mu         sync.Mutex
	sent       []string // "id -> to"
	unverified map[string]bool
}

func (r *recorder) send(m notify.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.Channel == notify.ChannelEmail && r.unverified[m.To] {
		return errors.New("MessageRejected: Email address is not verified")
	}
	r.sent = append(r.sent, m.ID+" -> "+m.To)
	return nil
}

func (r *recorder) SendEmail(_ context.Context, m notify.Message) error { return r.send(m) }
func (r *recorder) SendText(_ context.Context, m notify.Message) error  { return r.send(m) }

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.sent
	r.sent = nil
	return s
}

// notifier is the notify function's notifier (functions/notify) over env's
// table, with the given senders in place of SES and SMS; sms nil: texts off.
func notifier(env *lambdatest.Env, email notify.EmailSender, sms notify.SMSSender) *notify.Notifier {
	client, table := dynamotest.NewClient(env.Vars["DYNAMODB_ENDPOINT"]), env.Vars["TABLE_NAME"]
	return &notify.Notifier{
		Composer:   notify.Composer{SiteURL: lambdatest.SiteURL},
		Businesses: dynamo.New(client, table, dynamo.WithBusinessCache(dynamo.BusinessCacheTTL, time.Now)),
		Email:      email,
		SMS:        sms,
		Ledger:     dynamo.NewLedger(client, table),
		Log:        lambdaenv.Logger(),
		Now:        time.Now,
	}
}

// TestNotifyStream feeds events/notify-dynamodb-stream.json to the handler
// over the demo businesses: a new request, one whose person's address SES
// refuses, an accept, a move, and records that are no request writes.
func TestNotifyStream(t *testing.T) {
	env := lambdatest.NewEnv(t)
	rec := &recorder{unverified: map[string]bool{"sam.ortiz@example.net": true}}
	h := streams.Notify(notifier(env, rec, rec), lambdaenv.Logger())
	event := lambdatest.Event(t, "notify-dynamodb-stream.json")

	failed := lambdatest.InvokeStream(t, h, event)
	if want := []string{"4421584500000000017450439127"}; !slices.Equal(failed, want) {
		t.Fatalf("got batch item failures %v, want exactly the refused record's %v", failed, want)
	}
	want := []string{
		"7K3M-Q9TD-2HXA#0/received/person/email -> jordan.lee@example.com",
		"7K3M-Q9TD-2HXA#0/received/person/sms -> +16025550147",
		"7K3M-Q9TD-2HXA#0/new_request/business/email -> inbox@desert-cool-hvac.example.com",
		"H2QS-8CZR-5TWN#0/new_request/business/email -> inbox@limpieza-la-estrella.example.com",
		"4F8R-2WNC-KD5Q#1/confirmed/person/email -> maria.gonzalez@example.com",
		"4F8R-2WNC-KD5Q#1/confirmed/person/sms -> +14805550123",
		"9XJV-6M2T-PB3E#3/changed/person/sms -> +15125550163",
	}
	if got := rec.take(); !slices.Equal(got, want) {
		t.Fatalf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}

	// Lambda retries the batch from the failed record on; once the
	// address is verified, only the refused e-mail goes out.
	delete(rec.unverified, "sam.ortiz@example.net")
	if failed := lambdatest.InvokeStream(t, h, event); len(failed) != 0 {
		t.Fatalf("retry: got batch item failures %v, want none", failed)
	}
	if got, want := rec.take(), []string{"H2QS-8CZR-5TWN#0/received/person/email -> sam.ortiz@example.net"}; !slices.Equal(got, want) {
		t.Fatalf("retry: got %v, want only %v", got, want)
	}
	if failed := lambdatest.InvokeStream(t, h, event); len(failed) != 0 || len(rec.take()) != 0 {
		t.Fatalf("third delivery: got failures %v or messages, want none", failed)
	}
}

// TestNotifyStreamKeepsOrder: once a request's record fails, its later
// records in the batch fail too, unsent, so the retry tells them in order.
func TestNotifyStreamKeepsOrder(t *testing.T) {
	env := lambdatest.NewEnv(t)
	rec := &recorder{unverified: map[string]bool{"maria.gonzalez@example.com": true}}
	h := streams.Notify(notifier(env, rec, nil), lambdaenv.Logger()) // texts off
	// The accept's record, a record of another request, then the accept's
	// record again, standing for a later change of the same request.
	var e events.DynamoDBEvent
	if err := json.Unmarshal(lambdatest.Event(t, "notify-dynamodb-stream.json"), &e); err != nil {
		t.Fatal(err)
	}
	accept := e.Records[3]
	later := accept
	later.Change.SequenceNumber = "4421584500000000017450439999"
	event, err := json.Marshal(events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{accept, e.Records[1], later}})
	if err != nil {
		t.Fatal(err)
	}
	failed := lambdatest.InvokeStream(t, h, event)
	if want := []string{accept.Change.SequenceNumber, later.Change.SequenceNumber}; !slices.Equal(failed, want) {
		t.Fatalf("got failures %v, want %v", failed, want)
	}
	want := []string{
		"7K3M-Q9TD-2HXA#0/received/person/email -> jordan.lee@example.com",
		"7K3M-Q9TD-2HXA#0/new_request/business/email -> inbox@desert-cool-hvac.example.com",
	}
	if got := rec.take(); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v (texts off)", got, want)
	}
}

// A warm function serves many invocations: each log line names its own
// invocation's request id, once.
func TestNotifyStreamLogsEachRequestIDOnce(t *testing.T) {
	env := lambdatest.NewEnv(t)
	rec := &recorder{unverified: map[string]bool{"sam.ortiz@example.net": true}} // one record fails, and is logged
	var logs bytes.Buffer
	n := &notify.Notifier{
		Composer: notify.Composer{SiteURL: lambdatest.SiteURL}, Businesses: env.Store, Email: rec, SMS: rec,
		Ledger: dynamo.NewLedger(dynamotest.NewClient(env.Vars["DYNAMODB_ENDPOINT"]), env.Vars["TABLE_NAME"]), Now: time.Now,
	}
	h := streams.Notify(n, slog.New(slog.NewJSONHandler(&logs, nil)))
	event := lambdatest.Event(t, "notify-dynamodb-stream.json")
	for _, id := range []string{"first-invocation", "second-invocation"} {
		logs.Reset()
		ctx := lambdacontext.NewContext(context.Background(), &lambdacontext.LambdaContext{AwsRequestID: id})
		if _, err := lambda.NewHandler(h).Invoke(ctx, event); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
		for _, line := range lines {
			if strings.Count(line, `"request_id"`) != 1 || !strings.Contains(line, `"request_id":"`+id+`"`) {
				t.Errorf("%s: got log line %s, want one request_id, %q", id, line, id)
			}
		}
		if logs.Len() == 0 {
			t.Errorf("%s: nothing was logged, want the refused record's line", id)
		}
	}
}

// TestNotifyLimitHitStream feeds events/notify-limit-hit-stream.json to the
// handler over the demo businesses: the hour's first limit hit of four
// businesses (English, Spanish, a preview one, whose e-mail has nowhere to go
// without a preview inbox, and an example one, never told) and the removal
// of an old one by TTL. Each business is told once, through the Ledger.
func TestNotifyLimitHitStream(t *testing.T) {
	env := lambdatest.NewEnv(t)
	rec := &recorder{unverified: map[string]bool{"inbox@desert-cool-hvac.example.com": true}}
	h := streams.Notify(notifier(env, rec, rec), lambdaenv.Logger())
	event := lambdatest.Event(t, "notify-limit-hit-stream.json")

	failed := lambdatest.InvokeStream(t, h, event)
	if want := []string{"4421584500000000017450440011"}; !slices.Equal(failed, want) {
		t.Fatalf("got batch item failures %v, want exactly the refused record's %v", failed, want)
	}
	if got, want := rec.take(), []string{
		"limit#limpieza-la-estrella#2026-11-23T16:00:00Z/limit_reached/business/email -> inbox@limpieza-la-estrella.example.com",
	}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}

	delete(rec.unverified, "inbox@desert-cool-hvac.example.com")
	if failed := lambdatest.InvokeStream(t, h, event); len(failed) != 0 {
		t.Fatalf("retry: got batch item failures %v, want none", failed)
	}
	if got, want := rec.take(), []string{
		"limit#desert-cool-hvac#2026-11-23T16:00:00Z/limit_reached/business/email -> inbox@desert-cool-hvac.example.com",
	}; !slices.Equal(got, want) {
		t.Fatalf("retry: got %v, want only %v", got, want)
	}
	if failed := lambdatest.InvokeStream(t, h, event); len(failed) != 0 || len(rec.take()) != 0 {
		t.Fatalf("third delivery: got failures %v or messages, want none", failed)
	}
}

// TestNotifyLimitHitStreamKeepsOrder: request writes and limit hits share a
// batch; a failed limit hit fails its later records, and no other's.
func TestNotifyLimitHitStreamKeepsOrder(t *testing.T) {
	env := lambdatest.NewEnv(t)
	rec := &recorder{unverified: map[string]bool{"inbox@desert-cool-hvac.example.com": true}}
	h := streams.Notify(notifier(env, rec, nil), lambdaenv.Logger()) // texts off
	var hits, writes events.DynamoDBEvent
	for name, e := range map[string]*events.DynamoDBEvent{"notify-limit-hit-stream.json": &hits, "notify-dynamodb-stream.json": &writes} {
		if err := json.Unmarshal(lambdatest.Event(t, name), e); err != nil {
			t.Fatal(err)
		}
	}
	hit := hits.Records[0]
	again := hit
	again.Change.SequenceNumber = "4421584500000000017450449999"
	event, err := json.Marshal(events.DynamoDBEvent{Records: []events.DynamoDBEventRecord{hit, writes.Records[2], again, hits.Records[1]}})
	if err != nil {
		t.Fatal(err)
	}
	failed := lambdatest.InvokeStream(t, h, event)
	if want := []string{hit.Change.SequenceNumber, again.Change.SequenceNumber}; !slices.Equal(failed, want) {
		t.Fatalf("got failures %v, want %v", failed, want)
	}
	want := []string{
		"H2QS-8CZR-5TWN#0/received/person/email -> sam.ortiz@example.net",
		"H2QS-8CZR-5TWN#0/new_request/business/email -> inbox@limpieza-la-estrella.example.com",
		"limit#limpieza-la-estrella#2026-11-23T16:00:00Z/limit_reached/business/email -> inbox@limpieza-la-estrella.example.com",
	}
	if got := rec.take(); !slices.Equal(got, want) {
		t.Fatalf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestNotifyOutgoingStream feeds events/notify-outgoing-stream.json to the
// handler: the web inbox's sign-in e-mail and phone code, written to the
// table by business-web (dynamo.Outgoing), go out once each as they were
// written, by the same path as every message; a redelivery sends nothing
// again (the Ledger), and the item's removal by TTL is nobody's news.
func TestNotifyOutgoingStream(t *testing.T) {
	env := lambdatest.NewEnv(t)
	rec := &recorder{}
	h := streams.Notify(notifier(env, rec, rec), lambdaenv.Logger())
	event := lambdatest.Event(t, "notify-outgoing-stream.json")

	if failed := lambdatest.InvokeStream(t, h, event); len(failed) != 0 {
		t.Fatalf("got batch item failures %v, want none", failed)
	}
	if got, want := rec.take(), []string{
		"sign-in/desert-cool-hvac/1795452067000/business/email -> inbox@desert-cool-hvac.example.com",
		"phone-code/desert-cool-hvac/1795452068000/business/sms -> +16025550177",
	}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if failed := lambdatest.InvokeStream(t, h, event); len(failed) != 0 || len(rec.take()) != 0 {
		t.Fatalf("redelivery: got failures %v or messages, want none", failed)
	}

	// Texts off: the code is not sent, and the record does not fail.
	off := &recorder{}
	h = streams.Notify(notifier(lambdatest.NewEnv(t), off, nil), lambdaenv.Logger())
	if failed := lambdatest.InvokeStream(t, h, event); len(failed) != 0 {
		t.Fatalf("texts off: got batch item failures %v, want none", failed)
	}
	if got, want := off.take(), []string{
		"sign-in/desert-cool-hvac/1795452067000/business/email -> inbox@desert-cool-hvac.example.com",
	}; !slices.Equal(got, want) {
		t.Fatalf("texts off: got %v, want %v", got, want)
	}
}
