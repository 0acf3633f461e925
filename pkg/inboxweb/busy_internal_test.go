package inboxweb

import (
	"errors"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestFailWhenBusy: a store busy through its retries may have applied a
// write whose answer was lost, so the page says it could not confirm the
// change (503, Retry-After), never that nothing changed; any other failure
// keeps the plain error page (500).
func TestFailWhenBusy(t *testing.T) {
	h := &handler{Config: Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}}
	tests := []struct {
		name       string
		err        error
		lang       string
		wantStatus int
		wantText   string
	}{
		{"busy, en", booking.Busy(errors.New("ThrottlingException")), "en", http.StatusServiceUnavailable, tr("en", "error_busy")},
		{"busy, es", booking.Busy(errors.New("ThrottlingException")), "es", http.StatusServiceUnavailable, tr("es", "error_busy")},
		{"other", errors.New("decode"), "en", http.StatusInternalServerError, tr("en", "error")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/inbox/requests/X/accept?lang="+tt.lang, nil)
			r.Header.Set("Accept-Language", tt.lang)
			w := httptest.NewRecorder()
			h.fail(w, r, tt.err)
			body := html.UnescapeString(w.Body.String())
			if w.Code != tt.wantStatus || !strings.Contains(body, tt.wantText) {
				t.Errorf("got %d, want %d with %q in:\n%s", w.Code, tt.wantStatus, tt.wantText, body)
			}
			if tt.wantStatus == http.StatusServiceUnavailable && (strings.Contains(body, tr(tt.lang, "error")) || w.Header().Get("Retry-After") == "") {
				t.Errorf("busy: got the plain error page or no Retry-After:\n%s", body)
			}
		})
	}
}
