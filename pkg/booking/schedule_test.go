package booking

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// withSchedule is a copy of the test business slug with days off and a
// notice, validated as the loader would.
func withSchedule(t testing.TB, slug string, noticeMinutes int, daysOff ...DayOff) *Business {
	t.Helper()
	b := *testBusinesses(t)[slug]
	b.DaysOff, b.MinNoticeMinutes = daysOff, noticeMinutes
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	return &b
}

func startsOf(ws []Window) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Start.UTC().Format(time.RFC3339)
	}
	return out
}

func TestWindowsDaysOffAndNotice(t *testing.T) {
	tests := []struct {
		name     string
		business string
		notice   int
		daysOff  []DayOff
		now      string
		from     string
		days     int
		want     []string
	}{
		{
			name:     "a day off on spring forward in Los Angeles (2027-03-14, 23 hours): none of it, the days around whole",
			business: "all-day-plumbing", daysOff: []DayOff{{From: "2027-03-14", Note: "DST"}},
			now: "2027-03-13T12:00:00Z", from: "2027-03-13", days: 3,
			want: append(hours("2027-03-13T13:00:00Z", 19), hours("2027-03-15T07:00:00Z", 24)...), // 05:00 PST on; then 00:00 PDT on
		},
		{
			name:     "a day off on fall back in Los Angeles (2026-11-01, 25 hours): both 01:00s are off",
			business: "all-day-plumbing", daysOff: []DayOff{{From: "2026-11-01"}},
			now: "2026-10-30T12:00:00Z", from: "2026-10-31", days: 3,
			want: append(hours("2026-10-31T07:00:00Z", 24), hours("2026-11-02T08:00:00Z", 24)...), // PDT, then PST
		},
		{
			name:     "the day before fall back is off: the day of the change is whole",
			business: "all-day-plumbing", daysOff: []DayOff{{From: "2026-10-31"}},
			now: "2026-10-30T12:00:00Z", from: "2026-10-31", days: 2,
			want: append(hours("2026-11-01T07:00:00Z", 2), hours("2026-11-01T10:00:00Z", 22)...),
		},
		{
			name:     "a range Tuesday to Thursday",
			business: "split-day-plumbing", daysOff: []DayOff{{From: "2026-11-24", To: "2026-11-26", Note: "Thanksgiving"}},
			now: "2026-11-20T00:00:00Z", from: "2026-11-23", days: 5,
			want: []string{
				"2026-11-23T16:00:00Z", "2026-11-23T18:00:00Z", "2026-11-23T21:00:00Z", "2026-11-23T23:00:00Z",
				"2026-11-27T16:00:00Z", "2026-11-27T18:00:00Z", "2026-11-27T21:00:00Z", "2026-11-27T23:00:00Z",
			},
		},
		{
			name:     "overlapping entries and a day off on a closed day",
			business: "split-day-plumbing", daysOff: []DayOff{{From: "2026-11-22"}, {From: "2026-11-23", To: "2026-11-24"}, {From: "2026-11-24"}},
			now: "2026-11-20T00:00:00Z", from: "2026-11-22", days: 4,
			want: []string{"2026-11-25T16:00:00Z", "2026-11-25T18:00:00Z", "2026-11-25T21:00:00Z", "2026-11-25T23:00:00Z"},
		},
		{
			name:     "days off in the past change nothing",
			business: "split-day-plumbing", daysOff: []DayOff{{From: "2025-12-24", To: "2025-12-26"}},
			now: "2026-11-20T00:00:00Z", from: "2026-11-23", days: 1,
			want: []string{"2026-11-23T16:00:00Z", "2026-11-23T18:00:00Z", "2026-11-23T21:00:00Z", "2026-11-23T23:00:00Z"},
		},
		{
			name:     "notice across midnight: Sunday 19:00 plus 16 hours is Monday 11:00",
			business: "split-day-plumbing", notice: 16 * 60,
			now: "2026-11-23T03:00:00Z", from: "2026-11-22", days: 2,
			want: []string{"2026-11-23T21:00:00Z", "2026-11-23T23:00:00Z"},
		},
		{
			name:     "notice ending exactly at a start: that window is not offered",
			business: "split-day-plumbing", notice: 13 * 60, // Sunday 19:00 plus 13 hours is Monday 08:00
			now: "2026-11-23T03:00:00Z", from: "2026-11-23", days: 1,
			want: []string{"2026-11-23T18:00:00Z", "2026-11-23T21:00:00Z", "2026-11-23T23:00:00Z"},
		},
		{
			name:     "notice and a day off together",
			business: "split-day-plumbing", notice: 16 * 60, daysOff: []DayOff{{From: "2026-11-24"}},
			now: "2026-11-23T03:00:00Z", from: "2026-11-23", days: 3,
			want: []string{"2026-11-23T21:00:00Z", "2026-11-23T23:00:00Z",
				"2026-11-25T16:00:00Z", "2026-11-25T18:00:00Z", "2026-11-25T21:00:00Z", "2026-11-25T23:00:00Z"},
		},
		{
			name:     "a week's notice on an all-day business: the first offered is after now plus 7 days",
			business: "all-day-plumbing", notice: MaxNoticeMinutes,
			now: "2026-11-20T00:30:00Z", from: "2026-11-26", days: 2,
			// Thursday 16:30 PST plus a week: Thursday 26th from 17:00 PST
			// (01:00Z) and all of Friday 27th, 31 windows in a row.
			want: hours("2026-11-27T01:00:00Z", 31),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := withSchedule(t, tt.business, tt.notice, tt.daysOff...)
			got := b.Windows(utc(tt.now), date(tt.from), tt.days, nil)
			if !slices.Equal(startsOf(got), tt.want) {
				t.Fatalf("got  %v\nwant %v", startsOf(got), tt.want)
			}
			for _, w := range got {
				if at, ok := b.WindowAt(w.Start, utc(tt.now)); !ok || at != w {
					t.Errorf("WindowAt(%s) = %+v, %v; want the listed window", w.Start, at, ok)
				}
			}
		})
	}
}

