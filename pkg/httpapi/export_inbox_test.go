package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestInboxExport exports the business's requests as JSON: a request whose
// name and description start with = is exported as sent (JSON holds no
// formulas: neutralising is the CSV's), oldest first; an erased one with
// its details empty and when they were erased; another business's none;
// bad ranges refused.
func TestInboxExport(t *testing.T) {
	fx := newInboxFixture(t)
	body := strings.NewReplacer(`"name":"Ana Ruiz"`, `"name":"=HYPERLINK(1)"`, `"description":"Slow drain"`, `"description":"=1+2"`).
		Replace(requestBody(mon08, "3235550101"))
	res := call(t, fx.h, "POST", "/api/v1/businesses/split-day-plumbing/requests", body)
	if res.status != 201 {
		t.Fatalf("create: %d %s", res.status, res.raw)
	}
	formula := res.str("code")
	fx.clock.Add(time.Minute)
	erased := fx.create(t, "split-day-plumbing", mon10, "3235550102")
	fx.inbox(t, fx.tokenA, "POST", "/requests/"+erased+"/decline", "")
	in := operatorInbox(t, fx, "split-day-plumbing")
	if _, err := in.Erase(context.Background(), erased); err != nil {
		t.Fatal(err)
	}
	fx.create(t, "all-day-plumbing", mon08, "3235550103")

	res = fx.inbox(t, fx.tokenA, "GET", "/export?from=2026-11-01&to=2026-11-30", "")
	if res.status != 200 {
		t.Fatalf("export: got %d %s", res.status, res.raw)
	}
	var e booking.Export
	if err := json.Unmarshal([]byte(res.raw), &e); err != nil {
		t.Fatal(err)
	}
	if e.Business != "split-day-plumbing" || e.From != "2026-11-01" || e.To != "2026-11-30" || len(e.Requests) != 2 {
		t.Fatalf("got %s, want split-day-plumbing's two requests", res.raw)
	}
	first, second := e.Requests[0], e.Requests[1]
	if first.Code != formula || first.Contact.Name != "=HYPERLINK(1)" || first.Description != "=1+2" || first.Erased != nil {
		t.Errorf("first = %+v, want the request with a formula, as sent", first)
	}
	if second.Code != erased || second.Erased == nil || second.Contact.Name != "" || second.Address.Street != "" || second.Address.ZIP != "90012" ||
		len(second.History) != 2 {
		t.Errorf("second = %+v, want the erased request with its ZIP and history", second)
	}

	for _, tt := range []struct{ query, code string }{
		{"?from=2026-11-31", "INVALID_DATE"},
		{"?from=2026-11-30&to=2026-11-01", "INVALID_DATE"},
	} {
		fx.inbox(t, fx.tokenA, "GET", "/export"+tt.query, "").wantStatus(t, 400, tt.code)
	}
	fx.inbox(t, "split-day-plumbing.wrong", "GET", "/export", "").wantStatus(t, 401, "UNAUTHORIZED")
}

// operatorInbox opens the inbox of slug as the operator does.
func operatorInbox(t *testing.T, fx *inboxFixture, slug string) *booking.Inbox {
	t.Helper()
	in, err := fx.bookings.OperatorInbox(context.Background(), slug)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestInboxErase erases one ended request's details through the JSON
// inbox: a live one is refused, an ended one answered erased, twice alike;
// another business's is NOT_FOUND.
func TestInboxErase(t *testing.T) {
	fx := newInboxFixture(t)
	code := fx.create(t, "split-day-plumbing", mon08, "3235550101")
	fx.inbox(t, fx.tokenA, "POST", "/requests/"+code+"/erase", "").wantStatus(t, 409, "INVALID_TRANSITION")
	fx.inbox(t, fx.tokenA, "POST", "/requests/"+code+"/decline", "")
	fx.inbox(t, fx.tokenB, "POST", "/requests/"+code+"/erase", "").wantStatus(t, 404, "NOT_FOUND")
	for range 2 {
		res := fx.inbox(t, fx.tokenA, "POST", "/requests/"+code+"/erase", "")
		if res.status != 200 {
			t.Fatalf("erase: got %d %s", res.status, res.raw)
		}
		var r booking.InboxRequest
		if err := json.Unmarshal([]byte(res.raw), &r); err != nil {
			t.Fatal(err)
		}
		if r.Erased == nil || r.Status != booking.StatusDeclined || r.Contact.Name != "" || r.Address.Street != "" || r.Address.ZIP != "90012" {
			t.Errorf("after erase: %s, want declined, erased, the ZIP kept", res.raw)
		}
	}
}
