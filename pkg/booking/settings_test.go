package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestUpdateSchedule(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"
	tests := []struct {
		name     string
		change   func(*Schedule)
		wantErr  string // a piece of the INVALID_REQUEST message; "" for none
		wantHour *int   // the stored reminder_hour
	}{
		{"a day off", func(s *Schedule) { s.DaysOff = append(s.DaysOff, DayOff{From: "2026-12-25", Note: "Christmas"}) }, "", nil},
		{"a range of days off", func(s *Schedule) { s.DaysOff = []DayOff{{From: "2026-12-24", To: "2026-12-31"}} }, "", nil},
		{"a range that ends before it starts", func(s *Schedule) { s.DaysOff = []DayOff{{From: "2026-12-24", To: "2026-12-01"}} }, "days_off[0].to: is before from", nil},
		{"not a date", func(s *Schedule) { s.DaysOff = []DayOff{{From: "2026-02-30"}} }, "days_off[0].from", nil},
		{"a note of two lines", func(s *Schedule) { s.DaysOff = []DayOff{{From: "2026-12-24", Note: "a\nb"}} }, "days_off[0].note", nil},
		{"two hours' notice", func(s *Schedule) { s.MinNoticeMinutes = 120 }, "", nil},
		{"negative notice", func(s *Schedule) { s.MinNoticeMinutes = -1 }, "min_notice_minutes", nil},
		{"more than a week's notice", func(s *Schedule) { s.MinNoticeMinutes = MaxNoticeMinutes + 1 }, "min_notice_minutes", nil},
		{"new hours", func(s *Schedule) { s.Hours.Sat = []Interval{{Open: "09:00", Close: "13:00"}} }, "", nil},
		{"a closed day", func(s *Schedule) { s.Hours.Mon = nil }, "", nil},
		{"hours that close before they open", func(s *Schedule) { s.Hours.Tue = []Interval{{Open: "17:00", Close: "08:00"}} }, "hours.tue[0]: closes (08:00) before it opens (17:00)", nil},
		{"overlapping hours", func(s *Schedule) {
			s.Hours.Wed = []Interval{{Open: "08:00", Close: "12:00"}, {Open: "11:00", Close: "15:00"}}
		}, "hours.wed[1]: overlaps", nil},
		{"a clock that is not one", func(s *Schedule) { s.Hours.Thu = []Interval{{Open: "8am", Close: "12:00"}} }, "hours.thu[0].open", nil},
		{"two crews", func(s *Schedule) { s.CrewsPerWindow = 2 }, "", nil},
		{"twenty crews", func(s *Schedule) { s.CrewsPerWindow = MaxCrews }, "", nil},
		{"no crew", func(s *Schedule) { s.CrewsPerWindow = 0 }, "crews_per_window: want 1 to 20, got 0", nil},
		{"more crews than MaxCrews", func(s *Schedule) { s.CrewsPerWindow = MaxCrews + 1 }, "crews_per_window", nil},
		{"the reminder at 18:00", func(s *Schedule) { s.ReminderHour = 18 }, "", hourPtr(18)},
		{"the reminder at 24:00", func(s *Schedule) { s.ReminderHour = 24 }, "reminder_hour", nil},
		{"the default reminder hour stays unset", func(s *Schedule) {}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, store, _ := newSignInService(t)
			before := store.bs[slug]
			want := before.Schedule()
			tt.change(&want)
			got, err := inboxOf(s, before).UpdateSchedule(ctx, before.Schedule().Version(), want)
			stored := store.bs[slug]
			if tt.wantErr != "" {
				if ErrorCode(err) != InvalidRequest || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("UpdateSchedule() = %v, want INVALID_REQUEST with %q", err, tt.wantErr)
				}
				if stored != before {
					t.Error("an invalid schedule was stored")
				}
				return
			}
			if err != nil {
				t.Fatalf("UpdateSchedule() = %v", err)
			}
			if g, w := stored.Schedule().Version(), want.Version(); g != w || got.Schedule().Version() != w {
				t.Errorf("stored %+v, want %+v", stored.Schedule(), want)
			}
			if (stored.ReminderHour == nil) != (tt.wantHour == nil) || (tt.wantHour != nil && *stored.ReminderHour != *tt.wantHour) {
				t.Errorf("reminder_hour stored %v, want %v", stored.ReminderHour, tt.wantHour)
			}
			// The stored record is one the loader takes.
			doc, err := EncodeBusinessRecord(stored)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := DecodeBusiness(doc); err != nil {
				t.Errorf("the stored record does not load: %v", err)
			}
		})
	}

	t.Run("a lost race", func(t *testing.T) {
		s, store, _ := newSignInService(t)
		read := store.bs[slug]
		seen := read.Schedule().Version()
		meanwhile := read.Schedule()
		meanwhile.MinNoticeMinutes = 60
		if _, err := inboxOf(s, read).UpdateSchedule(ctx, seen, meanwhile); err != nil {
			t.Fatal(err)
		}
		mine := read.Schedule()
		mine.DaysOff = []DayOff{{From: "2026-12-25"}}
		now, err := inboxOf(s, read).UpdateSchedule(ctx, seen, mine)
		if !errors.Is(err, ErrScheduleChanged) {
			t.Fatalf("UpdateSchedule() = %v, want ErrScheduleChanged", err)
		}
		if now == nil || now.MinNoticeMinutes != 60 {
			t.Errorf("UpdateSchedule() returned %v, want the business as stored now", now)
		}
		if b := store.bs[slug]; b.MinNoticeMinutes != 60 || len(b.DaysOff) != 0 {
			t.Errorf("stored notice %d, days off %v: want the change made in between only", b.MinNoticeMinutes, b.DaysOff)
		}
	})

	t.Run("a write that lands between the store's read and its write", func(t *testing.T) {
		s, store, _ := newSignInService(t)
		read := store.bs[slug]
		racing := &racingStore{signInStore: store, meanwhile: func(b *Business) { b.MinNoticeMinutes = 45 }}
		s.store = racing
		mine := read.Schedule()
		mine.DaysOff = []DayOff{{From: "2026-12-25"}}
		now, err := inboxOf(s, read).UpdateSchedule(ctx, read.Schedule().Version(), mine)
		if !errors.Is(err, ErrScheduleChanged) {
			t.Fatalf("UpdateSchedule() = %v, want ErrScheduleChanged", err)
		}
		if now == nil || now.MinNoticeMinutes != 45 || len(now.DaysOff) != 0 {
			t.Errorf("UpdateSchedule() returned %+v, want the business as stored now", now)
		}
	})

	t.Run("a business that is gone", func(t *testing.T) {
		s, store, _ := newSignInService(t)
		b := store.bs[slug]
		delete(store.bs, slug)
		if _, err := inboxOf(s, b).UpdateSchedule(ctx, b.Schedule().Version(), b.Schedule()); ErrorCode(err) != NotFound {
			t.Errorf("UpdateSchedule() = %v, want NOT_FOUND", err)
		}
	})
}