// TestWindowsDaysOffAtTheHorizon closes the first day (today) and the last
// day of the horizon: the list is the list without days off, less those
// two days.
func TestWindowsDaysOffAtTheHorizon(t *testing.T) {
	now := utc("2026-11-19T15:00:00Z") // Thursday 07:00 in Los Angeles; the horizon's last day is Thursday 2026-12-03
	open := withSchedule(t, "split-day-plumbing", 0)
	closed := withSchedule(t, "split-day-plumbing", 0, DayOff{From: "2026-11-19"}, DayOff{From: "2026-12-03", To: "2026-12-31"})
	from := date("2026-11-19")
	all := open.Windows(now, from, MaxDays+1, nil)
	var want []Window
	for _, w := range all {
		if w.Date != "2026-11-19" && w.Date != "2026-12-03" {
			want = append(want, w)
		}
	}
	if len(want) == len(all) || all[0].Date != "2026-11-19" || all[len(all)-1].Date != "2026-12-03" {
		t.Fatalf("the test's days are not the horizon's first and last: %v", startsOf(all))
	}
	if got := closed.Windows(now, from, MaxDays+1, nil); !slices.Equal(got, want) {
		t.Fatalf("got  %v\nwant %v", startsOf(got), startsOf(want))
	}
	for _, s := range []string{"2026-11-19T16:00:00Z", "2026-12-03T16:00:00Z"} {
		if _, ok := closed.WindowAt(utc(s), now); ok {
			t.Errorf("WindowAt(%s) on a day off = true", s)
		}
		if _, ok := open.WindowAt(utc(s), now); !ok {
			t.Errorf("WindowAt(%s) without days off = false", s)
		}
	}
}

