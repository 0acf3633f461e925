package lambdaenv

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/doorstep/doorstep/pkg/booking"
)

// NotifyConfig is what the notify function reads from its environment.
type NotifyConfig struct {
	Config // TABLE_NAME, SITE_URL (status_url is built on it), DYNAMODB_ENDPOINT
	// SenderEmail (SENDER_EMAIL, required) is the address e-mails come
	// from: an identity verified in SES.
	SenderEmail string
	// SMSOriginationIdentity (SMS_ORIGINATION_IDENTITY, optional) is the
	// phone number, sender ID or pool (ID or ARN) texts come from. Without
	// it texts are off: each one is logged as not sent.
	SMSOriginationIdentity string
	// PreviewInboxEmail (PREVIEW_INBOX_EMAIL, optional) gets every message
	// of a preview business instead of its real recipients. Without it
	// preview businesses notify nobody.
	PreviewInboxEmail string
	// ConfigurationSet (SES_CONFIGURATION_SET, optional) is the SES
	// configuration set every e-mail is sent through: the template's
	// MailConfigurationSet, whose event destination reports bounces and
	// complaints to the mail-events function.
	ConfigurationSet string
}

// configurationSetName is what SES takes as a configuration set's name.
var configurationSetName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// NotifyConfigFrom reads and checks the notify function's configuration.
func NotifyConfigFrom(getenv func(string) string) (NotifyConfig, error) {
	c, err := ConfigFrom(getenv)
	n := NotifyConfig{
		Config:                 c,
		SenderEmail:            strings.TrimSpace(getenv("SENDER_EMAIL")),
		SMSOriginationIdentity: strings.TrimSpace(getenv("SMS_ORIGINATION_IDENTITY")),
		PreviewInboxEmail:      strings.TrimSpace(getenv("PREVIEW_INBOX_EMAIL")),
		ConfigurationSet:       strings.TrimSpace(getenv("SES_CONFIGURATION_SET")),
	}
	errs := []error{err}
	if n.SenderEmail == "" {
		errs = append(errs, errors.New("SENDER_EMAIL is not set"))
	} else if _, ok := booking.NormalizeEmail(n.SenderEmail); !ok {
		errs = append(errs, fmt.Errorf("SENDER_EMAIL must be a bare e-mail address, got %q", n.SenderEmail))
	}
	if _, ok := booking.NormalizeEmail(n.PreviewInboxEmail); !ok {
		errs = append(errs, fmt.Errorf("PREVIEW_INBOX_EMAIL must be a bare e-mail address, got %q", n.PreviewInboxEmail))
	}
	if n.ConfigurationSet != "" && !configurationSetName.MatchString(n.ConfigurationSet) {
		errs = append(errs, fmt.Errorf("SES_CONFIGURATION_SET must be letters, digits, - and _ (at most 64), got %q", n.ConfigurationSet))
	}
	return n, errors.Join(errs...)
}
