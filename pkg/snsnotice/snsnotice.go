// Package snsnotice tells the operator what needs them
// (booking.OperatorNotices) by a message on the stack's operator topic
// (Amazon SNS, the template's OperatorTopic, to which the operator's
// e-mail is subscribed).
package snsnotice

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/doorstep/doorstep/pkg/awsenv"
	"github.com/doorstep/doorstep/pkg/booking"
)

// Notices publishes to one topic.
type Notices struct {
	// publish is the client's Publish as a method value, not the client
	// (see pkg/sesmail's Sender: the linker keeps what a field names).
	publish func(context.Context, *sns.PublishInput, ...func(*sns.Options)) (*sns.PublishOutput, error)
	topic   string
}

var _ booking.OperatorNotices = (*Notices)(nil)

// New returns the notices published to topic (an SNS topic ARN).
func New(client *sns.Client, topic string) *Notices {
	return &Notices{publish: client.Publish, topic: topic}
}

// AskApproval publishes that b asks to go live, with the command that
// approves it. The business's name is the owner's text: it is quoted as
// theirs, never part of the subject.
func (n *Notices) AskApproval(ctx context.Context, b *booking.Business) error {
	_, err := n.publish(ctx, &sns.PublishInput{
		TopicArn: aws.String(n.topic),
		Subject:  aws.String("Doorstep: " + b.Slug + " asks to go live"),
		Message:  aws.String(ApprovalText(b)),
	})
	if err != nil {
		return fmt.Errorf("sns: publish: %w", err)
	}
	return nil
}

// ApprovalText is the message of AskApproval.
func ApprovalText(b *booking.Business) string {
	return "The business " + b.Slug + " asks to go live; its checklist holds.\n\n" +
		"Its name, as its owner typed it: " + strconv.Quote(b.Name) + "\n" +
		"Its inbox e-mail: " + b.InboxEmail + "\n\n" +
		"To approve it:   ctl businesses approve " + b.Slug + "\n" +
		"Waiting for you: ctl businesses list --pending\n"
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
