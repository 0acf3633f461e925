package dynamo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/truora/minidyn/server"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
)

// conflictStore is a store on a fresh table of minidyn behind a conflicts
// proxy, which lets every call through until the test sets it.
func conflictStore(t *testing.T) (*conflicts, *dynamo.Store, *dynamodb.Client) {
	t.Helper()
	proxy := &conflicts{next: server.NewServer()}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	client := dynamotest.NewClient(srv.URL)
	if err := dynamo.CreateTable(context.Background(), client, "conflicts"); err != nil {
		t.Fatal(err)
	}
	return proxy, dynamo.New(client, "conflicts"), client
}

// conflicts sits in front of minidyn and cancels the next TransactWriteItems
// calls with the given reasons, as DynamoDB does when transactions collide.
// (Neither engine makes transactions collide: minidyn runs one call at a
// time and DynamoDB Local 3.3 queues transactions on the same items.)
// Reasons name the items they are for by what each is, not by its place, so
// that a step added to a transaction changes no test but its own.
type conflicts struct {
	next http.Handler

	mu      sync.Mutex
	refuse  []reasons // for the next calls, one each
	forever reasons   // once refuse is used up; nil passes calls on
	calls   int
}

// reasons are the reason codes of a cancelled transaction, by item: an
// item's operation and the start of its sort key ("Put HOLD#", "Update
// OPEN", "ConditionCheck BLOCK#phone#"), as transactItem spells it. Items
// that none names pass (None).
type reasons map[string]string

// code is the reason for the item spelled label.
func (rs reasons) code(label string) string {
	for prefix, code := range rs {
		if strings.HasPrefix(label, prefix) {
			return code
		}
	}
	return none
}

// transactItem spells an item of a TransactWriteItems call as reasons name
// it: its operation and its sort key.
func transactItem(raw json.RawMessage) string {
	type key struct{ SK struct{ S string } }
	var item map[string]struct {
		Key  key
		Item key
	}
	_ = json.Unmarshal(raw, &item)
	for op, write := range item {
		return op + " " + write.Key.SK.S + write.Item.SK.S
	}
	return ""
}

func (c *conflicts) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".TransactWriteItems") {
		c.next.ServeHTTP(w, r)
		return
	}
	c.mu.Lock()
	c.calls++
	rs := c.forever
	if len(c.refuse) > 0 {
		rs, c.refuse = c.refuse[0], c.refuse[1:]
	}
	c.mu.Unlock()
	if rs == nil {
		c.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var in struct{ TransactItems []json.RawMessage }
	_ = json.Unmarshal(body, &in)
	type reason struct{ Code string }
	out := make([]reason, len(in.TransactItems))
	for i, item := range in.TransactItems {
		out[i].Code = rs.code(transactItem(item))
	}
	var buf bytes.Buffer
	_ = json.NewEncoder(&buf).Encode(map[string]any{
		"__type":              "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
		"Message":             "Transaction cancelled, please refer cancellation reasons for specific reasons",
		"CancellationReasons": out,
	})
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(buf.Bytes())
}

// Reason codes a test has the proxy answer with.
const (
	none     = "None"
	conflict = "TransactionConflict"
	failed   = "ConditionalCheckFailed"
)

func (c *conflicts) set(refuse []reasons, forever reasons) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refuse, c.forever, c.calls = refuse, forever, 0
}

func (c *conflicts) callCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// The items of a create with a key and an e-mail, as reasons name them.
const (
	itemIdempotency = "Put IDEMPOTENCY#"
	itemBlockPhone  = "ConditionCheck BLOCK#phone#"
	itemSlot        = "Put RATE#"
	itemBusiness    = "Update OPEN"
	itemPhone       = "Update PHONE#"
	itemHold        = "Put HOLD#"
)

