package main

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/lambdaenv/lambdatest"
	"github.com/doorstep/doorstep/pkg/notify"
)

// The sample event, GET /inbox without a session, through the same JSON
// path as lambda.Start: the sign-in form, in HTML.
func TestEvent(t *testing.T) {
	env := lambdatest.NewEnv(t)
	env.Vars["SENDER_EMAIL"] = "inbox@book.example.com"
	h, err := newHandler(env.Record(t, "BusinessWebFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	res := lambdatest.InvokeHTTP(t, h, lambdatest.Event(t, "business-web-inbox.json"))
	if res.StatusCode != 200 || !strings.HasPrefix(res.Headers["Content-Type"], "text/html") || !strings.Contains(res.Body, `action="/inbox/sign-in"`) {
		t.Errorf("got %d %q %.200s, want 200 with the sign-in form", res.StatusCode, res.Headers["Content-Type"], res.Body)
	}
}

// Bad configuration fails at start: the sign-in e-mail needs its sender.
func TestFailsAtStart(t *testing.T) {
	env := lambdatest.NewEnv(t)
	tests := []struct {
		name, unset, want string
	}{
		{"no sender", "SENDER_EMAIL", "SENDER_EMAIL"},
		{"no table", "TABLE_NAME", "TABLE_NAME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if k == tt.unset {
					return ""
				}
				if k == "SENDER_EMAIL" {
					return "inbox@book.example.com"
				}
				return env.Getenv(k)
			}
			if _, err := newHandler(context.Background(), getenv); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error naming %s", err, tt.want)
			}
		})
	}
}

