package booking

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// validBody is a createServiceRequest body that split-day-plumbing accepts at createNow.
const validBody = `{
	"window_start": "2026-11-23T16:00:00Z",
	"address": {"street": "12 Main St", "unit": "4B", "city": "Los Angeles", "zip": "90012"},
	"contact": {"name": "Ana Ruiz", "phone": "(323) 555-0142", "email": "ana@example.com", "sms_consent": false},
	"service_id": "drain-cleaning",
	"urgency": "soon",
	"description": "Kitchen sink drains slowly.",
	"language": "es",
	"assistant_name": "Helper"
}`

var createNow = utc("2026-11-20T00:00:00Z")

// withField returns body with the value at a dotted path replaced (or, with
// remove, deleted).
func withField(t testing.TB, body []byte, path string, value any, remove bool) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(path, ".")
	obj := m
	for _, p := range parts[:len(parts)-1] {
		obj = obj[p].(map[string]any)
	}
	if remove {
		delete(obj, parts[len(parts)-1])
	} else {
		obj[parts[len(parts)-1]] = value
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// inputOf is the CreateInput an edge decodes from a valid JSON body and an
// Idempotency-Key header ("" for none): a stand-in for the JSON edge's
// decoder (pkg/httpapi), whose refusals its own tests cover.
func inputOf(t testing.TB, body []byte, header string) CreateInput {
	t.Helper()
	in, ok := inputFromJSON(body, header)
	if !ok {
		t.Fatalf("not a JSON object: %s", body)
	}
	return in
}

// inputFromJSON is inputOf's decoding; ok is false when body is not a JSON
// object. A value of the wrong type reads as absent, and so does a
// window_start that is not RFC 3339 (the edges refuse it: pkg/edge).
func inputFromJSON(body []byte, header string) (in CreateInput, ok bool) {
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil || m == nil {
		return CreateInput{}, false
	}
	text := func(obj map[string]any, k string) string { s, _ := obj[k].(string); return s }
	given := func(k string) *string {
		if s, ok := m[k].(string); ok {
			return &s
		}
		return nil
	}
	a, _ := m["address"].(map[string]any)
	c, _ := m["contact"].(map[string]any)
	in = CreateInput{
		WindowStart:     windowStart(text(m, "window_start")),
		Address:         Address{Street: text(a, "street"), Unit: text(a, "unit"), City: text(a, "city"), ZIP: text(a, "zip")},
		Contact:         Contact{Name: text(c, "name"), Phone: text(c, "phone"), Email: text(c, "email"), SMSConsent: c["sms_consent"] == true},
		ServiceID:       given("service_id"),
		Urgency:         given("urgency"),
		Language:        given("language"),
		Description:     text(m, "description"),
		AssistantName:   text(m, "assistant_name"),
		DepositAccepted: m["deposit_accepted"] == true,
	}
	if header != "" {
		in.IdempotencyKeys = append(in.IdempotencyKeys, header)
	}
	if key := given("idempotency_key"); key != nil {
		in.IdempotencyKeys = append(in.IdempotencyKeys, *key)
	}
	return in, true
}

// windowStart reads a window_start for the tests' bodies: RFC 3339 as
// time.Parse reads it, the zero time for anything else.
func windowStart(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}

// validate runs every create check the domain makes before the store.
func validate(t testing.TB, b *Business, body []byte, headerKey string, now time.Time) (draft, error) {
	t.Helper()
	d, err := inputOf(t, body, headerKey).checkFields(b)
	if err != nil {
		return d, err
	}
	return d, d.checkBusinessRules(b, now)
}

func TestCreateValidation(t *testing.T) {
	bs := testBusinesses(t)
	type change struct {
		path   string
		value  any
		remove bool
	}
	tests := []struct {
		name     string
		business string
		changes  []change
		raw      string // the body as is, instead of changes
		header   string
		now      time.Time
		want     Code
	}{
		{name: "valid", want: ""},
		{name: "valid with an offset", changes: []change{{path: "window_start", value: "2026-11-23T08:00:00-08:00"}}, want: ""},
		{name: "valid with only required fields", raw: `{"window_start":"2026-11-23T16:00:00Z","address":{"street":"1 A St","zip":"90012"},"contact":{"name":"A","phone":"3235550142"}}`, want: ""},

		{name: "street empty", changes: []change{{path: "address.street", value: ""}}, want: InvalidAddress},
		{name: "street spaces only", changes: []change{{path: "address.street", value: "   "}}, want: InvalidAddress},
		{name: "zip 4 digits", changes: []change{{path: "address.zip", value: "9001"}}, want: InvalidZIP},
		{name: "zip+4", changes: []change{{path: "address.zip", value: "90012-1234"}}, want: InvalidZIP},
		{name: "name spaces only", changes: []change{{path: "contact.name", value: " \t "}}, want: InvalidName},
		{name: "phone 9 digits", changes: []change{{path: "contact.phone", value: "323555014"}}, want: InvalidPhone},
		{name: "phone not US", changes: []change{{path: "contact.phone", value: "+44 20 7946 0958"}}, want: InvalidPhone},
		{name: "email without domain", changes: []change{{path: "contact.email", value: "ana@"}}, want: InvalidEmail},
		{name: "email with display name", changes: []change{{path: "contact.email", value: "Ana <ana@example.com>"}}, want: InvalidEmail},
		{name: "email empty means none", changes: []change{{path: "contact.email", value: ""}}, want: ""},
		{name: "urgency unknown", changes: []change{{path: "urgency", value: "asap"}}, want: InvalidRequest},
		{name: "urgency empty", changes: []change{{path: "urgency", value: ""}}, want: InvalidRequest},
		{name: "language unknown", changes: []change{{path: "language", value: "fr"}}, want: InvalidRequest},
		{name: "description 2000 characters", changes: []change{{path: "description", value: strings.Repeat("é", 2000)}}, want: ""},
		{name: "description 2001 characters", changes: []change{{path: "description", value: strings.Repeat("é", 2001)}}, want: InvalidRequest},
		{name: "assistant_name 40 characters", changes: []change{{path: "assistant_name", value: strings.Repeat("a", 40)}}, want: ""},
		{name: "assistant_name 41 characters", changes: []change{{path: "assistant_name", value: strings.Repeat("a", 41)}}, want: InvalidRequest},
		{name: "idempotency_key 7 characters", changes: []change{{path: "idempotency_key", value: "1234567"}}, want: InvalidRequest},
		{name: "idempotency_key 8 characters", changes: []change{{path: "idempotency_key", value: "12345678"}}, want: ""},
		{name: "idempotency_key 80 characters", changes: []change{{path: "idempotency_key", value: strings.Repeat("k", 80)}}, want: ""},
		{name: "idempotency_key 81 characters", changes: []change{{path: "idempotency_key", value: strings.Repeat("k", 81)}}, want: InvalidRequest},
		{name: "header key too short", header: "short", want: InvalidRequest},
		{name: "header and body keys differ", changes: []change{{path: "idempotency_key", value: "key-one-1"}}, header: "key-two-2", want: InvalidRequest},
		{name: "header and body keys equal", changes: []change{{path: "idempotency_key", value: "key-one-1"}}, header: "key-one-1", want: ""},
		{name: "service not offered", changes: []change{{path: "service_id", value: "roofing"}}, want: ServiceUnavailable},
		{name: "service omitted", changes: []change{{path: "service_id", remove: true}}, want: ""},

		{name: "paused", business: "paused-plumbing", changes: []change{{path: "window_start", value: "2026-11-23T14:00:00Z"}}, want: BookingPaused},
		{name: "out of area", changes: []change{{path: "address.zip", value: "94110"}}, want: OutOfArea},
		{name: "deposit not accepted", business: "deposit-plumbing", changes: []change{{path: "window_start", value: "2026-11-23T13:00:00Z"}, {path: "address.zip", value: "10001"}}, want: DepositTerms},
		{name: "deposit declined", business: "deposit-plumbing", changes: []change{{path: "window_start", value: "2026-11-23T13:00:00Z"}, {path: "address.zip", value: "10001"}, {path: "deposit_accepted", value: false}}, want: DepositTerms},
		{name: "deposit accepted", business: "deposit-plumbing", changes: []change{{path: "window_start", value: "2026-11-23T13:00:00Z"}, {path: "address.zip", value: "10001"}, {path: "deposit_accepted", value: true}}, want: ""},
		{name: "window started", now: utc("2026-11-23T16:00:00Z"), want: TooLate},
		{name: "window in the past, not a start either", changes: []change{{path: "window_start", value: "2020-01-01T00:00:07Z"}}, want: TooLate},
		{name: "not a window start", changes: []change{{path: "window_start", value: "2026-11-23T17:00:00Z"}}, want: InvalidWindow},
		{name: "past the horizon", changes: []change{{path: "window_start", value: "2026-12-04T16:00:00Z"}}, want: InvalidWindow},

		// Precedence, first wins (decisions.md).
		{name: "INVALID_ADDRESS before INVALID_ZIP", changes: []change{{path: "address.street", value: ""}, {path: "address.zip", value: "1"}}, want: InvalidAddress},
		{name: "INVALID_ZIP before INVALID_NAME", changes: []change{{path: "address.zip", value: "1"}, {path: "contact.name", value: ""}}, want: InvalidZIP},
		{name: "INVALID_NAME before INVALID_PHONE", changes: []change{{path: "contact.name", value: ""}, {path: "contact.phone", value: "1"}}, want: InvalidName},
		{name: "INVALID_PHONE before INVALID_EMAIL", changes: []change{{path: "contact.phone", value: "1"}, {path: "contact.email", value: "x"}}, want: InvalidPhone},
		{name: "INVALID_EMAIL before other field rules", changes: []change{{path: "contact.email", value: "x"}, {path: "urgency", value: "now"}}, want: InvalidEmail},
		{name: "other field rules before SERVICE_UNAVAILABLE", changes: []change{{path: "urgency", value: "now"}, {path: "service_id", value: "roofing"}}, want: InvalidRequest},
		{name: "SERVICE_UNAVAILABLE before BOOKING_PAUSED", business: "paused-plumbing", changes: []change{{path: "service_id", value: "roofing"}}, want: ServiceUnavailable},
		{name: "BOOKING_PAUSED before OUT_OF_AREA", business: "paused-plumbing", changes: []change{{path: "address.zip", value: "94110"}}, want: BookingPaused},
		{name: "OUT_OF_AREA before DEPOSIT_TERMS", business: "deposit-plumbing", changes: []change{{path: "window_start", value: "2026-11-23T13:00:00Z"}}, want: OutOfArea},
		{name: "DEPOSIT_TERMS before TOO_LATE", business: "deposit-plumbing", changes: []change{{path: "window_start", value: "2026-11-23T13:00:00Z"}, {path: "address.zip", value: "10001"}}, now: utc("2026-11-24T00:00:00Z"), want: DepositTerms},
		{name: "TOO_LATE before INVALID_WINDOW", changes: []change{{path: "window_start", value: "2026-11-19T17:00:00Z"}}, want: TooLate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bs["split-day-plumbing"]
			if tt.business != "" {
				b = bs[tt.business]
			}
			body := []byte(tt.raw)
			if tt.raw == "" {
				body = []byte(validBody)
				for _, c := range tt.changes {
					body = withField(t, body, c.path, c.value, c.remove)
				}
			}
			now := createNow
			if !tt.now.IsZero() {
				now = tt.now
			}
			_, err := validate(t, b, body, tt.header, now)
			if got := codeOf(err); got != tt.want {
				t.Fatalf("got %s (%v), want %s", got, err, tt.want)
			}
			if err != nil && ErrorMessage(err) == "" {
				t.Errorf("got an empty message")
			}
		})
	}
}

