package notify

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// Change is one move of a request: one event of its history.
type Change struct {
	// ID is the request's code and the index of the event in its history,
	// "7K3M-Q9TD-2HXA#2": the same on every retry of the stream record that
	// carried it, and different for every change.
	ID    string
	Event booking.Event
	// Previous is the window the request had before the event: the one a
	// move left.
	Previous booking.Window
	// Link is the one-tap link that opens the request in the business's
	// web inbox, signed in (booking.NewRequestLink), for the messages that
	// tell the business of it; "" when there is none: they link the
	// inbox's page of the request, behind its sign-in.
	Link string
}

// Changes returns the changes that lead from before to after, oldest first.
// before is nil when after was just created: its create event is the one
// change. Otherwise each event after holds beyond before's history is one;
// a write that added no event (a reminder recorded too late to send, a
// late payment's refund) changes nothing to tell.
func Changes(before *booking.Request, after booking.Request) []Change {
	if before == nil {
		e := booking.Event{At: after.Created, By: booking.ActorCustomer, Action: booking.ActionCreate, To: after.Status, Window: after.Window}
		if len(after.History) > 0 {
			e = after.History[0]
		}
		if e.Action != booking.ActionCreate {
			return nil
		}
		return []Change{{ID: changeID(after.Code, 0), Event: e, Previous: e.Window}}
	}
	var changes []Change
	for i := len(before.History); i < len(after.History); i++ {
		prev := before.Window
		if i > 0 {
			prev = after.History[i-1].Window
		}
		changes = append(changes, Change{ID: changeID(after.Code, i), Event: after.History[i], Previous: prev})
	}
	return changes
}

func changeID(code string, event int) string { return code + "#" + strconv.Itoa(event) }

// personKind is what the person hears of a change, if anything: the spec's
// received, confirmed, changed and cancelled (an expiry, of an unpaid hold
// or of a request the business never answered, is a cancel for the
// person); and, the day before an accepted visit, its reminder. A payment,
// a completed job and a no-show tell the person nothing new.
func personKind(e booking.Event) (Kind, bool) {
	switch e.Action {
	case booking.ActionCreate:
		return KindReceived, true
	case booking.ActionAccept:
		return KindConfirmed, true
	case booking.ActionMove:
		return KindChanged, true
	case booking.ActionDecline, booking.ActionCancel, booking.ActionExpire:
		return KindCancelled, true
	case booking.ActionRemind:
		return KindReminder, true
	case booking.ActionContact:
		return KindWayAdded, true
	}
	return "", false
}

// businessKind is what the business hears of a change, if anything: that
// the request is in its inbox (created without a deposit, or its deposit
// paid), or that the person cancelled one that was (new or accepted). A
// request waiting for its deposit is not the business's yet, so neither its
// cancel nor its expiry concerns it; a request it never answered expires in
// its inbox, which it sees there; and a cancel by the business, or by an
// operator acting for either side, tells it nothing it does not know.
func businessKind(e booking.Event) (Kind, bool) {
	switch {
	case e.Action == booking.ActionCreate && e.To == booking.StatusNew, e.Action == booking.ActionPay:
		return KindNewRequest, true
	case e.Action == booking.ActionNudge:
		return KindNudge, true
	case e.Action == booking.ActionCancel && e.By == booking.ActorCustomer &&
		(e.From == booking.StatusNew || e.From == booking.StatusAccepted):
		return KindCancelledByCustomer, true
	}
	return "", false
}

// Composer writes the messages of a change. It is pure: from the request
// before and after a change and its business, to a list of messages. The
// Notifier sends them through three small ports: an EmailSender, an
// SMSSender and a Ledger that claims each message once and remembers the
// numbers that opted out of texts. Adapters implement them: pkg/sesmail
// (Amazon SES v2), pkg/smstext (AWS End User Messaging SMS), pkg/outbox (the
// local server's log) and pkg/dynamo's Ledger. What drives it: in AWS, the
// table's DynamoDB stream (streams.Notify); on the local server, which has
// no stream, Notifying, a booking.Store that calls the Notifier after each
// write that commits.
type Composer struct {
	// SiteURL is the public address, without a trailing slash: status_url
	// is {SiteURL}/r/{code} and the payment page {SiteURL}/pay/{code}.
	SiteURL string
	// PreviewInbox is the e-mail address that gets every message of a
	// preview business instead of its real recipients; "" sends them
	// nowhere.
	PreviewInbox string
}

