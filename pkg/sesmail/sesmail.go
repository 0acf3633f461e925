// Package sesmail sends notify's e-mail messages through Amazon SES (API
// v2, SendEmail), as plain text from one verified sender identity, through
// the stack's configuration set (whose event destination reports bounces
// and complaints to the mail-events function).
//
// Every message says it is transactional: the header Auto-Submitted:
// auto-generated (RFC 3834: made by a program, not a person, so that
// auto-responders do not answer it) and a last line in its language. It
// has no tracking pixel (plain text; the configuration set tracks no opens
// or clicks) and no List-Unsubscribe (docs/deploy.md, "Sending e-mail").
package sesmail

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	"github.com/doorstep/doorstep/pkg/awsenv"
	"github.com/doorstep/doorstep/pkg/notify"
)

// Sender is a notify.EmailSender over SES.
type Sender struct {
	// sendEmail is the client's SendEmail as a method value, not the
	// client: a Sender goes into an interface, and in a binary that links
	// html/template (business-web) the linker then keeps every exported
	// method of every type a field of it names, which for *sesv2.Client
	// is all of SES's ~100 operations (see pkg/dynamo's ops).
	sendEmail func(context.Context, *sesv2.SendEmailInput, ...func(*sesv2.Options)) (*sesv2.SendEmailOutput, error)
	from      string
	// configurationSet is the SES configuration set every message uses
	// (lambdaenv's SES_CONFIGURATION_SET); "" none.
	configurationSet string
}

// RequestTag is the message tag that names the request a message to the
// person is about (pkg/mailevents reads it back from SES's events, so
// that an address's record goes with the last request that used it).
const RequestTag = "request"

// transactionalLine is each message's last line, by language.
var transactionalLine = map[string]string{
	"en": "This is an automatic, transactional message about a booking. Doorstep sends no newsletters or offers.",
	"es": "Este es un mensaje automático y transaccional sobre una reserva. Doorstep no envía boletines ni ofertas.",
}

// TransactionalLine is the line that ends every message in lang (en
// unless es).
func TransactionalLine(lang string) string {
	if l, ok := transactionalLine[lang]; ok {
		return l
	}
	return transactionalLine["en"]
}

var _ notify.EmailSender = (*Sender)(nil)

// New returns a sender that sends from the address from, an identity
// verified in SES (the template's SenderEmail), through the configuration
// set configurationSet ("" none).
func New(client *sesv2.Client, from, configurationSet string) *Sender {
	return &Sender{sendEmail: client.SendEmail, from: from, configurationSet: configurationSet}
}

// SendEmail sends m to m.To: one SendEmail call with a simple, plain-text
// message in UTF-8, its transactional line and header, through the
// configuration set, tagged with its request when it is to the person.
func (s *Sender) SendEmail(ctx context.Context, m notify.Message) error {
	utf8 := aws.String("UTF-8")
	body := strings.TrimRight(m.Body, "\n") + "\n\n-- \n" + TransactionalLine(m.Language) + "\n"
	in := &sesv2.SendEmailInput{
		FromEmailAddress: aws.String(s.from),
		Destination:      &types.Destination{ToAddresses: []string{m.To}},
		Content: &types.EmailContent{Simple: &types.Message{
			Subject: &types.Content{Data: aws.String(m.Subject), Charset: utf8},
			Body:    &types.Body{Text: &types.Content{Data: aws.String(body), Charset: utf8}},
			Headers: []types.MessageHeader{{Name: aws.String("Auto-Submitted"), Value: aws.String("auto-generated")}},
		}},
	}
	if s.configurationSet != "" {
		in.ConfigurationSetName = aws.String(s.configurationSet)
	}
	if code := requestOf(m); code != "" {
		in.EmailTags = []types.MessageTag{{Name: aws.String(RequestTag), Value: aws.String(code)}}
	}
	_, err := s.sendEmail(ctx, in)
	return awsenv.CallError("ses: send e-mail", err)
}

// tagValue is what SES takes as a message tag's value.
var tagValue = regexp.MustCompile(`^[A-Za-z0-9_.@-]{1,256}$`)

// requestOf is the code of the request a message to the person is about
// (its change's ID is the code, "#" and the event's index), "" for any
// other message: a business's inbox address is no request's to erase.
func requestOf(m notify.Message) string {
	if m.Audience != notify.AudiencePerson {
		return ""
	}
	code, _, _ := strings.Cut(m.Change, "#")
	if !tagValue.MatchString(code) {
		return ""
	}
	return code
}

// EndpointVariable is the SDK's own variable for SES v2's endpoint
// (awsenv.EndpointVariable(sesv2.ServiceID)); AWS_ENDPOINT_URL points every
// client elsewhere (awsenv.Endpoint).
const EndpointVariable = "AWS_ENDPOINT_URL_SESV2"

// NewClient returns an SES v2 client configured from the environment as
// Lambda sets it, as dynamo.NewClient builds DynamoDB's: AWS_REGION (or
// AWS_DEFAULT_REGION, else us-east-1) and the role's credentials in
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, without the
// SDK's config package and the clients it links. An endpoint the environment
// configures as the SDK's config package would read it (awsenv.Endpoint:
// EndpointVariable, else AWS_ENDPOINT_URL, unless
// AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true) points it elsewhere, such as a
// stand-in for SES, and without credentials it then signs with fake ones.
// Otherwise missing credentials are an error here, at start. The client
// gets the API options ctx carries (awsenv.WithAPIOptions).
func NewClient(ctx context.Context, getenv func(string) string) (*sesv2.Client, error) {
	endpoint, err := awsenv.Endpoint(getenv, sesv2.ServiceID)
	if err != nil {
		return nil, fmt.Errorf("ses client: %w", err)
	}
	cfg, err := awsenv.Config(ctx, getenv, "ses", endpoint != "")
	if err != nil {
		return nil, err
	}
	return sesv2.NewFromConfig(cfg, func(o *sesv2.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	}), nil
}
