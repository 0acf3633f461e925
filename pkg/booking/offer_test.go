package booking

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// storedLoads checks that b is a record the loader takes.
func storedLoads(t *testing.T, b *Business) {
	t.Helper()
	doc, err := EncodeBusinessRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeBusiness(doc); err != nil {
		t.Errorf("the stored record does not load: %v", err)
	}
}

func TestUpdateDetails(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"
	tests := []struct {
		name    string
		change  func(*Details)
		wantErr string // a piece of the INVALID_REQUEST message; "" for none
	}{
		{"a new name", func(d *Details) { d.Name = "Split Day Plumbing & Drains" }, ""},
		{"a name with the business's own phone", func(d *Details) { d.Name = "Split Day Plumbing (323) 555-0100" }, ""},
		{"an empty name", func(d *Details) { d.Name = "" }, "name: is empty"},
		{"a long name", func(d *Details) { d.Name = strings.Repeat("n", MaxBusinessName+1) }, "name: is longer than 60"},
		{"a name with a link", func(d *Details) { d.Name = "Plumbing at cheap-plumbers.com" }, "name: may not hold a link"},
		{"a name with an e-mail address", func(d *Details) { d.Name = "Plumbing ana@example.net" }, "name: may not hold an e-mail"},
		{"a name with another phone", func(d *Details) { d.Name = "Plumbing call 213-555-0199" }, "name: may not hold a phone"},
		{"a name of two lines", func(d *Details) { d.Name = "Split\nDay" }, "name: must be one line"},
		{"a new phone", func(d *Details) { d.Phone = "+13235550111" }, ""},
		{"a phone without +", func(d *Details) { d.Phone = "3235550111" }, "phone"},
		{"a +1 phone whose area code starts with 0", func(d *Details) { d.Phone = "+10123456789" }, "phone: want international format"},
		{"a +1 phone whose exchange starts with 1", func(d *Details) { d.Phone = "+13231550111" }, "phone: want international format"},
		{"another country's phone", func(d *Details) { d.Phone = "+525512345678" }, ""},
		{"a city and state", func(d *Details) { d.City, d.State = "Pasadena", "CA" }, ""},
		{"a state in lowercase", func(d *Details) { d.State = "ca" }, "state"},
		{"a listed time zone", func(d *Details) { d.Timezone = "America/Denver" }, ""},
		{"a time zone off the list", func(d *Details) { d.Timezone = "Europe/Paris" }, "timezone: want one of"},
		{"a site", func(d *Details) { d.URL = "https://splitday.example.org" }, ""},
		{"a site over http", func(d *Details) { d.URL = "http://splitday.example.org" }, "url"},
		{"Spanish first", func(d *Details) { d.Languages, d.DefaultLanguage = []string{"en", "es"}, "es" }, ""},
		{"a default not spoken", func(d *Details) { d.Languages, d.DefaultLanguage = []string{"en"}, "es" }, "default_language"},
		{"a license", func(d *Details) { d.License = &License{Number: "C-36 123456", Authority: "CSLB"} }, ""},
		{"no license", func(d *Details) { d.License = nil }, ""},
		{"half a license", func(d *Details) { d.License = &License{Number: "C-36"} }, "license"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, store, _ := newSignInService(t)
			before := store.bs[slug]
			want := before.Details()
			tt.change(&want)
			got, err := inboxOf(s, before).UpdateDetails(ctx, before.Details().Version(), want)
			stored := store.bs[slug]
			if tt.wantErr != "" {
				if ErrorCode(err) != InvalidRequest || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("UpdateDetails() = %v, want INVALID_REQUEST with %q", err, tt.wantErr)
				}
				if stored != before {
					t.Error("invalid details were stored")
				}
				return
			}
			if err != nil {
				t.Fatalf("UpdateDetails() = %v", err)
			}
			if g, w := stored.Details().Version(), want.Version(); g != w || got.Details().Version() != w {
				t.Errorf("stored %+v, want %+v", stored.Details(), want)
			}
			if stored.Schedule().Version() != before.Schedule().Version() || ServicesVersion(stored.Services) != ServicesVersion(before.Services) {
				t.Error("a change of the details changed another section")
			}
			storedLoads(t, stored)
		})
	}
}

