// Package notifyenv builds the notify function's senders from its
// environment: Amazon SES for e-mail, AWS End User Messaging SMS for
// texts and Amazon SNS for the operator's topic. Only functions/notify
// imports it, so no other function links these clients.
package notifyenv

import (
	"context"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/sesmail"
	"github.com/doorstep/doorstep/pkg/smstext"
	"github.com/doorstep/doorstep/pkg/snsnotice"
)

// Email is the e-mail sender: SES, from SENDER_EMAIL.
func Email(ctx context.Context, getenv func(string) string, c lambdaenv.NotifyConfig) (notify.EmailSender, error) {
	ses, err := sesmail.NewClient(ctx, getenv)
	if err != nil {
		return nil, err
	}
	return sesmail.New(ses, c.SenderEmail, c.ConfigurationSet), nil
}

// SMS is the text sender: End User Messaging SMS, from
// SMS_ORIGINATION_IDENTITY. Without an origination identity texts are off:
// it returns no sender, and the notifier logs each text it does not send.
func SMS(ctx context.Context, getenv func(string) string, c lambdaenv.NotifyConfig) (notify.SMSSender, error) {
	if c.SMSOriginationIdentity == "" {
		return nil, nil
	}
	sms, err := smstext.NewClient(ctx, getenv)
	if err != nil {
		return nil, err
	}
	return smstext.New(sms, c.SMSOriginationIdentity), nil
}

// Operator is the operator's topic's publisher: SNS, to OPERATOR_TOPIC_ARN
// (lambdaenv.ApprovalConfigFrom reads and checks it). Without a topic it
// returns no sender, and the notifier logs each operator's message instead.
func Operator(ctx context.Context, getenv func(string) string) (notify.OperatorSender, error) {
	c, err := lambdaenv.ApprovalConfigFrom(getenv)
	if err != nil || c.OperatorTopicARN == "" {
		return nil, err
	}
	client, err := snsnotice.NewClient(ctx, getenv)
	if err != nil {
		return nil, err
	}
	return snsnotice.New(client, c.OperatorTopicARN), nil
}
