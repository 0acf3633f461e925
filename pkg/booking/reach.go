package booking

// Reach is how the person of a request is written to about it: by e-mail
// when the request holds an address, by text when sms_consent is true and
// the phone is the 10 US digits a text goes to. It is read from the
// request's contact as stored, whenever it is needed, so that a way the
// person adds later (an e-mail, texts turned on) counts from then on.
type Reach struct {
	Email bool
	SMS   bool
}

// The channels, as the JSON inbox names them (person_channels).
const (
	ChannelEmail = "email"
	ChannelSMS   = "sms"
)

// Reach returns how the person of contact c is written to. It is the one
// rule: the messages (pkg/notify) go by it, and the inbox says it.
func (c Contact) Reach() Reach {
	return Reach{Email: c.Email != "", SMS: c.SMSConsent && isTenDigits(c.Phone)}
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