// TestUpdateDetailsKeepsAStoredPhone: a public phone stored before the
// North American rule still reads, and the business's other details still
// change; only a new phone is held to the rule.
func TestUpdateDetailsKeepsAStoredPhone(t *testing.T) {
	s, store, _ := newSignInService(t)
	const slug = "split-day-plumbing"
	old := *store.bs[slug]
	old.Phone = "+10123456789"
	store.bs[slug] = &old
	storedLoads(t, &old)
	d := old.Details()
	d.City = "Pasadena"
	got, err := inboxOf(s, &old).UpdateDetails(context.Background(), old.Details().Version(), d)
	if err != nil || got.City != "Pasadena" || got.Phone != old.Phone {
		t.Fatalf("UpdateDetails() = %+v, %v; want the new city and the stored phone", got, err)
	}
}

func TestUpdateDetailsChangedMeanwhile(t *testing.T) {
	s, store, _ := newSignInService(t)
	const slug = "split-day-plumbing"
	before := store.bs[slug]
	seen := before.Details().Version()
	d := before.Details()
	d.City = "Pasadena"
	if _, err := inboxOf(s, before).UpdateDetails(context.Background(), seen, d); err != nil {
		t.Fatal(err)
	}
	d.City = "Glendale"
	now, err := inboxOf(s, before).UpdateDetails(context.Background(), seen, d)
	if !errors.Is(err, ErrOfferChanged) || now == nil || now.City != "Pasadena" {
		t.Fatalf("UpdateDetails(old version) = %v, %v; want ErrOfferChanged and the record as stored", now, err)
	}
	if got := store.bs[slug].City; got != "Pasadena" {
		t.Errorf("city stored %q, want Pasadena", got)
	}
}

func TestUpdateArea(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"
	tests := []struct {
		name     string
		next     Area
		wantZIPs []string
		wantErr  string
	}{
		{"three ZIP codes", Area{Label: "Eastside", ZIPCodes: []string{"90012", "90031", "90033"}}, []string{"90012", "90031", "90033"}, ""},
		{"duplicates go", Area{Label: "Eastside", ZIPCodes: []string{"90031", "90012", "90031"}}, []string{"90031", "90012"}, ""},
		{"no ZIP code", Area{Label: "Eastside"}, nil, "service_area.zip_codes: a business that is live or takes requests keeps at least one"},
		{"four digits", Area{Label: "Eastside", ZIPCodes: []string{"90012", "9001"}}, nil, "service_area.zip_codes[1]"},
		{"no label", Area{ZIPCodes: []string{"90012"}}, nil, "service_area.label"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, store, _ := newSignInService(t)
			before := store.bs[slug]
			_, err := inboxOf(s, before).UpdateArea(ctx, before.Area().Version(), tt.next)
			stored := store.bs[slug]
			if tt.wantErr != "" {
				if ErrorCode(err) != InvalidRequest || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("UpdateArea() = %v, want INVALID_REQUEST with %q", err, tt.wantErr)
				}
				if stored != before {
					t.Error("an invalid area was stored")
				}
				return
			}
			if err != nil {
				t.Fatalf("UpdateArea() = %v", err)
			}
			if got := stored.ServiceArea.ZIPCodes; !slices.Equal(got, tt.wantZIPs) || stored.ServiceArea.Label != tt.next.Label {
				t.Errorf("stored %+v, want %q %v", stored.ServiceArea, tt.next.Label, tt.wantZIPs)
			}
			storedLoads(t, stored)
		})
	}
}

// TestLiveKeepsAServiceAndAZIP: a business that is live, or takes
// requests in preview, cannot remove its last service or its last ZIP
// code (its record cannot go live empty): the change is refused with
// ErrLastService or ErrLastZIP and nothing is stored. A business being
// set up may.
func TestLiveKeepsAServiceAndAZIP(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"
	tests := []struct {
		name    string
		state   func(*Business)
		section string // "services" or "area"
		want    error  // nil: stored
	}{
		{"live: the last service", func(*Business) {}, "services", ErrLastService},
		{"live, paused: the last service", func(b *Business) { b.AcceptingRequests = false }, "services", ErrLastService},
		{"preview taking requests: the last service", func(b *Business) { b.Preview = true }, "services", ErrLastService},
		{"being set up: the last service", func(b *Business) { b.Preview, b.AcceptingRequests = true, false }, "services", nil},
		{"live: the last ZIP code", func(*Business) {}, "area", ErrLastZIP},
		{"live, paused: the last ZIP code", func(b *Business) { b.AcceptingRequests = false }, "area", ErrLastZIP},
		{"being set up: the last ZIP code", func(b *Business) { b.Preview, b.AcceptingRequests = true, false }, "area", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, store, _ := newSignInService(t)
			before := *store.bs[slug]
			tt.state(&before)
			before.Services = before.Services[:1]
			before.ServiceArea.ZIPCodes = before.ServiceArea.ZIPCodes[:1]
			if err := before.Validate(); err != nil {
				t.Fatal(err)
			}
			store.bs[slug] = &before
			var err error
			if tt.section == "services" {
				_, err = inboxOf(s, &before).UpdateServices(ctx, ServicesVersion(before.Services), nil)
			} else {
				_, err = inboxOf(s, &before).UpdateArea(ctx, before.Area().Version(), Area{Label: before.ServiceArea.Label})
			}
			if tt.want != nil {
				if !errors.Is(err, tt.want) || ErrorCode(err) != InvalidRequest {
					t.Fatalf("got %v, want %v", err, tt.want)
				}
				if store.bs[slug] != &before {
					t.Error("something was stored")
				}
				return
			}
			if err != nil {
				t.Fatalf("got %v, want it stored", err)
			}
			if got := store.bs[slug]; len(got.Services) != 0 && len(got.ServiceArea.ZIPCodes) != 0 {
				t.Errorf("stored %d services and %d ZIP codes, want one of them none", len(got.Services), len(got.ServiceArea.ZIPCodes))
			}
			storedLoads(t, store.bs[slug])
		})
	}
}

