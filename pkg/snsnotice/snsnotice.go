// Package snsnotice publishes the operator's messages (notify's
// ChannelOperator, such as notify.ApprovalMessage) to the stack's operator
// topic (Amazon SNS, the template's OperatorTopic, to which the operator's
// e-mail is subscribed). The notify function links it: the web inbox
// writes such a message to the table (dynamo.Outgoing), and notify sends it
// from the stream, once, as every message.
package snsnotice

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/doorstep/doorstep/pkg/awsenv"
	"github.com/doorstep/doorstep/pkg/notify"
)

// Notices publishes to one topic.
type Notices struct {
	// publish is the client's Publish as a method value, not the client
	// (see pkg/sesmail's Sender: the linker keeps what a field names).
	publish func(context.Context, *sns.PublishInput, ...func(*sns.Options)) (*sns.PublishOutput, error)
	topic   string
}

var _ notify.OperatorSender = (*Notices)(nil)

// New returns the notices published to topic (an SNS topic ARN).
func New(client *sns.Client, topic string) *Notices {
	return &Notices{publish: client.Publish, topic: topic}
}

// SendOperator publishes m's subject and body to the topic.
func (n *Notices) SendOperator(ctx context.Context, m notify.Message) error {
	if m.Channel != notify.ChannelOperator {
		return fmt.Errorf("sns: message %s: channel %q, want %q", m.ID, m.Channel, notify.ChannelOperator)
	}
	_, err := n.publish(ctx, &sns.PublishInput{
		TopicArn: aws.String(n.topic),
		Subject:  aws.String(m.Subject),
		Message:  aws.String(m.Body),
	})
	if err != nil {
		return fmt.Errorf("sns: publish: %w", err)
	}
	return nil
}

// EndpointVariable is the SDK's own variable for SNS's endpoint
// (awsenv.EndpointVariable(sns.ServiceID)).
const EndpointVariable = "AWS_ENDPOINT_URL_SNS"

// NewClient returns an SNS client configured from the environment as
// Lambda sets it, as pkg/sesmail's NewClient builds SES's (an endpoint the
// environment configures points it elsewhere, with fake credentials when
// there are none). The client gets the API options ctx carries.
func NewClient(ctx context.Context, getenv func(string) string) (*sns.Client, error) {
	endpoint, err := awsenv.Endpoint(getenv, sns.ServiceID)
	if err != nil {
		return nil, fmt.Errorf("sns client: %w", err)
	}
	cfg, err := awsenv.Config(ctx, getenv, "sns", endpoint != "")
	if err != nil {
		return nil, err
	}
	return sns.NewFromConfig(cfg, func(o *sns.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
}
