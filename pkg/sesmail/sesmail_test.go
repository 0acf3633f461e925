package sesmail_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/doorstep/doorstep/pkg/awsenv/awsenvtest"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/sesmail"
)

func sender(t *testing.T, endpoint string) *sesmail.Sender {
	t.Helper()
	env := map[string]string{sesmail.EndpointVariable: endpoint, "AWS_REGION": "us-west-2"}
	client, err := sesmail.NewClient(context.Background(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return sesmail.New(client, "notify@book.example.com", "doorstep-mail")
}

var message = notify.Message{
	ID: "7K3M-Q9TD-2HXA#1/confirmed/person/email", Change: "7K3M-Q9TD-2HXA#1", Kind: notify.KindConfirmed, Audience: notify.AudiencePerson,
	Channel: notify.ChannelEmail, To: "ana@example.com", Language: "es",
	Subject: "Confirmada: Lakeview Plumbing, lun 23 nov, 10:00-12:00 CST",
	Body:    "Hola, Ana Ruiz:\n\nLakeview Plumbing aceptó tu solicitud.\n",
}

func TestSendEmail(t *testing.T) {
	url, calls := awsenvtest.Endpoint(t, http.StatusOK, nil, `{"MessageId":"010001ef-0000-4e6f-8f3a-000000000000-000000"}`)
	if err := sender(t, url).SendEmail(context.Background(), message); err != nil {
		t.Fatal(err)
	}
	c := awsenvtest.Only(t, calls)
	if c.Method != http.MethodPost || c.Path != "/v2/email/outbound-emails" || c.ContentType != "application/json" {
		t.Errorf("got %s %s (%s), want POST /v2/email/outbound-emails (application/json): SendEmail", c.Method, c.Path, c.ContentType)
	}
	if !strings.Contains(c.Auth, "/us-west-2/ses/aws4_request") {
		t.Errorf("got Authorization %q, want SigV4 for ses in us-west-2", c.Auth)
	}
	want := map[string]any{
		"FromEmailAddress":     "notify@book.example.com",
		"Destination":          map[string]any{"ToAddresses": []any{"ana@example.com"}},
		"ConfigurationSetName": "doorstep-mail",
		"EmailTags":            []any{map[string]any{"Name": "request", "Value": "7K3M-Q9TD-2HXA"}},
		"Content": map[string]any{"Simple": map[string]any{
			"Subject": map[string]any{"Data": message.Subject, "Charset": "UTF-8"},
			"Body": map[string]any{"Text": map[string]any{"Data": message.Body + "\n-- \n" +
				"Este es un mensaje automático y transaccional sobre una reserva. Doorstep no envía boletines ni ofertas.\n", "Charset": "UTF-8"}},
			"Headers": []any{map[string]any{"Name": "Auto-Submitted", "Value": "auto-generated"}},
		}},
	}
	awsenvtest.CheckBody(t, c, want)
}

func TestSendEmailRejected(t *testing.T) {
	url, calls := awsenvtest.Endpoint(t, http.StatusBadRequest, map[string]string{"X-Amzn-ErrorType": "MessageRejected"},
		`{"message":"Email address is not verified. The following identities failed the check in region US-WEST-2: ana@example.com"}`)
	err := sender(t, url).SendEmail(context.Background(), message)
	if err == nil || !strings.Contains(err.Error(), "MessageRejected") {
		t.Fatalf("got %v, want the MessageRejected error", err)
	}
	if errors.Is(err, notify.ErrOptedOut) {
		t.Errorf("got %v as an opt-out, want a plain failure", err)
	}
	if n := len(calls()); n != 1 {
		t.Errorf("got %d calls, want 1: a rejected message is not retried by the SDK", n)
	}
}

var adapter = awsenvtest.Adapter[sesv2.Client]{
	Service: "SES", ServiceID: sesv2.ServiceID, Variable: sesmail.EndpointVariable,
	NewClient: func(getenv func(string) string) (*sesv2.Client, error) {
		return sesmail.NewClient(context.Background(), getenv)
	},
	BaseEndpoint: func(c *sesv2.Client) *string { return c.Options().BaseEndpoint },
	Send: func(c *sesv2.Client) error {
		return sesmail.New(c, "notify@book.example.com", "").SendEmail(context.Background(), message)
	},
	Header: nil, Answer: `{"MessageId":"010001ef-0000-4e6f-8f3a-000000000000-000000"}`,
}

func TestNewClient(t *testing.T) { awsenvtest.CheckNewClient(t, adapter) }

// TestNewClientEndpoint checks that a client built from an environment that
// configures an endpoint, as the SDK's config package reads it, sends there.
func TestNewClientEndpoint(t *testing.T) { awsenvtest.CheckEndpoints(t, adapter) }

// TestSendEmailToTheBusiness: a message to the business names no request
// (its inbox address is no person's to erase with a request), and without
// a configuration set none is named; English is the default line.
func TestSendEmailToTheBusiness(t *testing.T) {
	url, calls := awsenvtest.Endpoint(t, http.StatusOK, nil, `{"MessageId":"010001ef-0000-4e6f-8f3a-000000000001-000000"}`)
	env := map[string]string{sesmail.EndpointVariable: url, "AWS_REGION": "us-west-2"}
	client, err := sesmail.NewClient(context.Background(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	m := message
	m.Audience, m.Language, m.To = notify.AudienceBusiness, "", "office@example.com"
	if err := sesmail.New(client, "notify@book.example.com", "").SendEmail(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	c := awsenvtest.Only(t, calls)
	for _, absent := range []string{"EmailTags", "ConfigurationSetName"} {
		if _, ok := c.Body[absent]; ok {
			t.Errorf("body %v names %s, want none", c.Body, absent)
		}
	}
	text := c.Body["Content"].(map[string]any)["Simple"].(map[string]any)["Body"].(map[string]any)["Text"].(map[string]any)["Data"]
	if s, _ := text.(string); !strings.HasSuffix(s, "\n-- \nThis is an automatic, transactional message about a booking. Doorstep sends no newsletters or offers.\n") {
		t.Errorf("body text %q does not end with the English transactional line", text)
	}
}
