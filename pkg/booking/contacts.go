package booking

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// ContactHash is how a contact of a request is named where only its
// identity matters (the e-mail's open requests, a business's blocked
// contacts): the hex SHA-256 of the business's slug, the kind ("phone" or
// "email") and the normalised value (10 digits; an e-mail in lower case),
// so that the table keeps no list of people's e-mail addresses and
// numbers. A phone number has few enough values to be found from its hash
// by trying them all: the hash keeps the list from being read at a glance,
// not from a determined operator.
func ContactHash(slug, kind, value string) string {
	sum := sha256.Sum256([]byte(slug + "\x00" + kind + "\x00" + strings.ToLower(value)))
	return hex.EncodeToString(sum[:])
}

// EmailHash names an e-mail address where only its identity matters and
// no business scopes it (which business has it as its inbox_email, how
// many sign-in links it was sent this hour): the hex SHA-256 of "email"
// and the address in lower case, as ContactHash names a contact at a
// business.
func EmailHash(email string) string {
	return ContactHash("", "email", strings.TrimSpace(email))
}

// Mailbox is the mailbox an e-mail address reaches, for counting and
// blocking only: the address in lower case, without a "+tag" on its local
// part, so that local+1@domain, local+2@domain and local@domain are one
// mailbox for the 3-open-requests limit, a business's blocks and the
// sign-in count. Many providers deliver tagged addresses to the untagged
// mailbox, so a stranger could otherwise multiply one mailbox into as many
// as they like. Never for sending: messages go to the address as given.
func Mailbox(email string) string {
	email = strings.ToLower(strings.TrimSpace(email))
	local, domain, ok := strings.Cut(email, "@")
	if !ok {
		return email
	}
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	return local + "@" + domain
}
