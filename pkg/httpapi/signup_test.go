package httpapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/httpapi"
)

// TestSignedUpBusiness: a business just signed up (in preview, not
// accepting requests, without phone, city, state, area or services) is
// read as the document says (call checks it against the OpenAPI
// document), offers no window, and refuses a request with its code.
func TestSignedUpBusiness(t *testing.T) {
	ctx := context.Background()
	bookings, _ := newBookings(t)
	st, err := bookings.StartSignup(ctx, booking.SignupInput{Name: "Fontanería José", Trade: "plumbing", Email: "jose@example.com", Terms: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bookings.FinishSignup(ctx, st.Token); err != nil {
		t.Fatal(err)
	}
	h := httpapi.New(bookings, slog.New(slog.NewTextHandler(io.Discard, nil)))
	tests := []struct {
		method, path, body string
		status             int
		check              func(t *testing.T, r response)
	}{
		{"GET", "/api/v1/businesses/fontaneria-jose", "", http.StatusOK, func(t *testing.T, r response) {
			if r.body["preview"] != true || r.body["accepting_requests"] != false || r.body["phone"] != "" {
				t.Errorf("got preview %v, accepting %v, phone %q", r.body["preview"], r.body["accepting_requests"], r.body["phone"])
			}
		}},
		{"GET", "/api/v1/businesses/fontaneria-jose/availability", "", http.StatusOK, func(t *testing.T, r response) {
			if w, _ := r.body["windows"].([]any); len(w) != 0 || r.body["accepting_requests"] != false {
				t.Errorf("got %v", r.body)
			}
		}},
		{"POST", "/api/v1/businesses/fontaneria-jose/requests",
			`{"window_start":"2026-11-23T13:00:00Z","address":{"street":"1 Main St","zip":"78701"},"contact":{"name":"Ana Ruiz","phone":"5125550100"}}`,
			http.StatusServiceUnavailable, func(t *testing.T, r response) {
				if e, _ := r.body["error"].(map[string]any); e["code"] != "BOOKING_PAUSED" || e["message"] != "Fontanería José takes no online requests yet" {
					t.Errorf("got %v", r.body)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			r := call(t, h, tt.method, tt.path, tt.body, "Content-Type", "application/json")
			if r.status != tt.status {
				t.Fatalf("got %d %s, want %d", r.status, r.raw, tt.status)
			}
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}
