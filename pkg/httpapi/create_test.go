package httpapi

import (
	"strings"
	"testing"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// validBody is a createServiceRequest body with every field set.
const validBody = `{"window_start":"2026-11-23T16:00:00Z",
	"address":{"street":"12 Main St","unit":"4B","city":"Los Angeles","zip":"90012"},
	"contact":{"name":"Ana Ruiz","phone":"(323) 555-0142","email":"ana@example.com","sms_consent":true},
	"service_id":"drain-cleaning","urgency":"soon","description":"Kitchen sink.","language":"es",
	"idempotency_key":"key-one-1","assistant_name":"Helper","deposit_accepted":true}`

// TestDecodeCreateBody covers the JSON edge's share of createServiceRequest's
// checks: what is not a body of the right shape is INVALID_REQUEST, then a
// window_start that is not RFC 3339 is INVALID_WINDOW, with nothing
// decoded; the domain's field rules are booking's tests.
func TestDecodeCreateBody(t *testing.T) {
	required := `{"window_start":"2026-11-23T16:00:00Z","address":{"street":"1 A St","zip":"90012"},"contact":{"name":"A","phone":"3235550142"}}`
	tests := []struct {
		name    string
		body    string
		header  string
		want    booking.Code // "" when it decodes
		message string       // a piece of the message
	}{
		{"every field", validBody, "", "", ""},
		{"only the required fields", required, "", "", ""},
		{"unknown fields are ignored", strings.Replace(required, `{`, `{"extra":[1,{"x":2}],`, 1), "", "", ""},
		{"malformed JSON", `{"window_start":`, "", booking.InvalidRequest, "must be a JSON object"},
		{"not an object", `[1,2]`, "", booking.InvalidRequest, "must be a JSON object"},
		{"two objects", required + required, "", booking.InvalidRequest, "one JSON object"},
		{"null body", `null`, "", booking.InvalidRequest, "window_start is required"},
		{"empty body", ``, "", booking.InvalidRequest, "must be a JSON object"},
		{"window_start missing", `{"address":{"street":"1 A St","zip":"90012"},"contact":{"name":"A","phone":"3235550142"}}`, "", booking.InvalidRequest, "window_start is required"},
		{"window_start null", strings.Replace(required, `"2026-11-23T16:00:00Z"`, `null`, 1), "", booking.InvalidRequest, "window_start is required"},
		{"window_start a number", strings.Replace(required, `"2026-11-23T16:00:00Z"`, `5`, 1), "", booking.InvalidRequest, "window_start must be a string"},
		{"address a string", strings.Replace(required, `{"street":"1 A St","zip":"90012"}`, `"12 Main St"`, 1), "", booking.InvalidRequest, "address must be an object"},
		{"street missing", strings.Replace(required, `"street":"1 A St",`, ``, 1), "", booking.InvalidRequest, "address.street is required"},
		{"zip a number", strings.Replace(required, `"90012"`, `90012`, 1), "", booking.InvalidRequest, "address.zip must be a string"},
		{"contact missing", strings.Replace(required, `,"contact":{"name":"A","phone":"3235550142"}`, ``, 1), "", booking.InvalidRequest, "contact is required"},
		{"name missing", strings.Replace(required, `"name":"A",`, ``, 1), "", booking.InvalidRequest, "contact.name is required"},
		{"phone missing", strings.Replace(required, `,"phone":"3235550142"`, ``, 1), "", booking.InvalidRequest, "contact.phone is required"},
		{"sms_consent a string", strings.Replace(validBody, `"sms_consent":true`, `"sms_consent":"yes"`, 1), "", booking.InvalidRequest, "contact.sms_consent must be true or false"},
		{"deposit_accepted a string", strings.Replace(validBody, `"deposit_accepted":true`, `"deposit_accepted":"true"`, 1), "", booking.InvalidRequest, "deposit_accepted must be true or false"},
		{"body over 64 KiB", strings.Replace(validBody, `"Kitchen sink."`, `"`+strings.Repeat("x", 70000)+`"`, 1), "", booking.InvalidRequest, "larger than 64 KiB"},
		{"a missing field before a bad value", `{"window_start":"x","address":{"street":"1 A St","zip":"90012"},"contact":{"name":"A"}}`, "", booking.InvalidRequest, "contact.phone is required"},
		{"window_start not ISO", strings.Replace(required, `"2026-11-23T16:00:00Z"`, `"next monday 8am"`, 1), "", booking.InvalidWindow,
			`window_start must be an ISO 8601 date-time with an offset, such as 2026-11-23T16:00:00Z, got "next monday 8am"`},
		{"window_start without offset", strings.Replace(required, `"2026-11-23T16:00:00Z"`, `"2026-11-23T16:00:00"`, 1), "", booking.InvalidWindow, `got "2026-11-23T16:00:00"`},
		{"window_start an offset of 24 hours", strings.Replace(required, `"2026-11-23T16:00:00Z"`, `"2026-11-24T16:00:00+24:00"`, 1), "", booking.InvalidWindow, "ISO 8601"},
		{"window_start in lower case", strings.Replace(required, `"2026-11-23T16:00:00Z"`, `"2026-11-23t16:00:00z"`, 1), "", "", ""},
		{"INVALID_WINDOW before a street line break", strings.Replace(strings.Replace(required, `"2026-11-23T16:00:00Z"`, `"x"`, 1), `"1 A St"`, `"a\nb"`, 1), "", booking.InvalidWindow, `got "x"`},
		{"INVALID_WINDOW before INVALID_ADDRESS", strings.Replace(strings.Replace(required, `"2026-11-23T16:00:00Z"`, `"x"`, 1), `"1 A St"`, `""`, 1), "", booking.InvalidWindow, `got "x"`},
		{"INVALID_WINDOW before the idempotency keys", strings.Replace(required, `"2026-11-23T16:00:00Z"`, `"x"`, 1), "short", booking.InvalidWindow, `got "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := decodeCreateBody([]byte(tt.body), tt.header)
			if got := codeOf(err); got != tt.want || !strings.Contains(booking.ErrorMessage(err), tt.message) {
				t.Fatalf("got %s %q, want %s with %q", got, booking.ErrorMessage(err), tt.want, tt.message)
			}
			if err != nil && !in.WindowStart.IsZero() {
				t.Errorf("got %+v decoded along with the refusal", in)
			}
		})
	}
}

func codeOf(err error) booking.Code {
	if err == nil {
		return ""
	}
	return booking.ErrorCode(err)
}

// The decoded input says what the body says: absent optional fields are nil
// or empty, and every idempotency key sent is handed on for the domain to
// reconcile (header first, then body).
func TestDecodeCreateBodyFields(t *testing.T) {
	in, err := decodeCreateBody([]byte(validBody), "key-two-2")
	if err != nil {
		t.Fatal(err)
	}
	got := []string{in.WindowStart.Format(time.RFC3339Nano), in.Address.Street, in.Address.Unit, in.Address.City, in.Address.ZIP,
		in.Contact.Name, in.Contact.Phone, in.Contact.Email, *in.ServiceID, *in.Urgency, in.Description, *in.Language,
		in.AssistantName, strings.Join(in.IdempotencyKeys, ",")}
	want := []string{"2026-11-23T16:00:00Z", "12 Main St", "4B", "Los Angeles", "90012",
		"Ana Ruiz", "(323) 555-0142", "ana@example.com", "drain-cleaning", "soon", "Kitchen sink.", "es",
		"Helper", "key-two-2,key-one-1"}
	if strings.Join(got, "|") != strings.Join(want, "|") || !in.Contact.SMSConsent || !in.DepositAccepted {
		t.Errorf("got %q, sms %v, deposit %v\nwant %q, true, true", got, in.Contact.SMSConsent, in.DepositAccepted, want)
	}

	bare, err := decodeCreateBody([]byte(`{"window_start":"2026-11-23T16:00:00Z","address":{"street":"s","zip":"z"},"contact":{"name":"n","phone":"p"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if bare.ServiceID != nil || bare.Urgency != nil || bare.Language != nil || bare.IdempotencyKeys != nil ||
		bare.Description != "" || bare.AssistantName != "" || bare.Contact.Email != "" || bare.Contact.SMSConsent || bare.DepositAccepted {
		t.Errorf("got %+v, want the optional fields absent", bare)
	}
}

// One window_start spelled in ways RFC 3339 allows is one request for
// idempotency: a retry that spells it otherwise replays the first answer.
// Another offset is another request, as before starts were times.
func TestDecodeCreateBodyHash(t *testing.T) {
	hash := func(start string) string {
		t.Helper()
		in, err := decodeCreateBody([]byte(strings.Replace(validBody, "2026-11-23T16:00:00Z", start, 1)), "")
		if err != nil {
			t.Fatal(err)
		}
		return in.BodyHash()
	}
	want := hash("2026-11-23T16:00:00Z")
	tests := []struct {
		start string
		same  bool
	}{
		{"2026-11-23t16:00:00z", true},
		{"2026-11-23T16:00:00.000Z", true},
		{"2026-11-23T16:00:00-00:00", true},
		{"2026-11-23T16:00:00+00:00", true},
		{"2026-11-23T08:00:00-08:00", false},
		{"2026-11-23T16:00:01Z", false},
	}
	for _, tt := range tests {
		t.Run(tt.start, func(t *testing.T) {
			if got := hash(tt.start) == want; got != tt.same {
				t.Fatalf("got same hash %v, want %v", got, tt.same)
			}
		})
	}
}

// FuzzDecodeCreateBody: any bytes decode, or are refused as
// INVALID_REQUEST or (window_start) INVALID_WINDOW; never a panic, never
// another code.
func FuzzDecodeCreateBody(f *testing.F) {
	f.Add([]byte(validBody), "")
	f.Add([]byte(validBody), "key-two-2")
	f.Add([]byte(`{"window_start":null}`), "")
	f.Add([]byte(`{} {}`), "")
	f.Add([]byte(`[`), "")
	f.Fuzz(func(t *testing.T, body []byte, header string) {
		in, err := decodeCreateBody(body, header)
		if err != nil {
			if code := booking.ErrorCode(err); code != booking.InvalidRequest && code != booking.InvalidWindow {
				t.Fatalf("got %v, want INVALID_REQUEST or INVALID_WINDOW", err)
			}
			return
		}
		if header != "" && (len(in.IdempotencyKeys) == 0 || in.IdempotencyKeys[0] != header) {
			t.Fatalf("got keys %q, want the header %q first", in.IdempotencyKeys, header)
		}
	})
}

// BenchmarkDecodeCreateBody is the JSON edge's decoding of a valid body.
func BenchmarkDecodeCreateBody(b *testing.B) {
	body := []byte(validBody)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeCreateBody(body, "key-one-1"); err != nil {
			b.Fatal(err)
		}
	}
}
