package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/booking/bookingtest"
)

// ownerEdits are the owner's settings a reload must keep: days off,
// hours, notice, crews, reminder hour (through the web inbox's own
// UpdateSchedule) and a confirmed mobile.
func (f *fixture) ownerEdits(t *testing.T, slug string) {
	t.Helper()
	ctx := context.Background()
	bookings := bookingtest.New(t, booking.Config{Store: f.store, SiteURL: "https://book.example.com", Now: func() time.Time { return now }})
	in, err := bookings.OperatorInbox(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	sch := in.Business().Schedule()
	seen := sch.Version()
	sch.DaysOff = []booking.DayOff{{From: "2026-12-25", Note: "Christmas"}}
	sch.Hours.Sun = nil
	sch.Hours.Mon = []booking.Interval{{Open: "06:00", Close: "12:00"}}
	sch.MinNoticeMinutes, sch.CrewsPerWindow, sch.ReminderHour = 120, 3, 7
	if _, err := in.UpdateSchedule(ctx, seen, sch); err != nil {
		t.Fatal(err)
	}
	err = f.store.UpdateBusiness(ctx, slug, func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		c.OwnerPhone = "6025550199" // as ConfirmOwnerPhone stores it
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// wantOwnerEdits fails the test unless b has ownerEdits' settings.
func wantOwnerEdits(t *testing.T, b *booking.Business) {
	t.Helper()
	s := b.Schedule()
	if len(s.DaysOff) != 1 || s.DaysOff[0].From != "2026-12-25" || len(s.Hours.Sun) != 0 || len(s.Hours.Mon) != 1 || s.Hours.Mon[0].Open != "06:00" ||
		s.MinNoticeMinutes != 120 || s.CrewsPerWindow != 3 || s.ReminderHour != 7 || b.OwnerPhone != "6025550199" {
		t.Errorf("the owner's settings were not kept: %+v, owner phone %q", s, b.OwnerPhone)
	}
}

// changedFile writes businesses.json with desert's operator's fields
// changed (example stays, limits set) and an owner's field (its name)
// changed too, and returns its path.
func changedFile(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/businesses.json")
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	recs[0]["requests_per_hour"] = 40
	recs[0]["name"] = "Desert Cool (from the file)"
	out, _ := json.Marshal(recs)
	path := filepath.Join(t.TempDir(), "businesses.json")
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadKeepsTheOwnersFields(t *testing.T) { forEachEngine(t, testLoadKeepsTheOwnersFields) }

func testLoadKeepsTheOwnersFields(t *testing.T, f *fixture) {
	f.mustRun(t, "load", "testdata/businesses.json")
	f.ownerEdits(t, desert)
	path := changedFile(t)

	stdout := f.mustRun(t, "load", path)
	b := f.business(t, desert)
	wantOwnerEdits(t, b)
	if b.RequestsPerHour != 40 {
		t.Errorf("requests_per_hour: got %d, want the file's 40 (the operator's)", b.RequestsPerHour)
	}
	if b.Name != "Desert Cool Heating & Air" {
		t.Errorf("name: got %q, want the stored one (the owner's)", b.Name)
	}
	for _, field := range []string{"days_off", "hours", "min_notice_minutes", "crews_per_window", "reminder_hour", "owner_phone", "name"} {
		if !strings.Contains(stdout, "owner's field "+field+" differs") {
			t.Errorf("load's report does not name %s:\n%s", field, stdout)
		}
	}
	last := b.Changes[len(b.Changes)-1]
	if last.By != booking.ByOperator || !slices.Equal(last.Fields, []string{"requests_per_hour"}) {
		t.Errorf("the load's change: got %+v, want the operator's, of requests_per_hour", last)
	}

	// By name: the name only.
	stdout = f.mustRun(t, "load", path, "--owner-fields", "name")
	b = f.business(t, desert)
	if b.Name != "Desert Cool (from the file)" {
		t.Errorf("--owner-fields name: got name %q, want the file's", b.Name)
	}
	wantOwnerEdits(t, b)
	if !strings.Contains(stdout, "name differs") || !strings.Contains(stdout, "written from the file") {
		t.Errorf("--owner-fields name: got\n%s", stdout)
	}
	// By name: the hours and days off.
	f.mustRun(t, "load", path, "--owner-fields", "hours,days_off")
	if s := f.business(t, desert).Schedule(); len(s.DaysOff) != 0 || len(s.Hours.Sun) != 1 || s.MinNoticeMinutes != 120 {
		t.Errorf("--owner-fields hours,days_off: got %+v; want the file's hours and days off, the owner's notice", s)
	}
	for _, bad := range []string{"requests_per_hour", "changes", "nonsense"} {
		if code, _, stderr := f.run("load", path, "--owner-fields", bad); code != 2 || !strings.Contains(stderr, bad) {
			t.Errorf("--owner-fields %s: got exit %d (%s), want 2", bad, code, stderr)
		}
	}
}

// TestLoadRacesAnOwnerEdit: ctl load and an owner's edit, each
// conditional on the record it read, at once: whichever loses reads again
// (load merges again; the owner's form is shown the new version and sent
// again), and both land.
func TestLoadRacesAnOwnerEdit(t *testing.T) { forEachEngine(t, testLoadRacesAnOwnerEdit) }

func testLoadRacesAnOwnerEdit(t *testing.T, f *fixture) {
	ctx := context.Background()
	f.mustRun(t, "load", "testdata/businesses.json")
	path := changedFile(t)
	bookings := bookingtest.New(t, booking.Config{Store: f.store, SiteURL: "https://book.example.com", Now: func() time.Time { return now }})
	for round := range 5 {
		var wg sync.WaitGroup
		var loadErr, ownerErr error
		var tries int
		day := time.Date(2026, 12, 1+round, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
		wg.Add(2)
		go func() {
			defer wg.Done()
			if code, _, stderr := f.run("load", path); code != 0 {
				loadErr = errors.New(stderr)
			}
		}()
		go func() {
			defer wg.Done()
			for tries = 1; tries <= 10; tries++ {
				in, err := bookings.OperatorInbox(ctx, desert)
				if err != nil {
					ownerErr = err
					return
				}
				sch := in.Business().Schedule()
				seen := sch.Version()
				sch.DaysOff = append(sch.DaysOff, booking.DayOff{From: day})
				_, ownerErr = in.UpdateSchedule(ctx, seen, sch)
				if !errors.Is(ownerErr, booking.ErrScheduleChanged) {
					return
				}
			}
		}()
		wg.Wait()
		if loadErr != nil || ownerErr != nil {
			t.Fatalf("round %d: load %v, owner %v (after %d tries)", round, loadErr, ownerErr, tries)
		}
		b := f.business(t, desert)
		if len(b.DaysOff) != round+1 || b.DaysOff[round].From != day || b.RequestsPerHour != 40 {
			t.Errorf("round %d: days off %v, requests_per_hour %d: want every owner's day off and the load's limit", round, b.DaysOff, b.RequestsPerHour)
		}
	}
	var byOwner, byOperator int
	for _, c := range f.business(t, desert).Changes {
		switch c.By {
		case booking.ByOperator:
			byOperator++
		case "inbox@desert-cool-hvac.example.com":
			byOwner++
		}
	}
	if byOwner != 5 || byOperator < 2 {
		t.Errorf("history: %d owner's changes, %d operator's; want the 5 owner's and the loads'", byOwner, byOperator)
	}
}

func TestBusinessesApproveAndSuspend(t *testing.T) { forEachEngine(t, testBusinessesApproveAndSuspend) }

func testBusinessesApproveAndSuspend(t *testing.T, f *fixture) {
	ctx := context.Background()
	f.mustRun(t, "load", "testdata/businesses.json")
	// desert back in preview, with its checklist whole, asks to go live on
	// a stack where the operator approves.
	f.ownerEdits(t, desert)
	bookings := bookingtest.New(t, booking.Config{Store: f.store, SiteURL: "https://book.example.com", Now: func() time.Time { return now },
		NewBusinessApproval: booking.ApprovalOperator})
	err := f.store.UpdateBusiness(ctx, desert, func(stored *booking.Business) (*booking.Business, error) {
		c := *stored
		c.Preview, c.Approved = true, false
		return &c, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	in, err := bookings.OperatorInbox(ctx, desert)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.GoLive(ctx); err != nil {
		t.Fatal(err)
	}

	if got, want := f.mustRun(t, "businesses", "list", "--pending"), "desert-cool-hvac\twaiting\tDesert Cool Heating & Air\tinbox@desert-cool-hvac.example.com\tasked 2026-11-20 18:00Z\n"; got != want {
		t.Errorf("list --pending: got %q, want %q", got, want)
	}
	if got := f.mustRun(t, "businesses", "list"); !strings.Contains(got, "austin-rapid-plumbing\tlive\t") || !strings.Contains(got, "desert-cool-hvac\twaiting\t") {
		t.Errorf("list: got %q", got)
	}
	if got := f.mustRun(t, "businesses", "approve", desert); !strings.Contains(got, "approved and live") {
		t.Errorf("approve: got %q", got)
	}
	b := f.business(t, desert)
	if b.LiveState() != booking.StateLive || !b.AcceptingRequests || !b.Approved {
		t.Errorf("approved: state %s, accepting %v", b.LiveState(), b.AcceptingRequests)
	}
	if code, stdout, _ := f.run("businesses", "list", "--pending"); code != 0 || stdout != "" {
		t.Errorf("list --pending after approval: got %d %q, want none", code, stdout)
	}

	f.mustRun(t, "businesses", "suspend", desert)
	if b := f.business(t, desert); !b.Suspended || b.LiveState() != booking.StateSuspended {
		t.Errorf("suspend: got suspended %v", b.Suspended)
	}
	// A suspended business's inbox is read-only, and its form takes nothing.
	in, _ = bookings.OperatorInbox(ctx, desert)
	if _, err := in.SetAcceptingRequests(ctx, false); booking.ErrorCode(err) != booking.BookingPaused {
		t.Errorf("an owner's change while suspended: got %v, want BOOKING_PAUSED", err)
	}
	f.mustRun(t, "businesses", "unsuspend", desert)
	if b := f.business(t, desert); b.Suspended || b.LiveState() != booking.StateLive {
		t.Errorf("unsuspend: got suspended %v", b.Suspended)
	}
	last := f.business(t, desert).Changes
	if c := last[len(last)-1]; c.By != booking.ByOperator || !slices.Equal(c.Fields, []string{"suspended"}) {
		t.Errorf("the unsuspend's change: got %+v", c)
	}
	for _, args := range [][]string{{"businesses"}, {"businesses", "frobnicate"}, {"businesses", "approve"}, {"businesses", "list", "extra"}} {
		if code, _, _ := f.run(args...); code != 2 {
			t.Errorf("ctl %v: got exit %d, want 2", args, code)
		}
	}
	if code, _, stderr := f.run("businesses", "approve", "no-such-business"); code != 1 || !strings.Contains(stderr, "NOT_FOUND") {
		t.Errorf("approve an unknown slug: got %d %q", code, stderr)
	}
}
