package booking

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// CreateInput is a service request as the caller sent it, decoded by its
// edge. Strings are as sent (the checks trim them); a nil pointer is a field
// that was not sent, where that differs from an empty one.
type CreateInput struct {
	// WindowStart is the instant sent as window_start, in the offset it was
	// sent with: each edge reads the wire string (edge.ParseWindowStart)
	// and refuses one that is not RFC 3339 before it gets here.
	WindowStart     time.Time
	Address         Address
	Contact         Contact
	ServiceID       *string // nil: something else, described in Description
	Urgency         *string // nil: soon
	Language        *string // nil: en
	Description     string
	AssistantName   string
	DepositAccepted bool
	// IdempotencyKeys are the keys the caller sent, wherever it sent them (a
	// header, a body field): none, or one or more that must be equal.
	IdempotencyKeys []string
}

// Limits of createServiceRequest.
const (
	MaxBodyBytes      = 64 << 10
	MaxDescription    = 2000
	MaxAssistantName  = 40
	MinIdempotencyKey = 8
	MaxIdempotencyKey = 80
	maxStreet         = 200
	maxAddressLine    = 100
	maxName           = 100
	maxEmail          = 254
	defaultUrgency    = "soon"
	defaultLanguage   = "en"
	otherServiceEN    = "Other service (see the description)"
	otherServiceES    = "Otro servicio (ver la descripción)"
)