func TestUpdateWindows(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"
	tests := []struct {
		name    string
		next    Windows
		wantErr string
	}{
		{"90-minute windows", Windows{ArrivalWindowMinutes: 90, BooksUpToDaysAhead: 14}, ""},
		{"four-hour windows, 60 days", Windows{ArrivalWindowMinutes: 240, BooksUpToDaysAhead: MaxDaysAhead}, ""},
		{"a length off the list", Windows{ArrivalWindowMinutes: 100, BooksUpToDaysAhead: 14}, "arrival_window_minutes: want one of"},
		{"no day ahead", Windows{ArrivalWindowMinutes: 120, BooksUpToDaysAhead: 0}, "books_up_to_days_ahead"},
		{"too far ahead", Windows{ArrivalWindowMinutes: 120, BooksUpToDaysAhead: MaxDaysAhead + 1}, "books_up_to_days_ahead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, store, _ := newSignInService(t)
			before := store.bs[slug]
			_, err := inboxOf(s, before).UpdateWindows(ctx, before.WindowSettings().Version(), tt.next)
			stored := store.bs[slug]
			if tt.wantErr != "" {
				if ErrorCode(err) != InvalidRequest || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("UpdateWindows() = %v, want INVALID_REQUEST with %q", err, tt.wantErr)
				}
				if stored != before {
					t.Error("invalid windows were stored")
				}
				return
			}
			if err != nil {
				t.Fatalf("UpdateWindows() = %v", err)
			}
			if got := stored.WindowSettings(); got != tt.next {
				t.Errorf("stored %+v, want %+v", got, tt.next)
			}
		})
	}
}