// Messages returns the messages change ch of request r (as it is after the
// change) implies, to exactly the recipients that may have them:
//
//   - an example business: nobody, ever;
//   - the person: by booking.PersonReach, as every front door says it: by
//     e-mail only to contact.email, when given; by text only when
//     contact.sms_consent is true, to +1 and the 10 digits (as
//     the request is after the change: a way the status page added hears
//     every later change); of a way added (booking.ActionContact), only
//     that way;
//   - the business: by e-mail to its inbox address, when it has one;
//   - a preview business: instead of all that, one e-mail per kind to the
//     preview inbox, marked [preview], for each kind that would have gone
//     to the person by some channel, and for each the business would have
//     had (the spec's "requests reach a preview inbox").
func (c Composer) Messages(ch Change, r booking.Request, b *booking.Business) []Message {
	if b.Example {
		return nil
	}
	var msgs []Message
	if kind, ok := personKind(ch.Event); ok {
		t := c.personText(kind, ch, r, b)
		// The preview stands for the ways the person chose.
		if chosen := channelsOf(r.Contact.Reach(), ch, kind); b.Preview && len(chosen) > 0 && c.PreviewInbox != "" {
			msgs = append(msgs, c.preview(ch, kind, AudiencePerson, chosen, t, b))
		}
		// The person is written to by booking.PersonReach, the rule every
		// front door tells (none for a preview business). Its texts-off
		// and opt-out parts are the Notifier's, decided at send time
		// (Notifier.send), so the Composer's Delivery is zero.
		for _, channel := range channelsOf(booking.PersonReach(b, r.Contact, booking.Delivery{}), ch, kind) {
			m := t.message(ch, kind, AudiencePerson, channel)
			m.To = r.Contact.Email
			if channel == ChannelSMS {
				m.To = "+1" + r.Contact.Phone
			}
			msgs = append(msgs, m)
		}
	}
	if kind, ok := businessKind(ch.Event); ok {
		t := c.businessText(kind, ch, r, b)
		switch {
		case b.Preview && c.PreviewInbox != "":
			msgs = append(msgs, c.preview(ch, kind, AudienceBusiness, []Channel{ChannelEmail}, t, b))
		case b.Preview:
		case b.InboxEmail != "":
			m := t.message(ch, kind, AudienceBusiness, ChannelEmail)
			m.To = b.InboxEmail
			msgs = append(msgs, m)
		}
		if phone, ok := b.TextOwner(b.Urgent(r.ServiceID, r.Urgency)); ok && (kind == KindNewRequest || kind == KindNudge) && !b.Preview {
			// The owner chose texts, to a number confirmed by a code.
			m := t.message(ch, kind, AudienceBusiness, ChannelSMS)
			m.To = "+1" + phone
			msgs = append(msgs, m)
		}
	}
	return msgs
}

// channelsOf lists reach's channels for a message of kind about ch: of a
// way added (booking.ActionContact), only that way, as the others heard of
// the request already.
func channelsOf(reach booking.Reach, ch Change, kind Kind) []Channel {
	var channels []Channel
	if reach.Email {
		channels = append(channels, ChannelEmail)
	}
	if reach.SMS {
		channels = append(channels, ChannelSMS)
	}
	if kind == KindWayAdded {
		channels = slices.DeleteFunc(channels, func(c Channel) bool { return string(c) != ch.Event.Added })
	}
	return channels
}

// limitPrefix starts the change ID of a limit hit: it names a business and
// an hour, never a request.
const limitPrefix = "limit#"

// LimitChangeID names the limit hit of business slug in the clock hour
// (UTC) of hour: "limit#lakeview-plumbing#2026-11-20T15:00:00Z". It is the
// same for every record of that hour, so its message is claimed once.
func LimitChangeID(slug string, hour time.Time) string {
	return limitPrefix + slug + "#" + hour.UTC().Truncate(time.Hour).Format(time.RFC3339)
}

// LimitMessages returns the message that tells business b that a limit of
// what it takes from strangers refused requests in the clock hour of hour
// (KindLimitReached), to the recipients the business's other e-mails go
// to: an example business, nobody; a preview business, the preview inbox
// only, marked [preview]; otherwise its inbox address, when it has one. It
// is Doorstep's own text, in the business's default language, with its
// limits and its inbox; nothing a stranger wrote.
func (c Composer) LimitMessages(b *booking.Business, hour time.Time) []Message {
	if b.Example {
		return nil
	}
	ch := Change{ID: LimitChangeID(b.Slug, hour)}
	t := c.limitText(b)
	switch {
	case b.Preview && c.PreviewInbox != "":
		return []Message{c.preview(ch, KindLimitReached, AudienceBusiness, []Channel{ChannelEmail}, t, b)}
	case b.Preview, b.InboxEmail == "":
		return nil
	}
	m := t.message(ch, KindLimitReached, AudienceBusiness, ChannelEmail)
	m.To = b.InboxEmail
	return []Message{m}
}

// isLimitMessage reports whether message id is a limit hit's.
func isLimitMessage(id string) bool { return strings.HasPrefix(id, limitPrefix) }

// preview is the one e-mail to the preview inbox that stands for the
// messages of one kind that would have gone to audience by channels.
func (c Composer) preview(ch Change, kind Kind, audience Audience, channels []Channel, t text, b *booking.Business) Message {
	m := t.message(ch, kind, AudiencePreview, ChannelEmail)
	m.To = c.PreviewInbox
	m.Subject = previewMark + " " + t.subject
	m.Body = previewMark + " " + previewNote(t.lang, b.Name, audience, channels) + "\n\n" + t.body
	if len(channels) == 2 {
		m.Body += "\n" + wording[t.lang].textMessage + "\n" + t.sms + "\n"
	}
	return m
}

// previewMark starts the subject and the body of every preview message.
const previewMark = "[preview]"

// text is what a message of one kind says, in one language, on each channel.
type text struct {
	lang          string
	subject, body string // the e-mail
	sms           string // the text message, ending with the opt-out hint
}

func (t text) message(ch Change, kind Kind, audience Audience, channel Channel) Message {
	m := Message{
		ID: messageID(ch, kind, audience) + "/" + string(channel), Change: ch.ID,
		Kind: kind, Audience: audience, Channel: channel, Language: t.lang,
	}
	if channel == ChannelSMS {
		m.Body = t.sms
	} else {
		m.Subject, m.Body = t.subject, t.body
	}
	return m
}

func messageID(ch Change, kind Kind, audience Audience) string {
	return ch.ID + "/" + string(kind) + "/" + string(audience)
}
