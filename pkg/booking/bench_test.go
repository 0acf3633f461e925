package booking

import (
	"context"
	"testing"
	"time"
)

// The benchmarks of the domain's hot paths. make bench runs them with
// -benchmem; docs/performance.md holds the figures and targets.
// Every result goes to a package-level sink so the compiler cannot drop the
// work.

var (
	benchWindowsSink []Window
	benchAvailSink   Availability
	benchDraftSink   draft
	benchErrSink     error
	benchLinkSink    int
	benchStringSink  string
)

// benchNow is local midnight (America/Los_Angeles) of Friday 2026-11-20, so
// that every window of the first day is still open.
var benchNow = time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)

// benchSplitDay is the availability target's business: 08:00-12:00 and
// 13:00-17:00 every day of the week, 60-minute windows (8 a day), a horizon
// of 30 days, in America/Los_Angeles.
func benchSplitDay(tb testing.TB) *Business {
	tb.Helper()
	b := *testBusinesses(tb)["split-day-plumbing"]
	day := []Interval{{Open: "08:00", Close: "12:00"}, {Open: "13:00", Close: "17:00"}}
	b.Hours = Hours{Mon: day, Tue: day, Wed: day, Thu: day, Fri: day, Sat: day, Sun: day}
	b.ArrivalWindowMinutes = 60
	b.BooksUpToDaysAhead = 30
	if err := b.Validate(); err != nil {
		tb.Fatal(err)
	}
	return &b
}

// benchHeld is a few held windows in the 14 days from benchNow: the first
// of the first day, two in the middle and the last of the last day.
var benchHeld = []time.Time{
	time.Date(2026, 11, 20, 16, 0, 0, 0, time.UTC), // 08:00 local on day 1
	time.Date(2026, 11, 24, 21, 0, 0, 0, time.UTC), // 13:00 local on day 5
	time.Date(2026, 11, 28, 18, 0, 0, 0, time.UTC), // 10:00 local on day 9
	time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC),   // 16:00 local on day 14
}

// BenchmarkWindows is Business.Windows over 14 days with a few held
// windows, the held check being the map lookup Bookings.ArrivalWindows
// passes.
func BenchmarkWindows(b *testing.B) {
	biz := benchSplitDay(b)
	from := biz.today(benchNow)
	heldSet := make(map[int64]bool, len(benchHeld))
	for _, t := range benchHeld {
		heldSet[t.Unix()] = true
	}
	held := func(t time.Time) bool { return heldSet[t.Unix()] }
	if n := len(biz.Windows(benchNow, from, MaxDays, held)); n != 14*8-len(benchHeld) {
		b.Fatalf("got %d windows, want %d", n, 14*8-len(benchHeld))
	}
	b.ReportAllocs()
	for b.Loop() {
		benchWindowsSink = biz.Windows(benchNow, from, MaxDays, held)
	}
}

// benchDaysOff are a business's days off as a busy year has them: the
// holidays of the year gone by and the year ahead (30 entries, some ranges),
// two of them (Thanksgiving and the day after) within the 14 days.
var benchDaysOff = func() []DayOff {
	var out []DayOff
	for _, year := range []string{"2026", "2027"} {
		out = append(out, []DayOff{
			{From: year + "-01-01", Note: "New Year"}, {From: year + "-01-19"}, {From: year + "-02-16"},
			{From: year + "-05-25"}, {From: year + "-06-19"}, {From: year + "-07-03", To: year + "-07-05", Note: "Fourth of July"},
			{From: year + "-08-10", To: year + "-08-21", Note: "Summer"}, {From: year + "-09-07"}, {From: year + "-10-12"},
			{From: year + "-11-11"}, {From: year + "-11-26", To: year + "-11-27", Note: "Thanksgiving"},
			{From: year + "-12-24", To: year + "-12-26", Note: "Holidays"}, {From: year + "-12-31"},
			{From: year + "-03-30"}, {From: year + "-04-06"},
		}...)
	}
	return out
}()

