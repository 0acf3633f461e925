package dynamo

import (
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Attribute names (the condition and update expressions spell them out too). The
// request item adds the JSON names of booking.Request; status is one.
const (
	attrPK          = "pk"
	attrSK          = "sk"
	attrExpiresAt   = "expires_at" // the table's TTL attribute
	attrDoc         = "doc"
	attrRequestCode = "request_code"
	attrOpenCount   = "open_count"
	attrSignIns     = "sign_ins" // on a sign-in count: the links sent in its hour
	attrBodyHash    = "body_hash"
	attrResponse    = "response"
	attrStatus      = "status"
	attrHoldExpires = "hold_expires"
	attrSites       = "sites" // on the business item: the sites it has site items for
	attrSlug        = "slug"  // on a site, inbox_email, sign-in or session item: its business
	attrUsedUntil   = "used_until"
	attrEmailHash   = "email_hash" // on a sign-in token and a session: booking.EmailHash of the address
	attrCSRF        = "csrf"       // on a session: its forms' CSRF token
	// On a pending sign-up: what was typed. On the counts of sign-up: the
	// e-mails sent to an address in its day, the businesses created in
	// the stack's hour.
	attrName         = "name"
	attrTrade        = "trade"
	attrEmail        = "email"
	attrSignupEmails = "signup_emails"
	attrSignups      = "signups"
	attrEmailChanges = "email_changes" // on a business's count of a day's links to new inbox addresses

	// On the request item, besides booking.Request's fields:
	attrInboxSlug  = "inbox_slug"  // the business, once it sees the request: the inbox index's key
	attrCreated    = "created"     // the inbox index's sort key
	attrSweepShard = "sweep_shard" // while pending_payment or new: the sweep index's key
	attrSweepAt    = "sweep_at"    // while pending_payment or new: when it lapses, booking.Request.LapsesAt (N, Unix seconds)
	attrWindow     = "window"

	// On the business's open count (skOpen), besides open_count: the
	// window length holds are taken on, and how many were ever taken.
	attrWindowMinutes = "window_minutes" // the business's arrival_window_minutes
	attrTakes         = "takes"
)

// Two of the table's three global secondary indexes (the third,
// indexRemind, is in reminders.go). All three are sparse: an item is in one
// only while it has the index's key attributes.
const (
	// indexInbox holds the requests each business sees, by inbox_slug and
	// created (RFC 3339, whole seconds, so it sorts by time); all attributes.
	indexInbox = "inbox"
	// indexSweep holds the pending_payment and new requests, by
	// sweep_shard and sweep_at (when each lapses); keys only. The shard spreads them over sweepShards
	// partitions, so the sweep never reads one hot partition.
	indexSweep = "sweep"
)

// sweepShards is how many partitions the sweep index spreads the requests
// waiting for a payment or an answer over.
const sweepShards = 8

// sweepShard is the sweep index partition of the request with the given code.
func sweepShard(code string) string { return shardOf(prefixSweep, sweepShards, code) }

// shardOf is the partition, of the shards under prefix (prefix + 0 to
// shards-1), that the request with the given code is in: the sweep, remind
// and erase indexes spread their requests over shards so that no query
// reads one hot partition.
func shardOf(prefix string, shards uint32, code string) string {
	h := fnv.New32a()
	h.Write([]byte(code))
	return prefix + strconv.Itoa(int(h.Sum32()%shards))
}

// Key prefixes and fixed sort keys.
const (
	prefixBusiness     = "BUSINESS#"
	prefixRequest      = "REQUEST#"
	prefixHold         = "HOLD#"
	prefixPhone        = "PHONE#"
	prefixIdempotency  = "IDEMPOTENCY#"
	prefixSite         = "SITE#"
	prefixPath         = "PATH#"
	prefixSweep        = "SWEEP#"
	prefixEmail        = "EMAIL#"
	prefixRate         = "RATE#"
	prefixBlock        = "BLOCK#"
	prefixLimitHit     = "LIMITHIT#"
	prefixInboxEmail   = "INBOXEMAIL#"
	prefixSignInCount  = "SIGNINCOUNT#"
	prefixHour         = "HOUR#"
	prefixSignIn       = "SIGNIN#"
	prefixEmailChange  = "EMAILCHANGE#"  // a new inbox address's token, by its hash
	prefixEmailChanges = "EMAILCHANGES#" // a business's links to new inbox addresses, by day
	prefixSession      = "SESSION#"
	prefixSignup       = "SIGNUP#"       // a pending sign-up, by its token's hash
	prefixSignupEmails = "SIGNUPEMAILS#" // the sign-up e-mails an address was sent, by day
	prefixSignups      = "SIGNUPS"       // the businesses the stack created by sign-up, by hour (one partition)
	prefixDay          = "DAY#"
	skSignup           = "SIGNUP"
	skInboxEmail       = "INBOXEMAIL"
	skSignIn           = "SIGNIN"
	skEmailChange      = "EMAILCHANGE"
	skSession          = "SESSION"
	skProfile          = "PROFILE"
	skRequest          = "REQUEST"
	skOpen             = "OPEN" // the business's open (unanswered) requests
)

// emailSK is the key of an e-mail's open-requests counter at a business.
func emailSK(slug, email string) string {
	return prefixEmail + booking.ContactHash(slug, "email", booking.Mailbox(email))
}

// countedEmailSK is the key of the counter r's e-mail was counted on: its
// mailbox's (emailSK), or for a request counted before mailboxes were, its
// whole address's.
func countedEmailSK(r booking.Request) string {
	if r.MailboxCounted {
		return emailSK(r.BusinessSlug, r.Contact.Email)
	}
	return prefixEmail + booking.ContactHash(r.BusinessSlug, "email", r.Contact.Email)
}

// rateSK is the key of one of a business's hourly request slots, 0 to
// Limits.PerHour-1.
func rateSK(slot int) string { return prefixRate + strconv.Itoa(slot) }

// blockSK is the key of a contact a business blocked: kind "phone" or
// "email", and its value.
func blockSK(slug, kind, value string) string {
	if kind == "email" {
		value = booking.Mailbox(value) // a blocked mailbox, whatever its tag
	}
	return prefixBlock + kind + "#" + booking.ContactHash(slug, kind, value)
}

// limitHitSK is the key of the record that a limit of the business refused
// a request in the clock hour of now (UTC).
func limitHitSK(now time.Time) string {
	return prefixLimitHit + now.UTC().Truncate(time.Hour).Format(time.RFC3339)
}

// inboxEmailPK is the key of the item that names the business whose
// inbox_email is email: booking.EmailHash of the address, never the
// address.
func inboxEmailPK(email string) string { return prefixInboxEmail + booking.EmailHash(email) }

// signInCountKey is the key of the count of sign-in links asked for the
// address with the given booking.EmailHash in the clock hour (UTC) of now.
func signInCountKey(emailHash string, now time.Time) (pk, sk string) {
	return prefixSignInCount + emailHash, prefixHour + now.UTC().Truncate(time.Hour).Format(time.RFC3339)
}

func sessionPK(tokenHash string) string { return prefixSession + tokenHash }

func businessPK(slug string) string { return prefixBusiness + slug }
func requestPK(code string) string  { return prefixRequest + code }
func phoneSK(phone string) string   { return prefixPhone + phone }
func idempotencySK(key string) string {
	return prefixIdempotency + key
}

// sitePK and siteSK are the key of the site item of a business's site: the
// host, and the path ("" for the root, so the sort key is never empty).
func sitePK(host string) string { return prefixSite + host }
func siteSK(path string) string { return prefixPath + path }

// siteName is how the business item's sites attribute names a site: host
// then path, "acme.example.com/book". A host has no "/" and a path starts
// with one, so parseSiteName reads it back unchanged.
func siteName(l booking.SiteLink) string { return l.Host + l.Path }

func parseSiteName(s string) booking.SiteLink {
	if i := strings.IndexByte(s, '/'); i >= 0 {
		return booking.SiteLink{Host: s[:i], Path: s[i:]}
	}
	return booking.SiteLink{Host: s}
}

// holdSK is the sort key of a hold on the window starting at start: the
// instant in UTC, RFC 3339 with whole seconds, so that holds sort by time,
// then, for every slot but the first, "#" and the slot (booking.Crews): the
// holds of one window share the prefix holdSK(start, 0).
func holdSK(start time.Time, slot int) string {
	sk := prefixHold + start.UTC().Format(time.RFC3339)
	if slot > 0 {
		sk += "#" + strconv.Itoa(slot)
	}
	return sk
}

// parseHoldSK returns the window start and the slot a hold sort key names.
func parseHoldSK(sk string) (time.Time, int, bool) {
	rest, ok := strings.CutPrefix(sk, prefixHold)
	if !ok {
		return time.Time{}, 0, false
	}
	rest, slot, hasSlot := strings.Cut(rest, "#")
	t, err := time.Parse(time.RFC3339, rest)
	if err != nil {
		return time.Time{}, 0, false
	}
	i := 0
	if hasSlot {
		if i, err = strconv.Atoi(slot); err != nil {
			return time.Time{}, 0, false
		}
	}
	// Only the key holdSK writes: no "#0", no "#01", no offset.
	if i < 0 || i >= booking.MaxCrews || holdSK(t, i) != sk {
		return time.Time{}, 0, false
	}
	return t.UTC(), i, true
}

// keyMap builds an item's primary key.
func keyMap(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(pk), attrSK: str(sk)}
}

func str(s string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: s} }

func num(n int64) *types.AttributeValueMemberN {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// unix is an instant as a number attribute of Unix seconds.
func unix(t time.Time) *types.AttributeValueMemberN { return num(t.Unix()) }
