package booking

import (
	"encoding/json"
	"os"
	"testing"
	"time"
)

// loadFile loads the businesses of a JSON file, stopping the test on any error.
func loadFile(t testing.TB, path string) []*Business {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bs, err := LoadBusinesses(f)
	if err != nil {
		t.Fatal(err)
	}
	return bs
}

// testRecords returns testdata/businesses.json as plain JSON records, for
// tests that spoil one and load them again.
func testRecords(t testing.TB) []map[string]any {
	t.Helper()
	data, err := os.ReadFile("testdata/businesses.json")
	if err != nil {
		t.Fatal(err)
	}
	var records []map[string]any
	if err := json.Unmarshal(data, &records); err != nil {
		t.Fatal(err)
	}
	return records
}

// testBusinesses loads testdata/businesses.json, keyed by slug.
func testBusinesses(t testing.TB) map[string]*Business {
	t.Helper()
	bs := loadFile(t, "testdata/businesses.json")
	m := make(map[string]*Business, len(bs))
	for _, b := range bs {
		m[b.Slug] = b
	}
	return m
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

// hours returns n instants an hour apart from start, UTC, as RFC 3339.
func hours(start string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = utc(start).Add(time.Duration(i) * time.Hour).Format(time.RFC3339)
	}
	return out
}

