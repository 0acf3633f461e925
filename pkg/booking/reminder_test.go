package booking

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// reminderBusiness decodes the first test business with the given time
// zone and reminder_hour (nil: absent).
func reminderBusiness(t *testing.T, tz string, hour *int) (*Business, error) {
	t.Helper()
	m := testRecords(t)[0]
	m["timezone"] = tz
	if hour != nil {
		m["reminder_hour"] = *hour
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return DecodeBusiness(data)
}

func hourOf(h int) *int { return &h }

// TestRemindAt computes the reminder instant at fixed times: the business's
// hour in its zone on the local day before the window's, across the US
// changes of the clocks of 2026 (spring forward Sunday 8 March, fall back
// Sunday 1 November) and with custom hours.
func TestRemindAt(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name  string
		tz    string
		hour  *int
		start string // the window's start
		want  string
	}{
		{"default 09:00 the day before", "America/Chicago", nil, "2026-11-24T15:00:00Z", "2026-11-23T15:00:00Z"},
		{"the day before is the spring-forward day: 09:00 CDT", "America/Chicago", nil, "2026-03-09T14:00:00Z", "2026-03-08T14:00:00Z"},
		{"the day before is the fall-back day: 09:00 CST", "America/Chicago", nil, "2026-11-02T15:00:00Z", "2026-11-01T15:00:00Z"},
		{"a window on the spring-forward day, reminded the day before (CST)", "America/Chicago", nil, "2026-03-08T15:00:00Z", "2026-03-07T15:00:00Z"},
		{"an hour the clocks skip is the hour after it", "America/Chicago", hourOf(2), "2026-03-09T14:00:00Z", "2026-03-08T08:00:00Z"},
		{"an hour that happens twice is its first", "America/Chicago", hourOf(1), "2026-11-02T15:00:00Z", "2026-11-01T06:00:00Z"},
		{"midnight, before the spring-forward", "America/Chicago", hourOf(0), "2026-03-09T14:00:00Z", "2026-03-08T06:00:00Z"},
		{"23:00 the day before a window at local midnight", "America/Chicago", hourOf(23), "2026-11-24T06:00:00Z", "2026-11-24T05:00:00Z"},
		{"the window's local day, not its UTC day", "America/Los_Angeles", nil, "2026-11-25T01:00:00Z", "2026-11-23T17:00:00Z"},
		{"no daylight saving time", "America/Phoenix", hourOf(18), "2026-03-09T16:00:00Z", "2026-03-09T01:00:00Z"},
		{"the first of a month", "America/New_York", hourOf(7), "2026-12-01T14:00:00Z", "2026-11-30T12:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := reminderBusiness(t, tt.tz, tt.hour)
			if err != nil {
				t.Fatal(err)
			}
			start := utc(tt.start)
			got := b.RemindAt(Window{Start: start, End: start.Add(2 * time.Hour)})
			if want := utc(tt.want); !got.Equal(want) || got.Location() != time.UTC {
				t.Errorf("RemindAt(%s) = %s (%s), want %s", tt.start, got.Format(time.RFC3339), got.In(b.Location()).Format(time.RFC3339), tt.want)
			}
		})
	}
}

// TestReminderHourLoads: reminder_hour is 0 to 23, checked at load, and
// private: never in getBusiness's answer, kept in the stored record.
func TestReminderHourLoads(t *testing.T) {
	tests := []struct {
		hour    *int
		wantErr string
	}{
		{nil, ""},
		{hourOf(0), ""},
		{hourOf(23), ""},
		{hourOf(-1), "reminder_hour"},
		{hourOf(24), "reminder_hour"},
	}
	for _, tt := range tests {
		b, err := reminderBusiness(t, "America/Chicago", tt.hour)
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("reminder_hour %d: err = %v, want one naming %s", *tt.hour, err, tt.wantErr)
			}
			continue
		case err != nil:
			t.Errorf("reminder_hour %v: %v", tt.hour, err)
			continue
		}
		public, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(public), "reminder_hour") {
			t.Errorf("getBusiness's answer has reminder_hour: %s", public)
		}
		stored, err := EncodeBusinessRecord(b)
		if err != nil {
			t.Fatal(err)
		}
		again, err := DecodeBusiness(stored)
		if err != nil {
			t.Fatal(err)
		}
		if tt.hour != nil && (again.ReminderHour == nil || *again.ReminderHour != *tt.hour) {
			t.Errorf("reminder_hour %d did not survive the stored record: %s", *tt.hour, stored)
		}
		if tt.hour == nil && strings.Contains(string(stored), "reminder_hour") {
			t.Errorf("an absent reminder_hour is stored: %s", stored)
		}
	}
}
