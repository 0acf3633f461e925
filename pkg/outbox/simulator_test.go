package outbox_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/doorstep/doorstep/pkg/booking"
	"github.com/doorstep/doorstep/pkg/mailevents"
	"github.com/doorstep/doorstep/pkg/notify"
	"github.com/doorstep/doorstep/pkg/outbox"
)

// heard is a mailevents.Recorder that keeps what it is told.
type heard []booking.MailEvent

func (h *heard) RecordMailEvent(_ context.Context, ev booking.MailEvent) (booking.MailOutcome, error) {
	*h = append(*h, ev)
	return booking.MailOutcome{}, nil
}

// TestSimulator sends to each of SES's mailbox simulator addresses and
// hands the events the outbox publishes to the mail-events handler, as the
// local server does: each decodes as SES's own and says what SES would.
func TestSimulator(t *testing.T) {
	at := time.Date(2026, 11, 20, 15, 4, 0, 0, time.UTC)
	person := func(to string) notify.Message {
		return notify.Message{ID: "7K3M-Q9TD-2HXA#0/received/person/email", Change: "7K3M-Q9TD-2HXA#0", Kind: notify.KindReceived,
			Audience: notify.AudiencePerson, Channel: notify.ChannelEmail, To: to, Language: "en", Subject: "Request received", Body: "..."}
	}
	business := person("bounce@simulator.amazonses.com")
	business.Audience, business.ID = notify.AudienceBusiness, "7K3M-Q9TD-2HXA#0/received/business/email"
	text := person("bounce@simulator.amazonses.com")
	text.Channel = notify.ChannelSMS
	tests := []struct {
		name string
		m    notify.Message
		want []booking.MailEvent // nil: no event
	}{
		{"success", person("success@simulator.amazonses.com"), nil},
		{"out of the office", person("ooto@simulator.amazonses.com"), nil},
		{"an address elsewhere", person("bounce@example.com"), nil},
		{"a text", text, nil},
		{"bounce", person("bounce@simulator.amazonses.com"),
			[]booking.MailEvent{{Kind: booking.MailBounced, Email: "bounce@simulator.amazonses.com", At: at, RequestCode: "7K3M-Q9TD-2HXA"}}},
		{"bounce with a label, any case", person("Bounce+ana@Simulator.AmazonSES.com"),
			[]booking.MailEvent{{Kind: booking.MailBounced, Email: "Bounce+ana@Simulator.AmazonSES.com", At: at, RequestCode: "7K3M-Q9TD-2HXA"}}},
		{"complaint", person("complaint@simulator.amazonses.com"),
			[]booking.MailEvent{{Kind: booking.MailComplained, Email: "complaint@simulator.amazonses.com", At: at, RequestCode: "7K3M-Q9TD-2HXA"}}},
		{"suppression list", person("suppressionlist@simulator.amazonses.com"),
			[]booking.MailEvent{{Kind: booking.MailSuppressed, Email: "suppressionlist@simulator.amazonses.com", At: at, RequestCode: "7K3M-Q9TD-2HXA"}}},
		{"to the business: no request", business,
			[]booking.MailEvent{{Kind: booking.MailBounced, Email: "bounce@simulator.amazonses.com", At: at}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			log := slog.New(slog.NewJSONHandler(&logs, nil))
			var got heard
			h := lambda.NewHandler(mailevents.Handler(&got, nil, log))
			o := outbox.New(10, log)
			o.SimulateSES(func(ctx context.Context, event []byte) error {
				_, err := h.Invoke(ctx, event)
				return err
			}, func() time.Time { return at })
			send := o.SendEmail
			if tt.m.Channel == notify.ChannelSMS {
				send = o.SendText
			}
			if err := send(context.Background(), tt.m); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("heard %+v, want %+v\n%s", got, tt.want, logs.String())
			}
			for i := range got {
				if g, w := got[i], tt.want[i]; g.Kind != w.Kind || g.Email != w.Email || !g.At.Equal(w.At) || g.RequestCode != w.RequestCode {
					t.Errorf("heard %+v, want %+v", g, w)
				}
			}
		})
	}
}
