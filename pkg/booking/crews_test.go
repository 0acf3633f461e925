package booking

import (
	"context"
	"slices"
	"testing"
	"time"
)

func TestCrews(t *testing.T) {
	tests := []struct {
		name      string
		perWindow int
		ever      int
		want      Crews
	}{
		{"none set", 0, 0, Crews{1, 1}},
		{"three", 3, 0, Crews{3, 3}},
		{"one, three once", 1, 3, Crews{1, 3}},
		{"ever below per window (a hand-edited file)", 4, 2, Crews{4, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := Business{Private: Private{CrewsPerWindow: tt.perWindow, CrewsEver: tt.ever}}
			if got := b.Crews(); got != tt.want {
				t.Errorf("Crews() = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestKeepCrewsEver(t *testing.T) {
	business := func(perWindow, ever int) *Business {
		return &Business{Private: Private{CrewsPerWindow: perWindow, CrewsEver: ever}}
	}
	tests := []struct {
		name   string
		next   *Business
		stored *Business
		want   int // CrewsEver as stored
	}{
		{"a new business of one crew", business(0, 0), nil, 0},
		{"a new business of three", business(3, 0), nil, 3},
		{"raised from one to two", business(2, 0), business(0, 0), 2},
		{"lowered from three to one", business(1, 0), business(3, 0), 3},
		{"a file without crews over three once", business(0, 0), business(1, 3), 3},
		{"raised past the most ever", business(5, 0), business(1, 3), 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.next.KeepCrewsEver(tt.stored)
			if got := tt.next.CrewsEver; got != tt.want {
				t.Errorf("CrewsEver = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestArrivalWindowsCrews: a window is listed while it holds fewer
// requests than the business has crews (HeldWindows lists a window once
// for each hold).
func TestArrivalWindowsCrews(t *testing.T) {
	// split-day-plumbing's two-hour windows on Monday 2026-11-23.
	a, b, c, d := utc("2026-11-23T16:00:00Z"), utc("2026-11-23T18:00:00Z"), utc("2026-11-23T21:00:00Z"), utc("2026-11-23T23:00:00Z")
	now := utc("2026-11-20T00:00:00Z")
	tests := []struct {
		name        string
		crews, ever int
		daysOff     []DayOff
		notice      int // minutes
		now         time.Time
		held        []time.Time
		want        []time.Time
	}{
		{"one crew: a held window is gone", 1, 0, nil, 0, now, []time.Time{b}, []time.Time{a, c, d}},
		{"three crews, partly held", 3, 0, nil, 0, now, []time.Time{a, a, b, b, b, c}, []time.Time{a, c, d}},
		{"three crews, none held", 3, 0, nil, 0, now, nil, []time.Time{a, b, c, d}},
		{"two crews, once three: the full ones and the over-full one are gone", 2, 3, nil, 0, now, []time.Time{a, a, a, b, b, c}, []time.Time{c, d}},
		{"one crew, once three", 1, 3, nil, 0, now, []time.Time{a, a, c}, []time.Time{b, d}},
		{"three crews on a day off", 3, 0, []DayOff{{From: "2026-11-23"}}, 0, now, []time.Time{a}, nil},
		{"three crews and notice", 3, 0, nil, 120, utc("2026-11-23T16:30:00Z"), []time.Time{c, c}, []time.Time{c, d}},
		{"three crews and notice, the window after full", 3, 0, nil, 120, utc("2026-11-23T16:30:00Z"), []time.Time{c, c, c}, []time.Time{d}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			biz := withSchedule(t, "split-day-plumbing", tt.notice, tt.daysOff...)
			biz.CrewsPerWindow, biz.CrewsEver = tt.crews, tt.ever
			if err := biz.Validate(); err != nil {
				t.Fatal(err)
			}
			s := testBookings(t, Config{Store: &benchStore{biz: biz, held: tt.held}, SiteURL: "https://book.example.com", Now: func() time.Time { return tt.now }})
			got, err := s.ArrivalWindows(context.Background(), biz, WindowQuery{From: date("2026-11-23"), Days: 1})
			if err != nil {
				t.Fatal(err)
			}
			var starts []time.Time
			for _, w := range got.Windows {
				starts = append(starts, w.Start)
			}
			if !slices.EqualFunc(starts, tt.want, time.Time.Equal) {
				t.Errorf("windows = %v, want %v", starts, tt.want)
			}
		})
	}
}

// FuzzArrivalWindowsCrews: whatever holds a day's windows have and however
// many crews the business has (and had), ArrivalWindows lists exactly the
// windows with fewer holds than crews, in order.
func FuzzArrivalWindowsCrews(f *testing.F) {
	f.Add(uint8(1), uint8(0), []byte{0})
	f.Add(uint8(3), uint8(0), []byte{0, 0, 1, 1, 1, 2})
	f.Add(uint8(2), uint8(5), []byte{0, 0, 0, 0, 0, 3, 3})
	f.Add(uint8(20), uint8(20), []byte{})
	now := utc("2026-11-20T00:00:00Z")
	day := date("2026-11-23")
	f.Fuzz(func(t *testing.T, crews, ever uint8, holds []byte) {
		biz := withSchedule(t, "split-day-plumbing", 0)
		biz.CrewsPerWindow, biz.CrewsEver = int(crews)%MaxCrews+1, int(ever)%(MaxCrews+1)
		all := biz.Windows(now, day, 1, nil)
		count := make([]int, len(all))
		var held []time.Time
		for _, h := range holds {
			i := int(h) % len(all)
			count[i]++
			held = append(held, all[i].Start)
		}
		s := testBookings(t, Config{Store: &benchStore{biz: biz, held: held}, SiteURL: "https://book.example.com", Now: func() time.Time { return now }})
		got, err := s.ArrivalWindows(context.Background(), biz, WindowQuery{From: day, Days: 1})
		if err != nil {
			t.Fatal(err)
		}
		var want []Window
		for i, w := range all {
			if count[i] < biz.CrewsPerWindow {
				want = append(want, w)
			}
		}
		if !slices.EqualFunc(got.Windows, want, func(a, b Window) bool { return a.Start.Equal(b.Start) }) {
			t.Errorf("%d crews, holds %v: windows %v, want %v", biz.CrewsPerWindow, count, got.Windows, want)
		}
	})
}
