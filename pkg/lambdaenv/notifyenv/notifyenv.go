// Package notifyenv builds the notify function's senders from its
// environment: Amazon SES for e-mail and AWS End User Messaging SMS for
// texts. Only functions/notify imports it, so no other function links
// either client.
package notifyenv

import (
	"context"

	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/sesmail"
	"github.com/doorstep/doorstep/pkg/smstext"
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
