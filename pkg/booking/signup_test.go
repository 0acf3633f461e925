package booking

import (
	"strings"
	"testing"
	"time"
)

func TestSlugFromName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"Fontanería José", "fontaneria-jose"},
		{"Austin Rapid Plumbing", "austin-rapid-plumbing"},
		{"  A&B  Electric!! ", "a-and-b-electric"},
		{"Straße Heizung", "strasse-heizung"},
		{"Ørsted Cleaning Co.", "orsted-cleaning-co"},
		{"Limpieza La Estrella — 24/7", "limpieza-la-estrella-24-7"},
		{"Çağrı Klima", "cagri-klima"},
		{"水道屋", ""},
		{"---", ""},
		{strings.Repeat("very long name ", 10), "very-long-name-very-long-name-very-long-name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SlugFromName(tt.name)
			if got != tt.want {
				t.Errorf("SlugFromName(%q) = %q, want %q", tt.name, got, tt.want)
			}
			if got != "" && (!IsSlug(got) || len(got) > maxSignupSlug) {
				t.Errorf("SlugFromName(%q) = %q: not a slug of at most %d characters", tt.name, got, maxSignupSlug)
			}
		})
	}
}

func TestSlugCandidates(t *testing.T) {
	var got []string
	for n := range 4 {
		got = append(got, slugCandidate("start", n))
	}
	if want := "start start-2 start-3 start-4"; strings.Join(got, " ") != want {
		t.Errorf("candidates = %v, want %s", got, want)
	}
}

func TestCheckSignup(t *testing.T) {
	good := SignupInput{Name: "Fontanería José", Trade: "plumbing", Email: " Jose@Example.com ", Terms: true}
	tests := []struct {
		name   string
		change func(*SignupInput)
		want   string // the bad fields, in order
	}{
		{"good", func(*SignupInput) {}, ""},
		{"no name", func(in *SignupInput) { in.Name = "  " }, "name"},
		{"too long a name", func(in *SignupInput) { in.Name = strings.Repeat("a", MaxBusinessName+1) }, "name"},
		{"a name of the longest", func(in *SignupInput) { in.Name = strings.Repeat("ñ", MaxBusinessName) }, ""},
		{"a URL in the name", func(in *SignupInput) { in.Name = "Best Plumbing https://evil.example" }, "name"},
		{"a site in the name", func(in *SignupInput) { in.Name = "cheap-pipes.com" }, "name"},
		{"an e-mail address in the name", func(in *SignupInput) { in.Name = "Write to joe@pipes.example" }, "name"},
		{"a phone number in the name", func(in *SignupInput) { in.Name = "Plumbing (512) 555-0100" }, "name"},
		{"two lines", func(in *SignupInput) { in.Name = "Plumbing\nCall now" }, "name"},
		{"no letter or digit", func(in *SignupInput) { in.Name = "水道屋" }, "name"},
		{"24/7 is no phone", func(in *SignupInput) { in.Name = "24/7 Plumbing" }, ""},
		{"an unknown trade", func(in *SignupInput) { in.Trade = "roofing" }, "trade"},
		{"no e-mail", func(in *SignupInput) { in.Email = "" }, "email"},
		{"a bad e-mail", func(in *SignupInput) { in.Email = "jose@" }, "email"},
		{"no terms", func(in *SignupInput) { in.Terms = false }, "terms"},
		{"everything", func(in *SignupInput) { *in = SignupInput{} }, "name trade email terms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := good
			tt.change(&in)
			var got []string
			for _, f := range CheckSignup(in) {
				got = append(got, f.Field)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("CheckSignup = %v, want %q", got, tt.want)
			}
		})
	}
}

