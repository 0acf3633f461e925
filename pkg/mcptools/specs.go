package mcptools

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// The arguments of each tool. Fields without omitempty are required in the
// published input schema; jsonschema tags are their descriptions. A pointer
// tells an argument that was not sent from an empty one, where the two
// differ; null is no more allowed for it than for any other argument.

type getBusinessArgs struct {
	Business string `json:"business" jsonschema:"The business: its slug (from a Doorstep link) or any link to its site, such as its web address or booking page."`
}

type listArrivalWindowsArgs struct {
	Business string `json:"business" jsonschema:"The business: its slug (from a Doorstep link) or any link to its site, such as its web address or booking page."`
	From     string `json:"from,omitempty" jsonschema:"First day as YYYY-MM-DD, in the business's time zone. Default: today."`
	Days     *int   `json:"days,omitempty" jsonschema:"How many days to list, 1 to 14. Default: 7."`
}

type requestServiceArgs struct {
	Business        string      `json:"business" jsonschema:"The business: its slug (from a Doorstep link) or any link to its site, such as its web address or booking page."`
	WindowStart     string      `json:"window_start" jsonschema:"The start of one window from list_arrival_windows, unchanged."`
	Address         addressArgs `json:"address" jsonschema:"Where the work is."`
	Contact         contactArgs `json:"contact" jsonschema:"The person asking: only what they gave for this request."`
	ServiceID       *string     `json:"service_id,omitempty" jsonschema:"An id from get_business services; leave out for something else and describe it."`
	Urgency         *string     `json:"urgency,omitempty" jsonschema:"emergency, soon or flexible. Default: soon. For danger (gas smell, sparking, flooding) do not send a request: the person leaves and calls 911 or the utility first."`
	Description     string      `json:"description,omitempty" jsonschema:"What is wrong, in the person's words; up to 2000 characters."`
	Language        *string     `json:"language,omitempty" jsonschema:"en or es: the language the person is written to in. Default: en."`
	DepositAccepted bool        `json:"deposit_accepted,omitempty" jsonschema:"true only if the business takes a deposit and the person was told the amount and its rules and agreed. Ask; never assume."`
	IdempotencyKey  *string     `json:"idempotency_key,omitempty" jsonschema:"8 to 80 characters of your choice; send the same key again when retrying so that no second request is made."`
	AssistantName   string      `json:"assistant_name,omitempty" jsonschema:"Your name as an assistant, up to 40 characters, shown to the business next to the request."`
}

// input is the domain's input these arguments make; a window_start that
// is not RFC 3339 is INVALID_WINDOW.
func (a requestServiceArgs) input() (booking.CreateInput, error) {
	start, err := edge.WindowStart(a.WindowStart)
	if err != nil {
		return booking.CreateInput{}, err
	}
	in := booking.CreateInput{
		WindowStart: start,
		Address:     booking.Address{Street: a.Address.Street, Unit: a.Address.Unit, City: a.Address.City, ZIP: a.Address.ZIP},
		Contact: booking.Contact{Name: a.Contact.Name, Phone: a.Contact.Phone,
			Email: a.Contact.Email, SMSConsent: a.Contact.SMSConsent},
		ServiceID:       a.ServiceID,
		Urgency:         a.Urgency,
		Language:        a.Language,
		Description:     a.Description,
		AssistantName:   a.AssistantName,
		DepositAccepted: a.DepositAccepted,
	}
	if a.IdempotencyKey != nil {
		in.IdempotencyKeys = []string{*a.IdempotencyKey}
	}
	return in, nil
}

type addressArgs struct {
	Street string `json:"street" jsonschema:"Street and number."`
	Unit   string `json:"unit,omitempty" jsonschema:"Apartment or unit."`
	City   string `json:"city,omitempty"`
	ZIP    string `json:"zip" jsonschema:"5-digit ZIP code; must be in the business's service area."`
}

type contactArgs struct {
	Name       string `json:"name" jsonschema:"The person's name."`
	Phone      string `json:"phone" jsonschema:"The person's US phone number, 10 digits."`
	Email      string `json:"email,omitempty" jsonschema:"The person's own e-mail, only if they gave it; used only to write to them about this request."`
	SMSConsent bool   `json:"sms_consent,omitempty" jsonschema:"true only if the person agreed to text messages about this request. Ask; never assume."`
}

type getRequestStatusArgs struct {
	Code string `json:"code" jsonschema:"The request's code, as request_service returned it."`
}