func TestUpdateServices(t *testing.T) {
	ctx := context.Background()
	const slug = "split-day-plumbing"
	text := func(en, es string) LocalText { return LocalText{EN: en, ES: es} }
	water := Service{Name: text("Water heater repair", "Reparación de calentador"), Description: text("No hot water? We fix it.", "¿Sin agua caliente? Lo arreglamos."), Urgent: true}
	tests := []struct {
		name    string
		change  func([]Service) []Service
		wantIDs []string
		wantErr string
	}{
		{"add one", func(s []Service) []Service { return append(s, water) }, []string{"drain-cleaning", "leak-repair", "water-heater-repair"}, ""},
		{"add one named as another", func(s []Service) []Service {
			w := water
			w.Name.EN = "Drain Cleaning!"
			return append(s, w)
		}, []string{"drain-cleaning", "leak-repair", "drain-cleaning-2"}, ""},
		{"add two of one name", func(s []Service) []Service { return append(s, water, water) }, []string{"drain-cleaning", "leak-repair", "water-heater-repair", "water-heater-repair-2"}, ""},
		{"an accented name", func(s []Service) []Service {
			w := water
			w.Name.EN = "Limpieza de baño"
			return append(s, w)
		}, []string{"drain-cleaning", "leak-repair", "limpieza-de-bano"}, ""},
		{"rename keeps the id", func(s []Service) []Service {
			s[0].Name = text("Drain unclogging", "Destape de drenaje")
			s[0].Description = text("We clear any drain.", "Destapamos cualquier drenaje.")
			return s
		}, []string{"drain-cleaning", "leak-repair"}, ""},
		{"reorder", func(s []Service) []Service { return []Service{s[1], s[0]} }, []string{"leak-repair", "drain-cleaning"}, ""},
		{"remove", func(s []Service) []Service { return s[1:] }, []string{"leak-repair"}, ""},
		{"mark urgent", func(s []Service) []Service { s[0].Urgent = true; return s }, []string{"drain-cleaning", "leak-repair"}, ""},
		{"an id the business has not", func(s []Service) []Service { s[0].ID = "gas-fitting"; return s }, nil, "services[0].id"},
		{"one id twice", func(s []Service) []Service { return append(s, s[0]) }, nil, "services[2].id"},
		{"a name with a link", func(s []Service) []Service {
			s[0].Name.ES = "Drenaje https://x.example"
			return s
		}, nil, "services[0].name.es: may not hold a link"},
		{"a description with an e-mail", func(s []Service) []Service {
			s[1].Description.EN = "Write to leaks@example.com"
			return s
		}, nil, "services[1].description.en: may not hold an e-mail"},
		{"a description with another phone", func(s []Service) []Service {
			s[1].Description.EN = "Call 213 555 0199 after hours"
			return s
		}, nil, "services[1].description.en: may not hold a phone"},
		{"a long name", func(s []Service) []Service {
			s[1].Name.EN = strings.Repeat("x", MaxServiceName+1)
			return s
		}, nil, "services[1].name.en: is longer than 50"},
		{"no Spanish name", func(s []Service) []Service {
			return append(s, Service{Name: text("Gas", ""), Description: text("Gas.", "Gas.")})
		}, nil, "services[2].name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, store, _ := newSignInService(t)
			before := store.bs[slug]
			next := tt.change(slices.Clone(before.Services))
			_, err := inboxOf(s, before).UpdateServices(ctx, ServicesVersion(before.Services), next)
			stored := store.bs[slug]
			if tt.wantErr != "" {
				if ErrorCode(err) != InvalidRequest || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("UpdateServices() = %v, want INVALID_REQUEST with %q", err, tt.wantErr)
				}
				if stored != before {
					t.Error("invalid services were stored")
				}
				return
			}
			if err != nil {
				t.Fatalf("UpdateServices() = %v", err)
			}
			var ids []string
			for i, sv := range stored.Services {
				ids = append(ids, sv.ID)
				if sv.Name != next[i].Name || sv.Description != next[i].Description || sv.Urgent != next[i].Urgent {
					t.Errorf("service %d stored %+v, want %+v", i, sv, next[i])
				}
			}
			if !slices.Equal(ids, tt.wantIDs) {
				t.Errorf("ids stored %v, want %v", ids, tt.wantIDs)
			}
			storedLoads(t, stored)
		})
	}
}

// TestRemovedServiceIDNeverReused: a service removed and one of the same
// name added later get different IDs, so that a request made for the first
// never names the second.
func TestRemovedServiceIDNeverReused(t *testing.T) {
	ctx := context.Background()
	s, store, _ := newSignInService(t)
	const slug = "split-day-plumbing"
	b := store.bs[slug]
	removed := b.Services[0]
	if _, err := inboxOf(s, b).UpdateServices(ctx, ServicesVersion(b.Services), b.Services[1:]); err != nil {
		t.Fatal(err)
	}
	b = store.bs[slug]
	again := Service{Name: removed.Name, Description: removed.Description}
	if _, err := inboxOf(s, b).UpdateServices(ctx, ServicesVersion(b.Services), append(slices.Clone(b.Services), again)); err != nil {
		t.Fatal(err)
	}
	b = store.bs[slug]
	if got, want := b.Services[len(b.Services)-1].ID, removed.ID+"-2"; got != want {
		t.Errorf("the new service's id = %q, want %q (not the removed %q)", got, want, removed.ID)
	}
	if !slices.Contains(b.RemovedServiceIDs, removed.ID) {
		t.Errorf("removed ids %v, want %q among them", b.RemovedServiceIDs, removed.ID)
	}
	storedLoads(t, b)
}

func TestOwnerTextProblem(t *testing.T) {
	const own = "+13235550100"
	tests := []struct {
		text string
		want TextProblem
	}{
		{"Drain cleaning", ""},
		{"Open 24/7, since 1998", ""},
		{"St.Louis and e.g. nearby", ""},
		{"Call us at (323) 555-0100", ""},
		{"Call us at +1 323 555 0100", ""},
		{"See https://example.org", TextLink},
		{"See www.example", TextLink},
		{"See cheap-deals.com now", TextLink},
		{"Write to ana@example.net", TextEmail},
		{"Call 555-0199", TextPhone},
		{"Call (213) 555-0199", TextPhone},
		{"two\nlines", TextLines},
		{"  ", TextEmpty},
		{strings.Repeat("a", 51), TextLong},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := OwnerTextProblem(tt.text, MaxServiceName, own); got != tt.want {
				t.Errorf("OwnerTextProblem(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}