func codeOf(err error) Code {
	if err == nil {
		return ""
	}
	return ErrorCode(err)
}

func TestCreateValidationNormalises(t *testing.T) {
	b := testBusinesses(t)["split-day-plumbing"]
	body := `{"window_start":"2026-11-23T08:00:00-08:00","address":{"street":"  12 Main St ","zip":" 90012 "},
		"contact":{"name":" Ana ","phone":"+1 (323) 555-0142","email":" ana@example.com ","sms_consent":true},"deposit_accepted":true}`
	d, err := validate(t, b, []byte(body), "", createNow)
	if err != nil {
		t.Fatal(err)
	}
	got := d.Request
	want := Request{
		ServiceName: LocalText{EN: otherServiceEN, ES: otherServiceES},
		Window:      Window{Date: "2026-11-23", Start: utc("2026-11-23T16:00:00Z"), End: utc("2026-11-23T18:00:00Z")},
		Address:     Address{Street: "12 Main St", ZIP: "90012"},
		Contact:     Contact{Name: "Ana", Phone: "3235550142", Email: "ana@example.com", SMSConsent: true},
		Urgency:     "soon",
		Language:    "en",
	}
	if g, w := mustJSON(t, got), mustJSON(t, want); g != w {
		t.Fatalf("got  %s\nwant %s", g, w)
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestBodyHash(t *testing.T) {
	decode := func(s string) CreateInput { return inputOf(t, []byte(s), "") }
	base := decode(validBody)
	tests := []struct {
		name string
		body string
		same bool
	}{
		{"reordered and respaced", `{"language":"es","urgency":"soon","description":"Kitchen sink drains slowly.","service_id":"drain-cleaning","assistant_name":"Helper",
			"contact":{"sms_consent":false,"email":"ana@example.com","phone":"(323) 555-0142","name":"Ana Ruiz"},
			"address":{"zip":"90012","city":"Los Angeles","unit":"4B","street":"12 Main St"},"window_start":"2026-11-23T16:00:00Z"}`, true},
		{"with the key in the body", string(withField(t, []byte(validBody), "idempotency_key", "abcdefgh", false)), true},
		{"the same instant at another offset", string(withField(t, []byte(validBody), "window_start", "2026-11-23T08:00:00-08:00", false)), false},
		{"another description", string(withField(t, []byte(validBody), "description", "Bathroom sink.", false)), false},
		{"another window", string(withField(t, []byte(validBody), "window_start", "2026-11-23T18:00:00Z", false)), false},
		// Spellings of one instant in one offset are one window_start.
		{"the start with a zero fraction", string(withField(t, []byte(validBody), "window_start", "2026-11-23T16:00:00.000Z", false)), true},
		{"the start at -00:00", string(withField(t, []byte(validBody), "window_start", "2026-11-23T16:00:00-00:00", false)), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := decode(tt.body).BodyHash() == base.BodyHash(); got != tt.same {
				t.Fatalf("got same hash %v, want %v", got, tt.same)
			}
		})
	}
}

// TestBodyHashKept: a start as listArrivalWindows writes it hashes as when
// WindowStart was the string sent, so that an idempotency key stored before
// starts were times still replays its request (the hashes are those of the
// string version, computed on it).
func TestBodyHashKept(t *testing.T) {
	tests := []struct {
		name, start, want string
	}{
		{"UTC", "2026-11-23T16:00:00Z", "384dc1e5316ef287c5630a692208fd0889ea193503c67166444032841cb6f3ec"},
		{"an offset", "2026-11-23T08:00:00-08:00", "27f443bf07eb358cba6f59f4762788674090f8324227dee5c356d7a2a0a69f93"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := inputOf(t, withField(t, []byte(validBody), "window_start", tt.start, false), "")
			if got := in.BodyHash(); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestNormalizePhone(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" when invalid
	}{
		{"5125550142", "5125550142"},
		{"(512) 555-0142", "5125550142"},
		{"512.555.0142", "5125550142"},
		{"512-555-0142", "5125550142"},
		{"+1 512 555 0142", "5125550142"},
		{"1-512-555-0142", "5125550142"},
		{" +15125550142 ", "5125550142"},
		{"", ""},
		{"512555014", ""},
		{"51255501420", ""},
		{"+44 512 555 0142", ""},
		{"+5125550142", ""},
		{"0125550142", ""},      // area code starts with 0
		{"5121550142", ""},      // exchange starts with 1
		{"512-555-0142 x1", ""}, // extension
		{"512/555/0142", ""},
		{"５１２５５５０１４２", ""}, // full-width digits
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := NormalizePhone(tt.in)
			if got != tt.want || ok != (tt.want != "") {
				t.Fatalf("got %q, %v, want %q", got, ok, tt.want)
			}
		})
	}
}

func TestNormalizeEmail(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"", true},
		{"ana@example.com", true},
		{"ana.ruiz+plumber@mail.example.co", true},
		{"ana", false},
		{"ana@", false},
		{"@example.com", false},
		{"ana@localhost", false},
		{"ana@example.", false},
		{"ana ruiz@example.com", false},
		{"<ana@example.com>", false},
		{"Ana <ana@example.com>", false},
		{strings.Repeat("a", 250) + "@example.com", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if _, ok := NormalizeEmail(tt.in); ok != tt.ok {
				t.Fatalf("got %v, want %v", ok, tt.ok)
			}
		})
	}
}

