package booking

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestLoadBusinessesRejects(t *testing.T) {
	records := testRecords(t)
	first := func() map[string]any {
		var m map[string]any
		raw, _ := json.Marshal(records[0])
		_ = json.Unmarshal(raw, &m)
		return m
	}
	deposit := func(m map[string]any) map[string]any {
		var d map[string]any
		raw, _ := json.Marshal(records[3]["booking_deposit"])
		_ = json.Unmarshal(raw, &d)
		m["booking_deposit"] = d
		return d
	}
	tests := []struct {
		name   string
		change func(m map[string]any)
		want   string // the error names the business and the field
	}{
		{"bad time zone", func(m map[string]any) { m["timezone"] = "America/Springfield" }, `"split-day-plumbing": timezone`},
		{"empty time zone", func(m map[string]any) { m["timezone"] = "" }, `"split-day-plumbing": timezone`},
		{"malformed HH:MM", func(m map[string]any) {
			m["hours"].(map[string]any)["tue"] = []any{map[string]any{"open": "8:00", "close": "12:00"}}
		}, `hours.tue[0].open`},
		{"25 o'clock", func(m map[string]any) {
			m["hours"].(map[string]any)["wed"] = []any{map[string]any{"open": "08:00", "close": "25:00"}}
		}, `hours.wed[0].close`},
		{"opens at 24:00", func(m map[string]any) {
			m["hours"].(map[string]any)["wed"] = []any{map[string]any{"open": "24:00", "close": "24:00"}}
		}, `hours.wed[0].open`},
		{"closes before it opens", func(m map[string]any) {
			m["hours"].(map[string]any)["thu"] = []any{map[string]any{"open": "12:00", "close": "08:00"}}
		}, `hours.thu[0]`},
		{"overlapping intervals", func(m map[string]any) {
			m["hours"].(map[string]any)["fri"] = []any{
				map[string]any{"open": "08:00", "close": "12:00"}, map[string]any{"open": "11:00", "close": "17:00"}}
		}, `hours.fri[1]`},
		{"intervals out of order", func(m map[string]any) {
			m["hours"].(map[string]any)["fri"] = []any{
				map[string]any{"open": "13:00", "close": "17:00"}, map[string]any{"open": "08:00", "close": "12:00"}}
		}, `hours.fri[1]`},
		{"unknown language", func(m map[string]any) { m["languages"] = []any{"en", "fr"} }, `languages[1]`},
		{"default language not spoken", func(m map[string]any) { m["default_language"] = "es" }, `default_language`},
		{"deposit of zero", func(m map[string]any) { deposit(m)["amount_cents"] = 0 }, `booking_deposit.amount_cents`},
		{"deposit currency", func(m map[string]any) { deposit(m)["currency"] = "USD" }, `booking_deposit.currency`},
		{"deposit simulated on a live site", func(m map[string]any) { deposit(m)["simulated"] = true }, `booking_deposit.simulated`},
		{"deposit without a rule", func(m map[string]any) {
			delete(deposit(m)["rules"].(map[string]any), "job_done")
		}, `booking_deposit.rules`},
		{"deposit terms not a URL", func(m map[string]any) { deposit(m)["terms_url"] = "terms" }, `booking_deposit.terms_url`},
		{"url with a user name", func(m map[string]any) { m["url"] = "https://owner@split-day-plumbing.example.com" }, `"split-day-plumbing": url`},
		{"url on a host without a dot", func(m map[string]any) { m["url"] = "https://localhost" }, `"split-day-plumbing": url`},
		{"booking_url with a bad escape", func(m map[string]any) { m["booking_url"] = "https://split-day-plumbing.example.com/100%" }, `booking_url`},
		{"bad slug", func(m map[string]any) { m["slug"] = "Split Day" }, `slug`},
		{"phone without +", func(m map[string]any) { m["phone"] = "3235550100" }, `phone`},
		{"phone +1 with an area code starting with 0", func(m map[string]any) { m["phone"] = "+10123456789" }, `phone`},
		{"phone +1 with an exchange starting with 1", func(m map[string]any) { m["phone"] = "+13231550100" }, `phone`},
		{"phone +1 of 11 digits", func(m map[string]any) { m["phone"] = "+132355501001" }, `phone: want international format`},
		{"zip of 4 digits", func(m map[string]any) { m["service_area"].(map[string]any)["zip_codes"] = []any{"9001"} }, `service_area.zip_codes[0]`},
		{"window length 0", func(m map[string]any) { m["arrival_window_minutes"] = 0 }, `arrival_window_minutes`},
		{"service without Spanish name", func(m map[string]any) {
			m["services"].([]any)[0].(map[string]any)["name"] = map[string]any{"en": "Drains"}
		}, `services[0].name`},
		{"service id twice", func(m map[string]any) {
			s := m["services"].([]any)
			m["services"] = append(s, s[0])
		}, `services[2].id`},
		{"live without a service", func(m map[string]any) { m["services"] = []any{} }, `"split-day-plumbing": services: is empty`},
		{"slug twice", nil, `businesses[1]: business "split-day-plumbing": slug`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := first()
			list := []any{m}
			if tt.change != nil {
				tt.change(m)
			} else {
				list = append(list, first())
			}
			raw, _ := json.Marshal(list)
			_, err := LoadBusinesses(strings.NewReader(string(raw)))
			if err == nil {
				t.Fatalf("got no error, want one naming %s", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %q, want it to name %s", err, tt.want)
			}
		})
	}
}

