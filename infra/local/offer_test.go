package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/inboxweb"
	"github.com/doorstep/doorstep/pkg/notify"
)

var (
	versionValue = regexp.MustCompile(`name="version" value="([^"]+)"`)
	csrfValue    = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
)

// TestRequestKeepsItsOffer: a request made for a service and a ZIP code
// keeps them after the owner renames and then removes the service and
// takes the ZIP code out of the area, on the web inbox: the person's
// status page, the JSON status, the tool server's status, the business's
// inbox page and its export, and the e-mails sent after the change all
// show the name the request was made with; the owner accepts it as before.
func TestRequestKeepsItsOffer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	businesses := demoBusinessesFor(t)
	const slug = "desert-cool-hvac"
	b := businessOf(businesses, slug)
	service := b.Services[0]
	srv := serveLocal(ctx, t, businesses, slog.New(slog.DiscardHandler), nil)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(method, path, body string, header ...string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(data)
	}
	form := []string{"Content-Type", "application/x-www-form-urlencoded", "Sec-Fetch-Site", "same-origin"}

	// A request for the first service, in the first ZIP code.
	_, body := send("GET", "/api/v1/businesses/"+slug+"/availability?days=3", "")
	var availability struct{ Windows []struct{ Start string } }
	if err := json.Unmarshal([]byte(body), &availability); err != nil || len(availability.Windows) == 0 {
		t.Fatalf("windows: %s %v", body, err)
	}
	zip := b.ServiceArea.ZIPCodes[0]
	status, body := send("POST", "/api/v1/businesses/"+slug+"/requests", `{"service_id":"`+service.ID+`","window_start":"`+availability.Windows[0].Start+
		`","address":{"street":"1 Palm Ln","city":"Phoenix","zip":"`+zip+`"},"contact":{"name":"Ana Ruiz","phone":"602-555-0177","email":"ana.offer@example.com","sms_consent":false},"language":"en"}`,
		"Content-Type", "application/json")
	var created struct{ Code string }
	if err := json.Unmarshal([]byte(body), &created); err != nil || status != 201 {
		t.Fatalf("create: got %d %s", status, body)
	}
	code := created.Code

	// The owner signs in, renames the service, removes it, and takes the
	// ZIP code out of the area.
	send("POST", "/inbox/sign-in", url.Values{"email": {b.InboxEmail}}.Encode(), form...)
	link := fromOutbox(t, srv.URL, "sign-in link to "+b.InboxEmail, signInLink, func(m notify.Message) bool {
		return m.Kind == inboxweb.KindSignIn && m.To == b.InboxEmail
	})
	if status, _ := send("POST", strings.TrimPrefix(link, srv.URL), "", form...); status != http.StatusSeeOther {
		t.Fatalf("sign in: got %d", status)
	}
	post := func(section, action string, values url.Values) {
		t.Helper()
		_, page := send("GET", "/inbox/settings/"+section, "")
		v, c := versionValue.FindStringSubmatch(page), csrfValue.FindStringSubmatch(page)
		if v == nil || c == nil {
			t.Fatalf("no version or CSRF token on the %s section", section)
		}
		values.Set("version", v[1])
		values.Set("csrf", c[1])
		if status, body := send("POST", "/inbox/settings/"+action, values.Encode(), form...); status != http.StatusSeeOther {
			t.Fatalf("%s: got %d %.400s", action, status, body)
		}
	}
	etag := func() string {
		t.Helper()
		res, err := http.Get(srv.URL + "/api/v1/businesses/" + slug)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.Header.Get("ETag")
	}
	before := etag()
	post("services", "edit-service", url.Values{"id": {service.ID}, "name_en": {"Renamed service"}, "name_es": {"Servicio renombrado"},
		"desc_en": {"Another description."}, "desc_es": {"Otra descripción."}})
	// The change shows at once where this process reads the business (on
	// AWS, within dynamo.BusinessCacheTTL): getBusiness, with another
	// ETag, the tool server and the booking form.
	if after := etag(); before == "" || after == before {
		t.Errorf("getBusiness's ETag: %q before the change, %q after; want two", before, after)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/api/v1/businesses/"+slug, nil)
	req.Header.Set("If-None-Match", before)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusOK {
		t.Errorf("getBusiness with the old ETag: got %v %v, want 200", res.StatusCode, err)
	} else {
		res.Body.Close()
	}
	for _, where := range []struct{ name, method, path, body string }{
		{"getBusiness", "GET", "/api/v1/businesses/" + slug, ""},
		{"the booking form", "GET", "/book/" + slug, ""},
		{"the tool server", "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_business","arguments":{"business":"` + slug + `"}}}`},
	} {
		_, body := send(where.method, where.path, where.body, "Content-Type", "application/json", "Accept", "application/json, text/event-stream")
		if !strings.Contains(body, "Renamed service") {
			t.Errorf("%s does not show the renamed service: %.600s", where.name, body)
		}
	}
	post("services", "remove-service", url.Values{"id": {service.ID}})
	post("area", "area", url.Values{"label": {b.ServiceArea.Label}, "zip_codes": {strings.Join(b.ServiceArea.ZIPCodes[1:], "\n")}})

	// The business's offer no longer has them...
	var now struct {
		Services    []struct{ ID string }
		ServiceArea struct {
			ZIPCodes []string `json:"zip_codes"`
		} `json:"service_area"`
	}
	getJSON(t, srv.URL+"/api/v1/businesses/"+slug, &now)
	for _, s := range now.Services {
		if s.ID == service.ID {
			t.Fatalf("getBusiness still offers %s", service.ID)
		}
	}
	if strings.Contains(strings.Join(now.ServiceArea.ZIPCodes, " "), zip) {
		t.Fatalf("getBusiness still serves %s", zip)
	}

	// ...and the request keeps what it was made with. The owner accepts it.
	if status, body := send("POST", "/inbox/requests/"+code+"/accept", "csrf="+csrfOf(t, send), form...); status != http.StatusSeeOther {
		t.Fatalf("accept: got %d %.400s", status, body)
	}
	var apiStatus struct {
		Status  string
		Service struct{ EN, ES string }
	}
	if _, body := send("GET", "/api/v1/requests/"+code, ""); json.Unmarshal([]byte(body), &apiStatus) != nil || apiStatus.Service.EN != service.Name.EN || apiStatus.Status != "accepted" {
		t.Errorf("GET /api/v1/requests/%s: got %s, want %q, accepted", code, body, service.Name.EN)
	}
	_, mcp := send("POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_request_status","arguments":{"code":"`+code+`"}}}`,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	pages := []struct{ name, path, body string }{
		{"the status page", "/r/" + code, ""},
		{"the inbox page", "/inbox/requests/" + code, ""},
		{"the export", "/inbox/export.csv?from=" + time.Now().AddDate(0, 0, -7).Format(time.DateOnly) + "&to=" + time.Now().AddDate(0, 0, 30).Format(time.DateOnly), ""},
	}
	for i := range pages {
		_, pages[i].body = send("GET", pages[i].path, "")
	}
	pages = append(pages, struct{ name, path, body string }{"the tool server's status", "/mcp", mcp})
	accepted := ""
	for _, m := range outboxAt(t, srv.URL) {
		if m.Kind == notify.KindConfirmed && m.Channel == notify.ChannelEmail && m.To == "ana.offer@example.com" {
			accepted = m.Body
			break
		}
	}
	pages = append(pages, struct{ name, path, body string }{"the accepted e-mail", "", accepted})
	for _, p := range pages {
		if !strings.Contains(p.body, service.Name.EN) || strings.Contains(p.body, "Renamed service") {
			t.Errorf("%s: want %q and not the new name:\n%.1500s", p.name, service.Name.EN, p.body)
		}
	}
	if !strings.Contains(pages[0].body, zip) && !strings.Contains(pages[1].body, zip) {
		t.Errorf("the request's ZIP code %s is gone from its pages", zip)
	}
}

// csrfOf reads the CSRF token of the signed-in inbox's forms.
func csrfOf(t *testing.T, send func(method, path, body string, header ...string) (int, string)) string {
	t.Helper()
	_, page := send("GET", "/inbox", "")
	m := csrfValue.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no CSRF token on the inbox page")
	}
	return m[1]
}