// A deposit's payment hold lasts pay_within_minutes, but never past the
// window's start: paid later, the request would reach the business when it
// can no longer be answered.
func TestDepositHoldEndsByTheWindow(t *testing.T) {
	b := testBusinesses(t)["deposit-plumbing"]
	start := utc("2026-11-23T13:00:00Z")
	tests := []struct {
		name    string
		created time.Time
		want    time.Time
	}{
		{"hours before the window: the payment window", utc("2026-11-23T10:00:00Z"), utc("2026-11-23T10:30:00Z")},
		{"ten minutes before: the window's start", utc("2026-11-23T12:50:00Z"), start},
		{"exactly the payment window before", utc("2026-11-23T12:30:00Z"), start},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := draft{Request: Request{Window: Window{Start: start, End: start.Add(2 * time.Hour)}}}
			r := d.newRequest(b, tt.created)
			if r.Status != StatusPendingPayment || !r.HoldExpires.Equal(tt.want) {
				t.Errorf("got %s holding to %s, want pending_payment holding to %s", r.Status, r.HoldExpires, tt.want)
			}
		})
	}
}

// TestCreateWithoutWindowStart: an input with no window start (an edge
// that read none) is INVALID_WINDOW, first of the field checks, not a
// TOO_LATE for the year 1.
func TestCreateWithoutWindowStart(t *testing.T) {
	b := testBusinesses(t)["split-day-plumbing"]
	_, err := CreateInput{Contact: Contact{Name: "Ana", Phone: "x"}}.checkFields(b)
	if got := codeOf(err); got != InvalidWindow {
		t.Fatalf("got %s (%v), want %s", got, err, InvalidWindow)
	}
}