// BenchmarkWindowsSchedule is BenchmarkWindows with days off (30 entries,
// 2 days within the 14) and 10 hours 30 minutes' notice (three windows of
// the first day, one of them held); BenchmarkArrivalWindowsSchedule adds
// crews.
func BenchmarkWindowsSchedule(b *testing.B) {
	biz := benchSplitDay(b)
	biz.DaysOff, biz.MinNoticeMinutes = benchDaysOff, 10*60+30
	if err := biz.Validate(); err != nil {
		b.Fatal(err)
	}
	from := biz.today(benchNow)
	heldSet := make(map[int64]bool, len(benchHeld))
	for _, t := range benchHeld {
		heldSet[t.Unix()] = true
	}
	held := func(t time.Time) bool { return heldSet[t.Unix()] }
	const want = 14*8 - 4 - 2*8 - 2 // less held, the two days off, and 09:00 and 10:00 of the first day (08:00 is held)
	if n := len(biz.Windows(benchNow, from, MaxDays, held)); n != want {
		b.Fatalf("got %d windows, want %d", n, want)
	}
	b.ReportAllocs()
	for b.Loop() {
		benchWindowsSink = biz.Windows(benchNow, from, MaxDays, held)
	}
}

// benchStore answers the service's reads from memory, so that BenchmarkArrivalWindows
// measures the domain's work alone.
type benchStore struct {
	Store // the other methods are not called
	biz   *Business
	held  []time.Time
}

func (s *benchStore) Business(context.Context, string) (*Business, error) { return s.biz, nil }

func (s *benchStore) PublicBusiness(ctx context.Context, slug string) (*Business, error) {
	return s.Business(ctx, slug)
}

func (s *benchStore) OwnBusiness(ctx context.Context, slug string) (*Business, error) {
	return s.Business(ctx, slug)
}

func (s *benchStore) HeldWindows(_ context.Context, _ string, from, to, _ time.Time) ([]time.Time, error) {
	var out []time.Time
	for _, t := range s.held {
		if !t.Before(from) && t.Before(to) {
			out = append(out, t)
		}
	}
	return out, nil
}

// BenchmarkArrivalWindows is listArrivalWindows for 14 days in the domain:
// Bookings.ArrivalWindows over an in-memory store (the held set and the
// windows; no DynamoDB, no JSON).
func BenchmarkArrivalWindows(b *testing.B) {
	biz := benchSplitDay(b)
	bookings := testBookings(b, Config{Store: &benchStore{biz: biz, held: benchHeld}, SiteURL: "https://book.example.com", Now: func() time.Time { return benchNow }})
	ctx := context.Background()
	q := WindowQuery{Days: MaxDays}
	a, err := bookings.ArrivalWindows(ctx, biz, q)
	if err != nil || len(a.Windows) != 14*8-len(benchHeld) {
		b.Fatalf("got %d windows and %v, want %d", len(a.Windows), err, 14*8-len(benchHeld))
	}
	b.ReportAllocs()
	for b.Loop() {
		benchAvailSink, benchErrSink = bookings.ArrivalWindows(ctx, biz, q)
	}
}

// BenchmarkArrivalWindowsSchedule is BenchmarkArrivalWindows for a
// business with the whole schedule: days off (30 entries, 2 days within the
// 14), 10 hours 30 minutes' notice and 3 crews, with 40 holds spread over
// the 14 days (some windows with one, some with two, some full): the
// issue's availability target for listArrivalWindows in the domain.
func BenchmarkArrivalWindowsSchedule(b *testing.B) {
	biz := benchSplitDay(b)
	biz.DaysOff, biz.MinNoticeMinutes, biz.CrewsPerWindow = benchDaysOff, 10*60+30, 3
	if err := biz.Validate(); err != nil {
		b.Fatal(err)
	}
	// The open windows from the fourth on have 1, 2, 3, 1, 2, 3, ... holds.
	var held []time.Time
	full := 0
	for _, w := range biz.Windows(benchNow, biz.today(benchNow), MaxDays, nil)[3:] {
		if len(held) >= 40 {
			break
		}
		n := len(held)%3 + 1
		for range n {
			held = append(held, w.Start)
		}
		if n == 3 {
			full++
		}
	}
	bookings := testBookings(b, Config{Store: &benchStore{biz: biz, held: held}, SiteURL: "https://book.example.com", Now: func() time.Time { return benchNow }})
	ctx := context.Background()
	q := WindowQuery{Days: MaxDays}
	want := 14*8 - 2*8 - 3 - full // the two days off, the first day's three within the notice, the full ones
	a, err := bookings.ArrivalWindows(ctx, biz, q)
	if err != nil || len(a.Windows) != want {
		b.Fatalf("got %d windows and %v, want %d", len(a.Windows), err, want)
	}
	b.ReportAllocs()
	for b.Loop() {
		benchAvailSink, benchErrSink = bookings.ArrivalWindows(ctx, biz, q)
	}
}

// benchCreateBody is validBody (split-day-plumbing at createNow) with every
// optional field set: SMS consent and the idempotency key.
func benchCreateBody(b *testing.B) []byte {
	body := withField(b, []byte(validBody), "contact.sms_consent", true, false)
	return withField(b, body, "idempotency_key", "3f9c1e2a-first-try", false)
}

