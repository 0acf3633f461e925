// Package notifyenv builds the notify function's senders from its
// environment: Amazon SES for e-mail and AWS End User Messaging SMS for
// texts. Only functions/notify imports it, so no other function links
// either client.
package notifyenv

import (
	"github.com/doorstep/doorstep/pkg/lambdaenv"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/sesmail"
	"github.com/doorstep/doorstep/pkg/smstext"
)

// AWSSenders is the notify function's lambdaenv.Senders: e-mail from
// SENDER_EMAIL through SES, and texts from SMS_ORIGINATION_IDENTITY through
// End User Messaging SMS; without an origination identity texts are off (no
// SMS sender: the notifier logs each text it does not send).
func AWSSenders(getenv func(string) string) lambdaenv.Senders {
	return func(c lambdaenv.NotifyConfig) (notify.EmailSender, notify.SMSSender, error) {
		ses, err := sesmail.NewClient(getenv)
		if err != nil {
			return nil, nil, err
		}
		email := sesmail.New(ses, c.SenderEmail)
		if c.SMSOriginationIdentity == "" {
			return email, nil, nil
		}
		sms, err := smstext.NewClient(getenv)
		if err != nil {
			return nil, nil, err
		}
		return email, smstext.New(sms, c.SMSOriginationIdentity), nil
	}
}