// BodyHash identifies a request for idempotency: the same fields with the
// same values give the same hash, whichever edge decoded them and wherever
// the idempotency key was sent. WindowStart counts as RFC 3339 in its own
// offset, so a start sent as listArrivalWindows writes it hashes as the
// string itself did (the hash before starts were times), and spellings of
// the same instant in the same offset ("t"/"z", ".000", "-00:00") hash alike.
func (in CreateInput) BodyHash() string {
	in.IdempotencyKeys = nil
	// Strings, bools and pointers to them always marshal, and so does a
	// time of the years 0 to 9999, the only ones RFC 3339 writes.
	data, _ := json.Marshal(in)
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
// INVALID_ADDRESS, INVALID_ZIP, INVALID_NAME, INVALID_PHONE, INVALID_EMAIL,
// other field rules (INVALID_REQUEST), SERVICE_UNAVAILABLE. INVALID_WINDOW
// (format), first of the field checks, is the edges': WindowStart is an
// instant already.
func (in CreateInput) checkFields(b *Business) (draft, error) {
	var d draft
	for _, check := range in.fieldChecks(b) {
		if err := check(&d); err != nil {
			return d, err
		}
	}
	return d, nil
}

// fieldChecks are checkFields' steps, in its order. Each fills its own
// part of the draft, so that each can run whatever the others found.
func (in CreateInput) fieldChecks(b *Business) []func(d *draft) error {
	return []func(d *draft) error{
		in.checkWindowStart, in.checkAddress, in.checkZIP, in.checkName, in.checkPhone, in.checkEmail,
		in.checkOther, func(d *draft) error { return in.checkService(d, b) },
	}
}

func (in CreateInput) checkWindowStart(d *draft) error {
	if in.WindowStart.IsZero() {
		// An edge that read no start: the same answer as one it could not read.
		return Errorf(InvalidWindow, "window_start is required: the start of an open window from listArrivalWindows")
	}
	d.Window.Start = in.WindowStart.UTC()
	return nil
}

func (in CreateInput) checkAddress(d *draft) error {
	a := in.Address
	d.Address = Address{Street: strings.TrimSpace(a.Street), Unit: strings.TrimSpace(a.Unit),
		City: strings.TrimSpace(a.City), ZIP: strings.TrimSpace(a.ZIP)}
	switch {
	case d.Address.Street == "":
		return Errorf(InvalidAddress, "address.street is empty")
	case tooLong(d.Address.Street, maxStreet):
		return Errorf(InvalidAddress, "address.street is longer than %d characters", maxStreet)
	case tooLong(d.Address.Unit, maxAddressLine) || tooLong(d.Address.City, maxAddressLine):
		return Errorf(InvalidAddress, "address.unit and address.city may have up to %d characters", maxAddressLine)
	}
	for _, f := range []struct{ name, value string }{
		{"address.street", d.Address.Street}, {"address.unit", d.Address.Unit}, {"address.city", d.Address.City},
	} {
		if err := oneLine(InvalidAddress, f.name, f.value); err != nil {
			return err
		}
	}
	return nil
}

func (in CreateInput) checkZIP(d *draft) error {
	if zip := strings.TrimSpace(in.Address.ZIP); !IsZIP(zip) {
		return Errorf(InvalidZIP, "address.zip must be 5 digits, got %s", excerpt(zip))
	}
	return nil
}

func (in CreateInput) checkName(d *draft) error {
	c := in.Contact
	d.Contact.Name, d.Contact.SMSConsent = strings.TrimSpace(c.Name), c.SMSConsent
	switch {
	case d.Contact.Name == "":
		return Errorf(InvalidName, "contact.name is empty")
	case tooLong(d.Contact.Name, maxName):
		return Errorf(InvalidName, "contact.name is longer than %d characters", maxName)
	}
	if err := oneLine(InvalidName, "contact.name", d.Contact.Name); err != nil {
		return err
	}
	return nil
}

func (in CreateInput) checkPhone(d *draft) error {
	var ok bool
	if d.Contact.Phone, ok = NormalizePhone(in.Contact.Phone); !ok {
		return Errorf(InvalidPhone, "contact.phone must be a US phone number of 10 digits, got %s", excerpt(in.Contact.Phone))
	}
	return nil
}

func (in CreateInput) checkEmail(d *draft) error {
	var ok bool
	if d.Contact.Email, ok = NormalizeEmail(strings.TrimSpace(in.Contact.Email)); !ok {
		return Errorf(InvalidEmail, "contact.email does not look like an e-mail address: %s", excerpt(in.Contact.Email))
	}
	return nil
}

// checkOther applies the other field rules (INVALID_REQUEST).
func (in CreateInput) checkOther(d *draft) error {
	if d.Urgency = orDefault(in.Urgency, defaultUrgency); !slices.Contains(urgencies, d.Urgency) {
		return Errorf(InvalidRequest, "urgency must be emergency, soon or flexible, got %s", excerpt(d.Urgency))
	}
	if d.Language = orDefault(in.Language, defaultLanguage); !isLanguage(d.Language) {
		return Errorf(InvalidRequest, "language must be en or es, got %s", excerpt(d.Language))
	}
	description, bad := normalizeDescription(strings.TrimSpace(in.Description))
	if d.Description = description; tooLong(d.Description, MaxDescription) {
		return Errorf(InvalidRequest, "description may have up to %d characters", MaxDescription)
	}
	if bad != nil {
		return bad
	}
	if d.AssistantName = strings.TrimSpace(in.AssistantName); tooLong(d.AssistantName, MaxAssistantName) {
		return Errorf(InvalidRequest, "assistant_name may have up to %d characters", MaxAssistantName)
	}
	if err := oneLine(InvalidRequest, "assistant_name", d.AssistantName); err != nil {
		return err
	}
	var err error
	if d.key, err = idempotencyKey(in.IdempotencyKeys); err != nil {
		return err
	}
	d.depositAccepted = in.DepositAccepted
	return nil
}

func (in CreateInput) checkService(d *draft, b *Business) error {
	d.ServiceName = LocalText{EN: otherServiceEN, ES: otherServiceES}
	if in.ServiceID != nil {
		s, ok := b.service(*in.ServiceID)
		if !ok {
			return Errorf(ServiceUnavailable, "%s does not offer service_id %s; see services in getBusiness", b.Name, excerpt(*in.ServiceID))
		}
		d.ServiceID, d.ServiceName = s.ID, s.Name
	}
	return nil
}

// Problems are every problem of a request in that needs no store, for a
// form that shows them all at once: each field check's (checkFields), then
// OUT_OF_AREA, DEPOSIT_TERMS, and TOO_LATE or INVALID_WINDOW for its
// window, at b as this server takes it, at the clock's now. CreateRequest
// still answers one code, the first by the spec's precedence; it may also
// answer what needs the store (WINDOW_TAKEN, the limits). BOOKING_PAUSED
// is not among them: a paused business takes nothing.
func (s *Bookings) Problems(b *Business, in CreateInput) []error {
	var d draft
	var out []error
	for _, check := range in.fieldChecks(b) {
		if err := check(&d); err != nil {
			out = append(out, err)
		}
	}
	now := s.now()
	b = s.withPayments(b)
	if zip := strings.TrimSpace(in.Address.ZIP); IsZIP(zip) && !b.serves(zip) {
		out = append(out, outOfArea(b, zip))
	}
	if b.BookingDeposit != nil && !in.DepositAccepted {
		out = append(out, depositTerms(b))
	}
	if !in.WindowStart.IsZero() {
		if _, code := b.windowAt(in.WindowStart.UTC(), now, b.Notice()); code != "" {
			out = append(out, windowRefusal(b, code, in.WindowStart, now, b.Notice()))
		}
	}
	return out
}

// idempotencyKey reconciles the keys a caller sent (the Idempotency-Key
// header and the body's idempotency_key): either may be sent, both only if
// equal. "" is no key.
func idempotencyKey(keys []string) (string, error) {
	if len(keys) == 0 {
		return "", nil
	}
	key := keys[0]
	for _, other := range keys[1:] {
		if other != key {
			return "", Errorf(InvalidRequest, "the Idempotency-Key header and idempotency_key differ")
		}
	}
	if n := utf8.RuneCountInString(key); n < MinIdempotencyKey || n > MaxIdempotencyKey {
		return "", Errorf(InvalidRequest, "an idempotency key must have %d to %d characters", MinIdempotencyKey, MaxIdempotencyKey)
	}
	return key, nil
}

// urgencies are the values of urgency.
var urgencies = []string{"emergency", "soon", "flexible"}

// newRequest is the request d makes at b, created at now: new, or
// pending_payment with its deposit due when b takes one.
func (d draft) newRequest(b *Business, now time.Time) Request {
	r := d.Request
	r.Code = NewCode()
	r.BusinessSlug = b.Slug
	r.Created = now.UTC().Truncate(time.Second)
	r.Status = StatusNew
	if dep := b.BookingDeposit; dep != nil {
		r.Status = StatusPendingPayment
		// The payment window, but never past the arrival window's start: a
		// deposit paid after it would hand the business a request it can
		// no longer answer (a new request expires when its window starts).
		r.HoldExpires = r.Created.Add(time.Duration(dep.PayWithinMinutes) * time.Minute)
		if r.Window.Start.Before(r.HoldExpires) {
			r.HoldExpires = r.Window.Start
		}
		r.Deposit = &DepositRecord{
			AmountCents: dep.AmountCents, Currency: dep.Currency, Simulated: dep.Simulated,
			FreeCancellationHours: dep.FreeCancellationHours, State: DepositDue, Since: r.Created,
		}
	}
	r.History = []Event{{At: r.Created, By: ActorCustomer, Action: ActionCreate, To: r.Status, Window: r.Window}}
	if r.Status == StatusNew {
		r.ReminderDue = b.NudgeAt(r, r.Created) // the business's nudge, if still unanswered then
	}
	return r
}

// checkBusinessRules applies the checks that depend on the business's
// settings and the clock, in the precedence order of decisions.md:
// BOOKING_PAUSED, OUT_OF_AREA, DEPOSIT_TERMS, TOO_LATE (the window has
// started or starts within the business's notice), INVALID_WINDOW (not the
// start of an open window: not cut from the hours, past the horizon, or on a
// day off).
func (d *draft) checkBusinessRules(b *Business, now time.Time) error {
	switch {
	case !b.TakesRequests() && b.Phone == "":
		return Errorf(BookingPaused, "%s takes no online requests yet", b.Name)
	case !b.TakesRequests():
		return Errorf(BookingPaused, "%s has paused online requests; call them at %s instead", b.Name, b.Phone)
	case !b.serves(d.Address.ZIP):
		return outOfArea(b, d.Address.ZIP)
	case b.BookingDeposit != nil && !d.depositAccepted:
		return depositTerms(b)
	}
	w, code := b.windowAt(d.Window.Start, now, b.Notice())
	if code != "" {
		return windowRefusal(b, code, d.Window.Start, now, b.Notice())
	}
	d.Window = w
	return nil
}

func outOfArea(b *Business, zip string) error {
	return Errorf(OutOfArea, "%s does not serve ZIP %s (service area: %s)", b.Name, zip, b.ServiceArea.Label)
}

func depositTerms(b *Business) error {
	return Errorf(DepositTerms, "%s takes a deposit of %s; deposit_accepted must be true, and only once the person agreed to its terms", b.Name, money(b.BookingDeposit.AmountCents, b.BookingDeposit.Currency))
}

// windowRefusal is the error for windowAt's refusal code of a window
// starting at start, asked for at now with notice.
func windowRefusal(b *Business, code Code, start, now time.Time, notice time.Duration) error {
	start = start.UTC()
	if code == TooLate {
		if !start.After(now) {
			return Errorf(TooLate, "the arrival window starting %s has already started; pick a later one", start.Format(time.RFC3339))
		}
		return Errorf(TooLate, "the arrival window starting %s starts too soon: %s asks for %s' notice; pick a later one",
			start.Format(time.RFC3339), b.Name, noticeText(notice))
	}
	return Errorf(InvalidWindow, "%s is not the start of an open arrival window of %s within %d days; use a start from listArrivalWindows",
		start.Format(time.RFC3339), b.Name, b.BooksUpToDaysAhead)
}

// noticeText writes a notice for people: "90 minutes", "2 hours", "1 day".
func noticeText(d time.Duration) string {
	n := int(d / time.Minute)
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return strconv.Itoa(n) + " " + unit + "s"
	}
	switch {
	case n%1440 == 0:
		return plural(n/1440, "day")
	case n%60 == 0:
		return plural(n/60, "hour")
	}
	return plural(n, "minute")
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

func orDefault(s *string, def string) string {
	if s == nil {
		return def
	}
	return *s
}

func tooLong(s string, max int) bool { return utf8.RuneCountInString(s) > max }