// TestCreateDaysOffAndNotice: a create for a window on a day off is
// INVALID_WINDOW, one within the notice TOO_LATE, each at its place in the
// precedence of decisions.md.
func TestCreateDaysOffAndNotice(t *testing.T) {
	// Friday 2026-11-20 07:00 in Los Angeles; 24 hours' notice; Monday
	// 2026-11-23 off.
	now := utc("2026-11-20T15:00:00Z")
	mk := func(slug string) *Business {
		return withSchedule(t, slug, 24*60, DayOff{From: "2026-11-23", Note: "Closed"})
	}
	tests := []struct {
		name     string
		business string
		window   string
		zip      string
		deposit  bool
		want     Code
		wantMsg  string
	}{
		{name: "after the notice, not a day off", window: "2026-11-21T17:00:00Z", want: ""}, // Saturday 09:00
		{name: "within the notice", window: "2026-11-20T23:00:00Z", want: TooLate, wantMsg: "1 day"},
		{name: "within the notice, given with an offset", window: "2026-11-20T15:00:00-08:00", want: TooLate},
		{name: "started", window: "2026-11-20T16:00:00Z", want: TooLate, wantMsg: "already started"}, // asked at 08:00 (see n below)
		{name: "on a day off", window: "2026-11-23T16:00:00Z", want: InvalidWindow, wantMsg: "open arrival window"},
		{name: "the day after the day off", window: "2026-11-24T16:00:00Z", want: ""},
		{name: "not a window start, after the notice", window: "2026-11-24T17:00:00Z", want: InvalidWindow},
		// Precedence.
		{name: "TOO_LATE (notice) before INVALID_WINDOW (not a start)", window: "2026-11-20T22:00:00Z", want: TooLate},
		{name: "OUT_OF_AREA before INVALID_WINDOW (day off)", window: "2026-11-23T16:00:00Z", zip: "94110", want: OutOfArea},
		{name: "OUT_OF_AREA before TOO_LATE (notice)", window: "2026-11-20T23:00:00Z", zip: "94110", want: OutOfArea},
		{name: "BOOKING_PAUSED before INVALID_WINDOW (day off)", business: "paused-plumbing", window: "2026-11-23T14:00:00Z", want: BookingPaused},
		{name: "DEPOSIT_TERMS before TOO_LATE (notice)", business: "deposit-plumbing", window: "2026-11-20T18:00:00Z", zip: "10001", want: DepositTerms},
		{name: "deposit accepted, within the notice", business: "deposit-plumbing", window: "2026-11-20T18:00:00Z", zip: "10001", deposit: true, want: TooLate},
		{name: "deposit accepted, on the day off", business: "deposit-plumbing", window: "2026-11-23T13:00:00Z", zip: "10001", deposit: true, want: InvalidWindow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slug := "split-day-plumbing"
			if tt.business != "" {
				slug = tt.business
			}
			b := mk(slug)
			body := withField(t, []byte(validBody), "window_start", tt.window, false)
			if tt.zip != "" {
				body = withField(t, body, "address.zip", tt.zip, false)
			}
			if tt.deposit {
				body = withField(t, body, "deposit_accepted", true, false)
			}
			n := now
			if tt.wantMsg == "already started" {
				n = utc("2026-11-20T16:00:00Z")
			}
			_, err := validate(t, b, body, "", n)
			if got := codeOf(err); got != tt.want {
				t.Fatalf("got %s (%v), want %s", got, err, tt.want)
			}
			if tt.wantMsg != "" && !strings.Contains(ErrorMessage(err), tt.wantMsg) {
				t.Errorf("got message %q, want it to say %q", ErrorMessage(err), tt.wantMsg)
			}
			if err != nil && strings.Contains(ErrorMessage(err), "Closed") {
				t.Errorf("the message shows the day off's private note: %q", ErrorMessage(err))
			}
		})
	}
}

// TestCreateNoticeBeforeDayOff: a window both within the notice and on a
// day off is TOO_LATE (TOO_LATE comes first).
func TestCreateNoticeBeforeDayOff(t *testing.T) {
	b := withSchedule(t, "split-day-plumbing", 24*60, DayOff{From: "2026-11-20"})
	body := withField(t, []byte(validBody), "window_start", "2026-11-20T23:00:00Z", false) // Friday 15:00, off
	if _, err := validate(t, b, body, "", utc("2026-11-20T15:00:00Z")); codeOf(err) != TooLate {
		t.Fatalf("got %v, want TOO_LATE", err)
	}
	if _, err := validate(t, b, body, "", utc("2026-11-19T15:00:00Z")); codeOf(err) != InvalidWindow {
		t.Fatalf("a day earlier, out of the notice: got %v, want INVALID_WINDOW", err)
	}
}

