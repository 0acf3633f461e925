package booking

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"
)

// CreateInput is the body of createServiceRequest, as sent. Pointers tell a
// missing field from an empty one.
type CreateInput struct {
	WindowStart     *string       `json:"window_start"`
	Address         *AddressInput `json:"address"`
	Contact         *ContactInput `json:"contact"`
	ServiceID       *string       `json:"service_id,omitempty"`
	Urgency         *string       `json:"urgency,omitempty"`
	Description     *string       `json:"description,omitempty"`
	Language        *string       `json:"language,omitempty"`
	IdempotencyKey  *string       `json:"idempotency_key,omitempty"`
	AssistantName   *string       `json:"assistant_name,omitempty"`
	DepositAccepted *bool         `json:"deposit_accepted,omitempty"`
}

// AddressInput is the address object of CreateInput.
type AddressInput struct {
	Street *string `json:"street"`
	Unit   *string `json:"unit,omitempty"`
	City   *string `json:"city,omitempty"`
	ZIP    *string `json:"zip"`
}

// ContactInput is the contact object of CreateInput.
type ContactInput struct {
	Name       *string `json:"name"`
	Phone      *string `json:"phone"`
	Email      *string `json:"email,omitempty"`
	SMSConsent *bool   `json:"sms_consent,omitempty"`
}

// Limits of createServiceRequest.
const (
	MaxBodyBytes         = 64 << 10
	MaxDescription       = 2000
	MaxAssistantName     = 40
	MinIdempotencyKey    = 8
	MaxIdempotencyKey    = 80
	maxStreet            = 200
	maxAddressLine       = 100
	maxName              = 100
	maxEmail             = 254
	defaultUrgency       = "soon"
	defaultLanguage      = "en"
	otherServiceEN       = "Other service (see the description)"
	otherServiceES       = "Otro servicio (ver la descripción)"
	windowStartFormatMsg = "window_start must be an ISO 8601 date-time with an offset, such as 2026-11-23T16:00:00Z"
)

// DecodeCreateInput decodes a createServiceRequest body. Malformed JSON, a
// wrong type, a missing required field or a body over MaxBodyBytes is
// INVALID_REQUEST. Unknown fields are ignored.
func DecodeCreateInput(body []byte) (CreateInput, error) {
	var in CreateInput
	if len(body) > MaxBodyBytes {
		return in, Errorf(InvalidRequest, "the body is larger than %d KiB", MaxBodyBytes>>10)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&in); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return in, Errorf(InvalidRequest, "%s must be %s", typeErr.Field, jsonKind(typeErr.Type.Kind().String()))
		}
		return in, Errorf(InvalidRequest, "the body must be a JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return in, Errorf(InvalidRequest, "the body must hold one JSON object")
	}
	return in, in.checkRequired()
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "struct":
		return "an object"
	}
	return "of another type"
}

func (in *CreateInput) checkRequired() error {
	missing := func(field string) error { return Errorf(InvalidRequest, "%s is required", field) }
	switch {
	case in.WindowStart == nil:
		return missing("window_start")
	case in.Address == nil:
		return missing("address")
	case in.Contact == nil:
		return missing("contact")
	case in.Address.Street == nil:
		return missing("address.street")
	case in.Address.ZIP == nil:
		return missing("address.zip")
	case in.Contact.Name == nil:
		return missing("contact.name")
	case in.Contact.Phone == nil:
		return missing("contact.phone")
	}
	return nil
}

