// Package smstext sends notify's text messages through AWS End User
// Messaging SMS (pinpoint-sms-voice-v2, SendTextMessage) from one
// origination identity.
package smstext

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/pinpointsmsvoicev2"
	"github.com/aws/aws-sdk-go-v2/service/pinpointsmsvoicev2/types"

	"github.com/doorstep/doorstep/pkg/awsenv"
	"github.com/doorstep/doorstep/pkg/notify"
)

// Sender is a notify.SMSSender over End User Messaging SMS.
type Sender struct {
	client *pinpointsmsvoicev2.Client
	from   string
}

var _ notify.SMSSender = (*Sender)(nil)

// New returns a sender that texts from the origination identity from: a
// phone number, its ID or ARN, or a pool's (the template's
// SmsOriginationIdentity).
func New(client *pinpointsmsvoicev2.Client, from string) *Sender {
	return &Sender{client: client, from: from}
}

// SendText sends m to m.To as a transactional text: one SendTextMessage
// call. End User Messaging keeps the account's opt-out list itself: a
// number that replied STOP is refused with a ConflictException whose reason
// is DESTINATION_PHONE_NUMBER_OPTED_OUT, returned here as notify.ErrOptedOut.
func (s *Sender) SendText(ctx context.Context, m notify.Message) error {
	_, err := s.client.SendTextMessage(ctx, &pinpointsmsvoicev2.SendTextMessageInput{
		DestinationPhoneNumber: aws.String(m.To),
		OriginationIdentity:    aws.String(s.from),
		MessageBody:            aws.String(m.Body),
		MessageType:            types.MessageTypeTransactional,
	})
	var conflict *types.ConflictException
	if errors.As(err, &conflict) && conflict.Reason == types.ConflictExceptionReasonDestinationPhoneNumberOptedOut {
		return fmt.Errorf("sms: %w", notify.ErrOptedOut)
	}
	if err != nil {
		return fmt.Errorf("sms: send text: %w", err)
	}
	return nil
}

// EndpointVariable names the variable that points the client at another
// endpoint: the SDK's own name for this service's, which the SDK reads only
// through its config package, left out of the functions (see NewClient).
const EndpointVariable = "AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2"

// NewClient returns an End User Messaging SMS client configured from the
// environment as Lambda sets it, as dynamo.NewClient builds DynamoDB's:
// AWS_REGION (or AWS_DEFAULT_REGION, else us-east-1) and the role's
// credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// AWS_SESSION_TOKEN, without the SDK's config package and the clients it
// links. EndpointVariable, when set, points it at another endpoint (a
// test's stand-in), and without credentials it then signs with fake ones.
// Otherwise missing credentials are an error here, at start.
func NewClient(getenv func(string) string) (*pinpointsmsvoicev2.Client, error) {
	endpoint := getenv(EndpointVariable)
	cfg, err := awsenv.Config(getenv, "sms", endpoint != "")
	if err != nil {
		return nil, err
	}
	return pinpointsmsvoicev2.NewFromConfig(cfg, func(o *pinpointsmsvoicev2.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
}