// TestMoveDaysOffAndNotice: the business's move (openWindow) may not take
// a window on a day off (INVALID_WINDOW) or one that has started
// (TOO_LATE), but may take one within its notice: the notice binds
// customers, not the business's own choice.
func TestMoveDaysOffAndNotice(t *testing.T) {
	b := withSchedule(t, "split-day-plumbing", 24*60, DayOff{From: "2026-11-23"})
	now := utc("2026-11-20T15:00:00Z") // Friday 07:00 in Los Angeles
	tests := []struct {
		window string
		want   Code
	}{
		{"2026-11-20T16:00:00Z", ""}, // Friday 08:00: within the notice
		{"2026-11-20T23:00:00Z", ""},
		{"2026-11-24T16:00:00Z", ""},
		{"2026-11-23T16:00:00Z", InvalidWindow}, // the day off
		{"2026-11-23T08:00:00-08:00", InvalidWindow},
		{"2026-11-20T14:00:00Z", TooLate},       // before now
		{"2026-11-20T17:00:00Z", InvalidWindow}, // not a start
		{"2026-12-05T17:00:00Z", InvalidWindow}, // past the horizon
	}
	for _, tt := range tests {
		t.Run(tt.window, func(t *testing.T) {
			w, err := b.openWindow(utc(tt.window), now)
			if got := codeOf(err); got != tt.want {
				t.Fatalf("got %s (%v), want %s", got, err, tt.want)
			}
			if err == nil && !w.Start.Equal(utc(tt.window)) {
				t.Errorf("got window %+v", w)
			}
		})
	}
}