// BenchmarkCreateValidation is what createServiceRequest checks before the
// store, on a valid input: field checks and business rules ("all"), and
// each step alone. "body_hash" is the idempotency hash the service computes
// too. Decoding the JSON body is the edge's (pkg/httpapi's
// BenchmarkDecodeCreateBody).
func BenchmarkCreateValidation(b *testing.B) {
	biz := testBusinesses(b)["split-day-plumbing"]
	in := inputOf(b, benchCreateBody(b), "3f9c1e2a-first-try")
	d, err := in.checkFields(biz)
	if err != nil {
		b.Fatal(err)
	}
	if err := d.checkBusinessRules(biz, createNow); err != nil {
		b.Fatal(err)
	}

	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d, err := in.checkFields(biz)
			if err != nil {
				b.Fatal(err)
			}
			benchErrSink = d.checkBusinessRules(biz, createNow)
			benchDraftSink = d
		}
	})
	b.Run("fields", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchDraftSink, benchErrSink = in.checkFields(biz)
		}
	})
	b.Run("rules", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			dd := d
			benchErrSink = dd.checkBusinessRules(biz, createNow)
			benchDraftSink = dd
		}
	})
	b.Run("body_hash", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchStringSink = in.BodyHash()
		}
	})
}

// benchLinks are links as people paste them: each names a page of one of
// benchLinkBusinesses' sites, or none (the last two).
var benchLinks = []string{
	"https://www.acme.example.com/",
	"acme.example.com/book/confirm?utm_source=mail",
	"HTTPS://Book.Example.NET/Bolt-Electric/#top",
	"http://sites.example.org/bolt/about/../contact",
	"book.example.net/help/faq",
	"https://ridge.example.com:443/services/%7Edrains",
	"https://cold.example.com/hvac",
	"https://unknown.example.com/",
	"https://book.example.net.evil.example/bolt-electric",
}

// benchLinkBusinesses are a handful of businesses whose sites share hosts,
// as ResolveBusiness sees them.
func benchLinkBusinesses(tb testing.TB) []*Business {
	tb.Helper()
	tmpl := testBusinesses(tb)["split-day-plumbing"]
	business := func(slug, url, bookingURL string) *Business {
		b := *tmpl
		b.Slug, b.URL, b.BookingURL = slug, url, bookingURL
		if err := b.Validate(); err != nil {
			tb.Fatal(err)
		}
		return &b
	}
	return []*Business{
		business("acme-plumbing", "https://www.acme.example.com/", "https://acme.example.com/book"),
		business("bolt-electric", "https://sites.example.org/bolt", "https://book.example.net/bolt-electric/"),
		business("book-platform-help", "https://book.example.net", "https://book.example.net/help"),
		business("ridge-drains", "https://ridge.example.com", "https://ridge.example.com/services"),
		business("cold-hvac", "https://cold.example.com", "https://book.example.net/cold-hvac"),
	}
}

// BenchmarkLinkResolution is resolving one pasted link against a handful of
// businesses, as ResolveBusiness does once the store has answered:
// ParseSiteLink, then OwnsLink of each business. An op is one link; the
// loop goes round benchLinks.
func BenchmarkLinkResolution(b *testing.B) {
	bs := benchLinkBusinesses(b)
	owners := 0
	for _, s := range benchLinks {
		if l, ok := ParseSiteLink(s); ok {
			for _, biz := range bs {
				if biz.OwnsLink(l) {
					owners++
				}
			}
		}
	}
	if owners < len(benchLinks)-2 {
		b.Fatalf("only %d owners for %d links", owners, len(benchLinks))
	}

	b.Run("parse_and_own", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			l, ok := ParseSiteLink(benchLinks[i%len(benchLinks)])
			i++
			if !ok {
				continue
			}
			for _, biz := range bs {
				if biz.OwnsLink(l) {
					benchLinkSink++
				}
			}
		}
	})
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			l, _ := ParseSiteLink(benchLinks[i%len(benchLinks)])
			i++
			benchLinkSink += len(l.Path)
		}
	})
}

// BenchmarkDecodeBusiness is what every read of a business record costs
// (the store's, each time a function's cache is cold): JSON, the whole
// validation and the time zone.
func BenchmarkDecodeBusiness(b *testing.B) {
	doc, err := EncodeBusinessRecord(testBusinesses(b)["split-day-plumbing"])
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeBusiness(doc); err != nil {
			b.Fatal(err)
		}
	}
}
