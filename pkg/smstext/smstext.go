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
	// sendTextMessage is the client's SendTextMessage as a method value,
	// not the client, as in pkg/sesmail: a Sender goes into an interface,
	// and in a binary that links html/template the linker then keeps every
	// exported method of every type a field of it names, which for
	// *pinpointsmsvoicev2.Client is all of its ~320 methods.
	sendTextMessage func(context.Context, *pinpointsmsvoicev2.SendTextMessageInput, ...func(*pinpointsmsvoicev2.Options)) (*pinpointsmsvoicev2.SendTextMessageOutput, error)
	from            string
}

var _ notify.SMSSender = (*Sender)(nil)

// New returns a sender that texts from the origination identity from: a
// phone number, its ID or ARN, or a pool's (the template's
// SmsOriginationIdentity).
func New(client *pinpointsmsvoicev2.Client, from string) *Sender {
	return &Sender{sendTextMessage: client.SendTextMessage, from: from}
}

// SendText sends m to m.To as a transactional text: one SendTextMessage
// call. End User Messaging keeps the account's opt-out list itself: a
// number that replied STOP is refused with a ConflictException whose reason
// is DESTINATION_PHONE_NUMBER_OPTED_OUT, returned here as notify.ErrOptedOut.
func (s *Sender) SendText(ctx context.Context, m notify.Message) error {
	_, err := s.sendTextMessage(ctx, &pinpointsmsvoicev2.SendTextMessageInput{
		DestinationPhoneNumber: aws.String(m.To),
		OriginationIdentity:    aws.String(s.from),
		MessageBody:            aws.String(m.Body),
		MessageType:            types.MessageTypeTransactional,
	})
	var conflict *types.ConflictException
	if errors.As(err, &conflict) && conflict.Reason == types.ConflictExceptionReasonDestinationPhoneNumberOptedOut {
		return fmt.Errorf("sms: %w", notify.ErrOptedOut)
	}
	return awsenv.CallError("sms: send text", err)
}

// EndpointVariable is the SDK's own variable for this service's endpoint
// (awsenv.EndpointVariable(pinpointsmsvoicev2.ServiceID)); AWS_ENDPOINT_URL
// points every client elsewhere (awsenv.Endpoint).
const EndpointVariable = "AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2"

// NewClient returns an End User Messaging SMS client configured from the
// environment as Lambda sets it, as dynamo.NewClient builds DynamoDB's:
// AWS_REGION (or AWS_DEFAULT_REGION, else us-east-1) and the role's
// credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// AWS_SESSION_TOKEN, without the SDK's config package and the clients it
// links. An endpoint the environment configures as the SDK's config package
// would read it (awsenv.Endpoint: EndpointVariable, else AWS_ENDPOINT_URL,
// unless AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true) points it elsewhere, such
// as a stand-in, and without credentials it then signs with fake ones.
// Otherwise missing credentials are an error here, at start. The client
// gets the API options ctx carries (awsenv.WithAPIOptions).
func NewClient(ctx context.Context, getenv func(string) string) (*pinpointsmsvoicev2.Client, error) {
	endpoint, err := awsenv.Endpoint(getenv, pinpointsmsvoicev2.ServiceID)
	if err != nil {
		return nil, fmt.Errorf("sms client: %w", err)
	}
	cfg, err := awsenv.Config(ctx, getenv, "sms", endpoint != "")
	if err != nil {
		return nil, err
	}
	return pinpointsmsvoicev2.NewFromConfig(cfg, func(o *pinpointsmsvoicev2.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
}