func TestLoadDaysOffAndNotice(t *testing.T) {
	load := func(change func(m map[string]any)) ([]*Business, error) {
		m := testRecords(t)[0]
		change(m)
		raw, _ := json.Marshal([]any{m})
		return LoadBusinesses(strings.NewReader(string(raw)))
	}
	many := make([]any, MaxDaysOff+1)
	for i := range many {
		many[i] = map[string]any{"from": "2026-12-24"}
	}
	rejects := []struct {
		name   string
		change func(m map[string]any)
		want   string
	}{
		{"from not a date", func(m map[string]any) { m["days_off"] = []any{map[string]any{"from": "24/12/2026"}} }, "days_off[0].from"},
		{"from missing", func(m map[string]any) { m["days_off"] = []any{map[string]any{"to": "2026-12-24"}} }, "days_off[0].from"},
		{"from of another type", func(m map[string]any) { m["days_off"] = []any{map[string]any{"from": 20261224}} }, "days_off"},
		{"no such day", func(m map[string]any) { m["days_off"] = []any{map[string]any{"from": "2026-02-30"}} }, "days_off[0].from"},
		{"to not a date", func(m map[string]any) {
			m["days_off"] = []any{map[string]any{"from": "2026-12-24"}, map[string]any{"from": "2026-12-24", "to": "2026-12-26T00:00:00Z"}}
		}, "days_off[1].to"},
		{"to before from", func(m map[string]any) {
			m["days_off"] = []any{map[string]any{"from": "2026-12-26", "to": "2026-12-24"}}
		}, "days_off[0].to"},
		{"too many", func(m map[string]any) { m["days_off"] = many }, "days_off"},
		{"note too long", func(m map[string]any) {
			m["days_off"] = []any{map[string]any{"from": "2026-12-24", "note": strings.Repeat("n", MaxDayOffNote+1)}}
		}, "days_off[0].note"},
		{"note on two lines", func(m map[string]any) {
			m["days_off"] = []any{map[string]any{"from": "2026-12-24", "note": "Holidays\nback on the 27th"}}
		}, "days_off[0].note"},
		{"negative notice", func(m map[string]any) { m["min_notice_minutes"] = -1 }, "min_notice_minutes"},
		{"notice over a week", func(m map[string]any) { m["min_notice_minutes"] = MaxNoticeMinutes + 1 }, "min_notice_minutes"},
		{"notice not a number", func(m map[string]any) { m["min_notice_minutes"] = "60" }, "min_notice_minutes"},
		{"negative crews", func(m map[string]any) { m["crews_per_window"] = -1 }, "crews_per_window"},
		{"more crews than MaxCrews", func(m map[string]any) { m["crews_per_window"] = MaxCrews + 1 }, "crews_per_window"},
		{"crews not a number", func(m map[string]any) { m["crews_per_window"] = "2" }, "crews_per_window"},
		{"crews_ever over MaxCrews", func(m map[string]any) { m["crews_ever"] = MaxCrews + 1 }, "crews_ever"},
	}
	for _, tt := range rejects {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(tt.change)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error naming %s", err, tt.want)
			}
		})
	}

	t.Run("valid, and kept by the record", func(t *testing.T) {
		bs, err := load(func(m map[string]any) {
			m["days_off"] = []any{
				map[string]any{"from": "2026-12-24", "to": "2026-12-26", "note": "Holidays"},
				map[string]any{"from": "2026-12-31"},
				map[string]any{"from": "2027-01-01", "to": "2027-01-01"},
			}
			m["min_notice_minutes"] = MaxNoticeMinutes
		})
		if err != nil {
			t.Fatal(err)
		}
		b := bs[0]
		for _, tc := range []struct {
			day  string
			want bool
		}{{"2026-12-23", false}, {"2026-12-24", true}, {"2026-12-26", true}, {"2026-12-27", false}, {"2026-12-31", true}, {"2027-01-01", true}, {"2027-01-02", false}} {
			if got := b.dayOff(date(tc.day)); got != tc.want {
				t.Errorf("dayOff(%s) = %v, want %v", tc.day, got, tc.want)
			}
		}
		if b.Notice() != 7*24*time.Hour {
			t.Errorf("got notice %s", b.Notice())
		}
		doc, err := EncodeBusinessRecord(b)
		if err != nil {
			t.Fatal(err)
		}
		again, err := DecodeBusiness(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(again.DaysOff, b.DaysOff) || again.MinNoticeMinutes != b.MinNoticeMinutes || !slices.Equal(again.daysOff, b.daysOff) {
			t.Errorf("the record lost the schedule: %s", doc)
		}
		if !strings.Contains(string(doc), `{"from":"2026-12-31"}`) {
			t.Errorf("got %s, want a one-day entry without to or note", doc)
		}
	})
	t.Run("absent is today's behaviour", func(t *testing.T) {
		bs, err := load(func(map[string]any) {})
		if err != nil {
			t.Fatal(err)
		}
		if bs[0].Notice() != 0 || bs[0].daysOff != nil {
			t.Errorf("got notice %s and days off %v", bs[0].Notice(), bs[0].daysOff)
		}
		doc, _ := EncodeBusinessRecord(bs[0])
		if got, want := bs[0].Crews(), (Crews{PerWindow: 1, Ever: 1}); got != want {
			t.Errorf("got crews %+v, want %+v", got, want)
		}
		if strings.Contains(string(doc), "days_off") || strings.Contains(string(doc), "min_notice_minutes") || strings.Contains(string(doc), "crews") {
			t.Errorf("got %s, want no schedule fields when none is set", doc)
		}
	})
}

// TestScheduleIsPrivate: getBusiness's shape (the Business's JSON) is the
// same with days off, notice and crews as without.
func TestScheduleIsPrivate(t *testing.T) {
	plain, err := json.Marshal(testBusinesses(t)["split-day-plumbing"])
	if err != nil {
		t.Fatal(err)
	}
	b := withSchedule(t, "split-day-plumbing", 120, DayOff{From: "2026-12-24", To: "2026-12-26", Note: "Holidays"})
	b.CrewsPerWindow, b.CrewsEver = 2, 3
	scheduled, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if string(plain) != string(scheduled) {
		t.Fatalf("getBusiness changed:\n%s\n%s", plain, scheduled)
	}
}
