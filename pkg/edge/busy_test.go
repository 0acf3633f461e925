package edge_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// A store failure that outlived its retries (booking.Busy) is 503
// SERVER_BUSY with Retry-After on every edge, never a bare 500.
func TestServerBusy(t *testing.T) {
	busy := booking.Busy(errors.New("ThrottlingException: rate exceeded"))
	tests := []struct {
		name          string
		err           error
		wantStatus    int
		wantRetry     string
		wantPageState int
	}{
		{"busy", busy, http.StatusServiceUnavailable, "1", http.StatusServiceUnavailable},
		{"busy, wrapped", errors.Join(errors.New("create request X"), busy), http.StatusServiceUnavailable, "1", http.StatusServiceUnavailable},
		{"any other failure", errors.New("decode"), http.StatusInternalServerError, "", http.StatusInternalServerError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := edge.ErrorBodyOf(tt.err)
			if got := edge.Status(body.Error.Code); got != tt.wantStatus {
				t.Errorf("status of %s: got %d, want %d", body.Error.Code, got, tt.wantStatus)
			}
			w := httptest.NewRecorder()
			if got := edge.PageFailure(w, tt.err); got != tt.wantPageState {
				t.Errorf("page status: got %d, want %d", got, tt.wantPageState)
			}
			if got := w.Header().Get("Retry-After"); got != tt.wantRetry {
				t.Errorf("page Retry-After: got %q, want %q", got, tt.wantRetry)
			}
		})
	}
	if got := edge.ErrorBodyOf(busy).Error; got.Code != booking.ServerBusy || got.Message == "" || got.Message == busy.Error() {
		t.Errorf("body of busy: got %+v, want SERVER_BUSY with a message that is not the cause's text", got)
	}
}
