package metrics_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
	"github.com/doorstep/doorstep/pkg/dynamo"
	"github.com/doorstep/doorstep/pkg/dynamo/dynamotest"
	"github.com/doorstep/doorstep/pkg/metrics"
)

// at is the tests' clock: Monday 2026-11-23, 8:00 AM in Phoenix.
var at = time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)

// line is an EMF line as CloudWatch Logs reads it: the _aws metadata, and
// every other member at the root.
type line struct {
	AWS struct {
		Timestamp         int64
		CloudWatchMetrics []struct {
			Namespace  string
			Dimensions [][]string
			Metrics    []struct{ Name, Unit string }
		}
	} `json:"_aws"`
	Root map[string]any `json:"-"`
}

// decode reads the metric lines written to buf, checking each against the
// EMF specification's rules: one directive with a namespace, each metric's
// value and each dimension's string value at the root, the timestamp in
// milliseconds.
func decode(t *testing.T, buf *bytes.Buffer) []line {
	t.Helper()
	var lines []line
	for text := range strings.Lines(buf.String()) {
		var l line
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			t.Fatalf("not a JSON line: %v\n%s", err, text)
		}
		if err := json.Unmarshal([]byte(text), &l.Root); err != nil {
			t.Fatal(err)
		}
		if l.Root["msg"] != "metric" {
			continue
		}
		if len(l.AWS.CloudWatchMetrics) != 1 {
			t.Fatalf("got %d directives, want 1: %s", len(l.AWS.CloudWatchMetrics), text)
		}
		d := l.AWS.CloudWatchMetrics[0]
		if d.Namespace == "" || len(d.Metrics) != 1 || d.Metrics[0].Unit != "Count" {
			t.Errorf("got directive %+v, want a namespace and one Count metric", d)
		}
		for _, m := range d.Metrics {
			if v, ok := l.Root[m.Name].(float64); !ok || v != 1 {
				t.Errorf("metric %s: got root value %v, want 1", m.Name, l.Root[m.Name])
			}
		}
		for _, set := range d.Dimensions {
			for _, dim := range set {
				if v, ok := l.Root[dim].(string); !ok || v == "" {
					t.Errorf("dimension %s: got root value %v, want a string", dim, l.Root[dim])
				}
			}
		}
		lines = append(lines, l)
	}
	return lines
}

// name is a line's metric and its dimension's value: "RequestsRefused Code=OUT_OF_AREA".
func (l line) name() string {
	d := l.AWS.CloudWatchMetrics[0]
	s := d.Metrics[0].Name
	for _, set := range d.Dimensions {
		for _, dim := range set {
			s += " " + dim + "=" + l.Root[dim].(string)
		}
	}
	return s
}

func TestCount(t *testing.T) {
	tests := []struct {
		name               string
		metric, dim, value string
		namespace          string
		wantNamespace      string
		wantDimensions     [][]string
		wantName           string
	}{
		{"no dimension", metrics.RequestsCreated, "", "", "", metrics.DefaultNamespace, [][]string{{}}, "RequestsCreated"},
		{"a dimension", metrics.RequestsRefused, metrics.DimensionCode, "OUT_OF_AREA", "Doorstep/prod", "Doorstep/prod",
			[][]string{{}, {"Code"}}, "RequestsRefused Code=OUT_OF_AREA"},
		{"an empty value", metrics.NotificationsFailed, metrics.DimensionChannel, "", "", metrics.DefaultNamespace,
			[][]string{{}, {"Channel"}}, "NotificationsFailed Channel=none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			m := metrics.New(slog.New(slog.NewJSONHandler(&buf, nil)), tt.namespace, func() time.Time { return at })
			m.Count(context.Background(), tt.metric, tt.dim, tt.value)
			lines := decode(t, &buf)
			if len(lines) != 1 {
				t.Fatalf("got %d lines, want 1:\n%s", len(lines), buf.String())
			}
			l := lines[0]
			if got := l.name(); got != tt.wantName {
				t.Errorf("got %s, want %s", got, tt.wantName)
			}
			d := l.AWS.CloudWatchMetrics[0]
			if d.Namespace != tt.wantNamespace {
				t.Errorf("got namespace %q, want %q", d.Namespace, tt.wantNamespace)
			}
			if !slices.EqualFunc(d.Dimensions, tt.wantDimensions, slices.Equal) {
				t.Errorf("got dimensions %v, want %v", d.Dimensions, tt.wantDimensions)
			}
			if l.AWS.Timestamp != at.UnixMilli() {
				t.Errorf("got timestamp %d, want %d (ms)", l.AWS.Timestamp, at.UnixMilli())
			}
		})
	}
}

func TestNilWritesNothing(t *testing.T) {
	var m *metrics.Metrics
	m.Count(context.Background(), metrics.RequestsCreated, "", "") // must not panic
	m.RequestCreated(context.Background())
}