func date(s string) time.Time {
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestWindows(t *testing.T) {
	bs := testBusinesses(t)
	tests := []struct {
		name     string
		business string
		now      string
		from     string
		days     int
		held     []string
		want     []string // start instants, UTC
		wantEnd  []string // end instants, when checked
	}{
		{
			name:     "split day 08-12 and 13-17, two-hour windows",
			business: "split-day-plumbing", now: "2026-11-20T00:00:00Z", from: "2026-11-23", days: 1,
			want:    []string{"2026-11-23T16:00:00Z", "2026-11-23T18:00:00Z", "2026-11-23T21:00:00Z", "2026-11-23T23:00:00Z"},
			wantEnd: []string{"2026-11-23T18:00:00Z", "2026-11-23T20:00:00Z", "2026-11-23T23:00:00Z", "2026-11-24T01:00:00Z"},
		},
		{
			name:     "started windows are gone, the one under way too",
			business: "split-day-plumbing", now: "2026-11-23T18:30:00Z", from: "2026-11-23", days: 1,
			want: []string{"2026-11-23T21:00:00Z", "2026-11-23T23:00:00Z"},
		},
		{
			name:     "held windows are gone",
			business: "split-day-plumbing", now: "2026-11-20T00:00:00Z", from: "2026-11-23", days: 1,
			held: []string{"2026-11-23T18:00:00Z", "2026-11-23T23:00:00Z"},
			want: []string{"2026-11-23T16:00:00Z", "2026-11-23T21:00:00Z"},
		},
		{
			name:     "closed Sunday, short Saturday",
			business: "split-day-plumbing", now: "2026-11-20T00:00:00Z", from: "2026-11-21", days: 2,
			want: []string{"2026-11-21T17:00:00Z", "2026-11-21T19:00:00Z"},
		},
		{
			name:     "horizon: today (Nov 19 local) plus 14 days is the last day",
			business: "split-day-plumbing", now: "2026-11-20T00:00:00Z", from: "2026-12-03", days: 3,
			want: []string{"2026-12-03T16:00:00Z", "2026-12-03T18:00:00Z", "2026-12-03T21:00:00Z", "2026-12-03T23:00:00Z"},
		},
		{
			name:     "from after the horizon",
			business: "split-day-plumbing", now: "2026-11-20T00:00:00Z", from: "2026-12-04", days: 7,
			want: []string{},
		},
		{
			name:     "close 24:00",
			business: "late-night-plumbing", now: "2026-11-20T00:00:00Z", from: "2026-11-20", days: 1,
			want:    []string{"2026-11-21T06:00:00Z", "2026-11-21T07:00:00Z"},
			wantEnd: []string{"2026-11-21T07:00:00Z", "2026-11-21T08:00:00Z"},
		},
		{
			name:     "spring forward in Los Angeles: 02:00 does not exist",
			business: "all-day-plumbing", now: "2027-03-13T12:00:00Z", from: "2027-03-14", days: 1,
			// 00:00 and 01:00 PST, then 03:00 PDT on to 23:00 PDT: no hour is missing in UTC.
			want: hours("2027-03-14T08:00:00Z", 23),
		},
		{
			name:     "fall back in Los Angeles: 01:00 happens twice, the earlier one counts",
			business: "all-day-plumbing", now: "2027-11-06T12:00:00Z", from: "2027-11-07", days: 1,
			want: append(
				hours("2027-11-07T07:00:00Z", 2),     // 00:00 and 01:00 PDT
				hours("2027-11-07T10:00:00Z", 22)..., // 02:00 PST on to 23:00 PST
			),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bs[tt.business]
			held := map[time.Time]bool{}
			for _, h := range tt.held {
				held[utc(h)] = true
			}
			got := b.Windows(utc(tt.now), date(tt.from), tt.days, func(s time.Time) bool { return held[s] })
			if len(got) != len(tt.want) {
				t.Fatalf("got %d windows %v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range got {
				if !w.Start.Equal(utc(tt.want[i])) {
					t.Errorf("window %d: got start %s, want %s", i, w.Start.Format(time.RFC3339), tt.want[i])
				}
				if w.Start.Location() != time.UTC {
					t.Errorf("window %d: got start in %s, want UTC", i, w.Start.Location())
				}
				if got, want := w.End.Sub(w.Start), time.Duration(b.ArrivalWindowMinutes)*time.Minute; got != want {
					t.Errorf("window %d: got length %s, want %s", i, got, want)
				}
				if tt.wantEnd != nil && !w.End.Equal(utc(tt.wantEnd[i])) {
					t.Errorf("window %d: got end %s, want %s", i, w.End.Format(time.RFC3339), tt.wantEnd[i])
				}
				if got, want := w.Date, w.Start.In(b.Location()).Format(dateLayout); got != want {
					t.Errorf("window %d: got date %s, want %s", i, got, want)
				}
			}
		})
	}
}

func TestWindowsNeverReturnsNil(t *testing.T) {
	b := testBusinesses(t)["split-day-plumbing"]
	got := b.Windows(utc("2026-11-20T00:00:00Z"), date("2026-11-22"), 1, nil) // a Sunday: closed
	if got == nil || len(got) != 0 {
		t.Fatalf("got %#v, want an empty, non-nil list", got)
	}
}

func TestWindowAt(t *testing.T) {
	bs := testBusinesses(t)
	tests := []struct {
		name     string
		business string
		now      string
		start    string
		want     bool
	}{
		{"a window start in UTC", "split-day-plumbing", "2026-11-20T00:00:00Z", "2026-11-23T16:00:00Z", true},
		{"the same instant in the business's offset", "split-day-plumbing", "2026-11-20T00:00:00Z", "2026-11-23T08:00:00-08:00", true},
		{"the same instant in another offset", "split-day-plumbing", "2026-11-20T00:00:00Z", "2026-11-23T11:00:00-05:00", true},
		{"an hour into a two-hour window", "split-day-plumbing", "2026-11-20T00:00:00Z", "2026-11-23T17:00:00Z", false},
		{"a minute off", "split-day-plumbing", "2026-11-20T00:00:00Z", "2026-11-23T16:01:00Z", false},
		{"lunch break", "split-day-plumbing", "2026-11-20T00:00:00Z", "2026-11-23T20:00:00Z", false},
		{"would end after close", "split-day-plumbing", "2026-11-20T00:00:00Z", "2026-11-24T00:00:00Z", false},
		{"closed day", "split-day-plumbing", "2026-11-20T00:00:00Z", "2026-11-22T16:00:00Z", false},
		{"last day of the horizon", "split-day-plumbing", "2026-11-20T00:00:00Z", "2026-12-03T16:00:00Z", true},
		{"past the horizon", "split-day-plumbing", "2026-11-20T00:00:00Z", "2026-12-04T16:00:00Z", false},
		{"window ending at 24:00", "late-night-plumbing", "2026-11-20T00:00:00Z", "2026-11-21T07:00:00Z", true},
		{"spring forward: 03:00 PDT", "all-day-plumbing", "2027-03-13T12:00:00Z", "2027-03-14T10:00:00Z", true},
		{"fall back: the earlier 01:00", "all-day-plumbing", "2027-11-06T12:00:00Z", "2027-11-07T08:00:00Z", true},
		{"fall back: the later 01:00 is no window", "all-day-plumbing", "2027-11-06T12:00:00Z", "2027-11-07T09:00:00Z", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, err := time.Parse(time.RFC3339, tt.start)
			if err != nil {
				t.Fatal(err)
			}
			w, got := bs[tt.business].WindowAt(start, utc(tt.now))
			if got != tt.want {
				t.Fatalf("got %v (%+v), want %v", got, w, tt.want)
			}
			if got && (!w.Start.Equal(start) || w.Start.Location() != time.UTC) {
				t.Errorf("got start %s, want %s in UTC", w.Start, start)
			}
		})
	}
}
