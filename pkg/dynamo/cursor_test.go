package dynamo_test

import (
	"context"
	"encoding/base64"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestBusinessRequestsForgedCursor: a cursor is checked against the query
// before it becomes its start key. DynamoDB refuses a start key outside the
// key condition with a ValidationException (DynamoDB Local does too), which
// was a 500: each cursor that names another business, a time outside the
// query's range or not as the list writes it, or no request code, is
// INVALID_REQUEST; one inside the range is a position in the business's own
// list, and reads it.
func TestBusinessRequestsForgedCursor(t *testing.T) {
	ctx := context.Background()
	cursor := func(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }
	q := booking.RequestQuery{Slug: slug, From: now.Add(-30 * 24 * time.Hour), To: now.Add(24 * time.Hour), Limit: 10}
	tests := []struct {
		name, cursor string
		wantErr      bool
	}{
		{"the issue's: a time past the range", cursor(`{"c":"ZZZZ-ZZZZ-ZZZZ","t":"9999-12-31T23:59:59Z","b":"` + slug + `"}`), true},
		{"a time before the range", cursor(`{"c":"ZZZZ-ZZZZ-ZZZZ","t":"1999-01-01T00:00:00Z","b":"` + slug + `"}`), true},
		{"a time not as the list writes it", cursor(`{"c":"ZZZZ-ZZZZ-ZZZZ","t":"` + now.Add(-time.Hour).Format("2006-01-02T15:04:05-07:00") + `","b":"` + slug + `"}`), true},
		{"a time with a fraction", cursor(`{"c":"ZZZZ-ZZZZ-ZZZZ","t":"` + now.Add(-time.Hour).UTC().Format("2006-01-02T15:04:05.5Z") + `","b":"` + slug + `"}`), true},
		{"a code not as the list writes it", cursor(`{"c":"zzzz zzzz zzzz","t":"` + now.Add(-time.Hour).UTC().Format(time.RFC3339) + `","b":"` + slug + `"}`), true},
		{"another business", cursor(`{"c":"ZZZZ-ZZZZ-ZZZZ","t":"` + now.Add(-time.Hour).UTC().Format(time.RFC3339) + `","b":"someone-else"}`), true},
		{"not JSON", cursor(`{"c":`), true},
		{"inside the range", cursor(`{"c":"ZZZZ-ZZZZ-ZZZZ","t":"` + now.Add(-time.Hour).UTC().Format(time.RFC3339) + `","b":"` + slug + `"}`), false},
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				q := q
				q.Cursor = tt.cursor
				_, err := e.store.BusinessRequests(ctx, q)
				if got := booking.ErrorCode(err); tt.wantErr && got != booking.InvalidRequest {
					t.Errorf("got %v (%s), want INVALID_REQUEST", err, got)
				}
				if !tt.wantErr && err != nil {
					t.Errorf("got %v, want the page", err)
				}
			})
		}
	})
}