// TestStoredRecordsPastNewerRulesStayReadable: a record stored before a
// rule that the loader and an owner's change now apply (a live business
// with no service left; a +1 phone whose area code starts with 0 or 1)
// still decodes, so that its public pages and its owner's inbox keep
// working, while a file that holds it is refused.
func TestStoredRecordsPastNewerRulesStayReadable(t *testing.T) {
	tests := []struct {
		name   string
		change func(m map[string]any)
	}{
		{"live without a service", func(m map[string]any) { m["services"] = []any{} }},
		{"phone +1 with an area code starting with 0", func(m map[string]any) { m["phone"] = "+10123456789" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			raw, _ := json.Marshal(testRecords(t)[0])
			_ = json.Unmarshal(raw, &m)
			tt.change(m)
			raw, _ = json.Marshal(m)
			if _, err := DecodeBusiness(raw); err != nil {
				t.Errorf("stored record: got %v, want it read", err)
			}
			if _, err := LoadBusinesses(strings.NewReader("[" + string(raw) + "]")); err == nil {
				t.Error("file: got no error, want the record refused")
			}
		})
	}
}

func TestLoadBusinessesClosedDayIsEmptyList(t *testing.T) {
	bs := testBusinesses(t)
	data, err := json.Marshal(bs["split-day-plumbing"])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"sun":[]`) {
		t.Fatalf("got %s, want sun as []", data)
	}
	if strings.Contains(string(data), "openMin") {
		t.Fatalf("got private fields in %s", data)
	}
}

func TestDemoBusinessesLoad(t *testing.T) {
	bs := loadFile(t, "../../infra/local/businesses.json")
	kinds := map[string]bool{}
	zones := map[string]bool{}
	for _, b := range bs {
		zones[b.Timezone] = true
		kinds["deposit"] = kinds["deposit"] || (b.BookingDeposit != nil && !b.Preview)
		kinds["preview"] = kinds["preview"] || b.Preview
		kinds["example"] = kinds["example"] || b.Example
		kinds["paused"] = kinds["paused"] || !b.AcceptingRequests
		kinds["bilingual"] = kinds["bilingual"] || len(b.Languages) == 2
		allDay := true
		for _, day := range b.Hours.days() {
			allDay = allDay && len(*day) == 1 && (*day)[0].Open == "00:00" && (*day)[0].Close == "24:00"
		}
		kinds["24/7"] = kinds["24/7"] || allDay
	}
	for _, k := range []string{"deposit", "preview", "example", "paused", "bilingual", "24/7"} {
		if !kinds[k] {
			t.Errorf("got no demo business that is %s", k)
		}
	}
	if len(zones) < 3 {
		t.Errorf("got time zones %v, want at least 3", zones)
	}
}

func TestIsSlugBoundsLength(t *testing.T) {
	tests := []struct {
		slug string
		want bool
	}{
		{strings.Repeat("a", MaxSlug), true},
		{strings.Repeat("a", MaxSlug+1), false},
		{strings.Repeat("ab-", 1000) + "c", false},
	}
	for _, tt := range tests {
		if got := IsSlug(tt.slug); got != tt.want {
			t.Errorf("IsSlug(%d characters) = %v, want %v", len(tt.slug), got, tt.want)
		}
	}
}

// TestReadPublicPhone: a public phone typed in any common spelling is
// stored in international format; a North American number is one whose
// area code and exchange start with 2 to 9.
func TestReadPublicPhone(t *testing.T) {
	tests := []struct {
		in, want string // want "": refused
	}{
		{"(323) 555-0100", "+13235550100"},
		{"323.555.0100", "+13235550100"},
		{"1 323 555 0100", "+13235550100"},
		{"+1 (323) 555-0100", "+13235550100"},
		{" +13235550100 ", "+13235550100"},
		{"+44 20 7946 0958", "+442079460958"},
		{"+52 (55) 1234-5678", "+525512345678"},
		{"+0123456789", ""},
		{"0123456789", ""},
		{"+1 012 555 0100", ""},
		{"(123) 555-0100", ""},
		{"(323) 055-0100", ""},
		{"(323) 155-0100", ""},
		{"+1 323 555 01000", ""},
		{"555-0100", ""},
		{"+44 20 7946 0958 ext 2", ""},
		{"+", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := ReadPublicPhone(tt.in)
			if ok != (tt.want != "") || got != tt.want {
				t.Fatalf("got %q, %v, want %q", got, ok, tt.want)
			}
		})
	}
}