var (
	getBusinessTool = toolSpec{
		name:  "get_business",
		title: "Read a business's public details",
		description: "Call this first. Returns the business's services (ids for request_service), service area ZIP codes, hours, time zone and booking_deposit. " +
			"If example is true, the business is made up: never send a request to it for a real person. " +
			"If booking_deposit is not null, tell the person the amount and its rules before sending a request. Nothing returned is a price quote.",
		readOnly: true,
		output:   outputSchema[booking.Business](),
	}
	listArrivalWindowsTool = toolSpec{
		name:  "list_arrival_windows",
		title: "List open arrival windows",
		description: "Lists the arrival windows that can still be requested, for up to 14 days. Times are ISO 8601 in the business's own UTC offset; " +
			"pass a window's start unchanged as window_start. accepting_requests false means online requests are paused: the person should call the business.",
		readOnly: true,
		output:   outputSchema[booking.Availability](),
	}
	requestServiceTool = toolSpec{
		name:  "request_service",
		title: "Send a service request for one arrival window",
		description: "Sends the person's request to the business for one window from list_arrival_windows. The result is a request, NOT a confirmed appointment: say so; the business still has to accept it. " +
			"For gas smells, sparking, flooding or other danger, do not call this: tell the person to leave, call 911 or the utility, then call the business. " +
			"Send only details the person gave, and only their own e-mail. Ask the person for sms_consent and deposit_accepted; never assume yes. " +
			"If a deposit is due, the person pays it themselves at payment_url; never ask for card details. Never use it for a business with example: true for a real person. " +
			"Reuse the same idempotency_key when retrying.",
		output: outputSchema[booking.Created](),
	}
	getRequestStatusTool = toolSpec{
		name:  "get_request_status",
		title: "Check a service request",
		description: "Reads the status of a request by its code: new (sent, not confirmed), pending_payment (deposit not paid yet), accepted, declined, completed, cancelled, no_show or expired. " +
			"changed_by_business true means the business moved the arrival window.",
		readOnly: true,
		output:   outputSchema[booking.RequestStatus](),
	}
)

// outputSchema is the published outputSchema of T: exactly the fields the
// public gets, every object closed, so that a structuredContent naming a
// field the schema does not, or a schema naming a private field, shows at
// once (TestToolResultsMatchTheirSchemas).
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: hiddenEmbeds(reflect.TypeFor[T]())})
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(T), err))
	}
	return s
}

// hiddenEmbeds maps each struct type that t embeds with the tag json:"-"
// (booking.Business's Private) to an object schema without properties.
// encoding/json leaves such a field out, promoted fields and all;
// jsonschema.For would list its promoted fields as properties.
func hiddenEmbeds(t reflect.Type) map[reflect.Type]*jsonschema.Schema {
	hidden := map[reflect.Type]*jsonschema.Schema{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			switch f := t.Field(i); {
			case f.Anonymous && f.Tag.Get("json") == "-":
				hidden[f.Type] = &jsonschema.Schema{Type: "object"}
			case f.IsExported():
				walk(f.Type)
			}
		}
	}
	walk(t)
	return hidden
}

// withLimits adds to s the limits the spec states.
func withLimits(s *jsonschema.Schema) *jsonschema.Schema {
	limit(s, "days", func(p *jsonschema.Schema) { p.Minimum, p.Maximum = ptr(1.0), ptr(float64(booking.MaxDays)) })
	limit(s, "urgency", func(p *jsonschema.Schema) { p.Enum = []any{"emergency", "soon", "flexible"} })
	limit(s, "language", func(p *jsonschema.Schema) { p.Enum = []any{"en", "es"} })
	limit(s, "description", func(p *jsonschema.Schema) { p.MaxLength = ptr(booking.MaxDescription) })
	limit(s, "assistant_name", func(p *jsonschema.Schema) { p.MaxLength = ptr(booking.MaxAssistantName) })
	limit(s, "idempotency_key", func(p *jsonschema.Schema) {
		p.MinLength, p.MaxLength = ptr(booking.MinIdempotencyKey), ptr(booking.MaxIdempotencyKey)
	})
	return s
}

// shapeOf infers the JSON schema of T: its types and required properties.
// Objects accept properties they do not name, as the JSON API ignores
// unknown fields.
func shapeOf[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(T), err))
	}
	openObjects(s)
	return s
}

func openObjects(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.AdditionalProperties = nil
	for _, p := range s.Properties {
		openObjects(p)
	}
	openObjects(s.Items)
}

// argumentsShape is the shape of a tool's arguments, In: as shapeOf, but
// an argument that is a pointer (sent or not) takes its element's type,
// without null.
func argumentsShape[In any]() *jsonschema.Schema {
	s := shapeOf[In]()
	noNull(s)
	return s
}

func noNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if i := slices.Index(s.Types, "null"); i >= 0 && len(s.Types) == 2 {
		s.Type, s.Types = s.Types[1-i], nil
	}
	for _, p := range s.Properties {
		noNull(p)
	}
}

// limit edits a top-level property, if the schema has it.
func limit(s *jsonschema.Schema, name string, edit func(*jsonschema.Schema)) {
	if p, ok := s.Properties[name]; ok && p != nil {
		edit(p)
	}
}

func ptr[T any](v T) *T { return &v }