// TestPermissions drives the web inbox as a business does, as
// BusinessWebFunction, at a business of two crews, and lambdatest.Record
// checks each AWS call against its policy in template.yaml: the sign-in
// (its count, its token, the e-mail written to go out), the
// session, the inbox list (the inbox index), the moves, erasing a
// request's details, the CSV export, pausing, going back to preview and
// asking to go live (the message on the operator's topic) and signing out.
func TestPermissions(t *testing.T) {
	env := lambdatest.NewEnv(t)
	withSender(env)
	withTexts(env)
	env.Vars["NEW_BUSINESS_APPROVAL"] = "operator"
	const slug = "desert-cool-hvac"
	env.Crews(t, slug, 2)
	codes := []string{env.Send(t, slug, "6025550101"), env.Send(t, slug, "6025550102"), env.Send(t, slug, "6025550103")}
	h, err := newHandler(env.Record(t, "BusinessWebFunction"), env.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	var cookie, csrf string
	send := func(t *testing.T, method, path, form string, wantStatus int) events.APIGatewayV2HTTPResponse {
		t.Helper()
		return invokeWeb(t, h, webEvent(t, method, path, cookie, form), wantStatus)
	}
	t.Run("sign-in", func(t *testing.T) {
		cookie = signIn(t, h, env)
	})
	t.Run("inbox", func(t *testing.T) {
		res := send(t, "GET", "/inbox", "", 200)
		m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(res.Body)
		if m == nil {
			t.Fatalf("no CSRF token in the inbox page")
		}
		csrf = m[1]
	})
	// Done and nobody there wait for the window to start; a move finds
	// the slot the request holds with a Query of its window.
	later := env.FirstOpenWindow(t, slug).Start.Add(24 * time.Hour).Format(time.RFC3339)
	moves := []struct{ code, action, form string }{
		{codes[0], "accept", ""}, {codes[0], "move", "&window_start=" + url.QueryEscape(later)},
		{codes[1], "decline", ""}, {codes[2], "accept", ""}, {codes[2], "cancel", ""},
		// Erasing the declined request's details (not a move; its address).
		{codes[1], "erase", ""},
	}
	for _, m := range moves {
		t.Run(m.action, func(t *testing.T) {
			send(t, "GET", "/inbox/requests/"+m.code, "", 200)
			send(t, "POST", "/inbox/requests/"+m.code+"/"+m.action, "csrf="+csrf+m.form, 303)
		})
	}
	t.Run("export", func(t *testing.T) {
		send(t, "GET", "/inbox/export", "", 200)
		res := invokeWeb(t, h, lambdatest.Edit(t, webEvent(t, "GET", "/inbox/export.csv", cookie, ""), func(e *events.APIGatewayV2HTTPRequest) {
			e.RawQueryString = "from=2020-01-01&to=2030-12-31"
			e.QueryStringParameters = map[string]string{"from": "2020-01-01", "to": "2030-12-31"}
		}), 200)
		if !strings.Contains(res.Body, codes[1]) {
			t.Errorf("the CSV lacks %s:\n%s", codes[1], res.Body)
		}
	})
	t.Run("pause", func(t *testing.T) {
		send(t, "POST", "/inbox/settings", "csrf="+csrf+"&accepting_requests=off", 303)
	})
	// Texts to the owner: the day's count of codes (UpdateItem), the
	// code (PutItem), the opt-out list (GetItem), the text written to go
	// out (PutItem); its answer (DeleteItem) and the choice, each a
	// conditional put of the business.
	t.Run("owner's texts", func(t *testing.T) {
		send(t, "POST", "/inbox/settings/owner-phone", "csrf="+csrf+"&owner_phone=%28602%29+555-0177", 303)
		texts := sent(t, env, notify.ChannelSMS)
		if len(texts) != 1 || texts[0].To != "+16025550177" {
			t.Fatalf("got texts %+v, want one to +16025550177", texts)
		}
		code := regexp.MustCompile(`code is ([0-9]{6})`).FindStringSubmatch(texts[0].Body)
		if code == nil {
			t.Fatalf("no code in %s", texts[0].Body)
		}
		send(t, "POST", "/inbox/settings/owner-phone-code", "csrf="+csrf+"&code="+code[1], 303)
		send(t, "POST", "/inbox/settings/text-me", "csrf="+csrf+"&text_me=urgent", 303)
	})
	// Back to preview, then asking to go live on a stack where the
	// operator approves: a conditional put of the business each, and the
	// message on the operator's topic.
	t.Run("go live", func(t *testing.T) {
		send(t, "POST", "/inbox/back-to-preview", "csrf="+csrf, 303)
		res := send(t, "POST", "/inbox/go-live", "csrf="+csrf, 303)
		if loc := res.Headers["Location"]; loc != "/inbox?done=waiting" {
			t.Errorf("go live: got Location %q, want /inbox?done=waiting", loc)
		}
		// The ask goes out as every message does: written to the table,
		// published by notify to the operator's topic.
		if asks := sent(t, env, notify.ChannelOperator); len(asks) != 1 || !strings.Contains(asks[0].Body, "ctl businesses approve "+slug) {
			t.Errorf("got operator's messages %+v, want one naming ctl businesses approve %s", asks, slug)
		}
	})
	// The offer's sections: each a conditional put of the business; a
	// new window length first reads the count of holds taken
	// (GetItem) and the holds ahead (Query): here one is live, so it is
	// refused.
	t.Run("offer", func(t *testing.T) {
		version := func(section string) string {
			t.Helper()
			m := regexp.MustCompile(`name="version" value="([^"]+)"`).FindStringSubmatch(send(t, "GET", "/inbox/settings/"+section, "", 200).Body)
			if m == nil {
				t.Fatalf("no version on the %s section", section)
			}
			return m[1]
		}
		send(t, "POST", "/inbox/settings/add-service", "csrf="+csrf+"&version="+version("services")+
			"&name_en=Duct+cleaning&name_es=Limpieza+de+ductos&desc_en=Ducts.&desc_es=Ductos.&urgent=on", 303)
		send(t, "POST", "/inbox/settings/area", "csrf="+csrf+"&version="+version("area")+"&label=Phoenix&zip_codes=85004+85006+85008", 303)
		send(t, "POST", "/inbox/settings/windows", "csrf="+csrf+"&version="+version("windows")+"&arrival_window_minutes=90&books_up_to_days_ahead=14", 409)
		send(t, "POST", "/inbox/settings/windows", "csrf="+csrf+"&version="+version("windows")+"&arrival_window_minutes=120&books_up_to_days_ahead=21", 303)
	})
	t.Run("sign out", func(t *testing.T) {
		send(t, "POST", "/inbox/sign-out", "csrf="+csrf, 303)
	})
	// Sign-up: the address's day count (UpdateItem), the owner lookup
	// (GetItem), the pending item (PutItem); the link's page (nothing);
	// the button: the pending item (GetItem), then one transaction of the
	// business's puts, the pending item's delete and the stack's count
	// (TransactWriteItems), and the session (PutItem).
	t.Run("sign-up", func(t *testing.T) {
		before := len(sent(t, env, notify.ChannelEmail))
		invokeWeb(t, h, webEvent(t, "POST", "/start", "", "name=Fontaner%C3%ADa+Jos%C3%A9&trade=plumbing&email=jose%40example.com&terms=yes&lang=es"), 200)
		mails := sent(t, env, notify.ChannelEmail)
		if len(mails) != before+1 {
			t.Fatalf("got %d e-mails, want %d", len(mails), before+1)
		}
		var token []string
		for _, m := range mails {
			if m.To == "jose@example.com" {
				token = regexp.MustCompile(`/start/([A-Za-z0-9_-]+)`).FindStringSubmatch(m.Body)
			}
		}
		if token == nil {
			t.Fatalf("no sign-up link to jose@example.com in %+v", mails)
		}
		invokeWeb(t, h, webEvent(t, "GET", "/start/"+token[1], "", ""), 200)
		res := invokeWeb(t, h, webEvent(t, "POST", "/start/"+token[1], "", "lang=es"), 303)
		if res.Headers["Location"] != "/inbox" {
			t.Errorf("to %q, want /inbox", res.Headers["Location"])
		}
	})
}

// sent returns the messages business-web wrote to go out on channel
// (dynamo.Outgoing), oldest first: the notify function sends them from the
// table's stream (pkg/streams' TestNotifyOutgoingStream).
func sent(t testing.TB, env *lambdatest.Env, channel notify.Channel) []notify.Message {
	t.Helper()
	client := dynamotest.NewClient(env.Vars["DYNAMODB_ENDPOINT"])
	out, err := client.Scan(context.Background(), &dynamodb.ScanInput{
		TableName:                 aws.String(env.Vars["TABLE_NAME"]),
		FilterExpression:          aws.String("begins_with(pk, :p) AND channel = :c"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "OUTGOING#"}, ":c": &types.AttributeValueMemberS{Value: string(channel)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []notify.Message
	if err := attributevalue.UnmarshalListOfMapsWithOptions(out.Items, &msgs, func(o *attributevalue.DecoderOptions) { o.TagKey = "json" }); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(msgs, func(a, b notify.Message) int { return strings.Compare(a.ID, b.ID) })
	return msgs
}

// withSender gives env the function's SENDER_EMAIL; withTexts turns texts
// on (from a phone number).
func withSender(env *lambdatest.Env) { env.Vars["SENDER_EMAIL"] = "inbox@book.example.com" }
func withTexts(env *lambdatest.Env)  { env.Vars["SMS_ORIGINATION_IDENTITY"] = "+18005550199" }

// webEvent is the sample event (GET /inbox) sent as method to path, with
// the session cookie, if any, and a POST's form.
func webEvent(t testing.TB, method, path, cookie, form string) []byte {
	return lambdatest.Edit(t, lambdatest.Event(t, "business-web-inbox.json"), func(e *events.APIGatewayV2HTTPRequest) {
		e.RawPath, e.RequestContext.HTTP.Path, e.RequestContext.HTTP.Method = path, path, method
		switch {
		case path == "/start":
			e.RouteKey, e.RequestContext.RouteKey = "ANY /start", "ANY /start"
		case strings.HasPrefix(path, "/start/"):
			e.RouteKey, e.RequestContext.RouteKey = "ANY /start/{proxy+}", "ANY /start/{proxy+}"
			e.PathParameters = map[string]string{"proxy": strings.TrimPrefix(path, "/start/")}
		case path != "/inbox":
			e.RouteKey, e.RequestContext.RouteKey = "ANY /inbox/{proxy+}", "ANY /inbox/{proxy+}"
			e.PathParameters = map[string]string{"proxy": strings.TrimPrefix(path, "/inbox/")}
		}
		if cookie != "" {
			e.Cookies = []string{cookie}
		}
		if method == http.MethodPost {
			e.Headers["content-type"] = "application/x-www-form-urlencoded"
			e.Body = form
		}
	})
}

// invokeWeb sends event to h and fails the test unless it answers
// wantStatus.
func invokeWeb(t testing.TB, h any, event []byte, wantStatus int) events.APIGatewayV2HTTPResponse {
	t.Helper()
	res := lambdatest.InvokeHTTP(t, h, event)
	if res.StatusCode != wantStatus {
		t.Fatalf("got %d %.300s, want %d", res.StatusCode, res.Body, wantStatus)
	}
	return res
}

// signIn signs in to the inbox of desert-cool-hvac as a business does:
// the form, the one e-mail it writes to go out (sent), the link in it. It
// returns the session cookie.
func signIn(t testing.TB, h any, env *lambdatest.Env) string {
	t.Helper()
	invokeWeb(t, h, webEvent(t, "POST", "/inbox/sign-in", "", "email=inbox%40desert-cool-hvac.example.com"), 200)
	mails := sent(t, env, notify.ChannelEmail)
	if len(mails) != 1 || mails[0].To != "inbox@desert-cool-hvac.example.com" {
		t.Fatalf("got e-mails %+v, want 1 to inbox@desert-cool-hvac.example.com", mails)
	}
	token := regexp.MustCompile(`/inbox/sign-in/([A-Za-z0-9_-]+)`).FindStringSubmatch(mails[0].Body)
	if token == nil {
		t.Fatalf("no sign-in link in %s", mails[0].Body)
	}
	res := invokeWeb(t, h, webEvent(t, "POST", "/inbox/sign-in/"+token[1], "", ""), 303)
	for _, c := range res.Cookies {
		if name, _, _ := strings.Cut(c, ";"); strings.HasPrefix(name, inboxweb.CookieName+"=") {
			return name
		}
	}
	t.Fatalf("no session cookie in %q", res.Cookies)
	return ""
}