// TestProblems: a form's checks find every problem at once, in the spec's
// precedence order, and CreateRequest's one code is the first of them.
func TestProblems(t *testing.T) {
	bs := testBusinesses(t)
	s := testBookings(t, Config{Store: noStore{}, SiteURL: "https://book.example.com", Now: func() time.Time { return createNow }})
	tests := []struct {
		name, business string
		changes        map[string]any
		want           []Code
	}{
		{name: "none", business: "split-day-plumbing", want: nil},
		{name: "street, phone and email", business: "split-day-plumbing",
			changes: map[string]any{"address.street": "", "contact.phone": "555", "contact.email": "no"},
			want:    []Code{InvalidAddress, InvalidPhone, InvalidEmail}},
		{name: "every field", business: "split-day-plumbing",
			changes: map[string]any{"address.street": "", "address.zip": "9", "contact.name": "", "contact.phone": "5", "contact.email": "x", "urgency": "now", "service_id": "roofing", "window_start": "2026-11-23T16:10:00Z"},
			want:    []Code{InvalidAddress, InvalidZIP, InvalidName, InvalidPhone, InvalidEmail, InvalidRequest, ServiceUnavailable, InvalidWindow}},
		{name: "out of area and a window too soon", business: "split-day-plumbing",
			changes: map[string]any{"address.zip": "10001", "window_start": "2026-11-19T16:00:00Z"},
			want:    []Code{OutOfArea, TooLate}},
		{name: "deposit not accepted, and a bad name, at another business", business: "deposit-plumbing",
			changes: map[string]any{"contact.name": "", "service_id": nil},
			want:    []Code{InvalidName, OutOfArea, DepositTerms, InvalidWindow}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bs[tt.business]
			body := []byte(validBody)
			for path, v := range tt.changes {
				body = withField(t, body, path, v, v == nil)
			}
			in := inputOf(t, body, "")
			var got []Code
			for _, err := range s.Problems(b, in) {
				got = append(got, ErrorCode(err))
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			_, err := validate(t, b, body, "", createNow)
			if first := codeOf(err); len(tt.want) > 0 && first != tt.want[0] {
				t.Errorf("CreateRequest's checks answer %s, want the first problem %s", first, tt.want[0])
			}
		})
	}
}
