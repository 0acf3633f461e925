package httpapi

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// TestAvailabilityJSON: listArrivalWindows' hand-made JSON is, byte for
// byte and header for header, what edge.WriteJSON writes of the same
// availability.
func TestAvailabilityJSON(t *testing.T) {
	zone := func(name string) *time.Location {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	window := func(loc *time.Location, start string, minutes int) booking.Window {
		s, err := time.ParseInLocation("2006-01-02T15:04:05.999999999", start, loc)
		if err != nil {
			t.Fatal(err)
		}
		return booking.Window{Date: s.Format("2006-01-02"), Start: s, End: s.Add(time.Duration(minutes) * time.Minute)}
	}
	denver, kolkata := zone("America/Denver"), zone("Asia/Kolkata")
	tests := []struct {
		name string
		av   booking.Availability
	}{
		{"windows in a zone west of UTC", booking.Availability{Timezone: "America/Denver", AcceptingRequests: true, Windows: []booking.Window{
			window(denver, "2026-12-02T08:00:00", 120), window(denver, "2026-12-02T13:00:00", 120),
		}}},
		{"a half-hour offset", booking.Availability{Timezone: "Asia/Kolkata", AcceptingRequests: true, Windows: []booking.Window{window(kolkata, "2026-12-02T09:30:00", 60)}}},
		{"UTC, and a fraction of a second", booking.Availability{Timezone: "UTC", Windows: []booking.Window{window(time.UTC, "2026-12-02T23:00:00.25", 90)}}},
		{"across the change of offset", booking.Availability{Timezone: "America/Denver", Windows: []booking.Window{window(denver, "2026-11-01T00:30:00", 180)}}},
		{"paused, no windows", booking.Availability{Timezone: "America/Phoenix", Windows: []booking.Window{}}},
		{"no windows at all", booking.Availability{Timezone: "America/Phoenix"}},
		{"a name to escape", booking.Availability{Timezone: "Odd\"Zone\\<é>\n", Windows: []booking.Window{{Date: "2026-12-02\t", Start: time.Unix(0, 0).UTC(), End: time.Unix(60, 0).UTC()}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := httptest.NewRecorder(), httptest.NewRecorder()
			writeAvailability(got, tt.av)
			edge.WriteJSON(want, 200, tt.av)
			if got.Code != want.Code || got.Body.String() != want.Body.String() {
				t.Errorf("got %d %s\nwant %d %s", got.Code, got.Body, want.Code, want.Body)
			}
			for _, h := range []string{"Content-Type", "X-Content-Type-Options"} {
				if got, want := got.Header().Get(h), want.Header().Get(h); got != want {
					t.Errorf("%s: got %q, want %q", h, got, want)
				}
			}
		})
	}
}

// TestAvailabilityJSONAllocatesNothing: a 14-day listing of 8 windows a
// day is encoded into its buffer without an allocation (encoding/json made
// several per window: a CPU profile of the floor run put its encoding at
// about 60% of the handler's time above its DynamoDB calls).
func TestAvailabilityJSONAllocatesNothing(t *testing.T) {
	loc, err := time.LoadLocation("America/Denver")
	if err != nil {
		t.Fatal(err)
	}
	av := booking.Availability{Timezone: "America/Denver", AcceptingRequests: true}
	day := time.Date(2026, 12, 2, 8, 0, 0, 0, loc)
	for d := range 14 {
		for w := range 8 {
			start := day.AddDate(0, 0, d).Add(time.Duration(w) * time.Hour)
			av.Windows = append(av.Windows, booking.Window{Date: start.Format("2006-01-02"), Start: start, End: start.Add(time.Hour)})
		}
	}
	buf := make([]byte, 0, 64<<10)
	if allocs := testing.AllocsPerRun(20, func() { buf = appendAvailability(buf[:0], av) }); allocs != 0 {
		t.Errorf("got %.0f allocations, want 0", allocs)
	}
}

// TestBusinessBodyOncePerRecord: getBusiness encodes and hashes a record
// once; the same shared record again is answered from that body, and a
// changed record (another pointer) gets its own.
func TestBusinessBodyOncePerRecord(t *testing.T) {
	a := &api{}
	b := &booking.Business{Slug: "acme-plumbing", Name: "Acme Plumbing"}
	body, etag, err := a.businessBody(b)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := encodeJSON(b)
	if string(body) != string(want) || etag != etagOf(want) {
		t.Fatalf("got %s %s, want %s %s", body, etag, want, etagOf(want))
	}
	if allocs := testing.AllocsPerRun(20, func() { _, _, _ = a.businessBody(b) }); allocs != 0 {
		t.Errorf("the same record again: got %.0f allocations, want 0 (no encoding)", allocs)
	}
	changed := *b
	changed.Name = "Acme Plumbing and Heating"
	body, _, err = a.businessBody(&changed)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), "and Heating") {
		t.Errorf("a changed record: got %s, want its own body", body)
	}
}
