package dynamo_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestPublicRequestReadsOnlyTheStatusFields: getServiceRequest's read of
// a request has every field its status shows (booking.StatusFields) as
// stored, and nothing else: no contact, address, description or history.
func TestPublicRequestReadsOnlyTheStatusFields(t *testing.T) {
	moved := newRequest(slug, phone(1), monday)
	moved.ChangedByBusiness = true
	moved.Status = booking.StatusAccepted
	moved.History = []booking.Event{{At: now, Action: booking.ActionAccept, By: booking.ActorBusiness, From: booking.StatusNew, To: booking.StatusAccepted}}
	deposit := pending(newRequest(slug, phone(2), monday.Add(2*time.Hour)), now.Add(30*time.Minute))
	tests := []struct {
		name string
		r    booking.Request
	}{
		{"moved, with a history", moved},
		{"deposit due", deposit},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				mustCreate(t, e, tt.r, nil, now)
				got, err := e.store.PublicRequest(context.Background(), tt.r.Code)
				if err != nil {
					t.Fatalf("PublicRequest() = %v, want nil", err)
				}
				want := booking.Request{
					Code: tt.r.Code, BusinessSlug: tt.r.BusinessSlug, Status: tt.r.Status, ServiceName: tt.r.ServiceName,
					Window: tt.r.Window, ChangedByBusiness: tt.r.ChangedByBusiness, Created: tt.r.Created,
					HoldExpires: tt.r.HoldExpires, Deposit: tt.r.Deposit,
				}
				if !reflect.DeepEqual(*got, want) {
					t.Errorf("PublicRequest() = %s\nwant %s", jsonString(got), jsonString(want))
				}
			})
		}
		t.Run("none", func(t *testing.T) {
			if _, err := e.store.PublicRequest(context.Background(), "0000-0000-0000"); code(err) != booking.NotFound {
				t.Errorf("code = %q, want %q", code(err), booking.NotFound)
			}
		})
	})
}
