package booking

// Reach is how the person of a request is written to about it: by e-mail,
// by text, both or neither. Contact.Reach is what the person chose;
// PersonReach is what actually reaches them, once the business (an example
// or a preview one) and the deployment (texts off, a number that replied
// STOP) are counted. Both are read whenever needed, so that a way the
// person adds later (an e-mail, texts turned on) counts from then on.
type Reach struct {
	Email bool
	SMS   bool
	// Held says why a way the person chose does not reach them; "" when
	// every way they chose does (or they chose none).
	Held Held
}

// Held is why a way the person chose is not written to.
type Held string

// The reasons, as PersonReach finds them, first that holds wins.
const (
	// HeldExample: an example business notifies nobody, ever.
	HeldExample Held = "example"
	// HeldPreview: a preview business's messages go to the preview inbox
	// (or nowhere without one), never to the person.
	HeldPreview Held = "preview"
	// HeldUndeliverable: mail to the person's e-mail address cannot be
	// delivered: it bounced, or its mailbox complained (undeliverable.go).
	// Its text on every front door says "our e-mail to j…@… could not be
	// delivered" (MaskEmail).
	HeldUndeliverable Held = "undeliverable"
	// HeldTextsOff: the deployment has no SMS origination identity, so
	// each text is logged instead of sent.
	HeldTextsOff Held = "texts_off"
	// HeldOptedOut: the person's number replied STOP (the message
	// ledger's opt-out list).
	HeldOptedOut Held = "opted_out"
)

// The channels, as the JSON inbox names them (person_channels).
const (
	ChannelEmail = "email"
	ChannelSMS   = "sms"
)

// Reach returns the ways the person of contact c chose: e-mail when it
// holds an address, text when sms_consent is true and the phone is the 10
// US digits a text goes to. Whether they are written to that way is
// PersonReach's to say.
func (c Contact) Reach() Reach {
	return Reach{Email: c.Email != "", SMS: c.SMSConsent && isTenDigits(c.Phone)}
}

// Delivery is what decides, beyond a request's contact and business,
// whether a message to the person goes out.
type Delivery struct {
	// TextsOff: the deployment sends no texts (no SMS origination
	// identity; pkg/notify logs each one instead).
	TextsOff bool
	// OptedOut: the person's number replied STOP; pkg/notify reads it from
	// its ledger before each text.
	OptedOut bool
	// EmailUndeliverable: the person's e-mail address is recorded
	// undeliverable (Bookings.DeliveryTo reads it): SES's suppression
	// list drops mail to it, so it is held as a number that replied STOP
	// is.
	EmailUndeliverable bool
}

// PersonReach returns who is actually written to about a request of
// business b whose person is c, given d. It is the one rule: pkg/notify
// sends the person's messages by it, and every front door says it (the
// web and JSON inbox, the status page, the tool server), so that the
// business is never told "the person is told" unless a message to them is
// queued (decisions.md, "How the person hears back"):
//
//   - an example business: nobody, ever;
//   - a preview business: nobody (its messages go to the preview inbox);
//   - otherwise by e-mail when the person gave one and it is not recorded
//     undeliverable, and by text when they consented, texts are on and the
//     number did not reply STOP.
//
// When more than one way is held, Held is the first reason in the order
// of the constants (an undeliverable address before texts off or STOP):
// the one the business or the person can act on.
func PersonReach(b *Business, c Contact, d Delivery) Reach {
	chosen := c.Reach()
	held := func(why Held) Reach {
		if chosen.None() {
			return Reach{}
		}
		return Reach{Held: why}
	}
	switch {
	case b.Example:
		return held(HeldExample)
	case b.Preview:
		return held(HeldPreview)
	}
	r := chosen
	if r.Email && d.EmailUndeliverable {
		r.Email, r.Held = false, HeldUndeliverable
	}
	smsHeld := Held("")
	switch {
	case r.SMS && d.TextsOff:
		r.SMS, smsHeld = false, HeldTextsOff
	case r.SMS && d.OptedOut:
		r.SMS, smsHeld = false, HeldOptedOut
	}
	if r.Held == "" {
		r.Held = smsHeld
	}
	return r
}

// AddableWays returns the ways the person of contact c may still add on
// their status page (an e-mail when c has none, or in place of one
// recorded undeliverable; texts when they did not consent) that
// PersonReach would then write to: none for an example or preview
// business, and no texts where the deployment sends none or the number
// replied STOP.
func AddableWays(b *Business, c Contact, d Delivery) Reach {
	other := d
	other.EmailUndeliverable = false // the address added is another one
	would := PersonReach(b, Contact{Email: "added", Phone: c.Phone, SMSConsent: true}, other)
	return Reach{Email: (c.Email == "" || d.EmailUndeliverable) && would.Email, SMS: !c.SMSConsent && would.SMS}
}

// MaskEmail shows an address as its first character and nothing else,
// "j…@…": enough for whoever knows it, nothing for anyone else.
func MaskEmail(email string) string {
	if email == "" {
		return ""
	}
	return string([]rune(email)[0]) + "…@…"
}

// None reports whether nobody writes to the person: they see the answer
// on their status page, or the business calls them.
func (r Reach) None() bool { return !r.Email && !r.SMS }

// Channels lists r's channels, e-mail first: [], [email], [sms] or
// [email sms].
func (r Reach) Channels() []string {
	out := []string{}
	if r.Email {
		out = append(out, ChannelEmail)
	}
	if r.SMS {
		out = append(out, ChannelSMS)
	}
	return out
}

// isTenDigits reports whether phone is 10 digits, as a request stores a US
// number.
func isTenDigits(phone string) bool {
	if len(phone) != 10 {
		return false
	}
	for _, r := range phone {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
