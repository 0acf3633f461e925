package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/sesmail"
	"github.com/doorstep/doorstep/pkg/smstext"
	"github.com/doorstep/doorstep/pkg/snsnotice"
)

// fakeAWS stands in for an AWS endpoint: it records the JSON body of each
// call and answers it with reply.
type fakeAWS struct {
	mu    sync.Mutex
	calls []map[string]any
	reply func(body map[string]any) (status int, header map[string]string, answer string)
}

func (f *fakeAWS) serve(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(data, &body); err != nil {
			t.Errorf("%s %s: body is not JSON: %s", r.Method, r.URL.Path, data)
		}
		body["_call"] = r.Method + " " + r.URL.Path + " " + r.Header.Get("X-Amz-Target")
		f.mu.Lock()
		f.calls = append(f.calls, body)
		f.mu.Unlock()
		status, header, answer := f.reply(body)
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// take returns the calls so far as "call: to", and forgets them.
func (f *fakeAWS) take(to func(map[string]any) string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var s []string
	for _, c := range f.calls {
		s = append(s, c["_call"].(string)+": "+to(c))
	}
	f.calls = nil
	return s
}

// TestEvents feeds events/notify-dynamodb-stream.json to the function built
// from its environment, with stand-ins for SES (in its sandbox: one address
// is not verified) and End User Messaging SMS (one number replied STOP).
func TestEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	ses := &fakeAWS{reply: func(body map[string]any) (int, map[string]string, string) {
		if strings.Contains(jsonOf(body["Destination"]), "sam.ortiz@example.net") {
			return 400, map[string]string{"X-Amzn-ErrorType": "MessageRejected", "Content-Type": "application/json"},
				`{"message":"Email address is not verified. The following identities failed the check in region US-EAST-1: sam.ortiz@example.net"}`
		}
		return 200, map[string]string{"Content-Type": "application/json"}, `{"MessageId":"010001ef-8c3d-4e6f-8f3a-1c2d3e4f5a6b-000000"}`
	}}
	sms := &fakeAWS{reply: func(body map[string]any) (int, map[string]string, string) {
		h := map[string]string{"Content-Type": "application/x-amz-json-1.0"}
		if body["DestinationPhoneNumber"] == "+15125550163" {
			return 400, h, `{"__type":"ConflictException","Message":"The destination phone number has opted out.","Reason":"DESTINATION_PHONE_NUMBER_OPTED_OUT","ResourceType":"opt-out-list","ResourceId":"Default"}`
		}
		return 200, h, `{"MessageId":"6ad0d3b1-7c2e-4e6f-8f3a-1c2d3e4f5a6b"}`
	}}
	env.Vars["SENDER_EMAIL"] = "notify@book.example.com"
	env.Vars["SMS_ORIGINATION_IDENTITY"] = "+18005550199"
	env.Vars["PREVIEW_INBOX_EMAIL"] = "preview@book.example.com"
	env.Vars[sesmail.EndpointVariable] = ses.serve(t)
	env.Vars[smstext.EndpointVariable] = sms.serve(t)
	h, err := newHandler(env.Record(t, "NotifyFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	event := lambdatest.Event(t, "notify-dynamodb-stream.json")
	to := func(c map[string]any) string { return jsonOf(c["Destination"]) }
	toPhone := func(c map[string]any) string { return c["DestinationPhoneNumber"].(string) }
	const sendEmail, sendText = "POST /v2/email/outbound-emails : ", "POST / PinpointSMSVoiceV2.SendTextMessage: "

	if got, want := lambdatest.InvokeStream(t, h, event), []string{"4421584500000000017450439127"}; !slices.Equal(got, want) {
		t.Fatalf("got batch item failures %v, want exactly the refused record's %v", got, want)
	}
	wantEmails := []string{
		sendEmail + `{"ToAddresses":["jordan.lee@example.com"]}`,
		sendEmail + `{"ToAddresses":["inbox@desert-cool-hvac.example.com"]}`,
		sendEmail + `{"ToAddresses":["sam.ortiz@example.net"]}`, // refused
		sendEmail + `{"ToAddresses":["inbox@limpieza-la-estrella.example.com"]}`,
		sendEmail + `{"ToAddresses":["maria.gonzalez@example.com"]}`,
	}
	if got := ses.take(to); !slices.Equal(got, wantEmails) {
		t.Errorf("SES: got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(wantEmails, "\n\t"))
	}
	wantTexts := []string{sendText + "+16025550147", sendText + "+14805550123", sendText + "+15125550163"}
	if got := sms.take(toPhone); !slices.Equal(got, wantTexts) {
		t.Errorf("SMS: got %v, want %v", got, wantTexts)
	}
	client := dynamotest.NewClient(env.Vars["DYNAMODB_ENDPOINT"])
	if out, err := dynamo.NewLedger(client, env.Vars["TABLE_NAME"]).OptedOut(context.Background(), "5125550163"); err != nil || !out {
		t.Errorf("got OptedOut %v, %v, want the STOP recorded", out, err)
	}

	// Lambda retries from the refused record on: only its e-mail is tried
	// again, and the opted-out number is not texted again.
	if got := lambdatest.InvokeStream(t, h, event); !slices.Equal(got, []string{"4421584500000000017450439127"}) {
		t.Fatalf("retry: got failures %v, want the refused record's again", got)
	}
	if got, want := ses.take(to), []string{sendEmail + `{"ToAddresses":["sam.ortiz@example.net"]}`}; !slices.Equal(got, want) {
		t.Errorf("retry: SES got %v, want only %v", got, want)
	}
	if got := sms.take(toPhone); len(got) != 0 {
		t.Errorf("retry: SMS got %v, want nothing", got)
	}
}

// TestLimitHitEvents feeds events/notify-limit-hit-stream.json to the
// function built from its environment: each business whose limits refused
// requests this hour is e-mailed once (the preview business at the preview
// inbox, the example business never), and the removal of an old record is
// passed over.
func TestLimitHitEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	ses := &fakeAWS{reply: func(map[string]any) (int, map[string]string, string) {
		return 200, map[string]string{"Content-Type": "application/json"}, `{"MessageId":"010001ef-8c3d-4e6f-8f3a-1c2d3e4f5a6b-000000"}`
	}}
	env.Vars["SENDER_EMAIL"] = "notify@book.example.com"
	env.Vars["PREVIEW_INBOX_EMAIL"] = "preview@book.example.com"
	env.Vars[sesmail.EndpointVariable] = ses.serve(t)
	h, err := newHandler(env.Record(t, "NotifyFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	event := lambdatest.Event(t, "notify-limit-hit-stream.json")
	to := func(c map[string]any) string {
		subject, _ := c["Content"].(map[string]any)["Simple"].(map[string]any)["Subject"].(map[string]any)["Data"].(string)
		return jsonOf(c["Destination"]) + " " + subject
	}
	const sendEmail = "POST /v2/email/outbound-emails : "
	for i, want := range [][]string{{
		sendEmail + `{"ToAddresses":["inbox@desert-cool-hvac.example.com"]} Unusual number of requests at Desert Cool Heating & Air`,
		sendEmail + `{"ToAddresses":["inbox@limpieza-la-estrella.example.com"]} Número inusual de solicitudes en Limpieza La Estrella`,
		sendEmail + `{"ToAddresses":["preview@book.example.com"]} [preview] Unusual number of requests at Mile High Electric`,
	}, nil} { // the batch again, as Lambda may deliver it: nothing twice
		if failed := lambdatest.InvokeStream(t, h, event); len(failed) != 0 {
			t.Fatalf("delivery %d: got batch item failures %v, want none", i+1, failed)
		}
		if got := ses.take(to); !slices.Equal(got, want) {
			t.Errorf("delivery %d: SES got\n\t%s\nwant\n\t%s", i+1, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
		}
	}
}

// TestOwnerText feeds events/notify-dynamodb-stream.json again with
// desert-cool-hvac's owner texted about every new request, through the
// function's policy (lambdatest.Record): its new request's e-mail, and a
// text to the confirmed number holding the one-tap link whose token the
// function stored, and not the person's description.
func TestOwnerText(t *testing.T) {
	env := lambdatest.NewEnv(t)
	err := env.Store.UpdateBusiness(context.Background(), "desert-cool-hvac", func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		c.OwnerPhone, c.TextMe = "6025550199", booking.TextsAll
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ok := func(map[string]any) (int, map[string]string, string) {
		return 200, map[string]string{"Content-Type": "application/json"}, `{"MessageId":"6ad0d3b1-7c2e-4e6f-8f3a-1c2d3e4f5a6b"}`
	}
	ses, sms := &fakeAWS{reply: ok}, &fakeAWS{reply: ok}
	env.Vars["SENDER_EMAIL"] = "notify@book.example.com"
	env.Vars["SMS_ORIGINATION_IDENTITY"] = "+18005550199"
	env.Vars[sesmail.EndpointVariable] = ses.serve(t)
	env.Vars[smstext.EndpointVariable] = sms.serve(t)
	h, err := newHandler(env.Record(t, "NotifyFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	lambdatest.InvokeStream(t, h, lambdatest.Event(t, "notify-dynamodb-stream.json"))
	var owner []string
	for _, c := range sms.take(func(c map[string]any) string {
		return c["DestinationPhoneNumber"].(string) + " " + c["MessageBody"].(string)
	}) {
		if strings.Contains(c, "+16025550199 ") {
			owner = append(owner, c)
		}
	}
	if len(owner) != 1 || !strings.Contains(owner[0], "Doorstep: new request ") || !strings.Contains(owner[0], "/inbox/sign-in/") {
		t.Fatalf("got owner texts %q, want one new request's with its one-tap link", owner)
	}
	if mails := ses.take(func(c map[string]any) string { return jsonOf(c) }); !slices.ContainsFunc(mails, func(m string) bool {
		return strings.Contains(m, "inbox@desert-cool-hvac.example.com") && strings.Contains(m, "/inbox/sign-in/")
	}) {
		t.Errorf("no new-request e-mail with a one-tap link to desert-cool-hvac in %v", mails)
	}
}

func jsonOf(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// TestNewHandlerFailsAtStart: a bad configuration, or senders that cannot
// be built, fail at start, with no handler.
func TestNewHandlerFailsAtStart(t *testing.T) {
	valid := map[string]string{
		"TABLE_NAME": "doorstep", "SITE_URL": "https://book.example.com", "SENDER_EMAIL": "notify@book.example.com",
		"DYNAMODB_ENDPOINT": "http://127.0.0.1:1",
	}
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string
	}{
		{"nothing set", map[string]string{}, "TABLE_NAME"},
		// No AWS credentials and no SES stand-in: the e-mail sender
		// cannot be built.
		{"no credentials for SES", valid, "ses client: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := newHandler(context.Background(), func(k string) string { return tt.env[k] })
			if err == nil || h != nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got a handler: %v, and %v; want no handler and an error with %q", h != nil, err, tt.wantErr)
			}
		})
	}
}

// TestOperatorEvents feeds events/notify-operator-stream.json (the web
// inbox's ask that a business go live, written to the table) to the
// function on a stack with an operator topic: it is published once, to the
// topic, with the calls judged against NotifyFunction's policy; delivered
// again, it is not published again.
func TestOperatorEvents(t *testing.T) {
	env := lambdatest.NewEnv(t)
	var mu sync.Mutex
	var published []url.Values
	sns := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		mu.Lock()
		published = append(published, form)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/xml")
		io.WriteString(w, `<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>94f20ce6-13c5-43a0-9a9e-ca52d816e90b</MessageId></PublishResult></PublishResponse>`)
	}))
	t.Cleanup(sns.Close)
	const topic = "arn:aws:sns:us-east-1:" + lambdatest.AccountID + ":doorstep-OperatorTopic-AbCdEf"
	env.Vars["SENDER_EMAIL"] = "notify@book.example.com"
	env.Vars["OPERATOR_TOPIC_ARN"] = topic
	env.Vars[snsnotice.EndpointVariable] = sns.URL
	h, err := newHandler(env.Record(t, "NotifyFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	event := lambdatest.Event(t, "notify-operator-stream.json")
	for range 2 {
		if failed := lambdatest.InvokeStream(t, h, event); len(failed) != 0 {
			t.Fatalf("got batch item failures %v, want none", failed)
		}
	}
	if len(published) != 1 {
		t.Fatalf("got %d publishes, want 1", len(published))
	}
	p := published[0]
	if p.Get("Action") != "Publish" || p.Get("TopicArn") != topic || p.Get("Subject") != "Doorstep: fontaneria-jose asks to go live" ||
		!strings.Contains(p.Get("Message"), "ctl businesses approve fontaneria-jose") {
		t.Errorf("got %v, want the ask published to %s", p, topic)
	}
}