// TestBookingsEvents runs the service on minidyn with Metrics as its
// observer and reads back the lines each call wrote.
func TestBookingsEvents(t *testing.T) {
	ctx := context.Background()
	client, table := dynamotest.Minidyn(t)
	store := dynamo.New(client, table)
	dynamotest.PutBusinesses(t, store, filepath.Join("..", "..", "infra", "local", "businesses.json"), func(b *booking.Business) {
		if b.Slug == "desert-cool-hvac" {
			b.RequestsPerHour = 2
		}
	})
	clock := bookingtest.NewClock(at)
	var buf bytes.Buffer
	m := metrics.New(slog.New(slog.NewJSONHandler(&buf, nil)), "", clock.Now)
	bookings := bookingtest.New(t, booking.Config{Store: store, SiteURL: "https://book.example.com", Now: clock.Now, Observer: m})
	b, err := bookings.Business(ctx, "desert-cool-hvac")
	if err != nil {
		t.Fatal(err)
	}
	a, err := bookings.ArrivalWindows(ctx, b, booking.WindowQuery{Days: 2})
	if err != nil || len(a.Windows) < 3 {
		t.Fatalf("windows: %v %v", a.Windows, err)
	}
	input := func(window int, zip, phone, key string) booking.CreateInput {
		in := booking.CreateInput{
			WindowStart: a.Windows[window].Start,
			Address:     booking.Address{Street: "1820 N 7th St", ZIP: zip},
			Contact:     booking.Contact{Name: "Jordan Lee", Phone: phone},
		}
		if key != "" {
			in.IdempotencyKeys = []string{key}
		}
		return in
	}

	// A phone's open requests, at a business whose hourly limit is not in
	// the way.
	other, err := bookings.Business(ctx, "limpieza-la-estrella")
	if err != nil {
		t.Fatal(err)
	}
	oa, err := bookings.ArrivalWindows(ctx, other, booking.WindowQuery{Days: 3})
	if err != nil || len(oa.Windows) <= booking.MaxOpenPerPhone {
		t.Fatalf("windows: %v %v", oa.Windows, err)
	}
	openOne := func(window int) error {
		_, _, err := bookings.CreateRequest(ctx, other, booking.CreateInput{
			WindowStart: oa.Windows[window].Start,
			Address:     booking.Address{Street: "1 Sunset Blvd", ZIP: "90026"},
			Contact:     booking.Contact{Name: "Ana Ruiz", Phone: "3235550100"},
		})
		return err
	}

	steps := []struct {
		name string
		do   func() error
		want []string
	}{
		{"a create", func() error {
			_, _, err := bookings.CreateRequest(ctx, b, input(0, "85006", "6025550147", "first-try-0001"))
			return err
		}, []string{"RequestsCreated"}},
		{"its replay", func() error {
			_, replayed, err := bookings.CreateRequest(ctx, b, input(0, "85006", "6025550147", "first-try-0001"))
			if !replayed {
				t.Error("not replayed")
			}
			return err
		}, nil},
		{"out of area", func() error {
			_, _, err := bookings.CreateRequest(ctx, b, input(1, "10001", "6025550148", ""))
			return wantCode(err, booking.OutOfArea)
		}, []string{"RequestsRefused Code=OUT_OF_AREA"}},
		{"a second create", func() error {
			_, _, err := bookings.CreateRequest(ctx, b, input(1, "85006", "6025550149", ""))
			return err
		}, []string{"RequestsCreated"}},
		{"the business's hourly limit", func() error {
			_, _, err := bookings.CreateRequest(ctx, b, input(2, "85006", "6025550150", ""))
			return wantCode(err, booking.RateLimited)
		}, []string{"LimitsHit Limit=business_requests", "RequestsRefused Code=RATE_LIMITED"}},
		{"a phone's open requests", func() error {
			for i := range booking.MaxOpenPerPhone {
				if err := openOne(i); err != nil {
					return err
				}
			}
			return nil
		}, slices.Repeat([]string{"RequestsCreated"}, booking.MaxOpenPerPhone)},
		{"one more from that phone", func() error {
			return wantCode(openOne(booking.MaxOpenPerPhone), booking.TooManyOpen)
		}, []string{"LimitsHit Limit=open_per_contact", "RequestsRefused Code=TOO_MANY_OPEN"}},
		{"sign-in links within the hour", func() error {
			for range booking.MaxSignInsPerHour {
				if _, _, _, err := bookings.StartSignIn(ctx, "inbox@desert-cool-hvac.example.com"); err != nil {
					return err
				}
			}
			return nil
		}, nil},
		{"one sign-in link more", func() error {
			_, _, _, err := bookings.StartSignIn(ctx, "inbox@desert-cool-hvac.example.com")
			return wantCode(err, booking.RateLimited)
		}, []string{"LimitsHit Limit=sign_ins"}},
		{"the person's cancel", func() error {
			page, err := bookingtest.Inbox(t, bookings, b.Slug).Requests(ctx, booking.InboxQuery{Limit: 10})
			if err != nil || len(page.Requests) == 0 {
				t.Fatalf("inbox: %+v %v", page, err)
			}
			_, err = bookings.CustomerCancel(ctx, page.Requests[0].Code)
			return err
		}, []string{"RequestsMoved Action=cancel"}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			buf.Reset()
			if err := st.do(); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range decode(t, &buf) {
				got = append(got, l.name())
			}
			if !slices.Equal(got, st.want) {
				t.Errorf("got %q, want %q", got, st.want)
			}
		})
	}
}

func wantCode(err error, code booking.Code) error {
	if booking.ErrorCode(err) != code {
		return &booking.Error{Code: booking.ServerError, Message: "got " + string(booking.ErrorCode(err)) + ", want " + string(code) + ": " + errString(err)}
	}
	return nil
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}
