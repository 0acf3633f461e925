package edge_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

func TestErrorBodyOf(t *testing.T) {
	tests := []struct {
		name        string
		err         error
		wantCode    booking.Code
		wantMessage string
	}{
		{"a domain error", booking.Errorf(booking.WindowTaken, "taken"), booking.WindowTaken, "taken"},
		{"a wrapped domain error", errors.Join(errors.New("x"), booking.Errorf(booking.NotFound, "gone")), booking.NotFound, "gone"},
		{"an internal error", errors.New("dynamodb: 10.0.0.7 refused"), booking.ServerError, booking.ErrorMessage(errors.New(""))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := edge.ErrorBodyOf(tt.err)
			if got.Error.Code != tt.wantCode || got.Error.Message != tt.wantMessage {
				t.Errorf("got %+v, want %s %q", got, tt.wantCode, tt.wantMessage)
			}
		})
	}
}

func TestCORS(t *testing.T) {
	h := edge.CORS{AllowHeaders: "Content-Type", ExposeHeaders: "X-One"}.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	tests := []struct {
		method      string
		wantAllowed string // Access-Control-Allow-Headers: on preflights only
	}{
		{http.MethodOptions, "Content-Type"},
		{http.MethodPost, ""},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tt.method, "/", nil))
			got := rec.Header()
			if got.Get("Access-Control-Allow-Origin") != "*" || got.Get("Access-Control-Expose-Headers") != "X-One" ||
				got.Get("Access-Control-Allow-Headers") != tt.wantAllowed {
				t.Errorf("got %v, want origin *, exposed X-One, allowed headers %q", got, tt.wantAllowed)
			}
		})
	}
}

func TestWriteJSONNosniff(t *testing.T) {
	rec := httptest.NewRecorder()
	edge.WriteJSON(rec, http.StatusBadRequest, map[string]string{"a": "<script>"})
	if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
		t.Fatalf("got X-Content-Type-Options %q, want nosniff", got)
	}
	if got := rec.Header().Get("Content-Type"); got != "application/json" {
		t.Fatalf("got Content-Type %q, want application/json", got)
	}
}
