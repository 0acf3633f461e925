package dynamo

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestCreateSteps checks what each step of a create means when its
// condition fails, step by step in the list's order: the row of a new
// create condition goes here. Which step decides among several is
// TestTransactionResolve's; the create's refusals against a table,
// TestCreateRequestLimits' and the race tests'.
func TestCreateSteps(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	start := now.Add(48 * time.Hour)
	r := booking.Request{
		Code: "AAAA-BBBB-CCCC", BusinessSlug: "acme", Status: booking.StatusNew,
		Window:  booking.Window{Date: "2026-11-25", Start: start, End: start.Add(2 * time.Hour)},
		Contact: booking.Contact{Name: "Ana", Phone: "3035550100", Email: "ana@example.com"},
	}
	key := &booking.IdempotencyRecord{Key: "k", BodyHash: "h", Expires: now.Add(time.Hour)}
	limits := booking.Limits{PerHour: 10, Unanswered: 20, Crews: booking.Crews{PerWindow: 1, Ever: 2}}
	full := slotChoice{slot: 3, freeAt: now.Add(20 * time.Minute)}
	s := New(nil, "t")
	// A live record under the key, as a failed condition returns it.
	stored, err := s.keySteps("acme", key, now)
	if err != nil {
		t.Fatal(err)
	}
	old := stored[0].item.Put.Item

	tests := []struct {
		sk            string // the failing item's kind (stepKind)
		slot          slotChoice
		hold          holdChoice
		wantCode      booking.Code // "" with wantAgain or wantUsed: none
		wantAgain     bool         // run again
		wantUsed      bool         // *booking.KeyUsedError
		wantRetry     time.Duration
		wantServerErr bool
	}{
		{sk: "IDEMPOTENCY#", slot: full, wantUsed: true},
		{sk: "BLOCK#phone#", slot: full, wantCode: booking.RequestRefused},
		{sk: "BLOCK#email#", slot: full, wantCode: booking.RequestRefused},
		{sk: "RATE#", slot: full, wantCode: booking.RateLimited, wantRetry: 20 * time.Minute},
		{sk: "RATE#", slot: slotChoice{slot: 3, free: true}, wantAgain: true},
		{sk: "OPEN", slot: full, wantCode: booking.RateLimited, wantRetry: unansweredRetry},
		{sk: "PHONE#", slot: full, wantCode: booking.TooManyOpen},
		{sk: "EMAIL#", slot: full, wantCode: booking.TooManyOpen},
		{sk: "HOLD#", slot: full, hold: holdChoice{slot: 1, keepFree: []int{0}}, wantCode: booking.WindowTaken},
		{sk: "HOLD#", slot: full, hold: holdChoice{slot: 1, keepFree: []int{0}, room: true}, wantAgain: true},
		{sk: "REQUEST", slot: full, wantServerErr: true},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.sk, func(t *testing.T) {
			steps, err := s.createSteps(r, key, limits, tt.slot, tt.hold, now)
			if err != nil {
				t.Fatal(err)
			}
			var order []string
			i := -1
			for j, st := range steps {
				sk := stepKind(st.item)
				order = append(order, sk)
				if i < 0 && sk == tt.sk {
					i = j
				}
			}
			if i < 0 {
				t.Fatalf("no step writes %s; the steps write %v", tt.sk, order)
			}
			seen[tt.sk] = true
			reasons := make([]types.CancellationReason, len(steps))
			for j := range reasons {
				reasons[j].Code = aws.String(reasonNone)
			}
			reasons[i] = types.CancellationReason{Code: aws.String(reasonConditionalCheckFailed), Item: old}
			c := &cancellation{item: i, code: reasonConditionalCheckFailed, reasons: reasons, err: errors.New("cancelled")}
			got := steps.resolve(context.Background(), "create", c, false)

			var used *booking.KeyUsedError
			switch {
			case tt.wantUsed:
				if !errors.As(got, &used) {
					t.Errorf("got %v, want *booking.KeyUsedError", got)
				}
			case tt.wantAgain:
				if !errors.Is(got, errAgain) {
					t.Errorf("got %v, want to run again", got)
				}
			case tt.wantServerErr:
				if got == nil || booking.ErrorCode(got) != booking.ServerError || errors.Is(got, errAgain) {
					t.Errorf("got %v, want an error of the service's own", got)
				}
			default:
				if booking.ErrorCode(got) != tt.wantCode || booking.RetryAfter(got) != tt.wantRetry {
					t.Errorf("got %v (retry after %s), want %s (retry after %s)", got, booking.RetryAfter(got), tt.wantCode, tt.wantRetry)
				}
			}
		})
	}
	// Every step of the list has its row.
	steps, err := s.createSteps(r, key, limits, full, holdChoice{slot: 1, keepFree: []int{0}}, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range steps {
		if kind := stepKind(st.item); !seen[kind] {
			t.Errorf("the step writing %s has no row in this test", kind)
		}
	}
}

// stepKind is what a transaction item writes or checks: the start of its
// sort key that says which kind of item it is, or the whole key when none
// of the create's kinds does.
func stepKind(item types.TransactWriteItem) string {
	var key map[string]types.AttributeValue
	switch {
	case item.Put != nil:
		key = item.Put.Item
	case item.Update != nil:
		key = item.Update.Key
	case item.ConditionCheck != nil:
		key = item.ConditionCheck.Key
	case item.Delete != nil:
		key = item.Delete.Key
	}
	sk, _ := key[attrSK].(*types.AttributeValueMemberS)
	if sk == nil {
		return ""
	}
	for _, kind := range []string{"IDEMPOTENCY#", "BLOCK#phone#", "BLOCK#email#", "RATE#", "OPEN", "PHONE#", "EMAIL#", "HOLD#", "REQUEST"} {
		if strings.HasPrefix(sk.Value, kind) {
			return kind
		}
	}
	return sk.Value
}