// TestSignupBusiness checks the business a sign-up makes: its defaults,
// and that it passes Validate (as the loader's records do) while it is
// being set up, empty as it is; once accepting requests or out of
// preview, the same record is refused until it has what a live business
// needs.
func TestSignupBusiness(t *testing.T) {
	s := &Bookings{formSiteURL: "https://book.example.com"}
	b, err := s.NewSignupBusiness("fontaneria-jose", SignupRecord{Name: "Fontanería José", Trade: "plumbing", Email: "jose@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	got := []struct {
		field string
		got   any
		want  any
	}{
		{"booking_url", b.BookingURL, "https://book.example.com/book/fontaneria-jose"},
		{"inbox_email", b.InboxEmail, "jose@example.com"},
		{"preview", b.Preview, true},
		{"accepting_requests", b.AcceptingRequests, false},
		{"arrival_window_minutes", b.ArrivalWindowMinutes, 120},
		{"books_up_to_days_ahead", b.BooksUpToDaysAhead, 14},
		{"default_language", b.DefaultLanguage, "en"},
		{"timezone", b.Timezone, SignupTimezone},
		{"mon", b.Hours.Mon, []Interval{{Open: "08:00", Close: "17:00", openMin: 480, closeMin: 1020}}},
		{"sat", len(b.Hours.Sat), 0},
		{"services", len(b.Services), 0},
		{"zip_codes", len(b.ServiceArea.ZIPCodes), 0},
	}
	for _, g := range got {
		if g.field == "mon" {
			iv := g.got.([]Interval)
			if len(iv) != 1 || iv[0].Open != "08:00" || iv[0].Close != "17:00" {
				t.Errorf("hours.mon = %v, want 08:00-17:00", iv)
			}
			continue
		}
		if g.got != g.want {
			t.Errorf("%s = %v, want %v", g.field, g.got, g.want)
		}
	}
	doc, err := EncodeBusinessRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeBusiness(doc); err != nil {
		t.Errorf("the stored record does not decode: %v", err)
	}

	for _, tt := range []struct {
		name   string
		change func(*Business)
	}{
		{"ZIP codes without the area's label", func(b *Business) { b.ServiceArea.ZIPCodes = []string{"78701"} }},
		{"accepting requests", func(b *Business) { b.AcceptingRequests = true }},
		{"live, paused", func(b *Business) { b.Preview = false }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := *b
			tt.change(&c)
			if err := c.Validate(); err == nil {
				t.Errorf("Validate accepts a business being set up with %s", tt.name)
			}
		})
	}
}

// TestSignupRefusesRequests: a business being set up takes no request,
// and says so without a phone number to call.
func TestSignupRefusesRequests(t *testing.T) {
	s := &Bookings{formSiteURL: "https://book.example.com"}
	b, err := s.NewSignupBusiness("fontaneria-jose", SignupRecord{Name: "Fontanería José", Trade: "plumbing", Email: "jose@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	d := &draft{}
	err = d.checkBusinessRules(b, time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC))
	if ErrorCode(err) != BookingPaused {
		t.Fatalf("checkBusinessRules = %v, want BOOKING_PAUSED", err)
	}
	if want := "Fontanería José takes no online requests yet"; err.(*Error).Message != want {
		t.Errorf("message = %q, want %q", err.(*Error).Message, want)
	}
}

// TestSignupChecklist: a business just signed up has its e-mail and hours
// done, and not its mobile, service, ZIP code or public details; with
// them all it is ready, and the record it would publish is valid.
func TestSignupChecklist(t *testing.T) {
	s := &Bookings{formSiteURL: "https://book.example.com"}
	b, err := s.NewSignupBusiness("fontaneria-jose", SignupRecord{Name: "Fontanería José", Trade: "plumbing", Email: "jose@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	_, missing := b.Ready()
	if got, want := strings.Join(missing, " "), "mobile service zip details"; got != want {
		t.Errorf("missing %q, want %q", got, want)
	}
	b.OwnerPhone = "5125550161"
	b.Services = []Service{{ID: "drain-cleaning", Name: LocalText{EN: "Drain cleaning", ES: "Limpieza de drenaje"},
		Description: LocalText{EN: "Clogged sinks.", ES: "Lavabos tapados."}}}
	b.ServiceArea = ServiceArea{Label: "Austin", ZIPCodes: []string{"78701"}}
	if ok, missing := b.Ready(); ok || strings.Join(missing, " ") != "details" {
		t.Errorf("without the public details: ready %v, missing %v; want only details", ok, missing)
	}
	live := *b
	publish(&live)
	if err := live.Validate(); err == nil {
		t.Error("a business without phone, city and state validates live")
	}
	b.Phone, b.City, b.State = "+15125550160", "Austin", "TX"
	if ok, missing := b.Ready(); !ok {
		t.Errorf("with everything: missing %v", missing)
	}
	live = *b
	publish(&live)
	if err := live.Validate(); err != nil {
		t.Errorf("the record going live publishes: %v", err)
	}
}
