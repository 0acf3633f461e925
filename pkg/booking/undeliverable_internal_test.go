package booking

import (
	"testing"
	"time"
)

func TestDensestDays(t *testing.T) {
	d := func(day int) time.Time { return time.Date(2026, 11, day, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name string
		days []time.Time
		want int
	}{
		{"none", nil, 0},
		{"one", []time.Time{d(1)}, 1},
		{"three within 14 days", []time.Time{d(1), d(7), d(14)}, 3},
		{"three over 15 days", []time.Time{d(1), d(7), d(15)}, 2},
		{"out of order", []time.Time{d(15), d(1), d(14), d(2)}, 3},
		{"the same day twice is one", []time.Time{d(3), d(3).Add(5 * time.Hour), d(4)}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := densestDays(tt.days, TransientBounceWindowDays); got != tt.want {
				t.Errorf("densestDays() = %d, want %d", got, tt.want)
			}
		})
	}
}
