package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/logjson"
)

// TestLocalMailSimulator: the whole path of what SES reports, locally. A
// request booked through the JSON API with SES's mailbox simulator's
// bounce address: its confirmation goes to the outbox, which answers as
// SES does, and the mail-events handler records the address undeliverable
// (and counts it). success@ records nothing.
func TestLocalMailSimulator(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	businesses, err := loadBusinesses("businesses.json")
	if err != nil {
		t.Fatal(err)
	}
	st, err := memoryStore(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer st.close()
	if err := putBusinesses(ctx, st.client, businesses); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	defer srv.Close()
	if handler, err = handlerOn(ctx, st.client, srv.URL, logjson.New(&logs)); err != nil {
		t.Fatal(err)
	}
	store := dynamo.New(st.client, tableName)

	var availability struct{ Windows []struct{ Start string } }
	getJSON(t, srv.URL+"/api/v1/businesses/desert-cool-hvac/availability?days=3", &availability)
	if len(availability.Windows) < 2 {
		t.Fatalf("got %d windows, want 2", len(availability.Windows))
	}
	tests := []struct {
		email string
		want  *booking.UndeliverableReason
	}{
		{"bounce@simulator.amazonses.com", ptr(booking.UndeliverableBounce)},
		{"success@simulator.amazonses.com", nil},
	}
	for i, tt := range tests {
		t.Run(tt.email, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{
				"window_start": availability.Windows[i].Start,
				"address":      map[string]string{"street": "1 A St", "zip": "85004"},
				"contact":      map[string]string{"name": "Jo", "phone": "602-555-010" + string(rune('0'+i)), "email": tt.email},
			})
			res, err := http.Post(srv.URL+"/api/v1/businesses/desert-cool-hvac/requests", "application/json", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusCreated {
				t.Fatalf("create: %d, want 201", res.StatusCode)
			}
			u, err := store.UndeliverableEmail(ctx, tt.email)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.want == nil && u != nil:
				t.Errorf("record %+v, want none", u)
			case tt.want != nil && (u == nil || u.Reason != *tt.want):
				t.Errorf("record %+v, want %s\n%s", u, *tt.want, logs.String())
			}
		})
	}
	if n := strings.Count(logs.String(), `"UndeliverableRecorded":1`); n != 1 {
		t.Errorf("%d UndeliverableRecorded metric lines, want 1", n)
	}
}

func ptr[T any](v T) *T { return &v }
