package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/notify"
)

// The outgoing messages' keys (see README.md): one item per message, whose
// insert on the table's stream is what sends it (streams.Notify).
const (
	prefixOutgoing = "OUTGOING#"
	skOutgoing     = "MESSAGE"
)

// OutgoingTTL is how long an outgoing message's item lasts: the stream
// keeps a record 24 hours, and the item is of no use after it.
const OutgoingTTL = 24 * time.Hour

// Outgoing is a notify.EmailSender and notify.SMSSender that sends nothing
// itself: it writes each message as an item of the table, and the notify
// function on the table's stream sends it, once (the Ledger claims its ID),
// as it sends every other message. The web inbox's sign-in e-mails and
// phone codes, and its ask to the operator to approve a business, leave
// this way, so that business-web links no SES, SMS or SNS client
// (docs/design.md, "One way out").
type Outgoing struct {
	client ops
	table  *string
	now    func() time.Time
}

var (
	_ notify.EmailSender      = (*Outgoing)(nil)
	_ notify.SMSSender        = (*Outgoing)(nil)
	_ booking.OperatorNotices = (*Outgoing)(nil)
)

// NewOutgoing returns the outgoing messages of the given table; now stamps
// their expiry.
func NewOutgoing(client *dynamodb.Client, table string, now func() time.Time) *Outgoing {
	return &Outgoing{client: opsOf(client), table: aws.String(table), now: now}
}

// SendEmail writes the e-mail m to go out.
func (o *Outgoing) SendEmail(ctx context.Context, m notify.Message) error {
	if m.Channel != notify.ChannelEmail {
		return fmt.Errorf("queue message %s: channel %q, want %q", m.ID, m.Channel, notify.ChannelEmail)
	}
	return o.put(ctx, m)
}

// SendText writes the text m to go out. It never reports an opt-out: the
// notify function checks the opt-out list before it sends, and records a
// STOP the sender reports, as for every text.
func (o *Outgoing) SendText(ctx context.Context, m notify.Message) error {
	if m.Channel != notify.ChannelSMS {
		return fmt.Errorf("queue message %s: channel %q, want %q", m.ID, m.Channel, notify.ChannelSMS)
	}
	return o.put(ctx, m)
}

// AskApproval writes the message that b asks to go live, to the
// operator's topic (notify.ApprovalMessage).
func (o *Outgoing) AskApproval(ctx context.Context, b *booking.Business) error {
	return o.put(ctx, notify.ApprovalMessage(b, o.now()))
}

// put writes m's item unless one of its ID is there: one conditional
// PutItem, so that the stream sees one insert per message.
func (o *Outgoing) put(ctx context.Context, m notify.Message) error {
	if m.ID == "" || m.To == "" || m.Body == "" {
		return fmt.Errorf("queue message %q: no ID, recipient or body", m.ID)
	}
	item, err := attributevalue.MarshalMapWithOptions(m, jsonNamesEncoding)
	if err != nil {
		return fmt.Errorf("queue message %s: %w", m.ID, err)
	}
	for k, v := range keyMap(prefixOutgoing+m.ID, skOutgoing) {
		item[k] = v
	}
	item[attrExpiresAt] = unix(o.now().Add(OutgoingTTL))
	_, err = o.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           o.table,
		Item:                item,
		ConditionExpression: aws.String("attribute_not_exists(pk)"),
	})
	var exists *types.ConditionalCheckFailedException
	if errors.As(err, &exists) {
		return fmt.Errorf("queue message %s: a message of this ID is there already", m.ID)
	}
	if err != nil {
		return fmt.Errorf("queue message %s: %w", m.ID, err)
	}
	return nil
}

// DecodeOutgoing reads a record of the table's stream: ok is true for the
// insert of an outgoing message's item (Outgoing), whose message it
// returns. Every other record, the item's removal by TTL among them, is not
// one. An outgoing item that cannot be decoded, or that names no ID,
// recipient, body or known channel, is an error.
func DecodeOutgoing(rec events.DynamoDBEventRecord) (m notify.Message, ok bool, err error) {
	if rec.EventName != "INSERT" {
		return notify.Message{}, false, nil
	}
	pk, sk := rec.Change.Keys[attrPK], rec.Change.Keys[attrSK]
	if pk.DataType() != events.DataTypeString || sk.DataType() != events.DataTypeString ||
		!strings.HasPrefix(pk.String(), prefixOutgoing) || sk.String() != skOutgoing {
		return notify.Message{}, false, nil
	}
	id := strings.TrimPrefix(pk.String(), prefixOutgoing)
	item, err := streamItem(rec.Change.NewImage)
	if err == nil {
		err = attributevalue.UnmarshalMapWithOptions(item, &m, jsonNamesDecoding)
	}
	switch {
	case err != nil:
	case m.ID != id:
		err = fmt.Errorf("its ID %q is not its key's", m.ID)
	case m.To == "" || m.Body == "":
		err = errors.New("no recipient or body")
	case m.Channel != notify.ChannelEmail && m.Channel != notify.ChannelSMS && m.Channel != notify.ChannelOperator:
		err = fmt.Errorf("unknown channel %q", m.Channel)
	}
	if err != nil {
		return notify.Message{ID: id}, false, fmt.Errorf("outgoing message %s: %w", id, err)
	}
	return m, true, nil
}
