package notify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/metrics"
)

// TestNotifyMetrics: each message handed to its channel is counted sent,
// each that failed is counted failed, and a message skipped as sent before
// is neither, as the EMF lines pkg/metrics writes say.
func TestNotifyMetrics(t *testing.T) {
	f := newFixture(t)
	var buf bytes.Buffer
	f.n.Metrics = metrics.New(slog.New(slog.NewJSONHandler(&buf, nil)), "", f.clock.Now)
	ctx := context.Background()
	r := request(booking.StatusNew, "en", both)

	f.senders.fail[email] = true
	if err := f.n.Notify(ctx, nil, r); err == nil {
		t.Fatal("got no error, want the e-mail's failure")
	}
	want := []string{"NotificationsFailed Channel=email", "NotificationsSent Channel=sms", "NotificationsSent Channel=email"}
	if got := metricLines(t, &buf); !slices.Equal(got, want) {
		t.Errorf("first try: got %q, want %q", got, want)
	}

	buf.Reset()
	delete(f.senders.fail, email)
	if err := f.n.Notify(ctx, nil, r); err != nil {
		t.Fatal(err)
	}
	want = []string{"NotificationsSent Channel=email"}
	if got := metricLines(t, &buf); !slices.Equal(got, want) {
		t.Errorf("retry: got %q, want %q (the others were sent before)", got, want)
	}
}

// metricLines reads the EMF lines in buf as "Metric Dimension=value".
func metricLines(t *testing.T, buf *bytes.Buffer) []string {
	t.Helper()
	var got []string
	for text := range strings.Lines(buf.String()) {
		var l struct {
			Msg string `json:"msg"`
			AWS struct {
				CloudWatchMetrics []struct {
					Dimensions [][]string
					Metrics    []struct{ Name string }
				}
			} `json:"_aws"`
			Channel string
		}
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			t.Fatalf("not a JSON line: %v\n%s", err, text)
		}
		if l.Msg != "metric" {
			continue
		}
		d := l.AWS.CloudWatchMetrics[0]
		got = append(got, d.Metrics[0].Name+" Channel="+l.Channel)
	}
	return got
}
