package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/edge"
)

// createBody is the body of createServiceRequest as sent. Pointers tell a
// missing field from an empty one.
type createBody struct {
	WindowStart     *string      `json:"window_start"`
	Address         *addressBody `json:"address"`
	Contact         *contactBody `json:"contact"`
	ServiceID       *string      `json:"service_id"`
	Urgency         *string      `json:"urgency"`
	Description     *string      `json:"description"`
	Language        *string      `json:"language"`
	IdempotencyKey  *string      `json:"idempotency_key"`
	AssistantName   *string      `json:"assistant_name"`
	DepositAccepted *bool        `json:"deposit_accepted"`
}

type addressBody struct {
	Street *string `json:"street"`
	Unit   *string `json:"unit"`
	City   *string `json:"city"`
	ZIP    *string `json:"zip"`
}

type contactBody struct {
	Name       *string `json:"name"`
	Phone      *string `json:"phone"`
	Email      *string `json:"email"`
	SMSConsent *bool   `json:"sms_consent"`
}

// decodeCreateBody decodes a createServiceRequest body and its
// Idempotency-Key header ("" when absent) into the domain's input.
// Malformed JSON, a wrong type, a missing required field or a body over
// booking.MaxBodyBytes is INVALID_REQUEST; then a window_start that is not
// RFC 3339 is INVALID_WINDOW. Unknown fields are ignored.
func decodeCreateBody(body []byte, headerKey string) (booking.CreateInput, error) {
	var in createBody
	if len(body) > booking.MaxBodyBytes {
		return booking.CreateInput{}, booking.Errorf(booking.InvalidRequest, "the body is larger than %d KiB", booking.MaxBodyBytes>>10)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&in); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			return booking.CreateInput{}, booking.Errorf(booking.InvalidRequest, "%s must be %s", typeErr.Field, jsonKind(typeErr.Type.Kind().String()))
		}
		return booking.CreateInput{}, booking.Errorf(booking.InvalidRequest, "the body must be a JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return booking.CreateInput{}, booking.Errorf(booking.InvalidRequest, "the body must hold one JSON object")
	}
	if missing := in.missing(); missing != "" {
		return booking.CreateInput{}, booking.Errorf(booking.InvalidRequest, "%s is required", missing)
	}
	start, err := edge.WindowStart(*in.WindowStart)
	if err != nil {
		return booking.CreateInput{}, err
	}
	out := booking.CreateInput{
		WindowStart: start,
		Address: booking.Address{Street: *in.Address.Street, Unit: value(in.Address.Unit),
			City: value(in.Address.City), ZIP: *in.Address.ZIP},
		Contact: booking.Contact{Name: *in.Contact.Name, Phone: *in.Contact.Phone,
			Email: value(in.Contact.Email), SMSConsent: value(in.Contact.SMSConsent)},
		ServiceID:       in.ServiceID,
		Urgency:         in.Urgency,
		Language:        in.Language,
		Description:     value(in.Description),
		AssistantName:   value(in.AssistantName),
		DepositAccepted: value(in.DepositAccepted),
	}
	if headerKey != "" {
		out.IdempotencyKeys = append(out.IdempotencyKeys, headerKey)
	}
	if in.IdempotencyKey != nil {
		out.IdempotencyKeys = append(out.IdempotencyKeys, *in.IdempotencyKey)
	}
	return out, nil
}

// missing names the first required field the body lacks; "" when none.
func (in *createBody) missing() string {
	switch {
	case in.WindowStart == nil:
		return "window_start"
	case in.Address == nil:
		return "address"
	case in.Contact == nil:
		return "contact"
	case in.Address.Street == nil:
		return "address.street"
	case in.Address.ZIP == nil:
		return "address.zip"
	case in.Contact.Name == nil:
		return "contact.name"
	case in.Contact.Phone == nil:
		return "contact.phone"
	}
	return ""
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

// value is *p, or the zero value when p is nil.
func value[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
