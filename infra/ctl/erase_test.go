package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

func TestErase(t *testing.T) { forEachEngine(t, testErase) }

// testErase erases one person's requests by phone, at two businesses: the
// live one is cancelled first, the ended one erased as it is; another
// person's request is left alone; erasing again finds nothing.
func testErase(t *testing.T, f *fixture) {
	f.mustRun(t, "load", "testdata/businesses.json")
	sat := time.Date(2026, 11, 21, 19, 0, 0, 0, time.UTC) // noon in Phoenix
	live := f.create(t, desert, now.Add(-time.Hour), sat, "Ana Ruiz", "6025550147")
	ended := f.create(t, desert, now.Add(-time.Hour), sat.Add(4*time.Hour), "Ana Ruiz", "6025550147")
	other := f.create(t, desert, now.Add(-time.Hour), sat.Add(2*time.Hour), "Ben Ruiz", "6025550148")
	f.mustRun(t, "requests", "move", ended, "decline")

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"erase"}, "name one contact"},
		{[]string{"erase", "--phone", "6025550147", "--email", "a@example.com"}, "name one contact"},
	} {
		if code, _, stderr := f.run(tt.args...); code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("ctl %v: got exit %d, %q; want 2, %q", tt.args, code, stderr, tt.want)
		}
	}
	if code, _, stderr := f.run("erase", "--phone", "12"); code != 1 || !strings.Contains(stderr, "INVALID_PHONE") {
		t.Errorf("a bad phone: got exit %d, %q; want 1, INVALID_PHONE", code, stderr)
	}

	out := f.mustRun(t, "erase", "--phone", "(602) 555-0147")
	for _, want := range []string{live + "  " + desert + "  cancelled  cancelled first", ended + "  " + desert + "  declined", "2 requests erased"} {
		if !strings.Contains(out, want) {
			t.Errorf("got %q, want %q in it", out, want)
		}
	}
	for code, want := range map[string]booking.Status{live: booking.StatusCancelled, ended: booking.StatusDeclined} {
		r, err := f.store.Request(context.Background(), code)
		if err != nil || r.Status != want || r.Erased.IsZero() || r.ErasedBy != booking.ActorOperator || r.Contact.Phone != "" {
			t.Errorf("%s after ctl erase: %+v, %v; want %s and erased by the operator", code, r, err, want)
		}
	}
	if out := f.mustRun(t, "requests", "show", live); !strings.Contains(out, "erased    2026-11-20 11:00 MST by the operator: the person's details are gone") {
		t.Errorf("requests show of an erased request: got %q, want when and by whom", out)
	}
	if r, err := f.store.Request(context.Background(), other); err != nil || r.Contact.Name != "Ben Ruiz" {
		t.Errorf("another person's request: %+v, %v; want it as it was", r, err)
	}
	if out := f.mustRun(t, "erase", "--email", "PERSON-6025550147@example.com"); !strings.Contains(out, "0 requests erased") {
		t.Errorf("again, by e-mail: got %q, want nothing left to erase", out)
	}
	if out := f.mustRun(t, "requests", "add-erase-keys"); !strings.Contains(out, "0 ended requests without erase keys") {
		t.Errorf("add-erase-keys: got %q", out)
	}
}

func TestExport(t *testing.T) { forEachEngine(t, testExport) }

// testExport writes a business's records as CSV and as JSON: a name
// starting with = is neutralised in the CSV, kept as sent in the JSON.
func testExport(t *testing.T, f *fixture) {
	f.mustRun(t, "load", "testdata/businesses.json")
	sat := time.Date(2026, 11, 21, 19, 0, 0, 0, time.UTC)
	code := f.create(t, desert, now.Add(-time.Hour), sat, "=1+1", "6025550147")

	rows, err := csv.NewReader(strings.NewReader(f.mustRun(t, "export", "--business", desert, "--from", "2026-11-01", "--to", "2026-11-30"))).ReadAll()
	if err != nil || len(rows) != 2 || rows[0][0] != "Request code" || rows[1][0] != code || rows[1][6] != "'=1+1" {
		t.Errorf("CSV = %q, %v; want a header and the request, its name neutralised", rows, err)
	}
	var e booking.Export
	if err := json.Unmarshal([]byte(f.mustRun(t, "export", "--business", desert, "--json")), &e); err != nil {
		t.Fatal(err)
	}
	if e.Business != desert || len(e.Requests) != 1 || e.Requests[0].Contact.Name != "=1+1" {
		t.Errorf("JSON = %+v, want the request as sent", e)
	}
	if code, _, stderr := f.run("export"); code != 2 || !strings.Contains(stderr, "--business") {
		t.Errorf("no business: got exit %d, %q", code, stderr)
	}
	if code, _, stderr := f.run("export", "--business", "no-such-business"); code != 1 || !strings.Contains(stderr, "NOT_FOUND") {
		t.Errorf("unknown business: got exit %d, %q", code, stderr)
	}
}