// BodyHash identifies a body for idempotency: the same fields with the same
// values give the same hash, whatever their order or spacing and wherever the
// idempotency key was sent.
func (in CreateInput) BodyHash() string {
	in.IdempotencyKey = nil
	data, _ := json.Marshal(in) // a struct of strings, bools and pointers always marshals
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// draft is a request that passed the field checks, before the checks that
// depend on the business's state and the clock.
type draft struct {
	Request
	key             string
	depositAccepted bool
}

// checkFields applies the field rules in the precedence order of decisions.md:
// INVALID_WINDOW (format), INVALID_ADDRESS, INVALID_ZIP, INVALID_NAME,
// INVALID_PHONE, INVALID_EMAIL, other field rules (INVALID_REQUEST),
// SERVICE_UNAVAILABLE. headerKey is the Idempotency-Key header ("" if absent).
func (in CreateInput) checkFields(b *Business, headerKey string) (draft, error) {
	var d draft
	start, err := time.Parse(time.RFC3339, *in.WindowStart)
	if err != nil {
		return d, Errorf(InvalidWindow, windowStartFormatMsg+", got %q", *in.WindowStart)
	}
	d.Window.Start = start.UTC()

	a := in.Address
	d.Address = Address{Street: trim(a.Street), Unit: trim(a.Unit), City: trim(a.City), ZIP: trim(a.ZIP)}
	switch {
	case d.Address.Street == "":
		return d, Errorf(InvalidAddress, "address.street is empty")
	case tooLong(d.Address.Street, maxStreet):
		return d, Errorf(InvalidAddress, "address.street is longer than %d characters", maxStreet)
	case tooLong(d.Address.Unit, maxAddressLine) || tooLong(d.Address.City, maxAddressLine):
		return d, Errorf(InvalidAddress, "address.unit and address.city may have up to %d characters", maxAddressLine)
	}
	if !IsZIP(d.Address.ZIP) {
		return d, Errorf(InvalidZIP, "address.zip must be 5 digits, got %q", d.Address.ZIP)
	}

	c := in.Contact
	d.Contact = Contact{Name: trim(c.Name), SMSConsent: c.SMSConsent != nil && *c.SMSConsent}
	switch {
	case d.Contact.Name == "":
		return d, Errorf(InvalidName, "contact.name is empty")
	case tooLong(d.Contact.Name, maxName):
		return d, Errorf(InvalidName, "contact.name is longer than %d characters", maxName)
	}
	var ok bool
	if d.Contact.Phone, ok = NormalizePhone(*c.Phone); !ok {
		return d, Errorf(InvalidPhone, "contact.phone must be a US phone number of 10 digits, got %q", *c.Phone)
	}
	if d.Contact.Email, ok = NormalizeEmail(trim(c.Email)); !ok {
		return d, Errorf(InvalidEmail, "contact.email does not look like an e-mail address: %q", *c.Email)
	}

	if d.Urgency = orDefault(in.Urgency, defaultUrgency); !oneOf(d.Urgency, "emergency", "soon", "flexible") {
		return d, Errorf(InvalidRequest, "urgency must be emergency, soon or flexible, got %q", d.Urgency)
	}
	if d.Language = orDefault(in.Language, defaultLanguage); !isLanguage(d.Language) {
		return d, Errorf(InvalidRequest, "language must be en or es, got %q", d.Language)
	}
	if d.Description = trim(in.Description); tooLong(d.Description, MaxDescription) {
		return d, Errorf(InvalidRequest, "description may have up to %d characters", MaxDescription)
	}
	if d.AssistantName = trim(in.AssistantName); tooLong(d.AssistantName, MaxAssistantName) {
		return d, Errorf(InvalidRequest, "assistant_name may have up to %d characters", MaxAssistantName)
	}
	if d.key, err = idempotencyKey(headerKey, in.IdempotencyKey); err != nil {
		return d, err
	}
	d.depositAccepted = in.DepositAccepted != nil && *in.DepositAccepted

	d.ServiceName = LocalText{EN: otherServiceEN, ES: otherServiceES}
	if in.ServiceID != nil {
		s, ok := b.service(*in.ServiceID)
		if !ok {
			return d, Errorf(ServiceUnavailable, "%s does not offer service_id %q; see services in getBusiness", b.Name, *in.ServiceID)
		}
		d.ServiceID, d.ServiceName = s.ID, s.Name
	}
	return d, nil
}

// idempotencyKey reconciles the Idempotency-Key header with the body's
// idempotency_key: either may be sent, both only if equal.
func idempotencyKey(header string, body *string) (string, error) {
	key := header
	if body != nil {
		if header != "" && header != *body {
			return "", Errorf(InvalidRequest, "the Idempotency-Key header and idempotency_key differ")
		}
		key = *body
	}
	if key == "" && body == nil {
		return "", nil
	}
	if n := utf8.RuneCountInString(key); n < MinIdempotencyKey || n > MaxIdempotencyKey {
		return "", Errorf(InvalidRequest, "an idempotency key must have %d to %d characters", MinIdempotencyKey, MaxIdempotencyKey)
	}
	return key, nil
}

// checkBusinessRules applies the checks that depend on the business's
// settings and the clock, in the precedence order of decisions.md:
// BOOKING_PAUSED, OUT_OF_AREA, DEPOSIT_TERMS, TOO_LATE, INVALID_WINDOW.
func (d *draft) checkBusinessRules(b *Business, now time.Time) error {
	switch {
	case !b.AcceptingRequests:
		return Errorf(BookingPaused, "%s has paused online requests; call them at %s instead", b.Name, b.Phone)
	case !b.serves(d.Address.ZIP):
		return Errorf(OutOfArea, "%s does not serve ZIP %s (service area: %s)", b.Name, d.Address.ZIP, b.ServiceArea.Label)
	case b.BookingDeposit != nil && !d.depositAccepted:
		return Errorf(DepositTerms, "%s takes a deposit of %s; deposit_accepted must be true, and only once the person agreed to its terms", b.Name, FormatMoney(b.BookingDeposit.AmountCents, b.BookingDeposit.Currency))
	case !d.Window.Start.After(now):
		return Errorf(TooLate, "the arrival window starting %s has already started; pick a later one", d.Window.Start.Format(time.RFC3339))
	}
	w, ok := b.WindowAt(d.Window.Start, now)
	if !ok {
		return Errorf(InvalidWindow, "%s is not the start of an arrival window of %s within %d days; use a start from listArrivalWindows",
			d.Window.Start.Format(time.RFC3339), b.Name, b.BooksUpToDaysAhead)
	}
	d.Window = w
	return nil
}

// NormalizePhone accepts common spellings of a US phone number, such as
// "(512) 555-0142", "512.555.0142" or "+1 512 555 0142", and returns its 10
// digits. Area code and exchange must start with 2 to 9.
func NormalizePhone(s string) (string, bool) {
	s = strings.TrimSpace(s)
	s, plus := strings.CutPrefix(s, "+")
	digits := make([]byte, 0, 11)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		case c == ' ' || c == '-' || c == '.' || c == '(' || c == ')':
		default:
			return "", false
		}
	}
	if len(digits) == 11 && digits[0] == '1' {
		digits = digits[1:]
	} else if plus {
		return "", false // an international number must carry +1
	}
	if len(digits) != 10 || digits[0] < '2' || digits[3] < '2' {
		return "", false
	}
	return string(digits), true
}

// IsZIP reports whether s is exactly 5 digits.
func IsZIP(s string) bool {
	return zipPattern.MatchString(s)
}

// NormalizeEmail checks an e-mail address: "" (not given) is fine; otherwise
// a bare address with a dotted domain and no display name.
func NormalizeEmail(s string) (string, bool) {
	if s == "" {
		return "", true
	}
	if len(s) > maxEmail || strings.ContainsAny(s, " <>\"") {
		return "", false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return "", false
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", false
	}
	return s, true
}

func trim(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

func orDefault(s *string, def string) string {
	if s == nil {
		return def
	}
	return *s
}

func oneOf(s string, options ...string) bool {
	for _, o := range options {
		if s == o {
			return true
		}
	}
	return false
}

func tooLong(s string, max int) bool { return utf8.RuneCountInString(s) > max }