func TestOnDayOff(t *testing.T) {
	b := testBusinesses(t)["split-day-plumbing"]
	b.DaysOff = []DayOff{{From: "2026-12-24", To: "2026-12-26"}}
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	loc := b.Location()
	tests := []struct {
		start time.Time
		want  bool
	}{
		{time.Date(2026, 12, 23, 23, 0, 0, 0, loc), false},
		{time.Date(2026, 12, 24, 0, 0, 0, 0, loc), true},
		{time.Date(2026, 12, 26, 23, 59, 0, 0, loc), true},
		{time.Date(2026, 12, 27, 8, 0, 0, 0, loc), false},
	}
	for _, tt := range tests {
		if got := b.OnDayOff(tt.start.UTC()); got != tt.want {
			t.Errorf("OnDayOff(%s) = %v, want %v", tt.start, got, tt.want)
		}
	}
}

func hourPtr(h int) *int { return &h }

// racingStore stores another change (meanwhile) after UpdateBusiness has
// read the record and before it writes, and fails the write as the
// table's condition does.
type racingStore struct {
	*signInStore
	meanwhile func(*Business)
}

func (s *racingStore) UpdateBusiness(ctx context.Context, slug string, change func(*Business) (*Business, error)) error {
	s.mu.Lock()
	c := *s.bs[slug]
	s.mu.Unlock()
	if _, err := change(&c); err != nil {
		return err
	}
	s.mu.Lock()
	other := *s.bs[slug]
	s.meanwhile(&other)
	s.bs[slug] = &other
	s.mu.Unlock()
	return fmt.Errorf("put business %q: %w", slug, ErrBusinessChanged)
}

// UpdateBusinessAt races as UpdateBusiness does.
func (s *racingStore) UpdateBusinessAt(ctx context.Context, slug string, _ time.Time, change func(*Business) (*Business, error)) error {
	return s.UpdateBusiness(ctx, slug, change)
}
