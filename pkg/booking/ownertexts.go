package booking

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"
)

// Texts to the owner: a business may give a mobile number, confirmed by a
// code sent to it, and choose which new requests it is texted about. Off
// by default. The texts go through the person's SMS sender (pkg/notify).

// The choices of texts to the owner (text_me).
const (
	TextsNone   = ""       // no texts (the default)
	TextsAll    = "all"    // a text for every new request
	TextsUrgent = "urgent" // a text for urgent ones only (Business.Urgent)
)

// Limits and lifetimes of the owner's number's confirmation.
const (
	MaxPhoneCodesPerDay = 3                // confirmation texts per business per UTC day
	PhoneCodeTTL        = 15 * time.Minute // a code works this long
	MaxPhoneCodeTries   = 5                // wrong codes before it stops working
	phoneCodeDigits     = 6
)

// ownerTextSettings are the business's private settings of texts to its
// owner (Private embeds them), kept apart so that other private settings
// merge cleanly.
type ownerTextSettings struct {
	// OwnerPhone is the owner's mobile, 10 US digits, set only once it
	// was confirmed with a code sent to it (Inbox.ConfirmOwnerPhone).
	OwnerPhone string `json:"owner_phone,omitempty"`
	// TextMe is which new requests the owner is texted about: TextsAll,
	// TextsUrgent or TextsNone.
	TextMe string `json:"text_me,omitempty"`
}

func (p ownerTextSettings) validate() error {
	if p.OwnerPhone != "" {
		if phone, ok := NormalizePhone(p.OwnerPhone); !ok || phone != p.OwnerPhone {
			return fieldErr("owner_phone", "want 10 US digits, got %s", excerpt(p.OwnerPhone))
		}
	}
	if !slices.Contains([]string{TextsNone, TextsAll, TextsUrgent}, p.TextMe) {
		return fieldErr("text_me", "want all, urgent or absent (none), got %s", excerpt(p.TextMe))
	}
	if p.TextMe != TextsNone && p.OwnerPhone == "" {
		return fieldErr("text_me", "texts need a confirmed owner_phone")
	}
	return nil
}

// Urgent reports whether a request for serviceID with urgency is urgent
// for b: one of its services marked urgent, or a person who said it is an
// emergency.
func (b *Business) Urgent(serviceID, urgency string) bool {
	if urgency == "emergency" {
		return true
	}
	for _, s := range b.Services {
		if s.ID == serviceID {
			return s.Urgent
		}
	}
	return false
}

// TextOwner returns the number to text about a new request (urgent or
// not) by b's choice: its confirmed owner_phone, when it chose every
// request, or urgent ones and this one is; ok is false otherwise.
func (b *Business) TextOwner(urgent bool) (phone string, ok bool) {
	switch {
	case b.OwnerPhone == "":
		return "", false
	case b.TextMe == TextsAll, b.TextMe == TextsUrgent && urgent:
		return b.OwnerPhone, true
	}
	return "", false
}

// PhoneCodeRecord is a code sent to confirm an owner's number, as the
// store keeps it: its hash, never the code. A business has one at most:
// a new code replaces it.
type PhoneCodeRecord struct {
	Slug     string
	Phone    string // the number being confirmed, 10 digits
	CodeHash string // PhoneCodeHash of the code
	Expires  time.Time
}

// PhoneCodeHash names a confirmation code of business slug: the hex
// SHA-256 of the slug and the code.
func PhoneCodeHash(slug, code string) string {
	sum := sha256.Sum256([]byte(slug + "\x00" + code))
	return hex.EncodeToString(sum[:])
}

// newPhoneCode returns phoneCodeDigits random digits.
func newPhoneCode() string {
	n, _ := rand.Int(rand.Reader, big.NewInt(1_000_000)) // crypto/rand never fails
	return fmt.Sprintf("%0*d", phoneCodeDigits, n.Int64())
}

// StartOwnerPhone begins confirming phone as the owner's mobile: it
// counts the confirmation text against MaxPhoneCodesPerDay (a conditional
// write; past it, RATE_LIMITED, whose RetryAfter is the time to the next
// UTC day), stores the code's hash for PhoneCodeTTL, replacing any code
// before, and returns the code to text to the number, and the number's 10
// digits. A number that is none is INVALID_REQUEST, and nothing is
// counted.
func (in *Inbox) StartOwnerPhone(ctx context.Context, phone string) (code, digits string, err error) {
	s, b := in.s, in.b
	digits, ok := NormalizePhone(phone)
	if !ok {
		return "", "", Errorf(InvalidRequest, "owner_phone: want a US mobile number, such as (512) 555-0142")
	}
	now := s.now()
	allowed, err := s.store.CountPhoneCode(ctx, b.Slug, MaxPhoneCodesPerDay, now)
	if err != nil {
		return "", "", err
	}
	if !allowed {
		next := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
		return "", "", &Error{Code: RateLimited, RetryAfter: next.Sub(now),
			Message: fmt.Sprintf("%d confirmation texts were sent today; try again tomorrow (UTC)", MaxPhoneCodesPerDay)}
	}
	code = newPhoneCode()
	err = s.store.PutPhoneCode(ctx, PhoneCodeRecord{Slug: b.Slug, Phone: digits, CodeHash: PhoneCodeHash(b.Slug, code), Expires: now.Add(PhoneCodeTTL)})
	if err != nil {
		return "", "", err
	}
	return code, digits, nil
}

// ConfirmOwnerPhone spends the code sent by StartOwnerPhone, once, before
// it expires and within MaxPhoneCodeTries, and stores its number as the
// owner's (the choice of texts stays as it was). A wrong, spent or expired
// code is INVALID_REQUEST and changes nothing but the tries.
func (in *Inbox) ConfirmOwnerPhone(ctx context.Context, code string) (*Business, error) {
	s, b := in.s, in.b
	code = strings.TrimSpace(code)
	wrong := Errorf(InvalidRequest, "code: the code is wrong, or it expired; send a new one")
	if len(code) != phoneCodeDigits || strings.Trim(code, "0123456789") != "" {
		return nil, wrong
	}
	rec, err := s.store.SpendPhoneCode(ctx, b.Slug, PhoneCodeHash(b.Slug, code), MaxPhoneCodeTries, s.now())
	switch {
	case ErrorCode(err) == NotFound:
		return nil, wrong
	case err != nil:
		return nil, err
	}
	return s.changeBusiness(ctx, b.Slug, func(changed *Business) error { changed.OwnerPhone = rec.Phone; return nil })
}

// SetTextMe sets which new requests the owner is texted about: TextsAll,
// TextsUrgent or TextsNone. Texts need a confirmed number:
// INVALID_REQUEST otherwise.
func (in *Inbox) SetTextMe(ctx context.Context, choice string) (*Business, error) {
	if !slices.Contains([]string{TextsNone, TextsAll, TextsUrgent}, choice) {
		return nil, Errorf(InvalidRequest, "text_me: want all, urgent or none")
	}
	return in.s.changeBusiness(ctx, in.b.Slug, func(changed *Business) error {
		if choice != TextsNone && changed.OwnerPhone == "" {
			return Errorf(InvalidRequest, "text_me: confirm a mobile number first")
		}
		changed.TextMe = choice
		return nil
	})
}

// RemoveOwnerPhone forgets the owner's number, and with it the texts.
func (in *Inbox) RemoveOwnerPhone(ctx context.Context) (*Business, error) {
	return in.s.changeBusiness(ctx, in.b.Slug, func(changed *Business) error {
		changed.OwnerPhone, changed.TextMe = "", TextsNone
		return nil
	})
}
