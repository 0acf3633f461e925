package booking

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
)

// Private is what a business record may carry besides the getBusiness
// shape: read from the business file and kept in the table, never shown to
// the public (Business marshals without it; EncodeBusinessRecord keeps it).
type Private struct {
	// InboxTokenSHA256 is the hex SHA-256 of the business's inbox token.
	// The token itself is never stored: infra/ctl prints it once.
	InboxTokenSHA256 string `json:"inbox_token_sha256,omitempty"`
	// FeedTokenSHA256 is the hex SHA-256 of the business's calendar feed
	// token (NewFeedToken), printed once by infra/ctl mint-feed-token.
	FeedTokenSHA256 string `json:"feed_token_sha256,omitempty"`
	// InboxEmail is where the business hears of new requests.
	InboxEmail string `json:"inbox_email,omitempty"`
	// RequestsPerHour and MaxUnanswered bound what strangers can send the
	// business (Limits); 0 is the default.
	RequestsPerHour int `json:"requests_per_hour,omitempty"`
	MaxUnanswered   int `json:"max_unanswered,omitempty"`
	// DaysOff are the days on which the business offers no window
	// (parsed by Validate); requests already made for them stay as they
	// are.
	DaysOff []DayOff `json:"days_off,omitempty"`
	// MinNoticeMinutes is how long before a window's start a customer
	// must ask for it: a window that starts sooner is not offered, and a
	// create for it is TOO_LATE. 0 (the default): until it starts.
	MinNoticeMinutes int `json:"min_notice_minutes,omitempty"`
	// CrewsPerWindow is how many requests one window holds at once: the
	// crews (vans, teams) the business sends out at the same time, 1 to
	// MaxCrews; 0 or absent is 1.
	CrewsPerWindow int `json:"crews_per_window,omitempty"`
	// CrewsEver is the most CrewsPerWindow has ever been for this
	// business (see Crews). Nobody sets it: the store raises it on every
	// write of the record (KeepCrewsEver), never lowers it.
	CrewsEver int `json:"crews_ever,omitempty"`
	// RemovedServiceIDs are the IDs of the services the owner removed:
	// a new service never gets one (NewServiceID), so that a request made
	// for the removed one never names another.
	RemovedServiceIDs []string `json:"removed_service_ids,omitempty"`

	reminderSettings  // reminder_hour (reminder.go)
	ownerTextSettings // owner_phone, text_me (ownertexts.go)
	nudgeSettings     // nudge_urgent_minutes, nudge_minutes (nudge.go)
	lifeSettings      // approved, approval_asked, suspended, changes (golive.go)
}

// The default limits of what a business takes from strangers: enough for a
// busy day (a business answers its requests within hours), too few for one
// client to hold every window of a calendar.
const (
	DefaultRequestsPerHour = 10
	DefaultMaxUnanswered   = 20
	maxLimit               = 1000
)

// Limits bound what a business takes: from people it does not know,
// whoever they say they are (a client can make up phone numbers and e-mail
// addresses, but not businesses), and in any one window.
type Limits struct {
	// PerHour is how many public requests the business takes in any
	// rolling hour.
	PerHour int
	// Unanswered is how many open requests (new or pending_payment) it
	// holds at once: each holds a window until it is answered.
	Unanswered int
	// Crews is how many requests one window holds at once.
	Crews Crews
}

// Limits returns b's limits, with the defaults for those it does not set.
func (b *Business) Limits() Limits {
	l := Limits{PerHour: b.RequestsPerHour, Unanswered: b.MaxUnanswered, Crews: b.Crews()}
	if l.PerHour == 0 {
		l.PerHour = DefaultRequestsPerHour
	}
	if l.Unanswered == 0 {
		l.Unanswered = DefaultMaxUnanswered
	}
	return l
}

// record is a business record as the table and business files hold it.
type record struct {
	*Business
	Private
}

// EncodeBusinessRecord encodes b with its private fields: the form
// DecodeBusiness reads and the table stores.
func EncodeBusinessRecord(b *Business) ([]byte, error) {
	return json.Marshal(record{b, b.Private})
}

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (p Private) validate() error {
	if err := p.reminderSettings.validate(); err != nil {
		return err
	}
	if err := p.ownerTextSettings.validate(); err != nil {
		return err
	}
	if err := p.nudgeSettings.validate(); err != nil {
		return err
	}
	if p.InboxTokenSHA256 != "" && !sha256Hex.MatchString(p.InboxTokenSHA256) {
		return fieldErr("inbox_token_sha256", "want 64 lowercase hex digits (the SHA-256 of the token)")
	}
	if p.FeedTokenSHA256 != "" && !sha256Hex.MatchString(p.FeedTokenSHA256) {
		return fieldErr("feed_token_sha256", "want 64 lowercase hex digits (the SHA-256 of the token)")
	}
	if p.RequestsPerHour < 0 || p.RequestsPerHour > maxLimit {
		return fieldErr("requests_per_hour", "want 1 to %d (0 or absent: %d), got %d", maxLimit, DefaultRequestsPerHour, p.RequestsPerHour)
	}
	if p.MaxUnanswered < 0 || p.MaxUnanswered > maxLimit {
		return fieldErr("max_unanswered", "want 1 to %d (0 or absent: %d), got %d", maxLimit, DefaultMaxUnanswered, p.MaxUnanswered)
	}
	if p.CrewsPerWindow < 0 || p.CrewsPerWindow > MaxCrews {
		return fieldErr("crews_per_window", "want 1 to %d (0 or absent: 1), got %d", MaxCrews, p.CrewsPerWindow)
	}
	if p.CrewsEver < 0 || p.CrewsEver > MaxCrews {
		return fieldErr("crews_ever", "want 0 to %d, got %d", MaxCrews, p.CrewsEver)
	}
	if p.MinNoticeMinutes < 0 || p.MinNoticeMinutes > MaxNoticeMinutes {
		return fieldErr("min_notice_minutes", "want 0 to %d (a week), got %d", MaxNoticeMinutes, p.MinNoticeMinutes)
	}
	if p.InboxEmail != "" {
		if _, ok := NormalizeEmail(p.InboxEmail); !ok {
			return fieldErr("inbox_email", "want an e-mail address, got %q", p.InboxEmail)
		}
	}
	return nil
}

// An inbox token is "<slug>.<secret>": the slug says which business it
// claims to be, and the secret, 32 bytes from a cryptographic source, proves
// it. Only the SHA-256 of the whole token is stored.
const inboxTokenSecretBytes = 32

// NewInboxToken returns a new inbox token for the business and the hash to
// store in its record.
func NewInboxToken(slug string) (token, hash string) {
	secret := make([]byte, inboxTokenSecretBytes)
	_, _ = rand.Read(secret) // crypto/rand.Read never fails
	token = slug + "." + base64.RawURLEncoding.EncodeToString(secret)
	return token, HashInboxToken(token)
}

// HashInboxToken returns the hex SHA-256 of token.
func HashInboxToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// InboxTokenSlug returns the slug a token claims, or false when the token
// cannot be one.
func InboxTokenSlug(token string) (string, bool) {
	slug, secret, ok := strings.Cut(token, ".")
	if !ok || !IsSlug(slug) || len(secret) < 16 || len(token) > 200 {
		return "", false
	}
	return slug, true
}

// OpensInbox reports whether token is the inbox token of b, comparing the
// hashes in constant time. A business without a stored hash has no inbox.
func (b *Business) OpensInbox(token string) bool {
	want := b.InboxTokenSHA256
	if want == "" {
		return false
	}
	got := HashInboxToken(token)
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