// TestCreateRequestRetriesConflicts checks how CreateRequest answers
// transactions that DynamoDB cancelled because others wrote the same items.
func TestCreateRequestRetriesConflicts(t *testing.T) {
	tests := []struct {
		name      string
		keyExists bool      // a live record is under the key before
		refuse    []reasons // the next calls' reasons
		forever   reasons   // then every call's reasons; nil lets calls through
		wantCode  booking.Code
		wantUsed  bool // want *booking.KeyUsedError
		wantCalls int
	}{
		{name: "conflicts, then through",
			refuse:    []reasons{{itemHold: conflict}, {itemPhone: conflict, itemHold: conflict}},
			wantCalls: 3},
		{name: "throttled, then through",
			refuse:    []reasons{{itemBlockPhone: "ThrottlingError"}},
			wantCalls: 2},
		{name: "the key conflicts while the hold fails: the key decides",
			keyExists: true,
			refuse:    []reasons{{itemIdempotency: conflict, itemHold: failed}},
			wantUsed:  true, wantCalls: 2},
		{name: "the hold keeps conflicting",
			forever:  reasons{itemHold: conflict},
			wantCode: booking.WindowTaken, wantCalls: 8},
		{name: "the hold and the business's count keep conflicting: the window is taken",
			forever:  reasons{itemBusiness: conflict, itemHold: conflict},
			wantCode: booking.WindowTaken, wantCalls: 8},
		{name: "the business's count keeps conflicting: too many creates at once",
			forever:  reasons{itemBusiness: conflict},
			wantCode: booking.RateLimited, wantCalls: 8},
		{name: "the slot keeps conflicting: too many creates at once",
			forever:  reasons{itemSlot: conflict},
			wantCode: booking.RateLimited, wantCalls: 8},
		{name: "the phone's counter keeps conflicting",
			forever:  reasons{itemPhone: conflict, itemHold: none},
			wantCode: booking.ServerError, wantCalls: 8},
		{name: "the key keeps conflicting and has a record",
			keyExists: true,
			forever:   reasons{itemIdempotency: conflict, itemHold: conflict},
			wantUsed:  true, wantCalls: 8},
		{name: "the key keeps conflicting and has no record",
			forever:  reasons{itemIdempotency: conflict, itemPhone: conflict},
			wantCode: booking.ServerError, wantCalls: 8},
		{name: "another failure",
			refuse:   []reasons{{itemHold: "ValidationError"}},
			wantCode: booking.ServerError, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			proxy, s, client := conflictStore(t)
			e := engine{store: s, client: client, table: "conflicts"}
			if tt.keyExists {
				first := newRequest(slug, phone(1), monday.AddDate(0, 0, 1))
				mustCreate(t, e, first, record(first, "the-key", now.Add(booking.IdempotencyKeyTTL)), now)
			}
			proxy.set(tt.refuse, tt.forever)

			r := newRequest(slug, phone(2), monday)
			err := s.CreateRequest(context.Background(), r, record(r, "the-key", now.Add(booking.IdempotencyKeyTTL)), bookingtest.Unlimited, now)

			switch {
			case tt.wantUsed:
				if keyUsed(err) == nil {
					t.Errorf("CreateRequest() = %v, want *booking.KeyUsedError", err)
				}
			case tt.wantCode == "":
				if err != nil {
					t.Errorf("CreateRequest() = %v, want nil", err)
				}
			default:
				if got := code(err); got != tt.wantCode || keyUsed(err) != nil {
					t.Errorf("CreateRequest() = %v, want code %s", err, tt.wantCode)
				}
			}
			if got := proxy.callCount(); got != tt.wantCalls {
				t.Errorf("TransactWriteItems calls = %d, want %d", got, tt.wantCalls)
			}
			_, err = s.Request(context.Background(), r.Code)
			if got, want := err == nil, err == nil && tt.wantCode == "" && !tt.wantUsed; got != want {
				t.Errorf("request stored = %v, want %v", got, want)
			}
		})
	}
}

// TestMoveRequestRetriesConflicts drives MoveRequest's retries: a
// transaction cancelled by a conflict, throttling or a hold that changed
// since it was read runs again; one that keeps conflicting gives up with
// the answer a create gives (a new window others keep writing is taken).
func TestMoveRequestRetriesConflicts(t *testing.T) {
	// An accept writes the request ("Put REQUEST") and the phone's count
	// ("Update PHONE#"). A window move of a new request answers it (it is
	// accepted, issue 20): it writes those, the business's and the
	// e-mail's counts, the new window's hold ("Put HOLD#") and deletes the
	// old one's ("Delete HOLD#").
	tests := []struct {
		name      string
		action    booking.Action
		refuse    []reasons
		forever   reasons
		wantCode  booking.Code
		wantCalls int
		wantMoved bool
	}{
		{name: "a conflict, then through", action: booking.ActionAccept,
			refuse: []reasons{{"Put REQUEST": conflict}}, wantCalls: 2, wantMoved: true},
		{name: "throttled, then through", action: booking.ActionAccept,
			refuse: []reasons{{"Update PHONE#": "ThrottlingError"}}, wantCalls: 2, wantMoved: true},
		{name: "the old hold changed since its read: read again", action: booking.ActionMove,
			refuse: []reasons{{"Delete HOLD#": failed}}, wantCalls: 2, wantMoved: true},
		{name: "the request keeps conflicting", action: booking.ActionAccept,
			forever: reasons{"Put REQUEST": conflict}, wantCode: booking.InvalidTransition, wantCalls: 8},
		{name: "the new window keeps conflicting: taken", action: booking.ActionMove,
			forever: reasons{"Put HOLD#": conflict}, wantCode: booking.WindowTaken, wantCalls: 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			proxy, s, client := conflictStore(t)
			if err := s.PutBusiness(context.Background(), loadBusiness(t)); err != nil {
				t.Fatal(err)
			}
			r := newRequest(slug, phone(1), monday)
			mustCreate(t, engine{store: s, client: client, table: "conflicts"}, r, nil, now)
			proxy.set(tt.refuse, tt.forever)

			var windowStart string
			if tt.action == booking.ActionMove {
				windowStart = monday.Add(2 * time.Hour).Format(time.RFC3339)
			}
			bookings := bookingtest.New(t, booking.Config{Store: s, SiteURL: "https://book.example.com", Now: func() time.Time { return now }})
			err := move(context.Background(), bookings, r.Code, tt.action, windowStart, now)
			if code(err) != tt.wantCode {
				t.Errorf("Move() = %v, want code %q", err, tt.wantCode)
			}
			if got := proxy.callCount(); got != tt.wantCalls {
				t.Errorf("TransactWriteItems calls = %d, want %d", got, tt.wantCalls)
			}
			got, err := s.Request(context.Background(), r.Code)
			if err != nil {
				t.Fatal(err)
			}
			if moved := len(got.History) > len(r.History); moved != tt.wantMoved {
				t.Errorf("moved = %v (status %s), want %v", moved, got.Status, tt.wantMoved)
			}
		})
	}
}
