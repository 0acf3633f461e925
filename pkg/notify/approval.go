package notify

import (
	"strconv"
	"time"

	"github.com/doorstep/doorstep/pkg/booking"
)

// ApprovalMessage is the message to the operator's topic that b (as
// stored, waiting) asks to go live, with the command that approves it,
// made at now. The business's name is the owner's text: it is quoted as
// theirs, never part of the subject. Its ID names the business and the
// time, never its inbox address.
func ApprovalMessage(b *booking.Business, now time.Time) Message {
	return Message{
		ID:       "approval/" + b.Slug + "/" + strconv.FormatInt(now.UnixMilli(), 10) + "/" + string(AudienceOperator) + "/" + string(ChannelOperator),
		Change:   "approval/" + b.Slug,
		Kind:     KindApproval,
		Audience: AudienceOperator,
		Channel:  ChannelOperator,
		To:       string(AudienceOperator),
		Language: "en",
		Subject:  "Doorstep: " + b.Slug + " asks to go live",
		Body: "The business " + b.Slug + " asks to go live; its checklist holds.\n\n" +
			"Its name, as its owner typed it: " + strconv.Quote(b.Name) + "\n" +
			"Its inbox e-mail: " + b.InboxEmail + "\n\n" +
			"To approve it:   ctl businesses approve " + b.Slug + "\n" +
			"Waiting for you: ctl businesses list --pending\n",
	}
}
