package inboxweb_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// TestMoveDaysOffAndNotice: the move page offers the business windows
// within its own notice (the notice binds customers, not the business),
// never one on a day off, and the move follows the same rules.
func TestMoveDaysOffAndNotice(t *testing.T) {
	f := newFixture(t, nil)
	const slug = "desert-cool-hvac"
	code := f.create(t, slug, "", "", 2)
	b := f.business(t, slug)
	day := func(n int) string { return f.clock.Now().In(b.Location()).AddDate(0, 0, n).Format("2006-01-02") }
	soon := f.windows(t, b, day(1), 1)
	off := f.windows(t, b, day(3), 1)
	if len(soon) == 0 || len(off) == 0 {
		t.Fatalf("no windows to test with: %v %v", soon, off)
	}
	err := f.store.UpdateBusiness(context.Background(), slug, func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		c.MinNoticeMinutes = booking.MaxNoticeMinutes
		c.DaysOff = []booking.DayOff{{From: day(3)}}
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.windows(t, f.business(t, slug), day(1), 1); len(got) != 0 {
		t.Fatalf("the public list still has windows within a week's notice: %v", got)
	}

	a, csrf := f.signIn(t, slug)
	path := "/inbox/requests/" + code + "/move"
	var starts []string // the windows of the days with a request in the test
	for _, d := range []string{day(1), day(3)} {
		res := f.do(t, a, "GET", path+"?day="+d, nil)
		for _, m := range windowStart.FindAllStringSubmatch(res.body, -1) {
			starts = append(starts, m[1])
		}
	}
	if res := f.do(t, a, "GET", path, nil); strings.Contains(res.body, "?day="+day(3)) {
		t.Errorf("the move page lists the day off %s", day(3))
	}
	soonStart := soon[0].Start.UTC().Format(time.RFC3339)
	if !slices.Contains(starts, soonStart) {
		t.Errorf("the move page does not offer %s, within the notice: %v", soonStart, starts)
	}
	for _, w := range off {
		if s := w.Start.UTC().Format(time.RFC3339); slices.Contains(starts, s) {
			t.Errorf("the move page offers %s, on a day off", s)
		}
	}
	offStart := off[0].Start.UTC().Format(time.RFC3339)
	if res := f.do(t, a, "POST", path, url.Values{"csrf": {csrf}, "window_start": {offStart}}); res.status != http.StatusBadRequest {
		t.Errorf("move to a day off: got %d, want 400", res.status)
	}
	if res := f.do(t, a, "POST", path, url.Values{"csrf": {csrf}, "window_start": {soonStart}}); res.status != http.StatusSeeOther {
		t.Fatalf("move within the notice: got %d, want 303", res.status)
	}
	if got := f.request(t, code).Window.Start.UTC().Format(time.RFC3339); got != soonStart {
		t.Errorf("got window %s, want %s", got, soonStart)
	}
}
